import CloudServer
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import Testing
import TestSupport

/// The full-screen app's case: this process holds device A's database open
/// with its live sync running, while `reminders add` and `reminders sync`
/// (other processes) write the same file and device B syncs beside it.
/// Nothing is lost and no "database is locked" reaches anyone.
@Suite(.serialized) struct SharedDatabaseTests {
    @Test func liveSyncAndCommandsOnTheSameDatabaseLoseNothing() throws {
        let rounds = ProcessInfo.processInfo.environment["REMINDERS_CONCURRENCY_ROUNDS"].flatMap(Int.init) ?? 12
        let world = DeviceWorld()
        let cli = try CommandRunner(home: world.directory)
        let envA = world.commandEnvironment("a")
        let envB = world.commandEnvironment("b")

        // The app: its session and live sync, recording every error it shows.
        let session = try world.device("a")
        let live = LiveSync(engine: session.engine, server: session.server)
        let errors = Recorder<String>()
        let subscription = live.observeStatus { [live] in
            if let message = live.currentStatus().errorMessage { errors.append(message) }
        }
        defer { subscription.cancel() }
        live.start()
        defer { live.stop() }

        let listID = try session.store.createList(title: "Shared by processes").id
        var expected: Set<String> = []
        var processes = 0
        for round in 1...rounds {
            // In parallel: the app edits, a command adds to the same database,
            // a command syncs it, and device B adds and syncs.
            let running = [
                try cli.start(["add", "cli-\(round)", "--list", listID], environment: envA),
                try cli.start(["sync"], environment: envA),
                try cli.start(["sync"], environment: envB),
            ]
            processes += running.count
            for step in 0..<3 {
                let title = "app-\(round)-\(step)"
                _ = try session.store.createReminder(ReminderDraft(listID: listID, title: title))
                expected.insert(title)
            }
            expected.insert("cli-\(round)")
            for process in running {
                let result = try process.wait()
                #expect(result.status == 0 && result.stderr.isEmpty, "round \(round): \(result)")
            }
            if round % 3 == 0 {
                let title = "b-\(round)"
                #expect(try cli.run(["add", title, "--list", listID], environment: envB).status == 0)
                expected.insert(title)
                processes += 1
            }
        }
        live.syncNow()
        live.drain()
        for _ in 0..<3 {
            for env in [envA, envB] {
                let result = try cli.run(["sync"], environment: env)
                #expect(result.status == 0 && result.stderr.isEmpty, "final sync: \(result)")
            }
        }
        #expect(errors.all.isEmpty, "the app showed sync errors: \(errors.all)")
        let exportA = try cli.run(["export", "--json"], environment: envA).stdout
        let exportB = try cli.run(["export", "--json"], environment: envB).stdout
        #expect(exportA == exportB)
        let dump = try JSONDecoder().decode(ExportDump.self, from: Data(exportA.utf8))
        let titles = dump.reminders.map(\.title)
        #expect(titles.count == Set(titles).count, "duplicates: \(titles.sorted())")
        #expect(Set(titles) == expected)
        print("shared database: \(rounds) rounds, \(processes) processes beside the live sync, \(expected.count) reminders")
    }
}
