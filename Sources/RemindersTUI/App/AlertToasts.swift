import Foundation
import RemindersCore
import RemindersViewModels

/// Due alerts in the app: the toast when a reminder falls due, the box
/// that acts on it, the Home screen's Due now section and the past-due
/// count in the status bar. The scheduler (a view model) decides when;
/// this decides how it looks.
extension AppController {
    /// How long an alert's toast stays: longer than an action's, since
    /// nobody asked for it and it may come while the user looks away.
    static let alertToastDuration: TimeInterval = 30

    /// Shows toasts for alerts raised since the last tick, and the notify
    /// command's first failure. Returns true when something changed.
    func announceDueAlerts() -> Bool {
        guard let dueAlerts else { return false }
        let events = dueAlerts.takeEvents()
        let alerts = events.compactMap { event -> DueAlert? in
            if case .alert(let alert) = event { return alert }
            return nil
        }
        for event in events {
            if case .notifyFailed(let message) = event { showError(message, isNews: true) }
        }
        guard !alerts.isEmpty else { return !events.isEmpty }
        showMessage(Self.alertMessage(alerts, actKey: openAlertsKey, now: now()), duration: Self.alertToastDuration, isNews: true)
        return true
    }

    /// "Due: “Pay rent” · ! done, open, snooze" (or "“A”, “B” and 2 more");
    /// an alert before the due time says how long is left: "Due: “Standup”
    /// in 15 min". Left from `now` when given: an alert shown after its
    /// time (the app was not running then) has less left than its lead.
    static func alertMessage(_ alerts: [DueAlert], actKey: String?, now: Date? = nil) -> String {
        let titles = alerts.prefix(2).map { alert in
            let title = "“" + DisplayWidth.truncate(TextSanitizer.firstLine(alert.title), to: 32) + "”"
            let left = now.map { min(alert.lead, max(0, alert.dueAt.timeIntervalSince($0))) } ?? alert.lead
            return left >= 60 ? title + " in " + leadText(left) : title
        }
        var text = "Due: " + titles.joined(separator: ", ")
        if alerts.count > 2 { text += " and \(alerts.count - 2) more" }
        if let actKey { text += " · \(actKey) done, open, snooze" }
        return text
    }

    /// "5 min", "1 h", "1 h 30 min", "1 day", "2 days 3 h": how long
    /// before its due time an alert came, to the minute.
    static func leadText(_ lead: TimeInterval) -> String {
        let minutes = Int((lead / 60).rounded())
        let (days, hours, rest) = (minutes / 1440, minutes % 1440 / 60, minutes % 60)
        var parts: [String] = []
        if days > 0 { parts.append(days == 1 ? "1 day" : "\(days) days") }
        if hours > 0 { parts.append("\(hours) h") }
        if rest > 0, days == 0 { parts.append("\(rest) min") }
        return parts.isEmpty ? "0 min" : parts.joined(separator: " ")
    }

    /// The key that opens the alerts box where the user is, if any (forms
    /// take typed characters, so it works on screens without text fields).
    var openAlertsKey: String? {
        keyMap.key(for: .openAlerts, in: contexts)
    }

    func openDueAlerts() {
        guard let dueAlerts else { return }
        guard !overlays.contains(where: { $0 is DueAlertsOverlay }) else { return }
        present(DueAlertsOverlay(scheduler: dueAlerts))
    }

    /// "2 past due" for the status bar; nil when nothing is, or alerts are off.
    var pastDueLabel: String? {
        guard let count = dueAlerts?.state.pastDueCount, count > 0 else { return nil }
        return "\(count) past due"
    }

    /// The Home screen's Due now section, nil when alerts are off.
    var dueNowSection: DueNowSection? {
        guard let dueAlerts else { return nil }
        return DueNowSection(alerts: dueAlerts.state.dueNow, clock: environment.clock,
                             actKey: keyMap.key(for: .openAlerts, in: [.home, .global]))
    }
}
