import Foundation
import GRDB
import Testing
import TestSupport

/// A new user's first start: the app asks before adding sample lists,
/// remembers the answer, and a start it refuses changes nothing.
@Suite(.serialized) struct FirstStartTests {
    @Test func aStartWithoutATerminalIsRefusedAndChangesNothing() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let result = try cli.run([])
        #expect(result.status != 0)
        #expect(result.errorLine?.contains("needs a terminal") == true, "\(result)")
        // No database, no server directory: nothing was made, seeded or synced.
        #expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("data/reminders").path))
    }

    @Test(.enabled(if: TmuxServer.isAvailable, "tmux is not installed"))
    func startingEmptyIsAskedOnceAndAddsNothing() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        do {
            let app = try TmuxSession([cli.binary.path, "tui"], environment: cli.environment, in: cli.home, width: 80, height: 24)
            defer { app.stop() }
            // Waited for by its last words: a capture may catch the dialog half drawn.
            let screen = try app.waitFor("Add sample lists")
            #expect(screen.contains("Welcome to Reminders") && screen.contains("Start empty"), "\(screen)")
            try app.send("e")
            try app.waitFor("Starting empty: press a to make your first list")
            try app.send("q")
            try eventually(timeout: 10, "the app to quit") { !app.isRunning }
        }
        #expect(try cli.ok("lists", "--json") == "[]")
        // The next start does not ask again.
        let again = try TmuxSession([cli.binary.path, "tui"], environment: cli.environment, in: cli.home, width: 80, height: 24)
        defer { again.stop() }
        let screen = try again.waitFor("MY LISTS")
        #expect(!screen.contains("Welcome to Reminders"), "\(screen)")
    }

    @Test(.enabled(if: TmuxServer.isAvailable, "tmux is not installed"))
    func addingSampleListsOnTheFirstStart() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let app = try TmuxSession([cli.binary.path, "tui"], environment: cli.environment, in: cli.home, width: 80, height: 24)
        defer { app.stop() }
        try app.waitFor("Welcome to Reminders")
        try app.send("s")
        // The lists show at once (the toast may give way to a due alert).
        try app.waitFor("● Groceries")
        try eventually(timeout: 10, "the sample lists in the database") {
            ((try? cli.ok("lists")) ?? "").contains("Groceries")
        }
    }

    /// `sample-data = false` in the config file does what the option does.
    @Test(.enabled(if: TmuxServer.isAvailable, "tmux is not installed"))
    func theConfigFileCanTurnTheOfferOff() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let folder = cli.home.appendingPathComponent(".config/reminders")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("config.toml").path
        try "# no samples, thanks\nsample-data = false\n".write(toFile: path, atomically: true, encoding: .utf8)
        let row = try cli.ok("config").split(separator: "\n").first { $0.hasPrefix("sample-data ") }
        #expect(row?.contains("never offered") == true && row?.hasSuffix("file \(path):2") == true, "\(row ?? "")")
        let app = try TmuxSession([cli.binary.path, "tui"], environment: cli.environment, in: cli.home, width: 80, height: 24)
        defer { app.stop() }
        let screen = try app.waitFor("MY LISTS")
        #expect(!screen.contains("Welcome to Reminders"), "\(screen)")
        try "sample-data = \"no\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        let bad = try cli.run("config")
        #expect(bad.status == 2)
        #expect(bad.errorLine == "\(path):1: sample-data must be true or false, not a string", "\(bad)")
    }

    @Test(.enabled(if: TmuxServer.isAvailable, "tmux is not installed"))
    func noSampleDataStartsEmptyWithoutAsking() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let app = try TmuxSession([cli.binary.path, "tui", "--no-sample-data"], environment: cli.environment, in: cli.home,
                                  width: 80, height: 24)
        defer { app.stop() }
        let screen = try app.waitFor("MY LISTS")
        #expect(!screen.contains("Welcome to Reminders"), "\(screen)")
        #expect(try cli.ok("lists", "--json") == "[]")
    }
}

/// What a start of the program writes: the first start of a build notes
/// the triggers it found current; the next starts trust that note and
/// write nothing to open the device.
@Suite struct StartNoteTests {
    @Test func aSecondStartOfTheSameProgramLeavesTheNoteAsItWas() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        _ = try cli.ok("list", "add", "Errands")
        func note() throws -> String? {
            try DatabaseQueue(path: cli.defaultDatabase.path).read { db in
                try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'captureNote'")
            }
        }
        let first = try #require(try note())
        _ = try cli.ok("lists")
        _ = try cli.ok("lists")
        // Each process is loaded at its own address: a note that took in
        // an address (as one did) changed with every start.
        #expect(try note() == first)
        #expect(!first.contains("0x") && !first.contains(" at $"), "\(first)")
    }
}
