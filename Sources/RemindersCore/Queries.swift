import Foundation
import GRDB

/// Which reminders a screen or command shows.
public enum ReminderFilter: Hashable, Sendable {
    case list(String)
    case today
    case scheduled
    case all
    case flagged
    case completed
    case tag(String)
}

public enum SortOrder: String, CaseIterable, Sendable, Codable {
    case manual, due, priority, title

    public var label: String {
        switch self {
        case .manual: "Manual"
        case .due: "Due Date"
        case .priority: "Priority"
        case .title: "Title"
        }
    }
}

/// The smart lists of the home screen with their counts. Counts leave out
/// completed reminders (except, of course, Completed's own).
public struct SmartCounts: Hashable, Sendable, Codable {
    public var today = 0
    public var scheduled = 0
    public var all = 0
    public var flagged = 0
    public var completed = 0
    public var pastDue = 0

    public init() {}
}

/// A list with how many open reminders it holds.
public struct ListSummary: Hashable, Sendable {
    public var list: RemindersList
    public var openCount: Int
    public var hasCover: Bool

    public init(list: RemindersList, openCount: Int, hasCover: Bool) {
        self.list = list
        self.openCount = openCount
        self.hasCover = hasCover
    }
}

public struct TagSummary: Hashable, Sendable {
    public var title: String
    /// Open reminders carrying the tag.
    public var openCount: Int

    public init(title: String, openCount: Int) {
        self.title = title
        self.openCount = openCount
    }
}

/// A reminder as screens and commands show it: with its tags, its list and
/// whether it is past due.
public struct ReminderRow: Hashable, Sendable, Identifiable {
    public var reminder: Reminder
    public var tags: [String]
    public var listTitle: String
    public var listColor: String
    public var isPastDue: Bool

    public init(reminder: Reminder, tags: [String], listTitle: String, listColor: String, isPastDue: Bool) {
        self.reminder = reminder
        self.tags = tags
        self.listTitle = listTitle
        self.listColor = listColor
        self.isPastDue = isPastDue
    }

    public var id: String { reminder.id }
}

/// One search hit: the row and a snippet of the matching text in which
/// matches are wrapped in `Queries.matchStart` / `Queries.matchEnd`.
public struct SearchHit: Hashable, Sendable, Identifiable {
    public var row: ReminderRow
    public var snippet: String
    public var id: String { row.id }

    public init(row: ReminderRow, snippet: String) {
        self.row = row
        self.snippet = snippet
    }
}

public struct SearchResults: Hashable, Sendable {
    public var hits: [SearchHit]
    /// Completed reminders that match, shown or not.
    public var completedCount: Int

    public init(hits: [SearchHit] = [], completedCount: Int = 0) {
        self.hits = hits
        self.completedCount = completedCount
    }
}

/// How far back "clear completed" reaches.
public enum ClearPeriod: String, CaseIterable, Sendable {
    case month, sixMonths = "6months", year, all

    public var label: String {
        switch self {
        case .month: "older than a month"
        case .sixMonths: "older than 6 months"
        case .year: "older than a year"
        case .all: "all"
        }
    }

    /// Completion timestamps strictly before the returned one are cleared.
    func cutoff(_ clock: AppClock) -> String? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = clock.timeZone
        let months: Int
        switch self {
        case .month: months = 1
        case .sixMonths: months = 6
        case .year: months = 12
        case .all: return nil
        }
        let date = calendar.date(byAdding: .month, value: -months, to: clock.now) ?? clock.now
        return clock.timestamp(date)
    }
}

/// Read-only queries. Each is a function of a database connection so that
/// view models can observe it with `ValueObservation`.
public enum Queries {
    /// Private-use characters that mark a match in a search snippet; they
    /// never come from the data (the sanitizer drops them) and the screen
    /// draws the text between them highlighted.
    public static let matchStart: Character = "\u{E000}"
    public static let matchEnd: Character = "\u{E001}"

