/// A one-line text being edited: characters (grapheme clusters) and a
/// cursor between them. Keys reach it as key-table actions, so the help
/// overlay lists exactly what it does.
struct TextField: Equatable, Sendable {
    private(set) var characters: [Character]
    private(set) var cursor: Int

    init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String {
        get { String(characters) }
        set {
            characters = Array(newValue)
            cursor = characters.count
        }
    }

    var isEmpty: Bool { characters.isEmpty }

    /// Types a character at the cursor. New lines and other control
    /// characters are refused: this is one line.
    mutating func insert(_ character: Character) {
        guard !character.unicodeScalars.contains(where: { TextSanitizer.classify($0, keepingMatchMarkers: false) != .keep }) else { return }
        characters.insert(character, at: cursor)
        cursor += 1
    }

    mutating func insert(_ text: String) {
        for character in text { insert(character) }
    }

    /// Applies an editing action; false when the action is not an edit (the
    /// caller handles it).
    @discardableResult
    mutating func apply(_ action: Action) -> Bool {
        switch action {
        case .cursorLeft: cursor = max(0, cursor - 1)
        case .cursorRight: cursor = min(characters.count, cursor + 1)
        case .lineStart: cursor = 0
        case .lineEnd: cursor = characters.count
        case .deleteBackward:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .deleteForward:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .deleteToStart:
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .deleteToEnd:
            characters.removeSubrange(cursor...)
        case .deleteWord:
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    /// Draws the field `width` columns wide, scrolled so the cursor shows;
    /// when `focused`, puts the terminal cursor there.
    func draw(into buffer: inout CellBuffer, row: Int, column: Int, width: Int, style: Style,
                     focused: Bool, placeholder: String = "", placeholderStyle: Style = .plain) {
        guard width > 0 else { return }
        buffer.fill(Rect(row: row, column: column, width: width, height: 1), style: style)
        if characters.isEmpty, !placeholder.isEmpty {
            var dimmed = placeholderStyle
            dimmed.background = style.background
            buffer.draw(placeholder, row: row, column: column, maxWidth: width, style: dimmed)
        }
        let widths = characters.map { DisplayWidth.of(TextSanitizer.line(String($0))) }
        // The first visible character: everything before the cursor fits,
        // with a column to spare for the cursor itself.
        var start = 0
        var beforeCursor = widths[0..<cursor].reduce(0, +)
        while beforeCursor > width - 1, start < cursor {
            beforeCursor -= widths[start]
            start += 1
        }
        var used = 0
        var index = start
        while index < characters.count, used + widths[index] <= width {
            buffer.draw(String(characters[index]), row: row, column: column + used, maxWidth: widths[index], style: style)
            used += widths[index]
            index += 1
        }
        if focused {
            buffer.cursor = (row, column + beforeCursor)
        }
    }
}
