import ArgumentParser
import DeviceRuntime
import Foundation
import RemindersCore
import RemindersTUI
import RemindersViewModels

/// `reminders` / `reminders tui`: the full-screen app, synced live.
struct TUICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tui", abstract: "Open the full-screen app (the default).")

    @Flag(name: .customLong("no-mouse"), help: "Leave the mouse to the terminal (select text to copy).")
    var noMouse = false

    @Option(name: .customLong("notify-command"), help: ArgumentHelp(
        "Run for every due alert with the title and due time as two more arguments, e.g. notify-send; split into words like a shell would, but never run by one (env REMINDERS_NOTIFY_COMMAND; config notify-command).",
        valueName: "command"))
    var notifyCommand: String?

    @Flag(name: .customLong("no-sample-data"), help: "On a first start with no lists anywhere, start empty without asking about sample lists.")
    var noSampleData = false

    @OptionGroup var dueHour: DueHourOption

    @OptionGroup var common: CommonOptions

    func validate() throws {
        let settings = try EffectiveSettings.validating {
            try EffectiveSettings(common: common, dueHour: dueHour.value, notifyCommand: notifyCommand)
        }
        try settings.blamingFile(settings.notifyCommand) {
            try usage { _ = try Self.notifyWords(settings.notifyCommand.value) }
        }
    }

    /// The notify command's words, nil for none: the option, else the
    /// environment, else the config file; an empty option turns off one
    /// set in the environment or the file.
    static func notifyWords(_ text: String) throws -> [String]? {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return try NotifyCommand.split(text)
    }

    func run() throws {
        // The config file's keys and colours were checked in `validate()`,
        // before the terminal is taken over.
        let settings = try EffectiveSettings(common: common, dueHour: dueHour.value, notifyCommand: notifyCommand,
                                             noSampleData: noSampleData)
        // Refused before anything is opened, so a start without a terminal
        // makes no database and no server directory.
        do { try TerminalApp.requireTerminal() } catch let error as TerminalError {
            throw CoreError.database(error.description)
        }
        let context = try RemindersContext(location: common.resolve(), readersToWarm: TerminalApp.readersToWarm)
        // Live sync needs the server from the start.
        if let problem = context.serverProblem { throw problem }
        let session = context.session
        // Reminders left "completing" by an earlier run are completed now.
        try context.store.finishCompleting()
        var firstRun: FirstRunOffer?
        if case .offerSampleData = try session.firstStart() {
            if !settings.sampleData.value {
                _ = try session.answerFirstRun(addSampleData: false)
            } else {
                firstRun = FirstRunOffer { try session.answerFirstRun(addSampleData: $0) }
            }
        }
        // The credential is read again at each opening of the server (the
        // first, and each after a failure): a `reminders login` made in
        // another terminal, after the account was made again, is used from
        // the next try, without a restart.
        let location = context.location
        let live = LiveSync(engine: session.engine, server: session.server,
                            address: { (try? location.serverAddress()) ?? session.server })
        let environment = AppEnvironment(
            store: session.store, userName: session.userName, deviceName: session.deviceName,
            syncStatus: live, sharing: session.sharing,
            defaultList: settings.defaultList.value.isEmpty ? nil : settings.defaultList.value)
        // The command line (or a second copy of the app) may write this
        // device's database while the app is open: the screens follow.
        let otherWrites = OtherProcessWrites(writer: session.writer)
        live.start()
        otherWrites.start()
        defer {
            otherWrites.stop()
            environment.completions.finishNow()
            live.stop()
        }
        do {
            try TerminalApp(environment: environment, options: TUIOptions(
                mouse: !noMouse,
                dueAlerts: DueAlertSettings(defaultHour: settings.dueHour.value,
                                            notifier: try Self.notifyWords(settings.notifyCommand.value).map { NotifyRunner(words: $0) }),
                firstRun: firstRun, keyBindings: settings.keyBindings, colors: settings.colors,
                editor: ExternalEditor())).run()
        } catch let error as TerminalError {
            throw CoreError.database(error.description)
        }
        // Let edits made just before quitting reach the server.
        live.drain()
        live.syncNow()
        live.drain()
    }
}
