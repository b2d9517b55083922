/// A one-line question with a text field: a new tag's name, a new name.
final class PromptOverlay: Overlay {
    let title: String
    let label: String
    var field: TextField
    var error: String?
    /// Returns an error message to keep the prompt open, nil to close it.
    let onSubmit: (String, AppController) -> String?

    init(title: String, label: String, text: String = "", onSubmit: @escaping (String, AppController) -> String?) {
        self.title = title
        self.label = label
        field = TextField(text)
        self.onSubmit = onSubmit
    }

    var contexts: [KeyContext] { [.prompt, .textEntry] }

    func handleText(_ key: Key, app: AppController) -> Bool {
        guard let character = key.typedCharacter else { return false }
        field.insert(character)
        error = nil
        return true
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .confirm:
            if let message = onSubmit(field.text, app) {
                error = message
            } else {
                app.dismiss(self)
            }
        case .dismiss:
            app.dismiss(self)
        default:
            if field.apply(action) {
                error = nil
                return true
            }
            return false
        }
        return true
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let inside = drawDialog(&buffer, area: area, width: 56, height: 6, title: title, theme: theme)
        buffer.draw(label, row: inside.row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.label))
        field.draw(into: &buffer, row: inside.row + 1, column: inside.column, width: inside.width, style: theme.focusedField, focused: true)
        if let error {
            buffer.draw(error, row: inside.row + 2, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.danger))
        } else {
            buffer.draw("Enter OK · Esc cancel", row: inside.row + 2, column: inside.column, maxWidth: inside.width,
                        style: theme.onDialog(theme.dim))
        }
    }
}
