import Foundation
import GRDB
import Testing
@testable import RemindersCore

@Suite("Search")
struct SearchTests {
    func fixture() throws -> RemindersStore {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("Renew passport", to: list, notes: "Photos are in the desk drawer", tags: ["errands"])
        try store.add("Buy milk", to: list, notes: "Oat, 2 cartons")
        try store.add("Call Mom", to: list, tags: ["family"])
        let done = try store.add("Old passport photos", to: list)
        try store.complete(id: done.id)
        return store
    }

    @Test func threeCharactersOrMoreUseTheTrigramIndexOverTitleNotesAndTags() throws {
        let store = try fixture()
        #expect(try store.search("PASS").hits.map(\.row.reminder.title) == ["Renew passport"])
        #expect(try store.search("drawer").hits.map(\.row.reminder.title) == ["Renew passport"])
        #expect(try store.search("errand").hits.map(\.row.reminder.title) == ["Renew passport"])
        #expect(try store.search("cartons").hits.map(\.row.reminder.title) == ["Buy milk"])
        #expect(try store.search("nothing like this").hits.isEmpty)
    }

    @Test func shorterTextFallsBackToLike() throws {
        let store = try fixture()
        #expect(try store.search("mo").hits.map(\.row.reminder.title) == ["Call Mom"])
        #expect(try store.search("2").hits.map(\.row.reminder.title) == ["Buy milk"])
        #expect(try store.search("%").hits.isEmpty)
        #expect(try store.search("_").hits.isEmpty)
    }

    @Test func quotesAndOperatorsAreSearchedLiterally() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("Read \"The Pragmatic Programmer\"", to: list)
        try store.add("this OR that", to: list)
        #expect(try store.search("\"The Prag").hits.count == 1)
        #expect(try store.search("s OR t").hits.map(\.row.reminder.title) == ["this OR that"])
        #expect(try store.search("NEAR(").hits.isEmpty)
    }

    @Test func completedMatchesAreCountedAndShownOnRequest() throws {
        let store = try fixture()
        let hidden = try store.search("passport")
        #expect(hidden.completedCount == 1)
        #expect(hidden.hits.map(\.row.reminder.title) == ["Renew passport"])
        let shown = try store.search("passport", showCompleted: true)
        #expect(shown.completedCount == 1)
        #expect(shown.hits.map(\.row.reminder.title) == ["Renew passport", "Old passport photos"])
    }

    /// The hits are sorted in Swift, not by SQLite: the order must be
    /// SQLite's (completed last, titles by the `reminders_title`
    /// collation, then id), whatever the titles, and so must the count.
    @Test func hitsComeInSQLitesOrderWhateverTheTitles() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let titles = ["zeta task", "Zeta task", "ÉCLAIR task", "éclair task", "eclair task", "Éclair task", "_task", "task",
                      "Task", "TASK 2", "task 10", "😀 task", "a task", "B task", "b task", "İstanbul task", "ß task"]
        var generator = SystemRandomNumberGenerator()
        for (index, title) in (titles + titles).shuffled(using: &generator).enumerated() {
            let reminder = try store.add(title, to: list)
            if index % 3 == 0 { try store.complete(id: reminder.id) }
        }
        // Untitled hits (the app asks for a title; another client may
        // not), found by their notes: empty keys sort first.
        try store.writer.write { db in
            try db.execute(sql: """
                INSERT INTO reminders (id, remindersListID, title, notes, status)
                VALUES ('untitled-1', ?1, '', 'a task', 'incomplete'), ('untitled-2', ?1, '', 'another task', 'completed')
                """, arguments: [list.id])
        }
        for showCompleted in [false, true] {
            for limit in [500, 7, 0] {
                let results = try store.writer.read { db in
                    try Queries.search(db, text: "task", showCompleted: showCompleted, clock: store.clock, limit: limit)
                }
                let expected = try store.writer.read { db in
                    try String.fetchAll(db, sql: """
                        SELECT id FROM reminders WHERE (title LIKE '%task%' OR notes LIKE '%task%') \(showCompleted ? "" : "AND status != 'completed'")
                        ORDER BY status = 'completed', title COLLATE reminders_title, id LIMIT ?
                        """, arguments: [limit])
                }
                #expect(results.hits.map(\.row.reminder.id) == expected, "showCompleted \(showCompleted), limit \(limit)")
                #expect(results.completedCount == 13)
            }
        }
    }

    @Test func snippetsMarkEveryMatchInTheFirstFieldThatHasOne() throws {
        let store = try fixture()
        let (start, end) = (Queries.matchStart, Queries.matchEnd)
        #expect(try store.search("passport").hits.first?.snippet == "Renew \(start)passport\(end)")
        #expect(try store.search("drawer").hits.first?.snippet == "Photos are in the desk \(start)drawer\(end)")
        #expect(try store.search("family").hits.first?.snippet == "#\(start)family\(end)")

        let list = try store.createList(title: "Long")
        let long = String(repeating: "word ", count: 20) + "needle" + String(repeating: " word", count: 20)
        try store.add("Long notes", to: list, notes: long + " and another needle")
        let snippet = try #require(try store.search("needle").hits.first?.snippet)
        #expect(snippet.hasPrefix("…") && snippet.hasSuffix("…"))
        #expect(snippet.contains("\(start)needle\(end)"))
        #expect(snippet.count < long.count)
        // Cut at words' edges: whole words on both sides.
        let words = snippet.dropFirst().dropLast().split(separator: " ")
        #expect(words.first == "word" && words.last == "word", "\(snippet)")
        try store.add("Cut", to: list, notes: "The quick brown fox jumps over the lazy dog and then the needle and then something long enough")
        let cut = try #require(try store.search("needle").hits.first { $0.row.reminder.title == "Cut" }?.snippet)
        #expect(cut == "…the lazy dog and then the \(start)needle\(end) and then something long…", "\(cut)")
    }

    @Test func editsAndTagRenamesKeepTheIndexCurrent() throws {
        let store = try fixture()
        let id = try #require(try store.search("milk").hits.first?.id)
        try store.updateReminder(id: id, ReminderChanges(title: "Buy bread", notes: "Sourdough"))
        #expect(try store.search("milk").hits.isEmpty)
        #expect(try store.search("cartons").hits.isEmpty)
        #expect(try store.search("sourdough").hits.map(\.id) == [id])

        try store.renameTag("errands", to: "chores")
        #expect(try store.search("errands").hits.isEmpty)
        #expect(try store.search("chores").hits.map(\.row.reminder.title) == ["Renew passport"])

        try store.renameTag("chores", to: "CHORES")
        #expect(try store.search("CHORES").hits.first?.row.tags == ["CHORES"])
        let indexed = try store.read { try String.fetchAll($0, sql: "SELECT tags FROM reminderSearch WHERE tags != ''") }
        #expect(indexed.sorted() == ["#CHORES", "#family"])
    }
}

