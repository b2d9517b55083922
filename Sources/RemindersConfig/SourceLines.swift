import Foundation

/// The line of each key in a TOML text. TOMLKit gives positions for parse
/// errors only, so the lines of values (for "line 12: unknown action") are
/// found here by reading the text as TOML lays it out: `[table]` headers,
/// then `key = value` lines, dotted and quoted keys included. Multi-line
/// arrays, inline tables and strings are stepped over.
struct SourceLines {
    private var lines: [[String]: Int] = [:]

    init(_ text: String) {
        var table: [String] = []
        var skipping: Skip?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if let skip = skipping {
                skipping = skip.continues(after: line)
                continue
            }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                let inner = line.hasPrefix("[[") ? line.dropFirst(2) : line.dropFirst()
                guard let close = inner.firstIndex(of: "]") else { continue }
                table = Self.keyPath(String(inner[..<close]))
                if lines[table] == nil { lines[table] = number }
                continue
            }
            guard let equals = Self.assignment(in: line) else { continue }
            let path = table + Self.keyPath(String(line[..<equals]))
            if lines[path] == nil { lines[path] = number }
            skipping = Skip.after(value: String(line[line.index(after: equals)...]))
        }
    }

    /// The line of a key, or of the closest table or key that holds it (a
    /// key inside an inline table is on its parent's line).
    func line(of path: [String]) -> Int? {
        var path = path
        while !path.isEmpty {
            if let line = lines[path] { return line }
            path.removeLast()
        }
        return nil
    }

    /// The `=` of a `key = value` line, outside quotes.
    private static func assignment(in line: String) -> String.Index? {
        var quote: Character?
        for index in line.indices {
            let character = line[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "=" {
                return index
            }
        }
        return nil
    }

    /// `a."b.c".d` as ["a", "b.c", "d"].
    static func keyPath(_ text: String) -> [String] {
        var parts: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "." {
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current.trimmingCharacters(in: .whitespaces))
        return parts
    }

    /// A value that goes on past its line: a multi-line string, or an array
    /// or inline table whose brackets are still open.
    private enum Skip {
        case string(String)
        case brackets(Int)

        static func after(value: String) -> Skip? {
            let value = value.trimmingCharacters(in: .whitespaces)
            for delimiter in ["\"\"\"", "'''"] where value.hasPrefix(delimiter) {
                return value.dropFirst(3).contains(delimiter) ? nil : .string(delimiter)
            }
            let depth = depth(of: value)
            return depth > 0 ? .brackets(depth) : nil
        }

        func continues(after line: String) -> Skip? {
            switch self {
            case .string(let delimiter):
                return line.contains(delimiter) ? nil : self
            case .brackets(let open):
                let depth = open + Self.depth(of: line)
                return depth > 0 ? .brackets(depth) : nil
            }
        }

        /// Brackets opened minus closed, outside strings and comments.
        static func depth(of text: String) -> Int {
            var depth = 0
            var quote: Character?
            for character in text {
                if let open = quote {
                    if character == open { quote = nil }
                    continue
                }
                switch character {
                case "\"", "'": quote = character
                case "[", "{": depth += 1
                case "]", "}": depth -= 1
                case "#": return depth
                default: break
                }
            }
            return depth
        }
    }
}
