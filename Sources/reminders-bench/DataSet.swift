import Foundation
import GRDB
import RemindersCore

/// A seeded generator (SplitMix64): the same seed gives the same data on
/// every machine, so runs compare.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// True with probability `p`.
    mutating func chance(_ p: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < p
    }

    /// A lower-case version-4 UUID drawn from the generator.
    mutating func uuid() -> String {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &self) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let chars = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }
}

/// The rows of a benchmark world, generated in memory once per size and
/// then written wherever a measurement needs them.
///
/// The shape follows a real user's data: 20 lists of uneven size (a few big
/// ones), three with a cover image; about 30 tags, most reminders with none
/// or one; 60 % with a due date around "now" (a third of them with a time),
/// a skewed priority mix, 10 % flagged, 30 % completed; a third with notes.
struct DataSet: Sendable {
    struct List: Sendable {
        var id: String
        var title: String
        var color: String
        var position: Int
    }

    struct Item: Sendable {
        var id: String
        var listID: String
        var title: String
        var notes: String
        var dueDate: String?
        var priority: Int
        var isFlagged: Bool
        var status: String
        var completedAt: String?
        var position: Int
    }

    struct Link: Sendable {
        var id: String
        var reminderID: String
        /// The tag's key.
        var tagID: String
    }

    var lists: [List] = []
    var covers: [(listID: String, png: Data)] = []
    var tags: [String] = []
    var reminders: [Item] = []
    var links: [Link] = []

    /// "Now" for every run: due dates spread around it, and the app's clock
    /// is pinned to it so Today and past-due counts do not drift.
    static let now = "2026-03-01T10:00:00Z"
    static var clock: AppClock {
        // The local zone, which `main` sets to UTC, as the app's clock reads it.
        AppClock(pinned: AppClock.parseMoment(now))
    }

    /// A word of many titles, so a search for it returns a page of hits.
    static let searchTerm = "invoice"
    /// A phrase few reminders hold (about one in a thousand).
    static let rareSearchTerm = "dentist #1"

    static let listTitles = [
        "Personal", "Work", "Groceries", "Home", "Errands", "Family", "Health", "Finance", "Travel", "Reading",
        "Garden", "Car", "Projects", "Gifts", "Fitness", "Learning", "Kids", "Music", "Side project", "Someday",
    ]
    static let tagTitles = [
        "work", "home", "errands", "urgent", "phone", "email", "waiting", "someday", "weekend", "computer",
        "office", "bills", "health", "family", "kids", "garden", "car", "travel", "reading", "café",
        "shopping", "call", "meeting", "review", "Q1", "Q2", "focus", "low-energy", "outside", "日本語",
    ]
    static let verbs = [
        "Buy", "Call", "Email", "Pay", "Book", "Fix", "Clean", "Review", "Write", "Plan", "Order", "Renew",
        "Schedule", "Return", "Pick up", "Send", "Check", "Update", "Prepare", "Cancel",
    ]
    static let objects = [
        "milk", "the dentist", "invoice", "rent", "flights", "the bike", "the garage", "quarterly report",
        "birthday card", "groceries", "passport", "car insurance", "the plumber", "slides for Monday",
        "library books", "tax return", "parcel", "doctor's appointment", "photos", "the newsletter",
        "water bill", "hotel", "team lunch", "oil change", "school forms", "gym membership", "backup drive",
        "recipe ideas", "Zoë's present", "coffee beans",
    ]
    static let noteLines = [
        "Ask about the discount first.", "Reference number is on the last email.", "Only after the 15th.",
        "Bring the receipt and the warranty card.", "Two copies, one signed.", "See the shared folder for details.",
        "Call back if nobody answers before noon.", "Remember the code: 4521.",
    ]

