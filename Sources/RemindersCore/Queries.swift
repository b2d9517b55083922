import Foundation
import GRDB
import GRDBSQLite
import CSQLiteSetup

/// Which reminders a screen or command shows.
public enum ReminderFilter: Hashable, Sendable {
    case list(String)
    case today
    case scheduled
    case all
    case flagged
    case completed
    /// A tag's reminders; the tag spelled any way that has its key.
    case tag(String)

    /// Today and Scheduled: about when, they hold dated reminders only.
    public var isDated: Bool { self == .today || self == .scheduled }
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

public struct TagSummary: Hashable, Sendable, Identifiable {
    /// The tag's key, `TagKey.of(title)`.
    public var id: String
    /// The spelling shown.
    public var title: String
    /// Open reminders carrying the tag.
    public var openCount: Int

    public init(id: String? = nil, title: String, openCount: Int) {
        self.id = id ?? TagKey.of(title)
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
    /// A subtask's parent's title, for context where it shows apart from
    /// its parent (smart lists, search).
    public var parentTitle: String?
    /// How many of its subtasks are open, and how many it has.
    public var openSubtasks: Int
    public var subtasks: Int

    public init(reminder: Reminder, tags: [String], listTitle: String, listColor: String, isPastDue: Bool,
                parentTitle: String? = nil, openSubtasks: Int = 0, subtasks: Int = 0) {
        self.reminder = reminder
        self.tags = tags
        self.listTitle = listTitle
        self.listColor = listColor
        self.isPastDue = isPastDue
        self.parentTitle = parentTitle
        self.openSubtasks = openSubtasks
        self.subtasks = subtasks
    }

    /// Whether it is a subtask.
    public var isSubtask: Bool { reminder.parentID != nil }

    public var id: String { reminder.id }
}

/// Where a search hit's snippet comes from.
public enum SearchField: Hashable, Sendable {
    case title, notes, tags
}

/// One search hit: the row and a snippet of the matching text in which
/// matches are wrapped in `Queries.matchStart` / `Queries.matchEnd`.
public struct SearchHit: Hashable, Sendable, Identifiable {
    public var row: ReminderRow
    public var snippet: String
    /// The field the snippet is from: the first that holds the text; nil
    /// when none does (the snippet is then the title).
    public var field: SearchField?
    public var id: String { row.id }

    public init(row: ReminderRow, snippet: String, field: SearchField? = nil) {
        self.row = row
        self.snippet = snippet
        self.field = field
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
        // at most `DueDate.lastStored(on: today)`, and the date-only ones of
        // today sort before now although they are not past due yet (a
        // date-only reminder is past due from the next day, one with a time
        // from that minute).
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
            """, arguments: [DueDate.lastStored(on: today), now, today])
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
            ORDER BY position, title COLLATE reminders_title, id
            """).map { row in
            ListSummary(list: try RemindersList(row: row), openCount: row["openCount"], hasCover: row["hasCover"])
        }
    }

    public static func tagsInUse(_ db: Database) throws -> [TagSummary] {
        try Row.fetchAll(db, sql: """
            SELECT tags.id, tags.title, counts.openCount
            FROM tags JOIN tagReminderCounts AS counts ON counts.tagID = tags.id
            WHERE counts.linkCount > 0
            ORDER BY tags.title COLLATE reminders_title, tags.id
            """).map { TagSummary(id: $0["id"], title: $0["title"], openCount: $0["openCount"]) }
    }

    /// Every tag, used or not, with its count of open reminders.
    public static func allTags(_ db: Database) throws -> [TagSummary] {
        try Row.fetchAll(db, sql: """
            SELECT tags.id, tags.title, ifnull(counts.openCount, 0) AS openCount
            FROM tags LEFT JOIN tagReminderCounts AS counts ON counts.tagID = tags.id
            ORDER BY tags.title COLLATE reminders_title, tags.id
            """).map { TagSummary(id: $0["id"], title: $0["title"], openCount: $0["openCount"]) }
    }

    /// The lists in My Lists order, the order a new reminder's list is
    /// chosen from (the first one when none is named).
    public static func listsInOrder(_ db: Database) throws -> [RemindersList] {
        try RemindersList.order(Column("position"), Column("title").collating(.nocase), Column("id")).fetchAll(db)
    }

