import RemindersCore
import RemindersViewModels

/// The box `!` opens: what is due now, and for the selected reminder
/// complete, open, snooze (10 minutes, 1 hour, tomorrow morning) or take
/// it off the list. Its keys are the `.alerts` context of the key table.
final class DueAlertsOverlay: Overlay {
    let scheduler: DueAlertScheduler
    /// The selected reminder's id (kept when rows come and go).
    private(set) var selectedID: String?
    /// The reminder the box last completed, snoozed or took off: an undo
    /// brings it back, selected again.
    private var lastActedID: String?

    init(scheduler: DueAlertScheduler) {
        self.scheduler = scheduler
        // The row drawn first, which the user reads first.
        selectedID = scheduler.state.dueNow.first?.id
    }

    var contexts: [KeyContext] { [.alerts] }

    private var alerts: [DueAlert] { scheduler.state.dueNow }

    private var selectedIndex: Int? {
        let alerts = self.alerts
        guard !alerts.isEmpty else { return nil }
        return alerts.firstIndex { $0.id == selectedID } ?? 0
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        let alerts = self.alerts
        let index = selectedIndex
        let selected = index.map { alerts[$0] }
        switch action {
        case .down, .up:
            guard let index else { return true }
            let next = max(0, min(alerts.count - 1, index + (action == .down ? 1 : -1)))
            selectedID = alerts[next].id
        case .dismiss:
            app.dismiss(self)
        case .completeDue:
            guard let selected else { return nothing(app) }
            app.show(scheduler.complete(id: selected.id), undo: scheduler.undo)
            lastActedID = selected.id
            selectNeighbour(of: index, in: alerts)
        case .open:
            guard let selected else { return nothing(app) }
            app.dismiss(self)
            guard let id = scheduler.open(id: selected.id) else {
                app.showError("“\(selected.title)” no longer exists")
                return true
            }
            do {
                app.push(try ReminderFormScreen(environment: app.environment, reminderID: id))
            } catch {
                app.showError("\(error)")
            }
        case .snoozeTenMinutes, .snoozeHour, .snoozeTomorrow:
            guard let selected else { return nothing(app) }
            let option: SnoozeOption = action == .snoozeTenMinutes ? .tenMinutes : action == .snoozeHour ? .oneHour : .tomorrowMorning
            app.show(scheduler.snooze(id: selected.id, option), undo: scheduler.undo)
            lastActedID = selected.id
            selectNeighbour(of: index, in: alerts)
        case .dismissAlert:
            guard let selected else { return nothing(app) }
            app.show(scheduler.dismiss(id: selected.id))
            selectNeighbour(of: index, in: alerts)
        case .undo:
            // Undo is the app's: the toast's offer holds with the box open.
            // What it brings back is selected again, so the next key acts
            // on the row the user just acted on, not on its neighbour.
            if let lastActedID { selectedID = lastActedID }
            return false
        case .quit:
            return false
        default:
            return true
        }
        return true
    }

    /// After a row leaves, the one below it (or above, at the end) is selected.
    private func selectNeighbour(of index: Int?, in alerts: [DueAlert]) {
        guard let index else { return }
        if index + 1 < alerts.count {
            selectedID = alerts[index + 1].id
        } else if index > 0 {
            selectedID = alerts[index - 1].id
        }
    }

    private func nothing(_ app: AppController) -> Bool {
        app.showMessage("Nothing is due now")
        return true
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let alerts = self.alerts
        let visible = max(1, min(alerts.count, area.height - 6))
        let width = min(area.width - 4, 72)
        let inside = drawDialog(&buffer, area: area, width: width, height: visible + 4, title: "Due now", theme: theme)
        guard let index = selectedIndex else {
            buffer.draw("Nothing is due now.", row: inside.row, column: inside.column, style: theme.onDialog(theme.dim))
            drawHints(into: &buffer, inside: inside, app: app)
            return
        }
        let first = Scrolling.top(current: 0, selectedStart: index, selectedEnd: index + 1, viewport: visible, total: alerts.count)
        let clock = app.environment.clock
        for offset in 0..<visible where first + offset < alerts.count {
            let alert = alerts[first + offset]
            let row = inside.row + offset
            let due = DueDateText.format(alert.dueDate, clock: clock)
            let right = "\(alert.listTitle)  \(due)"
            let rightWidth = min(DisplayWidth.of(right), inside.width / 2)
            let box = alert.isCompleting ? "✓ " : "○ "
            buffer.draw([Span(box, theme.onDialog(theme.listColor(alert.listColor))),
                         Span(alert.title, theme.onDialog(theme.text))],
                        row: row, column: inside.column, maxWidth: inside.width - rightWidth - 2)
            buffer.draw(right, row: row, column: inside.right - rightWidth, maxWidth: rightWidth,
                        style: theme.onDialog(alert.isPastDue ? theme.danger : theme.dim))
            if first + offset == index {
                theme.select(&buffer, Rect(row: row, column: inside.column - 1, width: inside.width + 2, height: 1))
            }
        }
        drawHints(into: &buffer, inside: inside, app: app)
    }

    /// The box's keys, from the key table, on its last line.
    private func drawHints(into buffer: inout CellBuffer, inside: Rect, app: AppController) {
        var spans: [Span] = []
        for hint in app.keyMap.hints(for: contexts) {
            spans.append(Span(hint.keys, app.theme.onDialog(app.theme.accent)))
            spans.append(Span(" \(hint.label)  ", app.theme.onDialog(app.theme.dim)))
        }
        buffer.draw(spans, row: inside.bottom - 1, column: inside.column, maxWidth: inside.width)
    }
}