    /// Generates `count` reminders with the given seed.
    static func generate(reminders count: Int, seed: UInt64 = 20260301) -> DataSet {
        var random = SeededGenerator(seed: seed ^ UInt64(count))
        var data = DataSet()
        for (index, title) in listTitles.enumerated() {
            data.lists.append(List(id: random.uuid(), title: title,
                                   color: RemindersStore.palette[index % RemindersStore.palette.count], position: index))
        }
        for (index, name) in SampleCovers.names.enumerated() {
            if let png = SampleCovers.png(named: name) { data.covers.append((data.lists[index].id, png)) }
        }
        data.tags = tagTitles

        // Lists get reminders in proportion to 1/(rank+1): a few big lists.
        let weights = (0..<listTitles.count).map { 1.0 / Double($0 + 1) }
        let totalWeight = weights.reduce(0, +)
        var cumulative: [Double] = []
        var running = 0.0
        for weight in weights {
            running += weight / totalWeight
            cumulative.append(running)
        }
        // Due dates from 60 days ago to 120 days ahead, mostly near today.
        let calendar: Calendar = {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
            return calendar
        }()
        let today = AppClock.parseMoment(now) ?? Date()
        let days = (-60...120).map { offset -> String in
            let date = calendar.date(byAdding: .day, value: offset, to: today) ?? today
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 2026, parts.month ?? 1, parts.day ?? 1)
        }
        var positions = [Int](repeating: 0, count: listTitles.count)
        data.reminders.reserveCapacity(count)
        for index in 0..<count {
            let pick = Double.random(in: 0..<1, using: &random)
            let list = cumulative.firstIndex { pick < $0 } ?? listTitles.count - 1
            let verb = verbs.randomElement(using: &random) ?? "Do"
            let object = objects.randomElement(using: &random) ?? "it"
            let title = random.chance(0.3) ? "\(verb) \(object) #\(index % 97)" : "\(verb) \(object)"
            let notes = random.chance(0.33)
                ? (0..<Int.random(in: 1...3, using: &random)).map { _ in noteLines.randomElement(using: &random) ?? "" }
                    .joined(separator: "\n")
                : ""
            var dueDate: String?
            if random.chance(0.6) {
                // Triangular around today: most due dates are close.
                let offset = Int((Double.random(in: -1...1, using: &random) + Double.random(in: -1...1, using: &random)) * 45)
                let day = days[max(0, min(days.count - 1, offset + 60))]
                dueDate = random.chance(0.33)
                    ? day + String(format: "T%02d:%02d", Int.random(in: 7...20, using: &random), [0, 15, 30, 45][Int.random(in: 0...3, using: &random)])
                    : day
            }
            let priorityPick = Double.random(in: 0..<1, using: &random)
            let priority = priorityPick < 0.7 ? 0 : priorityPick < 0.8 ? 1 : priorityPick < 0.92 ? 2 : 3
            let completed = random.chance(0.3)
            let item = Item(
                id: random.uuid(), listID: data.lists[list].id, title: title, notes: notes, dueDate: dueDate,
                priority: priority, isFlagged: random.chance(0.1), status: completed ? "completed" : "incomplete",
                completedAt: completed ? days[Int.random(in: 0...59, using: &random)] + "T12:00:00" : nil,
                position: positions[list])
            positions[list] += 1
            data.reminders.append(item)
            let tagPick = Double.random(in: 0..<1, using: &random)
            let tagCount = tagPick < 0.4 ? 0 : tagPick < 0.75 ? 1 : tagPick < 0.95 ? 2 : 3
            var chosen: [String] = []
            while chosen.count < tagCount {
                // Early tags are more common.
                let rank = Int(Double(tagTitles.count) * pow(Double.random(in: 0..<1, using: &random), 2))
                let tag = tagTitles[min(rank, tagTitles.count - 1)]
                if !chosen.contains(tag) { chosen.append(tag) }
            }
            for tag in chosen {
                let key = TagKey.of(tag)
                data.links.append(Link(id: ReminderTag.linkID(reminderID: item.id, tagKey: key), reminderID: item.id, tagID: key))
            }
        }
        return data
    }

    /// Writes every row in the current transaction with one prepared
    /// statement per table. Links go in before their reminders (foreign keys
    /// deferred to the commit) so each reminder's search entry is written
    /// once, with its tags, instead of once more per tag.
    func insert(into db: Database) throws {
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        let list = try db.makeStatement(sql: "INSERT INTO remindersLists (id, title, color, position) VALUES (?, ?, ?, ?)")
        for row in lists {
            try list.execute(arguments: [row.id, row.title, row.color, row.position])
        }
        let cover = try db.makeStatement(sql: "INSERT INTO remindersListCovers (remindersListID, image) VALUES (?, ?)")
        for row in covers {
            try cover.execute(arguments: [row.listID, row.png])
        }
        let tag = try db.makeStatement(sql: "INSERT INTO tags (id, title) VALUES (?, ?)")
        for title in tags {
            try tag.execute(arguments: [TagKey.of(title), title])
        }
        let link = try db.makeStatement(sql: "INSERT INTO remindersTags (id, reminderID, tagID) VALUES (?, ?, ?)")
        for row in links {
            try link.execute(arguments: [row.id, row.reminderID, row.tagID])
        }
        let reminder = try db.makeStatement(sql: """
            INSERT INTO reminders (id, remindersListID, title, notes, dueDate, priority, isFlagged, status, completedAt, position)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for row in reminders {
            try reminder.execute(arguments: [row.id, row.listID, row.title, row.notes, row.dueDate, row.priority,
                                             row.isFlagged, row.status, row.completedAt, row.position])
        }
    }

    /// The same tables with their columns and primary keys but nothing
    /// else (no indexes, search, triggers or sync): the floor of writing
    /// these rows.
    static let bareSchema = """
        CREATE TABLE remindersLists (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, color TEXT NOT NULL,
          position INTEGER NOT NULL) STRICT;
        CREATE TABLE remindersListCovers (remindersListID TEXT PRIMARY KEY NOT NULL, image BLOB NOT NULL) STRICT;
        CREATE TABLE reminders (id TEXT PRIMARY KEY NOT NULL, remindersListID TEXT NOT NULL, title TEXT NOT NULL,
          notes TEXT NOT NULL, dueDate TEXT, priority INTEGER NOT NULL, isFlagged INTEGER NOT NULL, status TEXT NOT NULL,
          completedAt TEXT, position INTEGER NOT NULL) STRICT;
        CREATE TABLE tags (id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL) STRICT;
        CREATE TABLE remindersTags (id TEXT PRIMARY KEY NOT NULL, reminderID TEXT NOT NULL, tagID TEXT NOT NULL) STRICT;
        """

    /// The id of the list with the most reminders (the one a list-detail
    /// measurement opens).
    var biggestListID: String {
        var counts: [String: Int] = [:]
        for item in reminders { counts[item.listID, default: 0] += 1 }
        return counts.max { $0.value < $1.value }?.key ?? lists[0].id
    }
}
