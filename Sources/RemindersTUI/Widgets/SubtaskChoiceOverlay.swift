/// Ticking a reminder that has open subtasks asks first: complete them
/// too, only the reminder, or nothing.
final class SubtaskChoiceOverlay: Overlay {
    let title: String
    let openSubtasks: Int
    /// Called with whether the subtasks complete too.
    let onChoice: (Bool, AppController) -> Void

    init(title: String, openSubtasks: Int, onChoice: @escaping (Bool, AppController) -> Void) {
        self.title = title
        self.openSubtasks = openSubtasks
        self.onChoice = onChoice
    }

    var contexts: [KeyContext] { [.subtaskChoice] }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .completeWithSubtasks, .completeAlone:
            app.dismiss(self)
            onChoice(action == .completeWithSubtasks, app)
        case .dismiss:
            app.dismiss(self)
        case .quit:
            return false
        default:
            break
        }
        return true
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let question = openSubtasks == 1
            ? "“\(title)” has 1 open subtask. Complete it too?"
            : "“\(title)” has \(openSubtasks) open subtasks. Complete them too?"
        let all = " \(app.keyMap.key(for: .completeWithSubtasks, in: contexts) ?? "y") Complete all "
        let alone = " \(app.keyMap.key(for: .completeAlone, in: contexts) ?? "n") Only this one "
        let cancel = " \(app.keyMap.key(for: .dismiss, in: contexts) ?? "Esc") Cancel "
        let buttons = DisplayWidth.of(all) + DisplayWidth.of(alone) + DisplayWidth.of(cancel) + 4
        let width = max(buttons + 4, min(area.width - 4, DisplayWidth.of(question) + 6))
        let inside = drawDialog(&buffer, area: area, width: width, height: 5, title: "Complete", theme: theme)
        buffer.draw(TextSanitizer.line(question), row: inside.row, column: inside.column, maxWidth: inside.width,
                    style: theme.onDialog(theme.title))
        var column = max(inside.column, inside.right - buttons)
        let row = inside.row + 2
        column += buffer.draw(all, row: row, column: column, style: theme.focusedButton) + 2
        column += buffer.draw(alone, row: row, column: column, style: theme.button) + 2
        buffer.draw(cancel, row: row, column: column, maxWidth: max(0, inside.right - column), style: theme.button)
    }
}
