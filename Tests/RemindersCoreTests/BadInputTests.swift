import Foundation
import GRDB
import Testing
@testable import RemindersCore
import TestSupport

/// Every kind of bad input is refused with a clear error and the exit code
/// of the command line contract, and leaves the database exactly as it was.
@Suite("Bad input")
struct BadInputTests {
    /// Two lists (one titled twice), reminders with ids that share a prefix.
    func fixture() throws -> (store: RemindersStore, home: RemindersList, reminder: Reminder) {
        let store = try makeStore()
        let home = try store.createList(title: "Home")
        try store.createList(title: "Twice")
        try store.createList(title: "twice")
        let reminder = try store.add("Milk", to: home, tags: ["dairy"])
        try store.writer.write { db in
            for id in ["abcd1111-0000-4000-8000-000000000000", "abcd2222-0000-4000-8000-000000000000"] {
                try Reminder(id: id, remindersListID: home.id, title: "Same title").insert(db)
            }
        }
        let ocean: Data = try #require(SampleCovers.png(named: "ocean"))
        try store.setCover(listID: home.id, png: ocean)
        return (store, home, reminder)
    }

    /// Runs `body`, expects an error of `kind` with `exitCode`, and checks
    /// that nothing changed.
    func expectRefused(_ kind: CoreError, exitCode: Int32, in store: RemindersStore,
                       sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) throws {
        let before = try store.snapshot()
        let error = expectErrorKind(kind, sourceLocation: sourceLocation, body)
        #expect(error?.exitCode == exitCode, sourceLocation: sourceLocation)
        #expect(error.map { !$0.description.isEmpty && !$0.description.contains("\n") } ?? false,
                "one line of message", sourceLocation: sourceLocation)
        #expect(try store.snapshot() == before, "the database changed", sourceLocation: sourceLocation)
    }

    @Test func unknownListOrReminder() throws {
        let (store, _, _) = try fixture()
        try expectRefused(.notFound(""), exitCode: 2, in: store) { _ = try store.read { try Resolver.list($0, "Office") } }
        try expectRefused(.notFound(""), exitCode: 2, in: store) { _ = try store.read { try Resolver.reminder($0, "Bread") } }
        // Too short to be an id prefix: said so, rather than "no reminder matches".
        try expectRefused(.invalidInput(""), exitCode: 2, in: store) { _ = try store.read { try Resolver.reminder($0, "abc") } }
        try expectRefused(.invalidInput(""), exitCode: 2, in: store) { _ = try store.read { try Resolver.list($0, "  ") } }
        try expectRefused(.notFound(""), exitCode: 2, in: store) {
            try store.createReminder(ReminderDraft(listID: "no-such-list", title: "Bread"))
        }
        try expectRefused(.notFound(""), exitCode: 2, in: store) { try store.complete(id: "no-such-reminder") }
        try expectRefused(.notFound(""), exitCode: 2, in: store) { try store.deleteList(id: "no-such-list") }
    }

    @Test func ambiguousListOrReminder() throws {
        let (store, _, _) = try fixture()
        try expectRefused(.ambiguous(""), exitCode: 2, in: store) { _ = try store.read { try Resolver.list($0, "TWICE") } }
        try expectRefused(.ambiguous(""), exitCode: 2, in: store) { _ = try store.read { try Resolver.reminder($0, "same title") } }
        try expectRefused(.ambiguous(""), exitCode: 2, in: store) { _ = try store.read { try Resolver.reminder($0, "abcd") } }
        // The candidates say which are completed.
        let list = try store.createList(title: "Chores")
        let done = try store.add("Sweep", to: list)
        try store.complete(id: done.id)
        try store.add("Sweep", to: list)
        #expect(throws: CoreError.self) { try store.read { try Resolver.reminder($0, "sweep") } }
        do {
            _ = try store.read { try Resolver.reminder($0, "sweep") }
        } catch let error as CoreError {
            #expect(error.description.contains("\(done.id.prefix(8)) (Sweep, completed)"), "\(error)")
            #expect(error.description.components(separatedBy: "completed").count == 2, "\(error)")
        }
    }

    @Test func resolverAcceptsIDsPrefixesAndTitles() throws {
        let (store, home, reminder) = try fixture()
        let resolved = try store.read { db in
            [try Resolver.list(db, home.id.uppercased()), try Resolver.list(db, String(home.id.prefix(4))),
             try Resolver.list(db, "home"), try Resolver.reminder(db, "MILK"), try Resolver.reminder(db, "abcd1")]
        }
        #expect(resolved == [home.id, home.id, home.id, reminder.id, "abcd1111-0000-4000-8000-000000000000"])
    }

    @Test func badDates() throws {
        let dates = NaturalDate(clock: try clock(), order: .dayFirst)
        for text in ["2026-02-30", "2026-13-01", "26-03-01", "2026-03-01T24:00", "2026-03-01T10:60",
                     "2026-03-01T10", "0999-01-01", ""] {
            #expect(throws: NaturalDateError.self, "\(text)") { try dates.parse(text) }
        }
        #expect(try dates.parse("2024-02-29").description == "2024-02-29")
        #expect(try dates.parse("2026-03-01 09:05").description == "2026-03-01T09:05")
        #expect(CoreError.invalidInput("").exitCode == 2)
    }

    @Test func badColors() throws {
        let (store, home, _) = try fixture()
        for color in ["crimson", "#12345", "#1234", "#12", "#1234567", "#GGGGGG", "#GGG", ""] {
            try expectRefused(.invalidInput(""), exitCode: 2, in: store) { try store.createList(title: "New", color: color) }
            try expectRefused(.invalidInput(""), exitCode: 2, in: store) { try store.updateList(id: home.id, color: color) }
        }
        #expect(try Validation.color("ABCDEF") == "#abcdef")
        // The app's colours by name, and CSS's shorthand.
        #expect(try Validation.color("Green") == "#5cc15a")
        #expect(try Validation.color(" grey ") == "#8e8e93")
        #expect(try Validation.color("#F80") == "#ff8800")
        #expect(try store.createList(title: "Red one", color: "red").color == "#e8524a")
        let refused = #expect(throws: CoreError.self) { try Validation.color("crimson") }
        #expect(refused?.description.contains("is not one of blue, red, orange, yellow, green, purple, brown, gray, nor of the form #RRGGBB or #RGB") == true)
    }

    @Test func emptyOrOverlongTitles() throws {
        let (store, home, reminder) = try fixture()
        let long = String(repeating: "x", count: 1_001)
        for title in ["", "   ", "\n", long, "bell\u{7}", "esc\u{1B}[2J"] {
            try expectRefused(.invalidInput(""), exitCode: 2, in: store) { try store.createList(title: title) }
            try expectRefused(.invalidInput(""), exitCode: 2, in: store) { try store.updateList(id: home.id, title: title) }
            try expectRefused(.invalidInput(""), exitCode: 2, in: store) { try store.add(title, to: home) }
            try expectRefused(.invalidInput(""), exitCode: 2, in: store) {
                try store.updateReminder(id: reminder.id, ReminderChanges(title: title, notes: "changed"))
            }
        }
        let longest = String(repeating: "é", count: 1_000)
        #expect(try store.add(longest, to: home).title == longest)
    }

    @Test func badTagsAndNotes() throws {
        let (store, home, _) = try fixture()
        for tags in [["a,b"], [""], [String(repeating: "t", count: 101)]] {
            try expectRefused(.invalidInput(""), exitCode: 2, in: store) { try store.add("Bread", to: home, tags: tags) }
        }
        try expectRefused(.invalidInput(""), exitCode: 2, in: store) { try store.add("Bread", to: home, notes: "a\u{1B}b") }
    }

    @Test func unknownPriority() throws {
        for name in ["urgent", "", "3", "hi"] {
            expectErrorKind(.invalidInput("")) { _ = try Validation.priority(name) }
        }
        #expect(try Validation.priority("HIGH") == .high)
        #expect(Priority.allCases.map(\.name) == ["none", "low", "medium", "high"])
    }

    @Test func unreadableOrNonImageCovers() throws {
        let (store, home, _) = try fixture()
        let folder = TemporaryDirectory()
        let text = folder.url.appendingPathComponent("notes.png")
        try Data("just text, not a picture".utf8).write(to: text)
        let forest = try #require(SampleCovers.png(named: "forest"))
        let truncated = folder.url.appendingPathComponent("truncated.png")
        try forest.prefix(forest.count / 2).write(to: truncated)
        let headerOnly = folder.url.appendingPathComponent("header.png")
        try forest.prefix(8).write(to: headerOnly)

        var paths = [folder.url.appendingPathComponent("missing.png").path, folder.url.path, text.path, truncated.path, headerOnly.path]
        if getuid() != 0 {  // root reads anything
            let locked = folder.url.appendingPathComponent("locked.png")
            try forest.write(to: locked)
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked.path)
            paths.append(locked.path)
        }
        for path in paths {
            let error = expectErrorKind(.invalidInput("")) { _ = try CoverImage.load(path: path) }
            #expect(error?.description.contains(path) ?? false)
        }
        for bytes in [Data("text".utf8), forest.prefix(forest.count / 2), forest.prefix(8), Data()] {
            try expectRefused(.invalidInput(""), exitCode: 2, in: store) { try store.setCover(listID: home.id, png: Data(bytes)) }
        }
        try expectRefused(.notFound(""), exitCode: 2, in: store) { try store.setCover(listID: "no-such-list", png: forest) }

        let image = try CoverImage(png: forest)
        #expect(image.width == 96 && image.height == 48 && image.rgba.count == 96 * 48 * 4)
    }

    @Test func oversizedCoverIsRefusedBeforeDecoding() throws {
        let forest = try #require(SampleCovers.png(named: "forest"))
        expectErrorKind(.invalidInput("")) { _ = try CoverImage(png: forest, maxPixels: 100) }
    }

    @Test func badClockIsAClearError() throws {
        expectErrorKind(.invalidInput("")) { _ = try AppClock.fromEnvironment(["REMINDERS_NOW": "yesterday"]) }
        let pinned = try AppClock.fromEnvironment(["REMINDERS_NOW": "2026-03-01T10:00:00Z"])
        #expect(pinned.isPinned)
        #expect(try AppClock.fromEnvironment([:]).isPinned == false)
    }

    @Test func clockMomentsParseEveryFormAndRefuseTheRest() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let tenUTC = 1_772_359_200.0  // 2026-03-01T10:00:00Z
        let seconds: [(String, TimeZone, Double)] = [
            ("2026-03-01T10:00:00Z", paris, tenUTC),
            ("2026-03-01T10:00:00.250Z", paris, tenUTC + 0.25),
            ("2026-03-01T11:00:00+01:00", utc, tenUTC),
            ("2026-03-01T05:30:00-0430", utc, tenUTC),
            ("2026-03-01T10:00Z", paris, tenUTC),
            ("2026-03-01T10:00:00", utc, tenUTC),
            ("2026-03-01T11:00", paris, tenUTC),
            ("2026-03-01", utc, tenUTC - 36_000),
            ("2024-02-29T00:00:00Z", utc, 1_709_164_800),
            ("1970-01-01T00:00:00Z", utc, 0),
        ]
        for (text, zone, expected) in seconds {
            #expect(AppClock.parseMoment(text, timeZone: zone)?.timeIntervalSince1970 == expected, "\(text)")
        }
        for text in ["", "yesterday", "2026-3-01", "2026-02-30", "2025-02-29", "2026-13-01", "2026-03-01T24:00",
                     "2026-03-01T10:60", "2026-03-01T10:00:61Z", "2026-03-01T10", "2026-03-01 10:00", "2026-03-01Z",
                     "2026-03-01T10:00:00.Z", "2026-03-01T10:00:00+1", "2026-03-01T10:00:00UTC", "2026-03-01T10:00:00Zx",
                     "２０２６-03-01"] {
            #expect(AppClock.parseMoment(text, timeZone: utc) == nil, "\(text)")
        }
    }
}