@Suite("Clearing completed reminders")
struct ClearCompletedTests {
    /// Four reminders completed 14 months, 7 months, 6 weeks and 1 week
    /// before the pinned now, plus one open reminder.
    func fixture() throws -> (RemindersStore, RemindersList) {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        try store.add("Open", to: list)
        for (title, moment) in [("14 months", "2025-01-01T09:00:00Z"), ("7 months", "2025-08-01T09:00:00Z"),
                                ("6 weeks", "2026-01-15T09:00:00Z"), ("1 week", "2026-02-22T09:00:00Z")] {
            let reminder = try store.add(title, to: list)
            try RemindersCoreTests.store(store, at: moment).complete(id: reminder.id)
        }
        return (store, list)
    }

    @Test func eachPeriodClearsWhatWasCompletedBeforeIt() throws {
        let (store, _) = try fixture()
        #expect(try store.clearCompleted(.year) == 1)
        #expect(try store.titles(.completed) == ["7 months", "6 weeks", "1 week"])
        #expect(try store.clearCompleted(.sixMonths) == 1)
        #expect(try store.clearCompleted(.month) == 1)
        #expect(try store.titles(.completed) == ["1 week"])
        #expect(try store.clearCompleted(.all) == 1)
        #expect(try store.titles(.all, showCompleted: true) == ["Open"])
    }

    @Test func clearingOneListLeavesTheOthers() throws {
        let (store, list) = try fixture()
        let other = try store.createList(title: "Other")
        let elsewhere = try store.add("Elsewhere", to: other)
        try store.complete(id: elsewhere.id)
        #expect(try store.clearCompleted(.all, listID: list.id) == 4)
        #expect(try store.titles(.completed) == ["Elsewhere"])
    }

