/// Multi-line text being edited (a reminder's notes), soft-wrapped at word
/// boundaries to the width it is drawn at.
struct TextArea: Equatable, Sendable {
    private(set) var lines: [[Character]]
    private(set) var line: Int
    private(set) var column: Int
    /// The first visual row shown; kept so the view does not jump.
    private(set) var scrollTop = 0
    /// The display column the cursor wants when moving up and down.
    private var preferredX: Int?

    init(_ text: String = "") {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0) }
        if lines.isEmpty { lines = [[]] }
        line = lines.count - 1
        column = lines[line].count
    }

    var text: String { lines.map { String($0) }.joined(separator: "\n") }

    mutating func insert(_ character: Character) {
        if character == "\n" || character == "\r\n" {
            newline()
            return
        }
        guard !character.unicodeScalars.contains(where: { TextSanitizer.classify($0, keepingMatchMarkers: false) != .keep }) else { return }
        lines[line].insert(character, at: column)
        column += 1
        preferredX = nil
    }

    mutating func newline() {
        let rest = Array(lines[line][column...])
        lines[line].removeSubrange(column...)
        lines.insert(rest, at: line + 1)
        line += 1
        column = 0
        preferredX = nil
    }

    /// Applies an editing action. Moving up from the first visual row or
    /// down from the last returns false, so the form can move to the
    /// previous or next field.
    @discardableResult
    mutating func apply(_ action: Action, width: Int) -> Bool {
        switch action {
        case .newline:
            newline()
            return true
        case .lineUp, .lineDown:
            return moveVertically(action == .lineUp ? -1 : 1, width: width)
        default:
            break
        }
        preferredX = nil
        switch action {
        case .cursorLeft:
            if column > 0 {
                column -= 1
            } else if line > 0 {
                line -= 1
                column = lines[line].count
            }
        case .cursorRight:
            if column < lines[line].count {
                column += 1
            } else if line + 1 < lines.count {
                line += 1
                column = 0
            }
        case .lineStart: column = 0
        case .lineEnd: column = lines[line].count
        case .deleteBackward:
            if column > 0 {
                lines[line].remove(at: column - 1)
                column -= 1
            } else if line > 0 {
                let current = lines.remove(at: line)
                line -= 1
                column = lines[line].count
                lines[line] += current
            }
        case .deleteForward:
            if column < lines[line].count {
                lines[line].remove(at: column)
            } else if line + 1 < lines.count {
                lines[line] += lines.remove(at: line + 1)
            }
        case .deleteToStart:
            lines[line].removeSubrange(0..<column)
            column = 0
        case .deleteToEnd:
            if column == lines[line].count, line + 1 < lines.count {
                lines[line] += lines.remove(at: line + 1)
            } else {
                lines[line].removeSubrange(column...)
            }
        case .deleteWord:
            var start = column
            while start > 0, lines[line][start - 1] == " " { start -= 1 }
            while start > 0, lines[line][start - 1] != " " { start -= 1 }
            lines[line].removeSubrange(start..<column)
            column = start
        default:
            return false
        }
        return true
    }

    /// A visual row: part of a logical line.
    struct VisualRow: Equatable {
        var line: Int
        var start: Int
        var end: Int
    }

    static func width(of character: Character) -> Int {
        DisplayWidth.of(TextSanitizer.line(String(character)))
    }

    /// The visual rows at `width` columns: each logical line broken after
    /// the last space that fits, or anywhere when a word is too long.
    func visualRows(width: Int) -> [VisualRow] {
        let width = max(1, width)
        var rows: [VisualRow] = []
        for (index, characters) in lines.enumerated() {
            var start = 0
            if characters.isEmpty {
                rows.append(VisualRow(line: index, start: 0, end: 0))
                continue
            }
            while start < characters.count {
                var used = 0
                var end = start
                var lastSpace: Int?
                while end < characters.count {
                    let w = Self.width(of: characters[end])
                    if used + w > width { break }
                    used += w
                    if characters[end] == " " { lastSpace = end }
                    end += 1
                }
                if end == start { end = start + 1 } // a glyph wider than the area
                if end < characters.count, let lastSpace, lastSpace >= start, lastSpace + 1 < end {
                    end = lastSpace + 1
                }
                rows.append(VisualRow(line: index, start: start, end: end))
                start = end
            }
            // A cursor after a line that exactly fills its last row goes on
            // that row's end, which `cursorPosition` handles.
        }
        return rows
    }

    /// The cursor's visual row and display column.
    func cursorPosition(rows: [VisualRow]) -> (row: Int, x: Int) {
        for (index, row) in rows.enumerated() where row.line == line {
            let isLastOfLine = index + 1 >= rows.count || rows[index + 1].line != line
            if column >= row.start, column < row.end || (isLastOfLine && column <= row.end) {
                let x = lines[line][row.start..<column].reduce(0) { $0 + Self.width(of: $1) }
                return (index, x)
            }
        }
        return (max(0, rows.count - 1), 0)
    }

    private mutating func moveVertically(_ delta: Int, width: Int) -> Bool {
        let rows = visualRows(width: width)
        let position = cursorPosition(rows: rows)
        let target = position.row + delta
        guard target >= 0, target < rows.count else { return false }
        let wanted = preferredX ?? position.x
        let row = rows[target]
        var x = 0
        var index = row.start
        let isLastOfLine = target + 1 >= rows.count || rows[target + 1].line != row.line
        let limit = isLastOfLine ? row.end : max(row.start, row.end - 1)
        while index < limit {
            let w = Self.width(of: lines[row.line][index])
            if x + w > wanted { break }
            x += w
            index += 1
        }
        line = row.line
        column = index
        preferredX = wanted
        return true
    }

    /// Keeps the cursor's row within `height` rows of `scrollTop`.
    mutating func scrollToCursor(width: Int, height: Int) {
        let rows = visualRows(width: width)
        let position = cursorPosition(rows: rows)
        if position.row < scrollTop { scrollTop = position.row }
        if position.row >= scrollTop + height { scrollTop = position.row - height + 1 }
        scrollTop = max(0, min(scrollTop, max(0, rows.count - height)))
    }

    /// Draws the text in `rect` from `scrollTop` when `focused`, putting the
    /// terminal cursor at the cursor; from its first line otherwise, so a
    /// field not being edited shows how its text begins.
    func draw(into buffer: inout CellBuffer, rect: Rect, style: Style, focused: Bool,
                     placeholder: String = "", placeholderStyle: Style = .plain) {
        let scrollTop = focused ? self.scrollTop : 0
        buffer.fill(rect, style: style)
        let rows = visualRows(width: rect.width)
        if lines.count == 1, lines[0].isEmpty, !placeholder.isEmpty {
            var dimmed = placeholderStyle
            dimmed.background = style.background
            buffer.draw(placeholder, row: rect.row, column: rect.column, maxWidth: rect.width, style: dimmed)
        }
        for offset in 0..<rect.height {
            let index = scrollTop + offset
            guard index < rows.count else { break }
            let row = rows[index]
            let text = String(lines[row.line][row.start..<row.end])
            buffer.draw(text, row: rect.row + offset, column: rect.column, maxWidth: rect.width, style: style)
        }
        if focused {
            let position = cursorPosition(rows: rows)
            let visible = position.row - scrollTop
            if visible >= 0, visible < rect.height {
                buffer.cursor = (rect.row + visible, rect.column + min(position.x, rect.width - 1))
            }
        }
    }
}