    public static func smartCounts(_ db: Database, clock: AppClock) throws -> SmartCounts {
        let today = clock.today
        let now = clock.nowDue.description
        // All, Scheduled, Flagged and Completed come from the counts the
        // triggers keep per list; Today and past due depend on the clock, so
        // they count a range of the index of open dated reminders. A due
        // date is "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM": every one of today is
        // at most today + "T99:99", and the date-only ones of today sort
        // before now although they are not past due yet (a date-only
        // reminder is past due from the next day, one with a time from that
        // minute).
        let row = try Row.fetchOne(db, sql: """
            SELECT
              ifnull(sum(openCount), 0) AS allCount,
              ifnull(sum(openScheduledCount), 0) AS scheduledCount,
              ifnull(sum(openFlaggedCount), 0) AS flaggedCount,
              ifnull(sum(completedCount), 0) AS completedCount,
              (SELECT count(*) FROM reminders WHERE status != 'completed' AND dueDate IS NOT NULL AND dueDate <= ?) AS todayCount,
              (SELECT count(*) FROM reminders WHERE status != 'completed' AND dueDate IS NOT NULL AND dueDate < ?)
                - (SELECT count(*) FROM reminders WHERE status != 'completed' AND dueDate IS NOT NULL AND dueDate = ?) AS pastDueCount
            FROM listReminderCounts
            """, arguments: [today + "T99:99", now, today])
        var counts = SmartCounts()
        guard let row else { return counts }
        counts.all = row["allCount"]
        counts.today = row["todayCount"]
        counts.scheduled = row["scheduledCount"]
        counts.flagged = row["flaggedCount"]
        counts.completed = row["completedCount"]
        counts.pastDue = row["pastDueCount"]
        return counts
    }

    public static func lists(_ db: Database) throws -> [ListSummary] {
        try Row.fetchAll(db, sql: """
            SELECT remindersLists.*, ifnull(counts.openCount, 0) AS openCount,
              EXISTS (SELECT 1 FROM remindersListCovers WHERE remindersListID = remindersLists.id) AS hasCover
            FROM remindersLists LEFT JOIN listReminderCounts AS counts ON counts.remindersListID = remindersLists.id
            ORDER BY position, title COLLATE NOCASE, id
            """).map { row in
            ListSummary(list: try RemindersList(row: row), openCount: row["openCount"], hasCover: row["hasCover"])
        }
    }

    public static func tagsInUse(_ db: Database) throws -> [TagSummary] {
        try Row.fetchAll(db, sql: """
            SELECT tags.title, counts.openCount
            FROM tags JOIN tagReminderCounts AS counts ON counts.tagID = tags.title
            WHERE counts.linkCount > 0
            ORDER BY tags.title COLLATE NOCASE
            """).map { TagSummary(title: $0["title"], openCount: $0["openCount"]) }
    }

    /// Every tag, used or not, with its count of open reminders.
    public static func allTags(_ db: Database) throws -> [TagSummary] {
        try Row.fetchAll(db, sql: """
            SELECT tags.title, ifnull(counts.openCount, 0) AS openCount
            FROM tags LEFT JOIN tagReminderCounts AS counts ON counts.tagID = tags.title
            ORDER BY tags.title COLLATE NOCASE
            """).map { TagSummary(title: $0["title"], openCount: $0["openCount"]) }
    }

    public static func list(_ db: Database, id: String) throws -> RemindersList? {
        try RemindersList.fetchOne(db, key: id)
    }

