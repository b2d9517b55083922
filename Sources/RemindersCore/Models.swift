import Crypto
import Foundation
import GRDB

/// A list of reminders.
public struct RemindersList: Codable, Hashable, Sendable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "remindersLists"
    public var id: String
    public var title: String
    /// "#rrggbb", lower case.
    public var color: String
    public var position: Int

    public init(id: String = newID(), title: String, color: String = "#4a99ef", position: Int = 0) {
        self.id = id
        self.title = title
        self.color = color
        self.position = position
    }
}

/// A list's cover image, kept in its own table so that list rows stay small
/// and the image syncs as an asset.
public struct RemindersListCover: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "remindersListCovers"
    public var remindersListID: String
    /// PNG bytes.
    public var image: Data

    public init(remindersListID: String, image: Data) {
        self.remindersListID = remindersListID
        self.image = image
    }
}

public enum Priority: Int, Codable, Hashable, Sendable, CaseIterable, Comparable {
    case none = 0, low = 1, medium = 2, high = 3

    public var name: String {
        switch self {
        case .none: "none"
        case .low: "low"
        case .medium: "medium"
        case .high: "high"
        }
    }

    public init?(name: String) {
        guard let match = Priority.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = match
    }

    /// "!" to "!!!", empty for none.
    public var marks: String { String(repeating: "!", count: rawValue) }

    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
}

/// Completing is the few seconds between the user ticking a reminder and it
/// leaving the list, so that the tick can be undone.
public enum ReminderStatus: String, Codable, Hashable, Sendable, CaseIterable {
    case incomplete, completing, completed
}

public struct Reminder: Codable, Hashable, Sendable, Identifiable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "reminders"
    public var id: String
    public var remindersListID: String
    public var title: String
    public var notes: String
    public var dueDate: DueDate?
    public var priority: Priority
    public var isFlagged: Bool
    public var status: ReminderStatus
    /// "YYYY-MM-DDTHH:MM:SS" of the app clock when the reminder was completed.
    public var completedAt: String?
    public var position: Int
    /// The reminder this one is a subtask of (in the same list), or nil.
    public var parentID: String?
    /// The repeat rule as RRULE text (`RepeatRule.rrule`), or nil.
    public var repeatRule: String?
    /// On a completed occurrence's copy, the repeating reminder it came from.
    public var repeatOf: String?
    /// Seconds before the due time that the alert comes; nil: at the due time.
    public var alertBefore: Int?
    /// On a repeating reminder moved off its schedule, the scheduled due
    /// date of the occurrence it stands for (`Repeats`); on a completed
    /// copy of such an occurrence, that occurrence. Nil when the due date
    /// is the occurrence's own.
    public var occurrence: DueDate?
    /// What an iCalendar import kept of the to-do beyond the fields above
    /// (X- properties, alarms, parameters), as the text of a VTODO; nil
    /// for a reminder that never came from iCalendar.
    public var icalendar: String?

    public init(
        id: String = newID(), remindersListID: String, title: String, notes: String = "",
        dueDate: DueDate? = nil, priority: Priority = .none, isFlagged: Bool = false,
        status: ReminderStatus = .incomplete, completedAt: String? = nil, position: Int = 0,
        parentID: String? = nil, repeatRule: String? = nil, repeatOf: String? = nil, alertBefore: Int? = nil,
        icalendar: String? = nil, occurrence: DueDate? = nil
    ) {
        self.icalendar = icalendar
        self.occurrence = occurrence
        self.parentID = parentID
        self.repeatRule = repeatRule
        self.repeatOf = repeatOf
        self.alertBefore = alertBefore
        self.id = id
        self.remindersListID = remindersListID
        self.title = title
        self.notes = notes
        self.dueDate = dueDate
        self.priority = priority
        self.isFlagged = isFlagged
        self.status = status
        self.completedAt = completedAt
        self.position = position
    }

    public var isCompleted: Bool { status == .completed }
}

extension Reminder {
    /// Decodes a row; the due date is read by `DueDate(stored:)`, so a bad
    /// one reads as none.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        remindersListID = try container.decode(String.self, forKey: .remindersListID)
        title = try container.decode(String.self, forKey: .title)
        notes = try container.decode(String.self, forKey: .notes)
        dueDate = DueDate(stored: (try? container.decodeIfPresent(String.self, forKey: .dueDate)) ?? nil)
        priority = try container.decode(Priority.self, forKey: .priority)
        isFlagged = try container.decode(Bool.self, forKey: .isFlagged)
        status = try container.decode(ReminderStatus.self, forKey: .status)
        completedAt = try container.decodeIfPresent(String.self, forKey: .completedAt)
        position = try container.decode(Int.self, forKey: .position)
        parentID = try container.decodeIfPresent(String.self, forKey: .parentID)
        repeatRule = try container.decodeIfPresent(String.self, forKey: .repeatRule)
        repeatOf = try container.decodeIfPresent(String.self, forKey: .repeatOf)
        alertBefore = try container.decodeIfPresent(Int.self, forKey: .alertBefore)
        icalendar = try container.decodeIfPresent(String.self, forKey: .icalendar)
        occurrence = DueDate(stored: (try? container.decodeIfPresent(String.self, forKey: .occurrence)) ?? nil)
    }
}

