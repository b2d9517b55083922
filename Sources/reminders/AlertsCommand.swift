import ArgumentParser
import DeviceRuntime
import Foundation
import RemindersCore
import RemindersViewModels

#if canImport(Glibc)
import Glibc
#endif

/// `reminders alerts [--watch]`: due alerts without the full-screen app.
/// With `--watch`, a quiet background process that syncs like the app and
/// raises each alert once per device (sharing the app's log); without it,
/// what that process would raise right now, changing nothing.
struct AlertsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alerts",
        abstract: "Raise due alerts in the background (--watch), or list the alerts due now.",
        discussion: """
            A reminder alerts at its due time, or earlier by its --alert-before \
            lead, once per device: the app and this command share the record of \
            alerts shown, so whichever raises an alert first raises it alone.

            With --watch, runs until SIGTERM or SIGINT (exit 0), needing no \
            terminal: it syncs like the app, so a reminder added on another \
            device alerts here, and prints one line per alert on stdout \
            (alert time, title, list, due time, separated by tabs), problems \
            on stderr. Each alert also runs the notify command (--notify-command, \
            REMINDERS_NOTIFY_COMMAND or the config file's notify-command); when \
            none is set, notify-send if it is on PATH; set it to "" for neither. \
            docs/ALERTS.md has a systemd user unit that runs it.

            Without --watch, prints the alerts due now that this device has not \
            raised yet, in the same form, and changes nothing: a look at what the \
            watcher would do, safe to run while it runs.
            """)

    @Flag(help: "Keep running: sync, and raise each alert as it comes.")
    var watch = false

    @Flag(help: "Without --watch: print an array of {id, listID, listTitle, title, dueDate, dueAt, alertAt, isPastDue}, earliest alert first.")
    var json = false

    @Option(name: .customLong("notify-command"), help: ArgumentHelp(
        "With --watch: run for every alert with the title and due time as two more arguments; split into words like a shell would, but never run by one (env REMINDERS_NOTIFY_COMMAND; config notify-command; default notify-send when on PATH, \"\" for none).",
        valueName: "command"))
    var notifyCommand: String?

    @OptionGroup var dueHour: DueHourOption

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if watch && json { throw ValidationError("--json lists the alerts due now; it does not go with --watch") }
        if !watch && notifyCommand != nil { throw ValidationError("--notify-command goes with --watch") }
        let settings = try EffectiveSettings.validating {
            try EffectiveSettings(common: common, dueHour: dueHour.value, notifyCommand: notifyCommand)
        }
        try settings.blamingFile(settings.notifyCommand) {
            try usage { _ = try TUICommand.notifyWords(settings.notifyCommand.value) }
        }
    }

    func run() throws {
        let settings = try EffectiveSettings(common: common, dueHour: dueHour.value, notifyCommand: notifyCommand)
        if watch {
            try runWatcher(settings)
        } else {
            try listDueNow(settings)
        }
    }

    /// The notify command's words: the one set, none when it is set empty,
    /// else notify-send when there is one.
    static func notifier(_ setting: String, isSet: Bool) throws -> [String]? {
        if isSet { return try TUICommand.notifyWords(setting) }
        return NotifyCommand.desktop()
    }

    private func listDueNow(_ settings: EffectiveSettings) throws {
        let context = try ReadingContext(common)
        let hour = settings.dueHour.value
        let plan = try context.read { db in
            try DueAlertPlan.read(db, clock: context.clock, defaultHour: hour, catchUp: DueAlertSettings().catchUp)
        }
        let zone = context.clock.timeZone
        if json {
            try JSONOutput.print(plan.due.map { DueJSON($0, clock: context.clock) })
            return
        }
        for planned in plan.due {
            print(AlertLine.text(reminder: planned.reminder, alertAt: planned.alertAt, timeZone: zone))
        }
        if plan.due.isEmpty {
            let next = plan.nextAlertAt.map { "; the next comes at " + AlertLine.time($0, in: zone) } ?? ""
            print("Nothing alerts now\(next).")
        }
    }

    private func runWatcher(_ settings: EffectiveSettings) throws {
        let notify = try Self.notifier(settings.notifyCommand.value, isSet: settings.notifyCommand.origin != .standard)
        let context = try RemindersContext(common)
        // The watch keeps the device in sync, as the app does: it needs
        // the server from the start.
        if let problem = context.serverProblem { throw problem }
        let zone = context.clock.timeZone
        let watcher = AlertWatcher(session: context.session, settings: DueAlertSettings(
            defaultHour: settings.dueHour.value, notifier: notify.map { NotifyRunner(words: $0) }))

        // SIGTERM and SIGINT end the watch cleanly; they are handled on a
        // queue of their own, since this thread waits.
        let ended = DispatchSemaphore(value: 0)
        let sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { ended.signal() }
            source.resume()
            return source
        }
        watcher.start(onAlert: { alert in
            AlertLine.write(AlertLine.text(alert, timeZone: zone) + "\n", to: .standardOutput)
        }, onProblem: { message in
            AlertLine.write("reminders: " + TerminalText.clean(message) + "\n", to: .standardError)
        })
        ended.wait()
        watcher.stop()
        for source in sources { source.cancel() }
    }
}

/// The line `reminders alerts` prints for an alert: alert time, title,
/// list and due time, separated by tabs, text cleaned for a terminal (a
/// tab or new line in a title becomes a space).
enum AlertLine {
    static func text(_ alert: DueAlert, timeZone: TimeZone) -> String {
        [time(alert.alertAt, in: timeZone), TerminalText.clean(alert.title), TerminalText.clean(alert.listTitle),
         "due " + alert.dueText].joined(separator: "\t")
    }

    static func text(reminder: AlertingReminder, alertAt: Date, timeZone: TimeZone) -> String {
        [time(alertAt, in: timeZone), TerminalText.clean(reminder.title), TerminalText.clean(reminder.listTitle),
         "due " + reminder.dueDate.description.replacingOccurrences(of: "T", with: " ")].joined(separator: "\t")
    }

    /// "2026-03-01 10:15": a moment's wall-clock time here.
    static func time(_ moment: Date, in timeZone: TimeZone) -> String {
        DueDate(moment: moment, in: timeZone).description.replacingOccurrences(of: "T", with: " ")
    }

    /// One write, so that lines from several threads never interleave, and
    /// at once: stdout may be a pipe to a journal, not a terminal.
    static func write(_ text: String, to handle: FileHandle) {
        handle.write(Data(text.utf8))
    }
}
