import RemindersCore
import RemindersViewModels

/// A reminder of a list shared read-only, shown to read: title, list, due
/// date, priority, flag, tags and the whole notes, scrolled with the arrows.
/// Only its tags can be changed: they are this user's own, kept in their
/// own zone (`RemindersStore.updateReminder` guards the reminder's fields,
/// not its tags); nothing else (the list's owner did not allow it).
final class ReminderPreviewOverlay: Overlay {
    private(set) var row: ReminderRow
    let sharedBy: String?
    private var scrollTop = 0

    init(row: ReminderRow, sharedBy: String?) {
        self.row = row
        self.sharedBy = sharedBy
    }

    var contexts: [KeyContext] { [.reminderPreview] }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .dismiss: app.dismiss(self)
        case .openPicker: pickTags(app)
        case .down: scrollTop += 1
        case .up: scrollTop = max(0, scrollTop - 1)
        case .quit: return false
        default: break
        }
        return true
    }

    /// The tag picker of the form, on this reminder's tags; each pick is
    /// saved at once, and shown here.
    private func pickTags(_ app: AppController) {
        let environment = app.environment
        let id = row.id
        let form: ReminderFormViewModel
        do {
            form = try ReminderFormViewModel(environment: environment, reminderID: id)
        } catch {
            app.showError("\(error)")
            return
        }
        app.present(TagPickerOverlay(viewModel: form) { [weak self, weak app] in
            let tags = form.tags
            do {
                try environment.store.updateReminder(id: id, ReminderChanges(tags: tags))
                self?.row.tags = tags
            } catch {
                app?.showError("\(error)")
            }
        })
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let width = min(area.width - 2, 72)
        let inner = max(10, width - 4)
        let reminder = row.reminder
        var lines: [[Span]] = []
        func field(_ label: String, _ value: String, _ style: Style? = nil) {
            lines.append([Span(label.padding(toLength: 10, withPad: " ", startingAt: 0), theme.onDialog(theme.dim)),
                          Span(value, theme.onDialog(style ?? theme.text))])
        }
        field("Title", TextSanitizer.line(reminder.title), theme.title)
        field("List", TextSanitizer.line(row.listTitle) + (sharedBy.map { " · shared by \($0), read-only" } ?? ""))
        if let due = reminder.dueDate {
            field("Due", DueDateText.format(due, clock: app.environment.clock), row.isPastDue ? theme.danger : nil)
        }
        if reminder.priority != .none { field("Priority", "\(reminder.priority.marks) \(reminder.priority.name)") }
        if reminder.isFlagged { field("Flag", "⚑ flagged") }
        if !row.tags.isEmpty { field("Tags", TextSanitizer.line(row.tags.map { "#" + $0 }.joined(separator: " "))) }
        if reminder.status != .incomplete { field("Status", "completed") }
        lines.append([])
        if reminder.notes.isEmpty {
            lines.append([Span("No notes.", theme.onDialog(theme.dim))])
        } else {
            for line in DisplayWidth.wrap(reminder.notes, width: inner, maxLines: 500) {
                lines.append([Span(line, theme.onDialog(theme.text))])
            }
        }
        let height = min(area.height, lines.count + 4)
        let inside = drawDialog(&buffer, area: area, width: width, height: height, title: "Reminder (read-only)", theme: theme)
        let visible = max(1, inside.height - 1)
        scrollTop = max(0, min(scrollTop, lines.count - visible))
        for offset in 0..<visible where scrollTop + offset < lines.count {
            buffer.draw(lines[scrollTop + offset], row: inside.row + offset, column: inside.column, maxWidth: inside.width)
        }
        let close = app.keyMap.key(for: .dismiss, in: contexts) ?? "Esc"
        let tags = app.keyMap.key(for: .openPicker, in: contexts).map { "\($0) your tags · " } ?? ""
        let footer = (lines.count > visible ? "↑↓ scroll · " : "") + tags + "\(close) close"
        buffer.draw(footer, row: inside.bottom - 1, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.dim))
    }
}
