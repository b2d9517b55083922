import Foundation
import Testing
import TestSupport

/// What a new user tripped on, checked where they met it: the real app in
/// tmux.
@Suite(.serialized, .enabled(if: TmuxServer.isAvailable, "tmux is not installed"))
struct EverydayUseTmuxTests {
    /// A seeded device of user "me" and the command that opens its app.
    func seededDevice() throws -> CommandRunner {
        let cli = try CommandRunner()
        try cli.ok("seed")
        return cli
    }

    func app(_ cli: CommandRunner, _ extra: [String] = [], term: String? = nil, width: Int = 100, height: Int = 30) throws -> TmuxSession {
        let command = (term.map { ["env", "TERM=\($0)"] } ?? []) + [cli.binary.path, "tui", "--no-mouse"] + extra
        return try TmuxSession(command, environment: cli.environment, in: cli.home, width: width, height: height)
    }

    @Test func theSortChosenForAListIsThereWhenItIsOpenedAgain() throws {
        let cli = try seededDevice()
        defer { cli.cleanUp() }
        do {
            let app = try app(cli)
            defer { app.stop() }
            try app.waitFor("SMART LISTS")
            try app.send("Enter", literal: false)
            try app.waitFor("Sort: Manual")
            try app.send("s")
            try app.send("p")
            try app.waitFor("Sort: Priority")
            try app.send("q")
            try app.waitFor("SMART LISTS")
            try app.send("Enter", literal: false)
            try app.waitFor("Sort: Priority")
            try app.send("q")
            try app.send("q")
            try eventually(timeout: 10, "the app to quit") { !app.isRunning }
        }
        // A new start on this device remembers it too.
        let again = try app(cli)
        defer { again.stop() }
        try again.waitFor("SMART LISTS")
        try again.send("Enter", literal: false)
        try again.waitFor("Sort: Priority")
    }

    /// With a TERM that does not describe Home and End, the terminal's
    /// sequences for them must not be typed into a title as "1~" and "4~".
    @Test func unknownEscapeSequencesAreNotTypedIntoFields() throws {
        let cli = try seededDevice()
        defer { cli.cleanUp() }
        let app = try app(cli, term: "vt100")
        defer { app.stop() }
        try app.waitFor("SMART LISTS")
        try app.send("a")
        try app.waitFor("New List")
        try app.send("Garden")
        for key in ["Home", "End", "PageUp", "PageDown", "C-Right", "F12"] {
            try app.send(key, literal: false)
        }
        try app.send("Home", literal: false)
        try app.send("My ")
        let screen = try app.waitFor("My Garden")
        #expect(!screen.contains("~"), "\(screen)")
        #expect(!screen.contains("1;5C"), "\(screen)")
    }
}

extension EverydayUseTmuxTests {
    /// A half-width split still shows the app, with fewer columns.
    @Test func aSixtyByTwentySplitShowsTheApp() throws {
        let cli = try seededDevice()
        defer { cli.cleanUp() }
        let app = try app(cli, width: 60, height: 20)
        defer { app.stop() }
        let home = try app.waitFor("MY LISTS")
        #expect(!home.contains("enlarge"), "\(home)")
        try app.send("Enter", literal: false)
        let list = try app.waitFor("Sort: Manual")
        #expect(list.components(separatedBy: "\n").allSatisfy { $0.count <= 60 })
        try app.send("a")
        try app.waitFor("New Reminder")
    }
}
