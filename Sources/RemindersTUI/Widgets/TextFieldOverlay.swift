/// A box around one text field (a prompt, the invite): typing goes to the
/// field and clears the error the last answer got.
protocol TextFieldOverlay: Overlay {
    var field: TextField { get set }
    var error: String? { get set }
}

extension TextFieldOverlay {
    func handleText(_ key: Key, app: AppController) -> Bool {
        type(key)
    }

    /// Types a printable key into the field; false for any other key.
    func type(_ key: Key) -> Bool {
        guard let character = key.typedCharacter else { return false }
        field.insert(character)
        error = nil
        return true
    }

    /// The field's label on the box's first row, the field on the second.
    func drawField(label: String, inside: Rect, theme: Theme, into buffer: inout CellBuffer) {
        buffer.draw(label, row: inside.row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.label))
        field.draw(into: &buffer, row: inside.row + 1, column: inside.column, width: inside.width, style: theme.focusedField,
                   focused: true)
    }

    /// On `row`, the error, else how to answer.
    func drawNote(hint: String, row: Int, inside: Rect, theme: Theme, into buffer: inout CellBuffer) {
        if let error {
            buffer.draw(error, row: row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.danger))
        } else {
            buffer.draw(hint, row: row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.dim))
        }
    }
}