    @Test func clearingSkipsListsTheUserMayOnlyRead() throws {
        let (plain, list) = try fixture()
        let guarded = RemindersStore(writer: plain.writer, clock: plain.clock) { _, lists in
            if lists.contains(list.id) { throw CoreError.readOnly("list Home is read-only") }
        }
        let other = try guarded.createList(title: "Mine")
        let mine = try guarded.add("Mine", to: other)
        try guarded.complete(id: mine.id)
        #expect(try guarded.clearCompleted(.all) == 1)
        #expect(try guarded.titles(.completed).count == 4)
        expectErrorKind(.readOnly("")) { try guarded.clearCompleted(.all, listID: list.id) }
    }

    /// Search ignores Latin diacritics both ways, composed or written as
    /// combining marks, in titles, notes and tags, through the trigram
    /// index and the short fallback alike, and keeps doing so through edits
    /// and a tag's new spelling.
    @Test func diacriticsAreIgnoredBothWays() throws {
        let store = try makeStore()
        let list = try store.createList(title: "Home")
        let cafe = try store.add("Café crème", to: list)
        try store.add("Send re\u{301}sume\u{301}", to: list, notes: "Über alles: naïve coöperation")
        try store.add("Plain cafe", to: list, tags: ["Ärger"])
        try store.add("Phở in Hà Nội", to: list)
        try store.add("Ωmega", to: list)
        func titles(_ text: String) throws -> [String] {
            try store.search(text).hits.map(\.row.reminder.title).sorted()
        }
        #expect(try titles("cafe") == ["Café crème", "Plain cafe"])
        #expect(try titles("CAFÉ") == ["Café crème", "Plain cafe"])
        #expect(try titles("cafe\u{301}") == ["Café crème", "Plain cafe"])
        #expect(try titles("creme") == ["Café crème"])
        #expect(try titles("résumé") == ["Send re\u{301}sume\u{301}"])
        #expect(try titles("resume") == ["Send re\u{301}sume\u{301}"])
        #expect(try titles("uber") == ["Send re\u{301}sume\u{301}"])
        #expect(try titles("cooperation") == ["Send re\u{301}sume\u{301}"])
        #expect(try titles("arger") == ["Plain cafe"])
        #expect(try titles("ha noi") == ["Phở in Hà Nội"])
        #expect(try titles("pho") == ["Phở in Hà Nội"])
        #expect(try titles("Hà") == ["Phở in Hà Nội"])
        #expect(try titles("ωmeg") == ["Ωmega"])
        #expect(try titles("ωm") == ["Ωmega"])      // short: LIKE, which folds ASCII only, on lowered text
        #expect(try titles("ΩM") == ["Ωmega"])
        #expect(try titles("#arg") == ["Plain cafe"])  // a tag, with its mark
        #expect(try titles("#c").isEmpty)
        #expect(try titles("\u{301}").isEmpty)        // marks alone fold to nothing, and find nothing
        #expect(try titles("\u{301} \u{301}").isEmpty)
        // The snippet marks the text as written, for letters Foundation
        // takes apart and for those only the index's fold reads as others.
        let hit = try #require(store.search("uber").hits.first)
        #expect(hit.snippet.contains("\(Queries.matchStart)Über\(Queries.matchEnd)"))
        try store.add("Ferry", to: list, notes: "Crossing the Øresund from Straße 5")
        let ferry = try #require(store.search("oresund").hits.first)
        #expect(ferry.snippet.contains("\(Queries.matchStart)Øresund\(Queries.matchEnd)"), "\(ferry.snippet)")
        let street = try #require(store.search("strasse").hits.first)
        #expect(street.snippet.contains("\(Queries.matchStart)Straße\(Queries.matchEnd)"), "\(street.snippet)")
        // Edits and a new spelling of a tag are folded as they go in.
        try store.updateReminder(id: cafe.id, ReminderChanges(title: "Crêpe stand"))
        #expect(try titles("crepe") == ["Crêpe stand"])
        #expect(try titles("creme").isEmpty)
        try store.renameTag("Ärger", to: "Ärgerlich")
        #expect(try titles("argerlich") == ["Plain cafe"])
    }

