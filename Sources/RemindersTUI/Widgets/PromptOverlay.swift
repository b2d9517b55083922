/// A one-line question with a text field: a new tag's name, a new name.
final class PromptOverlay: TextFieldOverlay {
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
        drawField(label: label, inside: inside, theme: theme, into: &buffer)
        drawNote(hint: "Enter OK · Esc cancel", row: inside.row + 2, inside: inside, theme: theme, into: &buffer)
    }
}
