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

    /// `reminders list delete` at a terminal asks first, as the app does:
    /// "n" keeps the list, "y" deletes it. Piped (scripts, every other test)
    /// it asks nothing, and neither does `--yes`.
    @Test func deletingAListAtATerminalAsksFirst() throws {
        let cli = try seededDevice()
        defer { cli.cleanUp() }
        func delete(answer: String) throws -> String {
            let binary = cli.binary.path.replacingOccurrences(of: "'", with: "'\\''")
            let shell = try TmuxSession(["/bin/sh", "-c", "'\(binary)' list delete Work; echo END; sleep 30"],
                                        environment: cli.environment, in: cli.home, width: 100, height: 10)
            defer { shell.stop() }
            try shell.waitFor("on every device? [y/N]")
            try shell.send(answer)
            try shell.send("Enter", literal: false)
            return try shell.waitFor("END")
        }
        #expect(try delete(answer: "n").contains("Kept list “Work”."))
        #expect(try cli.ok("lists").contains("Work"))
        #expect(try delete(answer: "y").contains("Deleted list “Work” and its"))
        #expect(try !cli.ok("lists").contains("Work"))
        #expect(try cli.ok("list", "delete", "Personal").hasPrefix("Deleted list “Personal”"))
    }

    @Test func theSortChosenForAListIsThereWhenItIsOpenedAgain() throws {
        let cli = try seededDevice()
        defer { cli.cleanUp() }
        do {
            let app = try app(cli)
            defer { app.stop() }
            try app.waitFor("SMART LISTS")
            try app.send("Enter", literal: false)
            // Today starts by due date.
            try app.waitFor("Sort: Due Date")
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
    /// On a 60-column terminal a long title is cut to fit its row, with
    /// an ellipsis, where it used to wrap mid-word; piped, it goes out
    /// whole.
    @Test func aNarrowTerminalCutsLongTitlesInsteadOfWrapping() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Home")
        // Past the sixty columns a title was cut to everywhere, piped too.
        let title = "A long title that goes past what sixty columns hold, and past the old cap of sixty too"
        let id = try cli.ok("add", title, "--list", "Home", "--tag", "travel", "--literal").prefix(8)
        #expect(try cli.ok("show", "Home").contains(title))
        let quoted = cli.binary.path.replacingOccurrences(of: "'", with: "'\\''")
        try cli.ok("add", "Short title", "--list", "Home", "--notes", "a needle in notes long enough to end the row well past sixty columns")
        // A cut keeps where a subtask belongs and how far its parent is.
        let trip = try cli.ok("add", "Plan the long trip to the mountains this autumn", "--list", "Home", "--literal").prefix(8)
        // A subtask's add says on stderr which list it went to.
        let hut = try cli.run(["add", "Book the mountain hut for the whole long weekend", "--parent", String(trip), "--literal"])
            .stdout.prefix(8)
        let shell = try TmuxSession(["/bin/sh", "-c", "'\(quoted)' show Home; '\(quoted)' search needle; '\(quoted)' search mountain; echo END; sleep 30"],
                                    environment: cli.environment, in: cli.home, width: 60, height: 30)
        defer { shell.stop() }
        let screen = try shell.waitFor("END")
        let lines = screen.split(separator: "\n")
        let row = try #require(lines.first { $0.hasPrefix(id) })
        #expect(row.contains("A long title that goes") && row.contains("…") && row.hasSuffix("#travel"), "\(screen)")
        #expect(lines.allSatisfy { $0.count <= 60 })
        // A search's snippet ends the row and wraps: titles are not cut for it.
        #expect(lines.contains { $0.contains("Short title") && $0.contains("needle") }, "\(screen)")
        #expect(lines.contains { $0.hasPrefix(trip) && $0.contains("Plan the long") && $0.contains("…") && $0.hasSuffix("[0/1]") },
                "\(screen)")
        #expect(lines.contains { $0.hasPrefix(hut) && $0.contains("Book the") && $0.contains("… (in Plan the long trip to t…)") },
                "\(screen)")
    }

    @Test func aSixtyByTwentySplitShowsTheApp() throws {
        let cli = try seededDevice()
        defer { cli.cleanUp() }
        let app = try app(cli, width: 60, height: 20)
        defer { app.stop() }
        let home = try app.waitFor("MY LISTS")
        #expect(!home.contains("enlarge"), "\(home)")
        try app.send("Enter", literal: false)
        let list = try app.waitFor("Sort: Due Date")
        #expect(list.components(separatedBy: "\n").allSatisfy { $0.count <= 60 })
        try app.send("a")
        try app.waitFor("New Reminder")
    }
}

