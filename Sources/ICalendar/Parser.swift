/// Reads iCalendar text strictly: every line a property or a BEGIN/END,
/// components closed in order, UTF-8 throughout, no control characters in
/// values but tabs. The first problem ends the read with an `ICalError`
/// naming its line; nothing is guessed.
///
/// Lenient only where producers commonly differ and the meaning is
/// certain: LF line ends as well as CRLF, blank lines, a byte-order mark,
/// lines folded in the middle of a UTF-8 sequence (folding counts octets).
public enum ICalParser {
    /// Components nest at most this deep (VCALENDAR > VTODO > VALARM is 3).
    public static let maximumDepth = 8

    /// The top-level components of `bytes`, each checked to be named
    /// `topLevel` when it is given (an iCalendar stream is one or more
    /// VCALENDAR objects).
    public static func parse(_ bytes: [UInt8], topLevel: String? = "VCALENDAR") throws(ICalError) -> [ICalComponent] {
        // An image or an archive is named as such, not by the first byte
        // that breaks a line's rules (a carriage return, say).
        if let topLevel, bytes.prefix(512).contains(0) {
            throw ICalError(line: 1, "not iCalendar: it holds binary data, not text starting with BEGIN:\(topLevel)")
        }
        var reader = Reader(bytes: bytes)
        var roots: [ICalComponent] = []
        var stack: [ICalComponent] = []
        var first = true
        while let (number, line) = try reader.nextLogicalLine() {
            if first, let topLevel {
                let expected = Array("BEGIN:\(topLevel)".utf8)
                guard line.count == expected.count,
                      zip(line, expected).allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0) == $1 }) else {
                    throw ICalError(line: number, "not iCalendar: it does not start with BEGIN:\(topLevel)")
                }
            }
            first = false
            let property = try parseLine(line, number: number)
            switch property.name {
            case "BEGIN":
                let name = property.value.uppercased()
                guard isName(name.utf8) else { throw ICalError(line: number, "BEGIN:\(clip(property.value)) is not a component name") }
                if stack.isEmpty, let topLevel, name != topLevel {
                    throw ICalError(line: number, roots.isEmpty && number <= 1
                                    ? "not iCalendar: it starts with BEGIN:\(clip(name)), not BEGIN:\(topLevel)"
                                    : "BEGIN:\(clip(name)) outside BEGIN:\(topLevel)")
                }
                guard stack.count < maximumDepth else {
                    throw ICalError(line: number, "components nest deeper than \(maximumDepth) levels")
                }
                stack.append(ICalComponent(name, line: number))
            case "END":
                let name = property.value.uppercased()
                guard let open = stack.popLast() else {
                    throw ICalError(line: number, "END:\(clip(name)) without a BEGIN")
                }
                guard open.name == name else {
                    throw ICalError(line: number, "END:\(clip(name)) where END:\(open.name) (begun on line \(open.line)) was expected")
                }
                if stack.isEmpty {
                    roots.append(open)
                } else {
                    stack[stack.count - 1].components.append(open)
                }
            default:
                guard !stack.isEmpty else {
                    if roots.isEmpty, number <= 1, let topLevel {
                        throw ICalError(line: number, "not iCalendar: it does not start with BEGIN:\(topLevel)")
                    }
                    throw ICalError(line: number, "\(clip(property.name)) outside any component")
                }
                stack[stack.count - 1].properties.append(property)
            }
        }
        if let open = stack.last {
            throw ICalError(line: open.line, "BEGIN:\(open.name) is never ended")
        }
        return roots
    }

    /// Parses one unfolded content line: `name *(";" param) ":" value`.
    static func parseLine(_ line: ArraySlice<UInt8>, number: Int) throws(ICalError) -> ICalProperty {
        var index = line.startIndex
        let end = line.endIndex
        func readName() throws(ICalError) -> String {
            let start = index
            while index < end, isNameByte(line[index]) { index += 1 }
            guard index > start else {
                if start < end, line[start] == UInt8(ascii: "<") || line[start] == UInt8(ascii: "{") {
                    throw ICalError(line: number, "not iCalendar text (it looks like markup or JSON)")
                }
                throw ICalError(line: number, "expected a property name, found \(describe(line, at: start))")
            }
            return asciiUpper(line[start..<index])
        }
        let name = try readName()
        var parameters: [ICalParameter] = []
        while index < end, line[index] == UInt8(ascii: ";") {
            index += 1
            let parameterName = try readName()
            guard index < end, line[index] == UInt8(ascii: "=") else {
                throw ICalError(line: number, "parameter \(parameterName) of \(name) has no '=value'")
            }
            index += 1
            var values: [String] = []
            while true {
                if index < end, line[index] == UInt8(ascii: "\"") {
                    index += 1
                    let start = index
                    while index < end, line[index] != UInt8(ascii: "\"") {
                        guard !isControl(line[index]) || line[index] == 0x09 else {
                            throw ICalError(line: number, "a control character in parameter \(parameterName) of \(name)")
                        }
                        index += 1
                    }
                    guard index < end else {
                        throw ICalError(line: number, "parameter \(parameterName) of \(name) has an unclosed quote")
                    }
                    values.append(try decodeParameter(line[start..<index], number: number))
                    index += 1
                } else {
                    let start = index
                    while index < end {
                        let byte = line[index]
                        if byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") { break }
                        guard byte != UInt8(ascii: "\""), !isControl(byte) || byte == 0x09 else {
                            throw ICalError(line: number, "parameter \(parameterName) of \(name) holds \(describe(line, at: index))")
                        }
                        index += 1
                    }
                    values.append(try decodeParameter(line[start..<index], number: number))
                }
                guard index < end, line[index] == UInt8(ascii: ",") else { break }
                index += 1
            }
            parameters.append(ICalParameter(name: parameterName, values: values))
        }
        guard index < end, line[index] == UInt8(ascii: ":") else {
            throw ICalError(line: number, index < end
                            ? "expected ':' after \(name), found \(describe(line, at: index))"
                            : "\(name) has no ':' and no value")
        }
        index += 1
        let valueBytes = line[index..<end]
        for byte in valueBytes where isControl(byte) && byte != 0x09 {
            throw ICalError(line: number, "a control character (0x\(hex(byte))) in the value of \(name)")
        }
        guard let value = String(validating: valueBytes, as: UTF8.self) else {
            throw ICalError(line: number, "the value of \(name) is not UTF-8 text")
        }
        return ICalProperty(name, value, parameters: parameters, line: number)
    }

    /// A parameter value: UTF-8, with RFC 6868's ^n, ^' and ^^ decoded.
    private static func decodeParameter(_ bytes: ArraySlice<UInt8>, number: Int) throws(ICalError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ICalError(line: number, "a parameter value is not UTF-8 text")
        }
        guard text.contains("^") else { return text }
        var result = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "^" else { result.append(character); continue }
            switch iterator.next() {
            case "n": result.append("\n")
            case "'": result.append("\"")
            case "^": result.append("^")
            case let other?: result.append("^"); result.append(other)
            case nil: result.append("^")
            }
        }
        return result
    }

    static func isName<S: Sequence>(_ bytes: S) -> Bool where S.Element == UInt8 {
        var any = false
        for byte in bytes {
            guard isNameByte(byte) else { return false }
            any = true
        }
        return any
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
    }

    private static func isControl(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x7F }

    private static func asciiUpper(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    private static func describe(_ line: ArraySlice<UInt8>, at index: Int) -> String {
        guard index < line.endIndex else { return "the end of the line" }
        let byte = line[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(byte))"
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    /// At most 40 characters of text from the file, for a message.
    public static func clip(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }

    /// Splits bytes into logical lines: physical lines end at LF (a CR
    /// before it is dropped), and a line starting with a space or tab
    /// continues the one before.
    struct Reader {
        let bytes: [UInt8]
        var index = 0
        var physicalLine = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        /// The next physical line, without its line end.
        private mutating func nextPhysical() throws(ICalError) -> ArraySlice<UInt8>? {
            guard index < bytes.count else { return nil }
            physicalLine += 1
            let start = index
            var stop = start
            while stop < bytes.count, bytes[stop] != 0x0A { stop += 1 }
            index = stop + 1
            var contentEnd = stop
            if contentEnd > start, bytes[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            let line = bytes[start..<contentEnd]
            if line.contains(0x0D) {
                throw ICalError(line: physicalLine, "a carriage return inside a line (lines end with CRLF or LF)")
            }
            return line
        }

        private var pending: (Int, ArraySlice<UInt8>)?

        /// The next logical line and the physical line it starts on.
        mutating func nextLogicalLine() throws(ICalError) -> (Int, ArraySlice<UInt8>)? {
            var current: (Int, [UInt8])?
            if let (number, line) = pending {
                pending = nil
                current = (number, Array(line))
            }
            while let line = try nextPhysical() {
                if let first = line.first, first == 0x20 || first == 0x09 {
                    guard current != nil else {
                        throw ICalError(line: physicalLine, "a continuation line with no line before it")
                    }
                    current!.1.append(contentsOf: line.dropFirst())
                    continue
                }
                if line.isEmpty { continue }
                if let done = current {
                    pending = (physicalLine, line)
                    return (done.0, done.1[...])
                }
                current = (physicalLine, Array(line))
            }
            return current.map { ($0.0, $0.1[...]) }
        }
    }
}
