import Crypto
import Foundation
import GRDB

/// The canonical dump of everything a device shows (`reminders export
/// --json`): lists, reminders and tags, each sorted by id (tags by title,
/// case-insensitively: by key), so two devices that agree produce
/// identical bytes.
public struct ExportDump: Codable, Equatable, Sendable {
    public struct List: Codable, Equatable, Sendable {
        public var id: String
        public var title: String
        public var color: String
        public var position: Int
        public var coverImageSHA256: String?
        public var owner: String

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(title, forKey: .title)
            try c.encode(color, forKey: .color)
            try c.encode(position, forKey: .position)
            try c.encode(coverImageSHA256, forKey: .coverImageSHA256)
            try c.encode(owner, forKey: .owner)
        }
    }

    public struct Item: Codable, Equatable, Sendable {
        public var id: String
        public var listID: String
        public var title: String
        public var notes: String
        public var dueDate: String?
        public var priority: String
        public var isFlagged: Bool
        public var status: String
        public var position: Int
        public var tags: [String]
        /// The RRULE text, or nil.
        public var repeatRule: String?
        /// The parent reminder's id for a subtask, or nil.
        public var parentID: String?
        /// Seconds before the due time the alert comes, or nil (at the due time).
        public var alertBefore: Int?
        /// On a completed occurrence's copy, the repeating reminder it came from.
        public var repeatOf: String?
        /// On a series moved off its schedule, the occurrence its due date
        /// stands for (and on that occurrence's copy); nil when the due
        /// date is the occurrence's own.
        public var occurrence: String?

        /// The export shape of a reminder; tags (their titles as shown) are
        /// sorted by key, so case-insensitively.
        public init(reminder: Reminder, tags: [String]) {
            id = reminder.id
            listID = reminder.remindersListID
            title = reminder.title
            notes = reminder.notes
            dueDate = reminder.dueDate?.description
            priority = reminder.priority.name
            isFlagged = reminder.isFlagged
            status = reminder.status.rawValue
            position = reminder.position
            repeatRule = reminder.repeatRule
            parentID = reminder.parentID
            alertBefore = reminder.alertBefore
            repeatOf = reminder.repeatOf
            occurrence = reminder.occurrence?.description
            self.tags = tags.map { (TagKey.of($0), $0) }.sorted { $0 < $1 }.map(\.1)
        }

        public func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(listID, forKey: .listID)
            try c.encode(title, forKey: .title)
            try c.encode(notes, forKey: .notes)
            try c.encode(dueDate, forKey: .dueDate)
            try c.encode(priority, forKey: .priority)
            try c.encode(isFlagged, forKey: .isFlagged)
            try c.encode(status, forKey: .status)
            try c.encode(position, forKey: .position)
            try c.encode(tags, forKey: .tags)
            try c.encode(repeatRule, forKey: .repeatRule)
            try c.encode(parentID, forKey: .parentID)
            try c.encode(alertBefore, forKey: .alertBefore)
            try c.encode(repeatOf, forKey: .repeatOf)
            try c.encode(occurrence, forKey: .occurrence)
        }
    }

    public struct TagEntry: Codable, Equatable, Sendable {
        public var title: String
    }

    public var lists: [List]
    public var reminders: [Item]
    public var tags: [TagEntry]

    /// Reads the dump. `owner` names the user who owns a list (the list's
    /// id in, the owner's name out); sharing knows it, the core does not.
    public static func read(_ db: Database, owner: (String) -> String) throws -> ExportDump {
        let covers = try Row.fetchAll(db, sql: "SELECT remindersListID, image FROM remindersListCovers")
        var coverHashes: [String: String] = [:]
        for row in covers {
            let image: Data = row["image"]
            coverHashes[row["remindersListID"]] = hexDigits(SHA256.hash(data: image))
        }
        let lists = try RemindersList.order(Column("id")).fetchAll(db).map {
            List(id: $0.id, title: $0.title, color: $0.color, position: $0.position,
                 coverImageSHA256: coverHashes[$0.id], owner: owner($0.id))
        }
        var tagsByReminder: [String: [String]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT remindersTags.reminderID, tags.title FROM remindersTags JOIN tags ON tags.id = remindersTags.tagID
            """) {
            tagsByReminder[row["reminderID"], default: []].append(row["title"])
        }
        let reminders = try Reminder.order(Column("id")).fetchAll(db).map {
            Item(reminder: $0, tags: tagsByReminder[$0.id] ?? [])
        }
        let tags = try String.fetchAll(db, sql: "SELECT title FROM tags ORDER BY id").map(TagEntry.init)
        return ExportDump(lists: lists, reminders: reminders, tags: tags)
    }

    /// Pretty-printed JSON with sorted keys.
    public func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Self.printable(try encoder.encode(self))
    }

    /// Pretty-printed JSON as the command line prints it: terminal controls
    /// escaped, and empty arrays and objects written `[]` and `{}` (the
    /// encoder writes them over three lines).
    public static func printable(_ json: Data) -> String {
        escapingTerminalControls(compactingEmptyContainers(String(decoding: json, as: UTF8.self)))
    }

    /// `[`, a blank line, `]` becomes `[]` (likewise `{}`). A JSON string
    /// cannot hold a raw newline, so the pattern only meets the encoder's
    /// own layout.
    static func compactingEmptyContainers(_ json: String) -> String {
        json.replacingOccurrences(of: #"\[\n\s*\]"#, with: "[]", options: .regularExpression)
            .replacingOccurrences(of: #"\{\n\s*\}"#, with: "{}", options: .regularExpression)
    }

    /// JSON with the characters a terminal could act on escaped as `\uXXXX`:
    /// the encoder escapes C0 controls only, and DEL, C1 controls (CSI, OSC)
    /// and bidi overrides from another user's data would reach the terminal
    /// of whoever prints the JSON. Such characters can only stand inside
    /// JSON strings, so the text decodes to the same values.
    public static func escapingTerminalControls(_ json: String) -> String {
        func unsafe(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }
        guard json.unicodeScalars.contains(where: unsafe) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if unsafe(scalar) {
                result.append(contentsOf: String(format: "\\u%04x", scalar.value).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