extension EverydayUseTmuxTests {
    /// Enter on the cover's "file…" goes to the path (it does not save the
    /// form with the cover as it was); "~/" is $HOME; a JPEG photo is taken.
    @Test func aPhotoFromHomeBecomesAListCover() throws {
        let cli = try seededDevice()
        defer { cli.cleanUp() }
        let photo = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAAwAEADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD8+bTQuny1s2mhdPlrq7TQuny/pWzaaF0+Wv3qtmHmfPZbmu2pytpoXT5a2rTQuny11VpoXT5a2rTQuny/pXhVsw8z9XyzNdtTlLTQuny1t2mhdPlrqbTQuny1t2mhdPl/SvBrZh5n6tlma7anKWmhdPlratNC6fLXVWmhdPl/Stq00Lp8teHWzDzP1bLc121PDrTQuny1tWmhdPlrq7TQuny1s2mhdPlrqrZh5n+TeW5rtqcraaF0+Wtq00Lp8tdVZ6F0+Wtq00Lp8teFWzDzP1fLM121OUtNC6fLW1aaF0+WuqtNC6fLW3aaF0+WvCrZh5n6tlma7anKWmhdPlratNC6fLXVWmhdPlratNC6fLXhVsw8z9Wy3NdtTw+00Lp8tbNpoXT5f0rq7TQuny1s2mhdPlrqrZj5n+TeW5rtqcraaF0+Wtq00Lp8tdVZ6F0+Wtq00Lp8teFWzHzP1fLM121OUtNC6fL+lbVpoXT5a6u00Lp8tbVpoXT5a8KtmPmfq2WZrtqcpaaF0+Wtq00Lp8tdVaaF0+Wtq00Lp8teFWzHzP1bLc121P/Z") ?? Data()
        try photo.write(to: cli.home.appendingPathComponent("my photo.jpg"))
        let app = try app(cli)
        defer { app.stop() }
        try app.waitFor("SMART LISTS")
        try app.send("a")
        try app.waitFor("New List")
        try app.send("Trips")
        try app.send("Tab", literal: false)
        try app.send("Tab", literal: false)
        try app.send("Left", literal: false)
        try app.send("Enter", literal: false)
        try app.waitFor("Type the image's path (PNG or JPEG), then Enter reads it")
        #expect(try !cli.ok("lists").contains("Trips"))
        try app.send("~/my photo.jpg")
        try app.send("Enter", literal: false)
        try app.send("C-s", literal: false)
        try app.waitFor("Created “Trips”")
        let export = try cli.ok("export", "--json")
        let trips = try #require(export.range(of: "\"title\" : \"Trips\""))
        let before = export[..<trips.lowerBound]
        let hash = try #require(before.range(of: "\"coverImageSHA256\" : ", options: .backwards))
        #expect(!before[hash.upperBound...].hasPrefix("null"), "\(export)")
    }
}

extension EverydayUseTmuxTests {
    /// What was just added is what is selected: `e` right after edits it.
    @Test func aNewReminderAndANewListAreSelected() throws {
        let cli = try seededDevice()
        defer { cli.cleanUp() }
        let app = try app(cli)
        defer { app.stop() }
        try app.waitFor("SMART LISTS")
        try app.send("a")
        try app.waitFor("New List")
        try app.send("Garden")
        try app.send("Enter", literal: false)
        try app.waitFor("● Garden")
        try app.send("e")
        let listForm = try app.waitFor("Edit List")
        #expect(listForm.contains("Title       Garden"), "\(listForm)")
        try app.send("Escape", literal: false)
        try app.waitFor("SMART LISTS")
        try app.send("g")
        try app.send("Enter", literal: false)
        try app.waitFor("Sort: Due Date")
        try app.send("a")
        try app.waitFor("New Reminder")
        try app.send("Zebra crossing")
        try app.send("C-s", literal: false)
        try app.waitFor("Zebra crossing")
        try app.send("e")
        let form = try app.waitFor("Edit Reminder")
        #expect(form.contains("Title       Zebra crossing"), "\(form)")
    }
}