/// A reminder's row, read and written column by column. GRDB would go
/// through `Codable` instead, a keyed container per row: decoding and
/// encoding were a fifth of a 10,000-reminder iCalendar import.
extension Reminder {
    public init(row: Row) throws {
        id = try row.decode(forColumn: "id")
        remindersListID = try row.decode(forColumn: "remindersListID")
        title = try row.decode(forColumn: "title")
        notes = try row.decode(forColumn: "notes")
        // As `init(from:)`: a due date that does not read is none.
        dueDate = DueDate(stored: String.fromDatabaseValue(try row.decode(DatabaseValue.self, forColumn: "dueDate")))
        let priorityValue: Int = try row.decode(forColumn: "priority")
        guard let priority = Priority(rawValue: priorityValue) else {
            throw CoreError.database("reminder \(id) has priority \(priorityValue)")
        }
        self.priority = priority
        isFlagged = try row.decode(forColumn: "isFlagged")
        let statusValue: String = try row.decode(forColumn: "status")
        guard let status = ReminderStatus(rawValue: statusValue) else {
            throw CoreError.database("reminder \(id) has status '\(statusValue)'")
        }
        self.status = status
        completedAt = try row.decode(forColumn: "completedAt")
        position = try row.decode(forColumn: "position")
        parentID = try row.decode(forColumn: "parentID")
        repeatRule = try row.decode(forColumn: "repeatRule")
        repeatOf = try row.decode(forColumn: "repeatOf")
        alertBefore = try row.decode(forColumn: "alertBefore")
        icalendar = try row.decode(forColumn: "icalendar")
        occurrence = DueDate(stored: String.fromDatabaseValue(try row.decode(DatabaseValue.self, forColumn: "occurrence")))
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["remindersListID"] = remindersListID
        container["title"] = title
        container["notes"] = notes
        container["dueDate"] = dueDate
        container["priority"] = priority.rawValue
        container["isFlagged"] = isFlagged
        container["status"] = status.rawValue
        container["completedAt"] = completedAt
        container["position"] = position
        container["parentID"] = parentID
        container["repeatRule"] = repeatRule
        container["repeatOf"] = repeatOf
        container["alertBefore"] = alertBefore
        container["icalendar"] = icalendar
        container["occurrence"] = occurrence
    }
}

/// A tag: its key (`TagKey.of(title)`, the row's identity) and the
/// spelling shown, which merges like any other field.
public struct Tag: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "tags"
    public var id: String
    public var title: String

    /// A tag spelled `title`, under that title's key.
    public init(title: String) {
        self.id = TagKey.of(title)
        self.title = title
    }
}

/// A reminder carries a tag. `tagID` is the tag's key.
public struct ReminderTag: Codable, Hashable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "remindersTags"
    public var id: String
    public var reminderID: String
    public var tagID: String

    public init(id: String? = nil, reminderID: String, tagID: String) {
        self.id = id ?? ReminderTag.linkID(reminderID: reminderID, tagKey: tagID)
        self.reminderID = reminderID
        self.tagID = tagID
    }

    /// The id of the link between a reminder and a tag, derived from both,
    /// so that two devices tagging the same reminder with the same tag at
    /// once create one link, not two. Shaped like the other ids (a UUID
    /// made of the first half of a SHA-256), and for a tag whose key is
    /// its lower-cased title the same id links had before tags had keys.
    public static func linkID(reminderID: String, tagKey: String) -> String {
        RemindersCore.derivedID(reminderID, tagKey)
    }
}

/// A new lower-case UUID string, the form every primary key takes.
public func newID() -> String {
    UUID().uuidString.lowercased()
}

/// An id derived from `parts`: every device that derives it from the
/// same parts gets the same id, so rows two devices make for the same
/// thing at once (a tag link, a completed occurrence) are one record.
public func derivedID(_ parts: String...) -> String {
    let digest = SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8))
    var text: [UInt8] = []
    text.reserveCapacity(36)
    for (index, byte) in digest.prefix(16).enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
        text.append(derivedIDHexDigits[Int(byte >> 4)])
        text.append(derivedIDHexDigits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}

private let derivedIDHexDigits = Array("0123456789abcdef".utf8)