    public static func cover(_ db: Database, listID: String) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT image FROM remindersListCovers WHERE remindersListID = ?", arguments: [listID])
    }

    public static func tags(_ db: Database, reminderID: String) throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT tagID FROM remindersTags WHERE reminderID = ? ORDER BY tagID COLLATE NOCASE
            """, arguments: [reminderID])
    }

    static let rowColumns = """
        reminders.*, remindersLists.title AS listTitle, remindersLists.color AS listColor,
        (SELECT group_concat(tagID, char(31)) FROM (SELECT tagID FROM remindersTags WHERE reminderID = reminders.id ORDER BY tagID COLLATE NOCASE)) AS tagList
        """

    static func reminderRow(_ row: Row, clock: AppClock) throws -> ReminderRow {
        let reminder = try Reminder(row: row)
        let tagList: String? = row["tagList"]
        return ReminderRow(
            reminder: reminder,
            tags: tagList.map { $0.split(separator: "\u{1F}").map(String.init) } ?? [],
            listTitle: row["listTitle"],
            listColor: row["listColor"],
            isPastDue: reminder.status != .completed && isPastDue(reminder.dueDate, clock: clock))
    }

    public static func isPastDue(_ due: DueDate?, clock: AppClock) -> Bool {
        guard let due else { return false }
        if due.hasTime { return due.description < clock.nowDue.description }
        return due.dateString < clock.today
    }

    /// Reminders for a filter, sorted. With `showCompleted` false, completed
    /// reminders are left out (reminders still "completing" stay, so the
    /// user can undo). The Completed filter always shows completed ones.
    public static func reminders(
        _ db: Database, filter: ReminderFilter, sort: SortOrder, showCompleted: Bool, clock: AppClock, limit: Int? = nil
    ) throws -> [ReminderRow] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        switch filter {
        case .list(let id):
            conditions.append("reminders.remindersListID = ?")
            arguments += [id]
        case .today:
            conditions.append("reminders.dueDate IS NOT NULL AND substr(reminders.dueDate, 1, 10) <= ?")
            arguments += [clock.today]
        case .scheduled:
            conditions.append("reminders.dueDate IS NOT NULL")
        case .all:
            break
        case .flagged:
            conditions.append("reminders.isFlagged")
        case .completed:
            conditions.append("reminders.status = 'completed'")
        case .tag(let tag):
            conditions.append("reminders.id IN (SELECT reminderID FROM remindersTags WHERE tagID = ?)")
            arguments += [tag]
        }
        if !showCompleted, filter != .completed {
            conditions.append("reminders.status != 'completed'")
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let order = orderBy(sort, filter: filter)
        let from = "FROM reminders JOIN remindersLists ON remindersLists.id = reminders.remindersListID"
        guard let limit else {
            return try Row.fetchAll(db, sql: "SELECT \(rowColumns) \(from) \(whereClause) ORDER BY \(order)", arguments: arguments)
                .map { try reminderRow($0, clock: clock) }
        }
        // A window of a long list: sort the keys first, from an index where
        // one covers them, and read whole rows (with their tags) only for
        // the window. A list sorted by list order needs the lists; the
        // others do not.
        let keysFrom = order.contains("remindersLists.") ? from : "FROM reminders"
        return try Row.fetchAll(db, sql: """
            SELECT \(rowColumns) \(from)
            WHERE reminders.rowid IN (SELECT reminders.rowid \(keysFrom) \(whereClause) ORDER BY \(order) LIMIT \(max(0, limit)))
            ORDER BY \(order)
            """, arguments: arguments).map { try reminderRow($0, clock: clock) }
    }

    static func orderBy(_ sort: SortOrder, filter: ReminderFilter) -> String {
        let completedLast = "reminders.status = 'completed'"
        switch sort {
        case .manual:
            if case .list = filter {
                return "\(completedLast), reminders.position, reminders.id"
            }
            return "\(completedLast), remindersLists.position, remindersLists.id, reminders.position, reminders.id"
        case .due:
            return "\(completedLast), reminders.dueDate IS NULL, reminders.dueDate, reminders.position, reminders.id"
        case .priority:
            return "\(completedLast), reminders.priority DESC, reminders.dueDate IS NULL, reminders.dueDate, reminders.position, reminders.id"
        case .title:
            return "\(completedLast), reminders.title COLLATE NOCASE, reminders.id"
        }
    }

    public static func reminder(_ db: Database, id: String, clock: AppClock) throws -> ReminderRow? {
        try Row.fetchOne(db, sql: """
            SELECT \(rowColumns)
            FROM reminders JOIN remindersLists ON remindersLists.id = reminders.remindersListID
            WHERE reminders.id = ?
            """, arguments: [id]).map { try reminderRow($0, clock: clock) }
    }

    /// Searches titles, notes and tags. Three characters or more use the
    /// trigram index; shorter text falls back to LIKE.
    public static func search(
        _ db: Database, text raw: String, showCompleted: Bool, clock: AppClock, limit: Int = 500
    ) throws -> SearchResults {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return SearchResults() }
        let matchIDs: String
        var arguments: StatementArguments
        if text.count >= 3 {
            let phrase = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
            matchIDs = "SELECT rowid FROM reminderSearch WHERE reminderSearch MATCH ?"
            arguments = [phrase]
        } else {
            let pattern = "%" + text.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
            matchIDs = """
                SELECT rowid FROM reminderSearch
                WHERE title LIKE ?1 ESCAPE '\\' OR notes LIKE ?1 ESCAPE '\\' OR tags LIKE ?1 ESCAPE '\\'
                """
            arguments = [pattern]
        }
        // "+rowid" keeps SQLite from reading every hit's row to learn its
        // status and title: the completed ones are counted from their own
        // index, and open hits come in title order from theirs, stopping
        // at the limit.
        let completedCount = try Int.fetchOne(db, sql: """
            SELECT count(*) FROM reminders WHERE +rowid IN (\(matchIDs)) AND status = 'completed'
            """, arguments: arguments) ?? 0
        let order = "reminders.status = 'completed', reminders.title COLLATE NOCASE, reminders.id"
        let keys = showCompleted
            ? "SELECT rowid FROM reminders WHERE rowid IN (\(matchIDs)) ORDER BY \(order) LIMIT \(limit)"
            : """
              SELECT rowid FROM reminders WHERE +rowid IN (\(matchIDs)) AND status != 'completed'
              ORDER BY title COLLATE NOCASE, id LIMIT \(limit)
              """
        let rows = try Row.fetchAll(db, sql: """
            SELECT \(rowColumns)
            FROM reminders JOIN remindersLists ON remindersLists.id = reminders.remindersListID
            WHERE reminders.rowid IN (\(keys))
            ORDER BY \(order)
            """, arguments: arguments)
        let hits = try rows.map { row -> SearchHit in
            let reminderRow = try reminderRow(row, clock: clock)
            return SearchHit(row: reminderRow, snippet: snippet(for: reminderRow, matching: text))
        }
        return SearchResults(hits: hits, completedCount: completedCount)
    }

    /// A short excerpt of the first field that contains the text, with every
    /// match (case-insensitive) wrapped in the match markers.
    public static func snippet(for row: ReminderRow, matching text: String, radius: Int = 30) -> String {
        let candidates = [row.reminder.title, row.reminder.notes, row.tags.map { "#" + $0 }.joined(separator: " ")]
        for field in candidates {
            let flat = field.replacingOccurrences(of: "\n", with: " ")
            guard let first = flat.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) else { continue }
            let start = flat.index(first.lowerBound, offsetBy: -radius, limitedBy: flat.startIndex) ?? flat.startIndex
            let end = flat.index(first.upperBound, offsetBy: radius, limitedBy: flat.endIndex) ?? flat.endIndex
            var excerpt = String(flat[start..<end])
            excerpt = excerpt.replacingOccurrences(of: String(matchStart), with: "").replacingOccurrences(of: String(matchEnd), with: "")
            var result = ""
            var rest = Substring(excerpt)
            while let match = rest.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) {
                result += rest[..<match.lowerBound]
                result.append(matchStart)
                result += rest[match]
                result.append(matchEnd)
                rest = rest[match.upperBound...]
            }
            result += rest
            return (start > flat.startIndex ? "…" : "") + result + (end < flat.endIndex ? "…" : "")
        }
        return row.reminder.title
    }
}
