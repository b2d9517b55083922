import ArgumentParser
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

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        let session = context.session
        // Reminders left "completing" by an earlier run are completed now.
        try context.store.finishCompleting()
        try session.seedIfNew()
        let live = LiveSync(engine: session.engine, serverDirectory: session.serverDirectory)
        let environment = AppEnvironment(
            store: session.store, userName: session.userName, deviceName: session.deviceName,
            syncStatus: live, sharing: session.sharing)
        live.start()
        defer {
            environment.completions.finishNow()
            live.stop()
        }
        do {
            try TerminalApp(environment: environment, options: TUIOptions(mouse: !noMouse)).run()
        } catch let error as TerminalError {
            throw CoreError.database(error.description)
        }
        // Let edits made just before quitting reach the server.
        live.drain()
        live.syncNow()
        live.drain()
    }
}
