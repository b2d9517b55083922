import Foundation

/// Text made safe and measurable for a terminal. Titles, notes and tags may
/// come from another user through a shared list, so anything that could
/// move the cursor, change colours or reorder text is removed before it is
/// printed.
enum TerminalText {
    /// "1 save", "2 saves": a count and its noun, plural with an s.
    static func count(_ number: Int, _ noun: String) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(noun)s"
    }

    /// Removes control characters (C0, DEL, C1: ESC and CSI among them),
    /// bidirectional overrides and the search match markers; new lines and
    /// tabs become spaces so that a row stays one line.
    static func clean(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n", "\t", "\r":
                scalars.append(" ")
            case _ where isUnsafe(scalar):
                continue
            default:
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: return true  // bidi controls
        case 0xE000, 0xE001: return true  // Queries.matchStart / matchEnd
        default: return false
        }
    }

    /// Columns a string takes in a terminal: wide (East Asian, emoji) characters
    /// take two, combining marks none.
    static func width(_ text: String) -> Int {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { $0 + width($1) }
    }

    static func width(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains(where: { $0.value == 0xFE0F }) { return 2 }
        if first.properties.isEmojiPresentation || isWide(first.value) { return 2 }
        switch first.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return 1
        }
    }

    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Cuts text to at most `limit` columns, ending with "…" when cut.
    static func truncate(_ text: String, to limit: Int) -> String {
        guard width(text) > limit else { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = width(character)
            if used + w > limit - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// Text wrapped at spaces to lines of at most `columns` columns, the
    /// lines after the first indented by `indent` spaces (a word longer
    /// than a line stays whole on its own).
    static func wrap(_ text: String, to columns: Int, indent: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        var used = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let wordWidth = width(word)
            if used > 0, used + 1 + wordWidth > columns, !line.allSatisfy({ $0 == " " }) {
                lines.append(line)
                line = String(repeating: " ", count: indent) + word
                used = indent + wordWidth
            } else {
                line += (line.isEmpty ? "" : " ") + word
                used += (used == 0 ? 0 : 1) + wordWidth
            }
        }
        lines.append(line)
        return lines
    }

    /// Pads text with spaces to `columns` display columns.
    static func pad(_ text: String, to columns: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, columns - width(text)))
        return right ? padding + text : text + padding
    }
}

/// Aligned columns for human output: each column as wide as its widest
/// cell, two spaces between columns, columns empty in every row left out,
/// no trailing spaces.
struct TextTable {
    enum Alignment { case left, right }

    var alignments: [Alignment]
    var rows: [[String]] = []
    /// Per row, the end of a cell that a cut keeps (see `add`).
    private var keptEnds: [[Int: String]] = []

    init(_ alignments: [Alignment]) {
        self.alignments = alignments
    }

    /// Adds a row. Cells are cleaned for the terminal here, except those
    /// at the `cleaned` indexes, which the caller made safe (and may style).
    /// `keepingEnd`: for a cell that `render` may cut, the text at its end
    /// (cleaned already) that the cut leaves whole, such as a subtask's
    /// "(in Parent)": what is cut is what comes before it.
    mutating func add(_ cells: [String], cleaned: Set<Int> = [], keepingEnd: [Int: String] = [:]) {
        rows.append(cells.enumerated().map { cleaned.contains($0.offset) ? $0.element : TerminalText.clean($0.element) })
        keptEnds.append(keepingEnd)
    }

    /// The rows, columns aligned. With `width` (a terminal's), when the rows
    /// are wider than it, the `shrinking` column is narrowed to what the
    /// other columns leave (never below `minimumShrunk` columns) and every
    /// cell of it longer than that is cut, with an ellipsis; rows still too
    /// wide then wrap, as before. `aligningUpTo`: columns padded to at most
    /// so many columns; a longer cell goes out whole and pushes only its own
    /// row along (one long title does not widen every row).
    func render(width: Int? = nil, shrinking: Int? = nil, minimumShrunk: Int = 12, aligningUpTo caps: [Int: Int] = [:]) -> String {
        let count = alignments.count
        var rows = self.rows
        let used = (0..<count).filter { column in rows.contains { column < $0.count && !$0[column].isEmpty } }
        var widths = (0..<count).map { column in
            rows.map { column < $0.count ? TerminalText.width($0[column]) : 0 }.max() ?? 0
        }
        if let width, let shrinking, used.contains(shrinking) {
            let others = used.filter { $0 != shrinking }.reduce(0) { $0 + widths[$1] } + 2 * (used.count - 1)
            let room = max(minimumShrunk, width - others)
            if widths[shrinking] > room {
                widths[shrinking] = room
                for index in rows.indices where shrinking < rows[index].count {
                    rows[index][shrinking] = Self.cut(rows[index][shrinking], to: room, keeping: keptEnds[index][shrinking])
                }
            }
        }
        for (column, cap) in caps where column < count { widths[column] = min(widths[column], cap) }
        return rows.map { row -> String in
            used.map { column -> String in
                let cell = column < row.count ? row[column] : ""
                return TerminalText.pad(cell, to: widths[column], right: alignments[column] == .right)
            }
            .joined(separator: "  ")
            .trailingSpacesRemoved
        }
        .joined(separator: "\n")
    }

    /// `text` cut to `room` columns with an ellipsis, before `end` when it
    /// ends with it and a few columns are left for what comes before;
    /// else from the end, as any text.
    static func cut(_ text: String, to room: Int, keeping end: String?) -> String {
        guard TerminalText.width(text) > room else { return text }
        if let end, !end.isEmpty, text.hasSuffix(end) {
            let before = room - TerminalText.width(end)
            if before >= 6 {
                return TerminalText.truncate(String(text.dropLast(end.count)), to: before) + end
            }
        }
        return TerminalText.truncate(text, to: room)
    }
}

extension String {
    var trailingSpacesRemoved: String {
        var end = endIndex
        while end > startIndex, self[index(before: end)] == " " { end = index(before: end) }
        return String(self[..<end])
    }
}
