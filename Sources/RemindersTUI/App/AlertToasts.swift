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
            if case .notifyFailed(let message) = event { showError(message) }
        }
        guard !alerts.isEmpty else { return !events.isEmpty }
        showMessage(Self.alertMessage(alerts, actKey: openAlertsKey), duration: Self.alertToastDuration)
        return true
    }

    /// "Due: “Pay rent” · ! done, open, snooze" (or "“A”, “B” and 2 more").
    static func alertMessage(_ alerts: [DueAlert], actKey: String?) -> String {
        let titles = alerts.prefix(2).map { "“" + DisplayWidth.truncate(TextSanitizer.firstLine($0.title), to: 32) + "”" }
        var text = "Due: " + titles.joined(separator: ", ")
        if alerts.count > 2 { text += " and \(alerts.count - 2) more" }
        if let actKey { text += " · \(actKey) done, open, snooze" }
        return text
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
