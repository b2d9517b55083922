/// Writes iCalendar text: CRLF line ends, lines folded at 75 octets
/// (never inside a UTF-8 sequence), parameter values quoted when they hold
/// `;`, `:` or `,`, and RFC 6868's caret encoding for quotes and new lines.
public enum ICalWriter {
    public static let lineLimit = 75

    /// A component and everything in it.
    public static func write(_ component: ICalComponent) -> String {
        var out: [UInt8] = []
        write(component, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends a component's text to `out`.
    public static func write(_ component: ICalComponent, into out: inout [UInt8]) {
        appendFolded("BEGIN:" + component.name, into: &out)
        for property in component.properties { appendFolded(line(property), into: &out) }
        for child in component.components { write(child, into: &out) }
        appendFolded("END:" + component.name, into: &out)
    }

    /// A property's content line, unfolded.
    public static func line(_ property: ICalProperty) -> String {
        var text = property.name
        for parameter in property.parameters {
            text += ";" + parameter.name + "="
            text += parameter.values.map(parameterValue).joined(separator: ",")
        }
        return text + ":" + property.value
    }

    private static func parameterValue(_ value: String) -> String {
        var encoded = ""
        for character in value {
            switch character {
            case "^": encoded += "^^"
            case "\n", "\r\n": encoded += "^n"
            case "\"": encoded += "^'"
            default: encoded.append(character)
            }
        }
        return encoded.contains(where: { $0 == ";" || $0 == ":" || $0 == "," }) ? "\"" + encoded + "\"" : encoded
    }

    /// Appends `line` folded: at most 75 octets per physical line, the
    /// continuation lines starting with a space, each ending in CRLF.
    public static func appendFolded(_ line: String, into out: inout [UInt8]) {
        var utf8 = Array(line.utf8)
        var start = 0
        var limit = lineLimit
        if utf8.count <= limit {
            out.append(contentsOf: utf8)
            out.append(contentsOf: [0x0D, 0x0A])
            return
        }
        while start < utf8.count {
            var stop = min(start + limit, utf8.count)
            // Back up to the start of a UTF-8 sequence.
            while stop < utf8.count, stop > start + 1, utf8[stop] & 0xC0 == 0x80 { stop -= 1 }
            if start > 0 { out.append(0x20) }
            out.append(contentsOf: utf8[start..<stop])
            out.append(contentsOf: [0x0D, 0x0A])
            start = stop
            limit = lineLimit - 1
        }
        utf8.removeAll()
    }
}

/// TEXT values (RFC 5545 3.3.11): backslash escapes for `\`, `;`, `,` and
/// new lines.
public enum ICalText {
    public static func escape(_ text: String) -> String {
        guard text.contains(where: { $0 == "\\" || $0 == ";" || $0 == "," || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return text
        }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n", "\r\n", "\r": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// Reads a TEXT value. An unknown escape keeps the character after the
    /// backslash (`\:` is `:`), as readers commonly do.
    public static func unescape(_ value: String) -> String {
        guard value.contains("\\") else { return value }
        var result = ""
        var iterator = value.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else { result.append(character); continue }
            switch iterator.next() {
            case "n", "N": result.append("\n")
            case let other?: result.append(other)
            case nil: result.append("\\")
            }
        }
        return result
    }

    /// A list of TEXT values separated by unescaped commas (CATEGORIES).
    public static func list(_ value: String) -> [String] {
        var items: [String] = []
        var current = ""
        var escaped = false
        for character in value {
            if escaped {
                current.append("\\")
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," {
                items.append(unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        items.append(unescape(current))
        return items
    }
}