    /// The fold against the standard library's Unicode data, letter by
    /// letter (the C table was made from Python's): a Latin, Greek or
    /// Cyrillic letter that decomposes into a base and combining marks
    /// folds to its base, lowered when it is not ASCII; the letters read as
    /// others fold to those; nothing grows; anything else stays as it is.
    @Test func theFoldMatchesUnicodesDecompositions() {
        let readAs: [Character: String] = [
            "đ": "d", "Đ": "D", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L", "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T",
            "ı": "i", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ß": "ss", "ẞ": "SS", "ŀ": "l", "Ŀ": "L",
            "ð": "d", "Ð": "D", "þ": "th", "Þ": "TH",
        ]
        func expected(_ scalar: Unicode.Scalar) -> String {
            let letter = String(scalar)
            guard scalar.properties.isAlphabetic, scalar.properties.generalCategory != .nonspacingMark else { return letter }
            if let other = readAs[Character(letter)] { return other }
            let parts = (0xFB00...0xFB06).contains(scalar.value)
                ? letter.decomposedStringWithCompatibilityMapping : letter.decomposedStringWithCanonicalMapping
            var base = String(String.UnicodeScalarView(parts.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark }))
            guard !base.isEmpty else { return letter }
            if !base.unicodeScalars.allSatisfy(\.isASCII) {
                let lowered = base.lowercased()
                if lowered.unicodeScalars.count == base.unicodeScalars.count { base = lowered }
            }
            return base.utf8.count > letter.utf8.count ? letter : base
        }
        var folded = 0
        for range in [0xC0..<0x250, 0x370..<0x530, 0x1E00..<0x2000, 0xFB00..<0xFB07] {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let want = expected(scalar)
                #expect(Queries.foldedForSearch(String(scalar)) == want, "U+\(String(value, radix: 16, uppercase: true))")
                if want != String(scalar) { folded += 1 }
            }
        }
        #expect(folded > 1000)
        #expect(Queries.foldedForSearch("plain ASCII, kept") == "plain ASCII, kept")
        #expect(Queries.foldedForSearch("e\u{301}\u{323}x") == "ex")
        #expect(Queries.foldedForSearch("Ελλάδα ΆΡΤΑ") == "ελλαδα αρτα")
        #expect(Queries.foldedForSearch("Позвонить Ёлке") == "позвонить елке")
        #expect(Queries.foldedForSearch("Đà Nẵng, Straße, Øresund, ﬁnance") == "Da Nang, Strasse, Oresund, finance")
        #expect(Queries.foldedForSearch("日本語 🍕") == "日本語 🍕")
    }

    /// A database from before the fold gets a folded index when it is
    /// migrated, with its search triggers folding from then on.
    @Test func aDatabaseFromBeforeTheFoldIsFoldedWhenMigrated() throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try Schema.migrator.migrate(queue, upTo: "v11: triggers and indexes suspended for a bulk load")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO remindersLists (id, title) VALUES ('l1', 'Home');
                INSERT INTO reminders (id, remindersListID, title, notes) VALUES ('a', 'l1', 'Café', 'Crème');
                """)
        }
        try Schema.migrator.migrate(queue)
        let store = RemindersStore(writer: queue, clock: try clock())
        #expect(try store.search("cafe").hits.map(\.row.reminder.id) == ["a"])
        #expect(try store.search("creme").hits.map(\.row.reminder.id) == ["a"])
        try queue.write { db in
            try db.execute(sql: "INSERT INTO reminders (id, remindersListID, title) VALUES ('b', 'l1', 'Naïve')")
        }
        #expect(try store.search("naive").hits.map(\.row.reminder.id) == ["b"])
    }

    /// A bulk load stopped before the fold's migration left the search
    /// triggers aside: the migration puts the folding ones in their place,
    /// and the rows the load wrote are found.
    @Test func aBulkLoadStoppedBeforeTheFoldEndsFolded() throws {
        let queue = try DatabaseQueue(configuration: AppDatabase.configuration())
        try Schema.migrator.migrate(queue, upTo: "v11: triggers and indexes suspended for a bulk load")
        try queue.write { db in
            try db.execute(sql: "INSERT INTO remindersLists (id, title) VALUES ('l1', 'Home')")
            try DerivedData.suspend(db)
            try db.execute(sql: "INSERT INTO reminders (id, remindersListID, title) VALUES ('a', 'l1', 'Crème brûlée')")
        }
        try Schema.migrator.migrate(queue)
        let store = RemindersStore(writer: queue, clock: try clock())
        #expect(try store.search("creme brulee").hits.map(\.row.reminder.id) == ["a"])
        try queue.read { db in
            #expect(try !DerivedData.isSuspended(db))
            let insert = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'reminders_search_insert'")
            #expect(insert?.contains("reminders_fold(new.title)") == true)
        }
    }
}