    public static func list(_ db: Database, id: String) throws -> RemindersList? {
        try RemindersList.fetchOne(db, key: id)
    }

    /// A list's title; nil when the list is not here.
    public static func listTitle(_ db: Database, id: String) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT title FROM remindersLists WHERE id = ?"), arguments: [id])
    }

    /// Whether a list other than `id` has `title` (any case): the title
    /// then no longer names one list where commands take a list's title.
    public static func isListTitleShared(_ db: Database, title: String, by id: String) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM remindersLists WHERE title = ? COLLATE NOCASE AND id <> ?)
            """, arguments: [title.trimmingWhitespace(), id]) ?? false
    }

    /// Every list's title, by id.
    public static func listTitles(_ db: Database) throws -> [String: String] {
        var titles: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, title FROM remindersLists") {
            titles[row[0]] = row[1]
        }
        return titles
    }

    /// How many reminders a list holds, completed ones included.
    public static func reminderCount(_ db: Database, listID: String) throws -> Int {
        try Reminder.filter(Column("remindersListID") == listID).fetchCount(db)
    }

    public static func cover(_ db: Database, listID: String) throws -> Data? {
        try Data.fetchOne(db, sql: "SELECT image FROM remindersListCovers WHERE remindersListID = ?", arguments: [listID])
    }

    /// A reminder's tags as they are spelled, in the order the tag lists
    /// show them (`inTitleOrder`).
    public static func tags(_ db: Database, reminderID: String) throws -> [String] {
        inTitleOrder(try String.fetchAll(db, sql: """
            SELECT tags.title FROM remindersTags JOIN tags ON tags.id = remindersTags.tagID
            WHERE remindersTags.reminderID = ? ORDER BY remindersTags.tagID
            """, arguments: [reminderID]))
    }

    /// Tag titles sorted as the sidebar and `reminders tags` sort them (the
    /// `reminders_title` collation: "élan" before "zoo"). A reminder's
    /// links are read in key order, which the index gives for free, and
    /// sorted here: most rows have one tag or none, and an ORDER BY by
    /// title in the rows' query would sort for every row of a screen.
    static func inTitleOrder(_ titles: [String]) -> [String] {
        guard titles.count > 1 else { return titles }
        return titles.sorted { a, b in
            var a = a, b = b
            return a.withUTF8 { a in
                b.withUTF8 { b in reminders_title_compare(a.baseAddress, a.count, b.baseAddress, b.count) < 0 }
            }
        }
    }

    /// Total and completed reminders of a filter, cheaply (no row decoding).
    public static func counts(_ db: Database, filter: ReminderFilter, clock: AppClock) throws -> (total: Int, completed: Int) {
        var condition = "1"
        var arguments: StatementArguments = []
        switch filter {
        case .list(let id):
            condition = "remindersListID = ?"
            arguments = [id]
        case .today:
            return try datedCounts(db, through: DueDate.lastStored(on: clock.today))
        case .scheduled:
            return try datedCounts(db, through: nil)
        case .all:
            break
        case .flagged:
            condition = "isFlagged"
        case .completed:
            condition = "status = 'completed'"
        case .tag(let tag):
            condition = "id IN (SELECT reminderID FROM remindersTags WHERE tagID = ?)"
            arguments = [TagKey.of(tag)]
        }
        let row = try Row.fetchOne(db, sql: """
            SELECT count(*) AS total, count(*) FILTER (WHERE status = 'completed') AS completed
            FROM reminders WHERE \(condition)
            """, arguments: arguments)
        return (row?["total"] ?? 0, row?["completed"] ?? 0)
    }

    /// Reminders with a due date, at the latest `last` if given (a due
    /// date's text, see `smartCounts`), and the completed ones among them:
    /// two ranges of indexes, all dated reminders and the open ones,
    /// without reading a row. Counting the completed ones in the rows read
    /// a row per reminder, which made Today's count slower than its rows.
    private static func datedCounts(_ db: Database, through last: String?) throws -> (total: Int, completed: Int) {
        let bound = last == nil ? "" : "AND dueDate <= ?1"
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT (SELECT count(*) FROM reminders WHERE dueDate IS NOT NULL \(bound)) AS total,
                   (SELECT count(*) FROM reminders WHERE status != 'completed' AND dueDate IS NOT NULL \(bound)) AS open
            """), arguments: last.map { [$0] } ?? [])
        let total: Int = row?["total"] ?? 0
        let open: Int = row?["open"] ?? 0
        return (total, total - open)
    }

    /// Every tag's title, in the order titles sort.
    public static func tagTitles(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT title FROM tags ORDER BY title COLLATE reminders_title, id")
    }

    /// The colours lists use, one per list.
    public static func listColors(_ db: Database) throws -> [String] {
        try String.fetchAll(db, sql: "SELECT color FROM remindersLists")
    }

    /// A synced row in words, as it is now: its title (a tag link: "#tag on
    /// reminder"), and a reminder's list title; nil for a row that is gone.
    public static func recordTitles(_ db: Database, table: String, key: String) throws -> (title: String?, listTitle: String?) {
        switch table {
        case Reminder.databaseTableName:
            let row = try Row.fetchOne(db, sql: """
                SELECT r.title, l.title AS listTitle FROM reminders r
                LEFT JOIN remindersLists l ON l.id = r.remindersListID WHERE r.id = ?
                """, arguments: [key])
            return (row?["title"], row?["listTitle"])
        case RemindersList.databaseTableName:
            return (try listTitle(db, id: key), nil)
        case RemindersListCover.databaseTableName:
            let title = try String.fetchOne(db, sql: """
                SELECT l.title FROM remindersListCovers c JOIN remindersLists l ON l.id = c.remindersListID
                WHERE c.remindersListID = ?
                """, arguments: [key])
            return (title, nil)
        case Tag.databaseTableName:
            return (try tagTitle(db, key), nil)
        case ReminderTag.databaseTableName:
            let row = try Row.fetchOne(db, sql: """
                SELECT ifnull(tags.title, t.tagID) AS tag, r.title FROM remindersTags t
                JOIN reminders r ON r.id = t.reminderID LEFT JOIN tags ON tags.id = t.tagID WHERE t.id = ?
                """, arguments: [key])
            guard let row else { return (nil, nil) }
            return ("#\(row["tag"] as String) on \(row["title"] as String)", nil)
        default:
            return (nil, nil)
        }
    }

    /// The spelling of the tag `title` names (any case, any accent
    /// encoding), or nil when there is no such tag.
    public static func tagTitle(_ db: Database, _ title: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT title FROM tags WHERE id = ?", arguments: [TagKey.of(title)])
    }

    /// A reminder's tags come in key order from the index of its links
    /// (`reminderRow` sorts them by title).
    static let rowColumns = """
        reminders.*, remindersLists.title AS listTitle, remindersLists.color AS listColor,
        (SELECT group_concat(title, char(31)) FROM (SELECT tags.title FROM remindersTags JOIN tags ON tags.id = remindersTags.tagID
         WHERE remindersTags.reminderID = reminders.id ORDER BY remindersTags.tagID)) AS tagList
        """

    static func reminderRow(_ row: Row, clock: AppClock) throws -> ReminderRow {
        try reminderRow(row, layout: RowLayout(row), now: clock.nowDue)
    }

    /// Fills in the rows' subtask counts and their parents' titles: two
    /// queries for all the rows, and none at all while no reminder is a
    /// subtask (the partial index of parents answers that at once). A
    /// subquery per row cost every screen's read twice over.
    static func addSubtaskInfo(_ db: Database, to rows: inout [ReminderRow]) throws {
        guard !rows.isEmpty,
              try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM reminders WHERE parentID IS NOT NULL)")) == true
        else { return }
        var counts: [String: (all: Int, open: Int)] = [:]
        for row in try Row.fetchAll(db.cachedStatement(sql: """
            SELECT parentID, count(*), total(status != 'completed') FROM reminders
            WHERE parentID IN (SELECT value FROM json_each(?)) GROUP BY parentID
            """), arguments: [jsonArray(rows.map(\.id))]) {
            counts[row[0]] = (row[1], Int(row[2] as Double))
        }
        let parentIDs = Set(rows.compactMap(\.reminder.parentID))
        var titles: [String: String] = [:]
        if !parentIDs.isEmpty {
            for row in try Row.fetchAll(db.cachedStatement(sql: "SELECT id, title FROM reminders WHERE id IN (SELECT value FROM json_each(?))"),
                                        arguments: [jsonArray(Array(parentIDs))]) {
                titles[row[0]] = row[1]
            }
        }
        for index in rows.indices {
            if let count = counts[rows[index].id] {
                rows[index].subtasks = count.all
                rows[index].openSubtasks = count.open
            }
            if let parentID = rows[index].reminder.parentID { rows[index].parentTitle = titles[parentID] }
        }
    }

    /// Rows of `rowColumns`, each decoded as it is stepped, with the
    /// columns found and the clock read once for all of them.
    static func reminderRows(_ db: Database, sql: String, arguments: StatementArguments = [], clock: AppClock) throws -> [ReminderRow] {
        let now = clock.nowDue
        var layout: RowLayout?
        var rows: [ReminderRow] = []
        // Cached: the screens read with a few fixed texts (values are
        // arguments, never spliced in), and compiling them for every read
        // was a few percent of each.
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        while let row = try cursor.next() {
            let found = try layout ?? RowLayout(row)
            layout = found
            rows.append(try reminderRow(row, layout: found, now: now))
        }
        try addSubtaskInfo(db, to: &rows)
        return rows
    }

    /// Where the columns of `rowColumns` are. Looked up by name once per
    /// read: by name in every row, and through `Codable`, decoding cost
    /// more than the SQL.
    struct RowLayout {
        let id, listID, title, notes, dueDate, priority, isFlagged, status, completedAt, position: Int
        let parentID, repeatRule, repeatOf, alertBefore, occurrence: Int
        let listTitle, listColor, tagList: Int

        init(_ row: Row) throws {
            let names = Array(row.columnNames)
            func index(_ name: String) throws -> Int {
                guard let index = names.firstIndex(of: name) else {
                    throw CoreError.database("a reminder was read without its \(name) column")
                }
                return index
            }
            id = try index("id")
            listID = try index("remindersListID")
            title = try index("title")
            notes = try index("notes")
            dueDate = try index("dueDate")
            priority = try index("priority")
            isFlagged = try index("isFlagged")
            status = try index("status")
            completedAt = try index("completedAt")
            position = try index("position")
            parentID = try index("parentID")
            repeatRule = try index("repeatRule")
            repeatOf = try index("repeatOf")
            alertBefore = try index("alertBefore")
            occurrence = try index("occurrence")
            listTitle = try index("listTitle")
            listColor = try index("listColor")
            tagList = try index("tagList")
        }
    }

    /// What `Reminder(row:)` reads, by position: a stored due date that is
    /// not a date reads as none; a priority or status this version does
    /// not know is an error, as it is there.
    static func reminderRow(_ row: Row, layout: RowLayout, now: DueDate) throws -> ReminderRow {
        let id: String = row[layout.id]
        let rawPriority: Int = row[layout.priority]
        let rawStatus: String = row[layout.status]
        guard let priority = Priority(rawValue: rawPriority), let status = ReminderStatus(rawValue: rawStatus) else {
            throw CoreError.database("reminder \(id) has priority \(rawPriority) and status '\(rawStatus)', which this version does not know")
        }
        let reminder = Reminder(
            id: id, remindersListID: row[layout.listID], title: row[layout.title], notes: row[layout.notes],
            dueDate: DueDate(stored: row[layout.dueDate]), priority: priority, isFlagged: row[layout.isFlagged], status: status,
            completedAt: row[layout.completedAt], position: row[layout.position], parentID: row[layout.parentID],
            repeatRule: row[layout.repeatRule], repeatOf: row[layout.repeatOf], alertBefore: row[layout.alertBefore],
            occurrence: DueDate(stored: row[layout.occurrence]))
        let tagList: String? = row[layout.tagList]
        return ReminderRow(
            reminder: reminder,
            tags: tagList.map { inTitleOrder($0.split(separator: "\u{1F}").map(String.init)) } ?? [],
            listTitle: row[layout.listTitle],
            listColor: row[layout.listColor],
            isPastDue: status != .completed && isPastDue(reminder.dueDate, now: now))
    }

    public static func isPastDue(_ due: DueDate?, clock: AppClock) -> Bool {
        isPastDue(due, now: clock.nowDue)
    }

    /// A date alone is past due from the next day; a date with a time,
    /// from that minute.
    static func isPastDue(_ due: DueDate?, now: DueDate) -> Bool {
        guard let due else { return false }
        if due.hasTime { return due < now }
        return (due.year, due.month, due.day) < (now.year, now.month, now.day)
    }

    /// Reminders for a filter, sorted. With `showCompleted` false, completed
    /// reminders are left out (reminders still "completing" stay, so the
    /// user can undo). The Completed filter always shows completed ones.
    ///
    /// A list shows each subtask right under its parent, in the same sort;
    /// `limit` counts the top-level rows. A subtask whose parent is not
    /// shown (completed and hidden) shows at the top level. Other filters
    /// show subtasks as rows of their own (`ReminderRow.parentTitle` names
    /// the parent).
    public static func reminders(
        _ db: Database, filter: ReminderFilter, sort: SortOrder, showCompleted: Bool, clock: AppClock, limit: Int? = nil
    ) throws -> [ReminderRow] {
        guard case .list(let listID) = filter else {
            return try rows(db, filter: filter, sort: sort, showCompleted: showCompleted, clock: clock, limit: limit)
        }
        // A list without subtasks (most) reads as before, from its index.
        // Asked of the index of subtasks (`+` keeps the planner off the
        // list's index, where it would read every reminder of the list).
        let hasSubtasks = try Bool.fetchOne(db.cachedStatement(sql: """
            SELECT EXISTS (SELECT 1 FROM reminders WHERE parentID IS NOT NULL AND +remindersListID = ?)
            """), arguments: [listID]) ?? false
        let top = try rows(db, filter: filter, sort: sort, showCompleted: showCompleted, clock: clock, limit: limit,
                           topLevel: hasSubtasks)
        guard hasSubtasks else { return top }
        let parents = top.filter { $0.subtasks > 0 }.map(\.id)
        guard !parents.isEmpty else { return top }
        let onlyOpen = !showCompleted
        let subtasks = try reminderRows(db, sql: """
            SELECT \(rowColumns) FROM reminders JOIN remindersLists ON remindersLists.id = reminders.remindersListID
            WHERE reminders.parentID IN (SELECT value FROM json_each(?)) AND reminders.remindersListID = ?
            \(onlyOpen ? "AND reminders.status != 'completed'" : "")
            ORDER BY \(orderBy(sort, filter: filter, completedLast: !onlyOpen))
            """, arguments: [jsonArray(parents), listID], clock: clock)
        let byParent = Dictionary(grouping: subtasks) { $0.reminder.parentID ?? "" }
        var result: [ReminderRow] = []
        result.reserveCapacity(top.count + subtasks.count)
        for row in top {
            result.append(row)
            result += byParent[row.id] ?? []
        }
        return result
    }

    static func jsonArray(_ ids: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(ids)) ?? Data("[]".utf8), as: UTF8.self)
    }

    private static func rows(
        _ db: Database, filter: ReminderFilter, sort: SortOrder, showCompleted: Bool, clock: AppClock, limit: Int?,
        topLevel: Bool = false
    ) throws -> [ReminderRow] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        let onlyOpen = !showCompleted && filter != .completed
        if topLevel {
            conditions.append("""
                (reminders.parentID IS NULL OR NOT EXISTS (
                   SELECT 1 FROM reminders AS parent WHERE parent.id = reminders.parentID
                   AND parent.remindersListID = reminders.remindersListID \(onlyOpen ? "AND parent.status != 'completed'" : "")))
                """)
        }
        switch filter {
        case .list(let id):
            conditions.append("reminders.remindersListID = ?")
            arguments += [id]
        case .today:
            conditions.append("reminders.dueDate IS NOT NULL AND reminders.dueDate <= ?")
            arguments += [DueDate.lastStored(on: clock.today)]
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
            arguments += [TagKey.of(tag)]
        }
        let order = orderBy(sort, filter: filter, completedLast: !onlyOpen)
        // Today and Scheduled in list order go list by list too (below),
        // each list's dated open reminders a range of `reminders_list_order`
        // (list, status, due date): "open" is spelled as the statuses that
        // are, which that index can seek to. From the open reminders due by
        // a date, where the planner read every one of them and their lists'
        // rows to sort them all, a first frame's Today preview read its rows
        // in 2.0 ms instead of 6.2 at 10,000.
        let datedByList = onlyOpen && limit != nil && order.contains("remindersLists.")
            && filter.isDated
        if datedByList {
            let open = ReminderStatus.allCases.filter { $0 != .completed }.map { "'\($0.rawValue)'" }
            conditions.append("reminders.status IN (\(open.joined(separator: ", ")))")
        } else if onlyOpen {
            conditions.append("reminders.status != 'completed'")
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let from = "FROM reminders JOIN remindersLists ON remindersLists.id = reminders.remindersListID"
        guard let limit else {
            return try reminderRows(db, sql: "SELECT \(rowColumns) \(from) \(whereClause) ORDER BY \(order)", arguments: arguments,
                                    clock: clock)
        }
        // A window of a long list: sort the keys first, from an index where
        // one covers them, and read whole rows (with their tags) only for
        // the window. A list sorted by list order needs the lists; the
        // others do not. All of the open reminders in that order is read
        // list by list (CROSS JOIN keeps the lists outside), each list's
        // from its index of open reminders in order: at 100,000 reminders
        // 6 ms, where sorting them all took 16. Today and Scheduled go the
        // same way (see `datedByList`); other filters are left to the
        // planner: the filter's own index finds fewer rows.
        let keysFrom: String
        if !order.contains("remindersLists.") {
            keysFrom = "FROM reminders"
        } else if (filter == .all && onlyOpen) || datedByList {
            keysFrom = "FROM remindersLists CROSS JOIN reminders ON reminders.remindersListID = remindersLists.id"
        } else {
            keysFrom = from
        }
        return try reminderRows(db, sql: """
            SELECT \(rowColumns) \(from)
            WHERE reminders.rowid IN (SELECT reminders.rowid \(keysFrom) \(whereClause) ORDER BY \(order) LIMIT ?)
            ORDER BY \(order)
            """, arguments: arguments + [max(0, limit)], clock: clock)
    }

    /// `completedLast`: the rows may include completed ones, which go
    /// after the others. Without it (only open rows), the order is the one
    /// the indexes of open reminders keep, so a window of a long list is
    /// read from an index instead of sorted.
    static func orderBy(_ sort: SortOrder, filter: ReminderFilter, completedLast: Bool = true) -> String {
        let keys: String
        switch sort {
        case .manual:
            if case .list = filter {
                keys = "reminders.position, reminders.id"
            } else {
                keys = "remindersLists.position, remindersLists.id, reminders.position, reminders.id"
            }
        case .due:
            // Today and Scheduled hold dated reminders only: without "IS
            // NULL" first, the index of open due dates gives the order, and
            // a window reads its rows from it instead of sorting them all
            // (Today's first 100 of 4,211 at 10,000: 0.3 instead of 6 ms).
            keys = (filter.isDated ? "" : "reminders.dueDate IS NULL, ") + "reminders.dueDate, reminders.position, reminders.id"
        case .priority:
            keys = "reminders.priority DESC, reminders.dueDate IS NULL, reminders.dueDate, reminders.position, reminders.id"
        case .title:
            keys = "reminders.title COLLATE reminders_title, reminders.id"
        }
        return completedLast ? "reminders.status = 'completed', " + keys : keys
    }

    public static func reminder(_ db: Database, id: String, clock: AppClock) throws -> ReminderRow? {
        try Row.fetchOne(db, sql: """
            SELECT \(rowColumns)
            FROM reminders JOIN remindersLists ON remindersLists.id = reminders.remindersListID
            WHERE reminders.id = ?
            """, arguments: [id]).map { row in
                var rows = [try reminderRow(row, clock: clock)]
                try addSubtaskInfo(db, to: &rows)
                return rows[0]
            }
    }

    /// Searches titles, notes and tags. Three characters or more use the
    /// trigram index; shorter text falls back to LIKE.
    public static func search(
        _ db: Database, text raw: String, showCompleted: Bool, clock: AppClock, limit: Int = 500
    ) throws -> SearchResults {
        let text = raw.trimmingWhitespaceAndNewlines()
        guard !text.isEmpty else { return SearchResults() }
        // The index holds text without diacritics: so does the pattern. A
        // query of marks alone folds to nothing, and matches nothing (as
        // a pattern of '%%' it would match every row).
        let folded = foldedForSearch(text).trimmingWhitespaceAndNewlines()
        guard !folded.isEmpty else { return SearchResults() }
        let match: String
        let arguments: StatementArguments
        if folded.count >= 3 {
            match = "reminderSearch MATCH ?"
            arguments = ["\"" + folded.replacingOccurrences(of: "\"", with: "\"\"") + "\""]
        } else {
            match = """
                (reminderSearch.title LIKE ?1 ESCAPE '\\' OR reminderSearch.notes LIKE ?1 ESCAPE '\\'
                 OR reminderSearch.tags LIKE ?1 ESCAPE '\\')
                """
            arguments = ["%" + folded.replacingOccurrences(of: "\\", with: "\\\\")
                .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"]
        }
        // The text is matched once. The hits' sort keys are read in one
        // pass (which counts the completed ones too) and sorted here: every
        // query that matched again, or walked a title index for the first
        // hits, cost more. The search index comes first (CROSS JOIN keeps
        // that order), so the reminders are looked up in rowid order. No
        // early return without hits: an observation of this read tracks the
        // tables its statements read, and a renamed tag must bring a hit
        // back (the search index is not observable).
        var completedCount = 0
        var candidates = SearchCandidates()
        let statement = try db.cachedStatement(sql: """
            SELECT reminders.rowid, reminders.status = 'completed', reminders.title, reminders.id
            FROM reminderSearch CROSS JOIN reminders ON reminders.rowid = reminderSearch.rowid
            WHERE \(match)
            """)
        let keys = try Row.fetchCursor(statement, arguments: arguments)
        // The columns are read straight from the statement the cursor
        // steps: a title and an id as Strings, and the title's folded copy,
        // were three allocations a hit (a millisecond of 3,350 hits).
        let handle = statement.sqliteStatement
        while try keys.next() != nil {
            let completed = sqlite3_column_int(handle, 1) != 0
            if completed { completedCount += 1 }
            if completed && !showCompleted { continue }
            candidates.append(rowid: sqlite3_column_int64(handle, 0), completed: completed, handle: handle, title: 2, id: 3)
        }
        let chosen = candidates.first(limit)
        let order = "reminders.status = 'completed', reminders.title COLLATE reminders_title, reminders.id"
        let rows = try reminderRows(db, sql: """
            SELECT \(rowColumns)
            FROM reminders JOIN remindersLists ON remindersLists.id = reminders.remindersListID
            WHERE reminders.rowid IN (SELECT value FROM json_each(?))
            ORDER BY \(order)
            """, arguments: [jsonArray(chosen)], clock: clock)
        let hits = rows.map { row in
            let (snippet, field) = snippetAndField(for: row, matching: text)
            return SearchHit(row: row, snippet: snippet, field: field)
        }
        return SearchResults(hits: hits, completedCount: completedCount)
    }

    /// `text` as the search index holds it: Latin letters without their
    /// diacritics (`reminders_fold`, which the index's triggers call too).
    public static func foldedForSearch(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        let bytes = Array(text.utf8)
        var out = [UInt8](repeating: 0, count: bytes.count)
        let written = reminders_fold(bytes, bytes.count, &out)
        return String(decoding: out[..<written], as: UTF8.self)
    }

    static func jsonArray(_ ids: some Sequence<Int64>) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// What SQLite's NOCASE compares: the bytes, ASCII letters folded.
    static func noCaseKey(_ text: String) -> [UInt8] {
        text.utf8.map(noCaseFold)
    }

    /// One byte as NOCASE compares it: an ASCII capital as its lower case,
    /// any other byte as it is.
    static func noCaseFold(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// Where `needle` first occurs in `haystack`, ignoring case and
    /// diacritics. ASCII on both sides (most searches) is compared byte by
    /// byte; Foundation's search, which knows every script, cost more than
    /// the query that found the rows.
    static func find<S: StringProtocol>(_ needle: String, in haystack: S) -> Range<S.Index>? {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, pattern.allSatisfy({ $0 < 0x80 }), haystack.utf8.allSatisfy({ $0 < 0x80 }) else {
            // Foundation's, then the index's own fold for the letters it does
            // not take apart (ø, đ, ł, ß, æ...), which search found.
            return haystack.range(of: needle, options: [.caseInsensitive, .diacriticInsensitive])
                ?? foldedRange(of: needle, in: haystack)
        }
        let folded = pattern.map(noCaseFold)
        let bytes = haystack.utf8
        var start = bytes.startIndex
        while start != bytes.endIndex {
            var at = start, matched = 0
            while matched < folded.count, at != bytes.endIndex, noCaseFold(bytes[at]) == folded[matched] {
                matched += 1
                at = bytes.index(after: at)
            }
            if matched == folded.count { return start..<at }
            start = bytes.index(after: start)
        }
        return nil
    }

    /// Where `needle` occurs in `haystack` as the search index compares
    /// them: both sides folded (`foldedForSearch`) and lowered, the
    /// haystack's characters matched whole ("strasse" in "Straße").
    static func foldedRange<S: StringProtocol>(of needle: String, in haystack: S) -> Range<S.Index>? {
        let target = Array(foldedForSearch(needle).lowercased().unicodeScalars)
        guard !target.isEmpty else { return nil }
        let starts = Array(haystack.indices) + [haystack.endIndex]
        let pieces = haystack.map { Array(foldedForSearch(String($0)).lowercased().unicodeScalars) }
        for first in pieces.indices where !pieces[first].isEmpty {
            var matched = 0
            var next = first
            while matched < target.count, next < pieces.count {
                let piece = pieces[next]
                guard matched + piece.count <= target.count, target[matched..<matched + piece.count].elementsEqual(piece) else { break }
                matched += piece.count
                next += 1
            }
            if matched == target.count { return starts[first]..<starts[next] }
        }
        return nil
    }

    /// A short excerpt of the first field that contains the text, with every
    /// match (case-insensitive) wrapped in the match markers.
    public static func snippet(for row: ReminderRow, matching text: String, radius: Int = 30) -> String {
        snippetAndField(for: row, matching: text, radius: radius).snippet
    }

    /// The snippet, and the field it is from (see `SearchHit.field`).
    static func snippetAndField(for row: ReminderRow, matching text: String, radius: Int = 30)
        -> (snippet: String, field: SearchField?) {
        let candidates: [(SearchField, String)] = [
            (.title, row.reminder.title), (.notes, row.reminder.notes), (.tags, row.tags.map { "#" + $0 }.joined(separator: " ")),
        ]
        for (name, field) in candidates {
            // Most fields hold no new line and no marker: no copies then.
            let flat = field.utf8.contains(UInt8(ascii: "\n")) ? field.replacingOccurrences(of: "\n", with: " ") : field
            guard let first = find(text, in: flat) else { continue }
            var start = flat.index(first.lowerBound, offsetBy: -radius, limitedBy: flat.startIndex) ?? flat.startIndex
            var end = flat.index(first.upperBound, offsetBy: radius, limitedBy: flat.endIndex) ?? flat.endIndex
            // A cut inside a word moves to the word's edge, if one is near:
            // "…the desk drawer…", not "…e desk draw…".
            if start > flat.startIndex, !flat[flat.index(before: start)].isWhitespace,
               let space = flat[start..<first.lowerBound].prefix(12).firstIndex(where: \.isWhitespace) {
                start = flat.index(after: space)
            }
            if end < flat.endIndex, !flat[end].isWhitespace,
               let space = flat[first.upperBound..<end].suffix(12).lastIndex(where: \.isWhitespace) {
                end = space
            }
            var excerpt = String(flat[start..<end])
            // Both markers begin with the byte 0xEE: most excerpts are
            // cleared by one byte scan instead of two Character searches.
            if excerpt.utf8.contains(0xEE), excerpt.contains(matchStart) || excerpt.contains(matchEnd) {
                excerpt = excerpt.replacingOccurrences(of: String(matchStart), with: "").replacingOccurrences(of: String(matchEnd), with: "")
            }
            var result = ""
            var rest = Substring(excerpt)
            while let match = find(text, in: rest) {
                result += rest[..<match.lowerBound]
                result.append(matchStart)
                result += rest[match]
                result.append(matchEnd)
                rest = rest[match.upperBound...]
            }
            result += rest
            return ((start > flat.startIndex ? "…" : "") + result + (end < flat.endIndex ? "…" : ""), name)
        }
        return (row.reminder.title, nil)
    }
}
