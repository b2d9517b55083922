/// The layout the list and reminder forms share: a column of labels, the
/// fields to their right, under a field a line for its error or a hint,
/// and which field each drawn row belongs to, for the mouse. Each piece
/// draws on `row` and moves it down past what it drew.
struct FormLayout<Field: Hashable> {
    let area: Rect
    let focus: Field
    let theme: Theme
    let labelColumn: Int
    let fieldColumn: Int
    /// Fields grow with the terminal up to the form's widest.
    let fieldWidth: Int
    var row: Int
    /// The field of each row a label or a field was drawn on.
    private(set) var fieldRows: [Int: Field] = [:]

    /// Labels are cut to this many columns.
    static var labelWidth: Int { 11 }

    init(area: Rect, maxFieldWidth: Int, focus: Field, theme: Theme) {
        self.area = area
        self.focus = focus
        self.theme = theme
        labelColumn = area.column + 2
        fieldColumn = labelColumn + Self.labelWidth + 1
        fieldWidth = max(20, min(area.width - 16, maxFieldWidth))
        row = area.row + 1
    }

    /// The style of a field's input, brighter with the focus.
    func fieldStyle(_ field: Field) -> Style {
        focus == field ? theme.focusedField : theme.field
    }

    /// A field's label on the current row, which becomes the field's.
    mutating func label(_ text: String, _ field: Field, into buffer: inout CellBuffer) {
        buffer.draw(text, row: row, column: labelColumn, maxWidth: Self.labelWidth,
                    style: focus == field ? theme.focusedLabel : theme.label)
        fieldRows[row] = field
    }

    /// Makes a click on `row` focus `field` (a field taller than its label).
    mutating func claim(row: Int, for field: Field) {
        fieldRows[row] = field
    }

    /// A labelled one-line text field, then the line for its error.
    mutating func textField(_ label: String, _ text: TextField, _ field: Field, placeholder: String, error: String?,
                            into buffer: inout CellBuffer) {
        self.label(label, field, into: &buffer)
        text.draw(into: &buffer, row: row, column: fieldColumn, width: fieldWidth, style: fieldStyle(field),
                  focused: focus == field, placeholder: placeholder, placeholderStyle: theme.dim)
        row += 1
        note(error, into: &buffer)
        row += 1
    }

    /// The line under a field: its error, else the hint, if any.
    func note(_ error: String?, hint: String = "", into buffer: inout CellBuffer) {
        if let error {
            buffer.draw("⚠ " + error, row: row, column: fieldColumn, maxWidth: fieldWidth, style: theme.danger)
        } else if !hint.isEmpty {
            buffer.draw(hint, row: row, column: fieldColumn, maxWidth: fieldWidth, style: theme.dim)
        }
    }

    /// Why the form could not be saved, across the form on `row`.
    func saveError(_ message: String?, row: Int, into buffer: inout CellBuffer) {
        guard let message else { return }
        buffer.draw("⚠ " + message, row: row, column: labelColumn, maxWidth: area.width - 4, style: theme.danger)
    }
}
