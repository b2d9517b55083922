import RemindersCore
import RemindersViewModels

/// The top of the Home screen while something is due: the reminders this
/// device alerted for that are still open, earliest first, with the key
/// that opens the alerts box. Nothing at all when none are.
struct DueNowSection {
    var alerts: [DueAlert]
    var clock: AppClock
    /// The key of the alerts box, "!".
    var actKey: String?

    /// At most this many rows; the box lists them all.
    static let maximumRows = 5

    func lines(theme: Theme) -> [HomeScreen.Line] {
        guard !alerts.isEmpty else { return [] }
        var lines: [HomeScreen.Line] = []
        let hint = actKey.map { [Span("\($0) done, open, snooze", theme.dim)] }
        lines.append(HomeScreen.Line(spans: [Span("DUE NOW", theme.danger.with(.bold))], right: hint))
        for alert in alerts.prefix(Self.maximumRows) {
            let due = DueDateText.format(alert.dueDate, clock: clock)
            lines.append(HomeScreen.Line(
                spans: [Span(alert.isCompleting ? "✓ " : "○ ", theme.listColor(alert.listColor)), Span(alert.title)],
                right: [Span(alert.listTitle + "  ", theme.dim), Span(due, alert.isPastDue ? theme.danger : theme.text)]))
        }
        if alerts.count > Self.maximumRows {
            lines.append(HomeScreen.Line(spans: [Span("and \(alerts.count - Self.maximumRows) more", theme.dim)]))
        }
        lines.append(HomeScreen.Line(spans: []))
        return lines
    }
}
