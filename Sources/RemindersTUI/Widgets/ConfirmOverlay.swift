/// "Delete “Work” and its 12 reminders?" with Delete / Cancel; Cancel is
/// highlighted first, so Enter alone never deletes.
final class ConfirmOverlay: Overlay {
    let title: String
    let question: String
    let detail: String?
    let confirmLabel: String
    let onConfirm: (AppController) -> Void
    private(set) var confirmFocused = false

    init(title: String, question: String, detail: String? = nil, confirmLabel: String,
         onConfirm: @escaping (AppController) -> Void) {
        self.title = title
        self.question = question
        self.detail = detail
        self.confirmLabel = confirmLabel
        self.onConfirm = onConfirm
    }

    var contexts: [KeyContext] { [.confirm] }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .confirm:
            app.dismiss(self)
            onConfirm(app)
        case .dismiss:
            app.dismiss(self)
        case .nextChoice:
            confirmFocused.toggle()
        case .pick:
            app.dismiss(self)
            if confirmFocused { onConfirm(app) }
        default:
            return false
        }
        return true
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool { true }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let width = max(44, min(area.width - 4, DisplayWidth.of(question) + 6))
        let inside = drawDialog(&buffer, area: area, width: width, height: detail == nil ? 5 : 6, title: title, theme: theme)
        var row = inside.row
        buffer.draw(question, row: row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.title))
        row += 1
        if let detail {
            buffer.draw(detail, row: row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.dim))
            row += 1
        }
        row += 1
        let yes = " y \(confirmLabel) "
        let no = " n Cancel "
        let noWidth = DisplayWidth.of(no)
        let yesWidth = DisplayWidth.of(yes)
        let start = inside.right - noWidth - yesWidth - 2
        buffer.draw(yes, row: row, column: start, style: confirmFocused ? theme.focusedButton : theme.button)
        buffer.draw(no, row: row, column: start + yesWidth + 2, style: confirmFocused ? theme.button : theme.focusedButton)
    }
}

extension ConfirmOverlay {
    /// Asks before a form with changes is left. Confirming leaves `form`
    /// and anything opened on top of it, so the changes are dropped.
    static func discardChanges(to what: String, leaving form: ScreenController) -> ConfirmOverlay {
        ConfirmOverlay(title: "Discard changes", question: "Discard the changes to \(what)?",
                       confirmLabel: "Discard") { [weak form] app in
            guard let form else { return }
            app.pop(to: form)
            app.pop()
        }
    }

    /// Asks before completed reminders are deleted (a list's, or the
    /// search's matches).
    static func clearCompleted(_ question: String, detail: String, clear: @escaping (AppController) -> Void) -> ConfirmOverlay {
        ConfirmOverlay(title: "Clear completed", question: question, detail: detail, confirmLabel: "Delete", onConfirm: clear)
    }
}
