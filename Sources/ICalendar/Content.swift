/// iCalendar content (RFC 5545 section 3): components made of properties,
/// each a name, parameters and a value, read from and written to text.
///
/// This module knows the format only: lines, escaping, parameters and the
/// value types the app reads (TEXT, DATE, DATE-TIME, DURATION). What a
/// VTODO means to the app is `RemindersCore`'s business.

/// A property: `NAME;PARAM=value:value`.
public struct ICalProperty: Hashable, Sendable {
    /// Upper case, as names are case-insensitive.
    public var name: String
    public var parameters: [ICalParameter]
    /// The value as written, escapes included (`ICalText` reads TEXT).
    public var value: String
    /// The line the property started on in its source, 0 when built here.
    public var line: Int

    public init(_ name: String, _ value: String, parameters: [ICalParameter] = [], line: Int = 0) {
        self.name = name.uppercased()
        self.value = value
        self.parameters = parameters
        self.line = line
    }

    /// A TEXT property, its value escaped.
    public static func text(_ name: String, _ text: String, parameters: [ICalParameter] = []) -> ICalProperty {
        ICalProperty(name, ICalText.escape(text), parameters: parameters)
    }

    /// The first value of parameter `name`, if given.
    public func parameter(_ name: String) -> String? {
        let upper = name.uppercased()
        return parameters.first { $0.name == upper }?.values.first
    }

    /// The value read as TEXT.
    public var text: String { ICalText.unescape(value) }

    /// The same property without its source line, for comparing content.
    public var content: ICalProperty {
        var copy = self
        copy.line = 0
        return copy
    }
}

/// A parameter: `NAME=value` or `NAME=a,b`, values unquoted and decoded.
public struct ICalParameter: Hashable, Sendable {
    public var name: String
    public var values: [String]

    public init(_ name: String, _ values: String...) {
        self.name = name.uppercased()
        self.values = values
    }

    public init(name: String, values: [String]) {
        self.name = name.uppercased()
        self.values = values
    }
}

/// A component: `BEGIN:NAME`, properties, sub-components, `END:NAME`.
public struct ICalComponent: Hashable, Sendable {
    public var name: String
    public var properties: [ICalProperty]
    public var components: [ICalComponent]
    /// The line of its BEGIN in its source, 0 when built here.
    public var line: Int

    public init(_ name: String, properties: [ICalProperty] = [], components: [ICalComponent] = [], line: Int = 0) {
        self.name = name.uppercased()
        self.properties = properties
        self.components = components
        self.line = line
    }

    /// The first property named `name`.
    public func property(_ name: String) -> ICalProperty? {
        let upper = name.uppercased()
        return properties.first { $0.name == upper }
    }

    /// Every property named `name`, in order.
    public func properties(_ name: String) -> [ICalProperty] {
        let upper = name.uppercased()
        return properties.filter { $0.name == upper }
    }

    /// The component as text, CRLF line ends, long lines folded.
    public var text: String { ICalWriter.write(self) }
}

/// A problem in iCalendar text: the line it was found on (1-based; 0 when
/// it concerns the whole text) and what is wrong, in words.
public struct ICalError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
