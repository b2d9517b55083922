import Foundation
import GRDB

/// Repeating reminders. A reminder with a rule stays open: completing it
/// records the occurrence as a completed copy (an ordinary reminder with
/// `repeatOf` naming the series and the occurrence's due date) and moves
/// the due date on to the next occurrence. When the rule has run out, the
/// reminder itself completes, for good.
///
/// Under sync:
/// - The copy's id is derived from the series and the occurrence
///   (`occurrenceID`), so two devices completing the same occurrence
///   offline write the same record, and both move the due date to the same
///   next occurrence: one copy, one advance.
/// - A copy is not a subtask of the series, nor of anything: deleting the
///   series leaves the history of what was done, and a delete on one
///   device while the other completes an occurrence ends with the series
///   gone and the copy kept. A repeating subtask's copies are not in its
///   parent's checklist either, where each would be one more ticked item.
/// - A series' subtasks are a checklist for each occurrence: when the
///   series moves on, the ones ticked are open again for the next.
/// - A rule edited on one device while the other completes an occurrence:
///   both fields merge as any field does (the due date from the
///   completion, the rule from the later edit), and the new rule applies
///   from the next completion.
/// - `repair` moves a series on past every occurrence that has a completed
///   copy, so when one device completed occurrence 3 and the other 3 and 4,
///   the due date ends after 4 whichever device's due date won the merge.
/// - A due date moved off the schedule keeps the occurrence it stands for
///   (`occurrence`, iCalendar's RECURRENCE-ID): a move moves one
///   occurrence, and the series keeps its schedule and time of day.
///   Completing it completes that occurrence: "every Monday" moved to
///   Saturday and done there is due the Monday after, not the Monday it
///   stood for. A move made on one device while the other completed the
///   occurrence names an occurrence that has a copy: it is stale, and
///   `repair` moves the series on whichever edit the merge kept. The due
///   date and the occurrence are written together (`writeSchedule`), so
///   the merge, which takes each field from its latest edit, never pairs
///   one edit's due date with another's occurrence.
public enum Repeats {
    /// The id of the completed copy of occurrence `due` of series `id`.
    public static func occurrenceID(series id: String, due: DueDate) -> String {
        derivedID(id, "occurrence", due.description)
    }

    /// The due date a repeating reminder without one takes: the rule's
    /// first day on or after `today` (today itself when it matches).
    public static func firstDue(_ rule: RepeatRule, today: DueDate) -> DueDate {
        // "Every 3 days after completion" has no days of its own: today.
        // Nor has "weekly" or "monthly" without a day: they start today
        // (counted from yesterday, they would start a week or a month on).
        if rule.fromCompletion || (rule.days.isEmpty && rule.monthDays.isEmpty && rule.months.isEmpty) { return today }
        // The series is anchored at the day found, so its interval does not
        // count yet: "every 2 weeks on Fri" starts this coming Friday, not
        // the one after (counted from yesterday's week, it would).
        return rule.everyPeriod.occurrences(after: today.adding(days: -1), count: 1).first ?? today
    }

    /// The occurrence `reminder` stands at: the one its moved due date
    /// stands for, else its due date's own.
    public static func standing(_ reminder: Reminder) -> DueDate? {
        reminder.occurrence ?? reminder.dueDate
    }

    /// The occurrence a reminder stands for after an edit took it from
    /// `before` to `after`. An edit that leaves the due date and the rule
    /// as they were leaves it. A move of a series' due date to another day
    /// keeps the occurrence it stood at; a new time on the same day is the
    /// series' new time, unless `oneOccurrence` (a snooze: this time only).
    /// A move back to the occurrence, a new rule, or no rule, clear it. A
    /// completed copy keeps the one it has.
    public static func occurrence(before: Reminder, after: Reminder, oneOccurrence: Bool = false) -> DueDate? {
        if after.repeatOf != nil || (after.dueDate == before.dueDate && after.repeatRule == before.repeatRule) {
            return before.occurrence
        }
        guard after.repeatRule != nil, after.repeatRule == before.repeatRule, let due = after.dueDate,
              let standing = standing(before), due != standing else { return nil }
        return oneOccurrence || due.dayNumber != standing.dayNumber ? standing : nil
    }

    /// What completing the occurrence `reminder` stands at leaves: the
    /// next due date and the rule to carry on with, or nil when the series
    /// has run out. A moved one goes on by the series' schedule, after the
    /// date it was moved to (`RepeatRule.advance`).
    static func advance(_ reminder: Reminder, rule: RepeatRule, completedOn: DueDate) -> (due: DueDate, rule: RepeatRule)? {
        guard let due = reminder.dueDate else { return nil }
        guard let occurrence = reminder.occurrence else { return rule.advance(from: due, completedOn: completedOn) }
        return rule.advance(from: occurrence, completedOn: completedOn, movedTo: due)
    }

    /// The due date completing `reminder` now moves it on to; nil when it
    /// does not repeat, or its rule runs out with this occurrence.
    public static func nextDue(completing reminder: Reminder, clock: AppClock) -> DueDate? {
        guard let rule = reminder.rule else { return nil }
        return advance(reminder, rule: rule, completedOn: completionDay(clock))?.due
    }

    /// The day an occurrence completed now is completed on.
    static func completionDay(_ clock: AppClock) -> DueDate {
        clock.dueDate(at: clock.now, includingTime: false)
    }

    /// The occurrences after the one `reminder` stands at, `count` at
    /// most: what completing it on its due date gives, and then the series
    /// as scheduled.
    public static func nextOccurrences(_ reminder: Reminder, count: Int) -> [DueDate] {
        guard count > 0, let rule = reminder.rule, let due = reminder.dueDate,
              let next = advance(reminder, rule: rule, completedOn: due) else { return [] }
        return [next.due] + next.rule.occurrences(after: next.due, count: count - 1)
    }

    /// The occurrences of a series that its moved due date has passed
    /// over, which completing it skips: put off from Monday to the Tuesday
    /// after, "every Monday" skips the Monday between. `limit` at most.
    public static func skipped(_ reminder: Reminder, limit: Int = 100) -> [DueDate] {
        guard let occurrence = reminder.occurrence, let due = reminder.dueDate, let rule = reminder.rule else { return [] }
        return rule.skipped(from: occurrence, movedTo: due, limit: limit)
    }

    /// Skipped occurrences in words, each date as `format` writes it:
    /// "Mon 2026-12-07", "3 occurrences, Mon 2026-12-07 to Mon 2026-12-21";
    /// nil for none.
    public static func skippedWords(_ dates: [DueDate], format: (DueDate) -> String) -> String? {
        guard let first = dates.first, let last = dates.last else { return nil }
        return dates.count == 1 ? format(first) : "\(dates.count) occurrences, \(format(first)) to \(format(last))"
    }

    /// The occurrence after `reminder`'s due date when that date is not
    /// one its rule's days would schedule ("every Friday" due on a Monday):
    /// the due date stays the first, and the series goes on by its days
    /// from there. Nil when the date is on the rule's days, the rule names
    /// none (it then repeats from the due date), or the reminder stands
    /// for a moved occurrence.
    public static func nextOffSchedule(_ reminder: Reminder) -> DueDate? {
        guard reminder.occurrence == nil, let rule = reminder.rule, let due = reminder.dueDate, !rule.fromCompletion,
              !(rule.days.isEmpty && rule.monthDays.isEmpty && rule.months.isEmpty),
              rule.everyPeriod.occurrences(after: due.adding(days: -1), count: 1).first?.dayNumber != due.dayNumber else { return nil }
        return nextOccurrences(reminder, count: 1).first
    }

    /// The columns of a reminder's schedule that are one edit: a due date
    /// and the occurrence it stands for. Putting a conflict's losing due
    /// date back puts back its occurrence too (`SyncedTable.editedTogether`).
    public static let scheduleColumns = ["dueDate", "occurrence"]

    /// Writes a series' due date, rule and occurrence as one edit: the
    /// occurrence is written even when it stays the same (through a value
    /// no date reads, then its own), so that its edit time is this edit's.
    static func writeSchedule(_ db: Database, id: String, due: DueDate, rule: String?, occurrence: DueDate?) throws {
        try db.execute(sql: "UPDATE reminders SET dueDate = ?, repeatRule = ? WHERE id = ?", arguments: [due.description, rule, id])
        try restampOccurrence(db, id: id, occurrence)
    }

    /// Marks a series' occurrence as written by this edit when the edit
    /// left it as it was (see `writeSchedule`).
    static func restampOccurrence(_ db: Database, id: String, _ occurrence: DueDate?) throws {
        try db.execute(sql: "UPDATE reminders SET occurrence = '' WHERE id = ?", arguments: [id])
        try db.execute(sql: "UPDATE reminders SET occurrence = ? WHERE id = ?", arguments: [occurrence, id])
    }

    /// What completing one occurrence did, for undo.
    public struct Completion: Hashable, Sendable {
        /// The series.
        public var id: String
        /// The occurrence completed, and the rule as it was.
        public var due: DueDate
        public var rule: String
        /// The copy written; nil when the rule had run out and the
        /// reminder itself completed.
        public var copyID: String?
    }

    /// Completes the occurrence `reminder` is due at: writes its copy and
    /// moves the reminder on, or completes it when the rule has run out.
    /// Nil when the reminder has no rule this version reads or no due date
    /// (it completes as any reminder does).
    static func completeOccurrence(_ db: Database, _ reminder: Reminder, clock: AppClock) throws -> Completion? {
        guard let text = reminder.repeatRule, let rule = try? RepeatRule(rrule: text), let due = reminder.dueDate else {
            return nil
        }
        let now = clock.timestamp()
        if let next = advance(reminder, rule: rule, completedOn: completionDay(clock)) {
            let copy = try writeCopy(db, of: reminder, due: due, completedAt: now)
            try writeSchedule(db, id: reminder.id, due: next.due, rule: next.rule.rrule, occurrence: nil)
            // The next occurrence's checklist starts open: what was ticked
            // for this one, done or still completing in the app (which then
            // has nothing left to complete).
            try db.execute(sql: """
                UPDATE reminders SET status = 'incomplete', completedAt = NULL
                WHERE parentID = ? AND status IN ('completed', 'completing') AND repeatOf IS NULL
                """, arguments: [reminder.id])
            return Completion(id: reminder.id, due: due, rule: text, copyID: copy)
        }
        // The last occurrence: the reminder itself is the record of it.
        try db.execute(sql: """
            UPDATE reminders SET status = 'completed', completedAt = coalesce(completedAt, ?) WHERE id = ?
            """, arguments: [now, reminder.id])
        return Completion(id: reminder.id, due: due, rule: text, copyID: nil)
    }

    /// Writes the completed copy of the occurrence `reminder` stands at,
    /// due at `due` (its tags too, under ids derived from the copy's): its
    /// id is the occurrence's, and a moved one keeps the occurrence it
    /// stood for, for undo. Returns its id.
    static func writeCopy(_ db: Database, of reminder: Reminder, due: DueDate, completedAt: String) throws -> String {
        let id = occurrenceID(series: reminder.id, due: reminder.occurrence ?? due)
        let copy = Reminder(
            id: id, remindersListID: reminder.remindersListID, title: reminder.title, notes: reminder.notes, dueDate: due,
            priority: reminder.priority, isFlagged: reminder.isFlagged, status: .completed, completedAt: completedAt,
            position: reminder.position, parentID: nil, repeatRule: nil, repeatOf: reminder.id,
            alertBefore: reminder.alertBefore, occurrence: reminder.occurrence)
        guard try !Reminder.exists(db, key: id) else { return id }
        try copy.insert(db)
        let tags = try Queries.tags(db, reminderID: reminder.id)
        try RemindersStore.setTags(db, reminderID: id, tags: tags)
        return id
    }

    /// Takes back the latest completed occurrence of a series that is open
    /// (the undo of a completion that moved it on): the due date goes back
    /// to that occurrence's (and a moved one stands for its occurrence
    /// again), a counted rule gets its occurrence back, and the copy is
    /// deleted. Returns false when there is none.
    static func takeBackLatest(_ db: Database, _ reminder: Reminder) throws -> Bool {
        guard reminder.status == .incomplete, let text = reminder.repeatRule, var rule = try? RepeatRule(rrule: text),
              let row = try latestCopy(db, series: reminder.id),
              let due = DueDate(stored: row["dueDate"]) else { return false }
        if case .count(let left) = rule.end { rule.end = .count(left + 1) }
        try db.execute(sql: "DELETE FROM reminders WHERE id = ?", arguments: [row["id"] as String])
        try writeSchedule(db, id: reminder.id, due: due, rule: rule.rrule, occurrence: DueDate(stored: row["occurrence"]))
        return true
    }

    /// The id of the copy `takeBackLatest` would take back.
    static func latestCopyID(_ db: Database, series id: String) throws -> String? {
        try latestCopy(db, series: id)?["id"]
    }

    private static func latestCopy(_ db: Database, series id: String) throws -> Row? {
        try Row.fetchOne(db, sql: """
            SELECT id, dueDate, occurrence FROM reminders WHERE repeatOf = ? AND status = 'completed'
            ORDER BY completedAt DESC, dueDate DESC LIMIT 1
            """, arguments: [id])
    }

    /// Moves every open series on past the occurrences that already have a
    /// completed copy (two devices completed different occurrences, and
    /// the merge kept the due date of the one that did fewer; or one moved
    /// an occurrence the other completed). Deterministic on the rows, as
    /// `Subtasks.repair` is. Returns how many series moved.
    ///
    /// A series moved off its schedule stands at the occurrence it was
    /// moved from. When that one has a copy, the move was made before the
    /// completion reached its device, and whichever due date the merge
    /// kept, the series goes on from that occurrence. An occurrence no
    /// later than a copy's due date is one a release before v14 completed
    /// (by its due date, leaving the occurrence as it was): it no longer
    /// stands, and is cleared. So is the occurrence of a reminder that no
    /// longer repeats or has no due date: one device stopped the repeat
    /// while the other moved an occurrence, and the merge kept both.
    @discardableResult
    public static func repair(_ db: Database) throws -> Int {
        try db.execute(sql: """
            UPDATE reminders SET occurrence = NULL
            WHERE occurrence IS NOT NULL AND repeatOf IS NULL AND (repeatRule IS NULL OR dueDate IS NULL)
            """)
        var moved = db.changesCount
        let series = try Row.fetchAll(db, sql: """
            SELECT id, dueDate, repeatRule, occurrence FROM reminders
            WHERE repeatRule IS NOT NULL AND status != 'completed' AND dueDate IS NOT NULL
            """)
        for row in series {
            let id: String = row["id"]
            guard let stored = DueDate(stored: row["dueDate"]), let text: String = row["repeatRule"],
                  var rule = try? RepeatRule(rrule: text) else { continue }
            let occurrence = DueDate(stored: row["occurrence"])
            if let occurrence, try !Reminder.exists(db, key: occurrenceID(series: id, due: occurrence)),
               try Bool.fetchOne(db, sql: """
                   SELECT EXISTS (SELECT 1 FROM reminders WHERE repeatOf = ? AND status = 'completed' AND substr(dueDate, 1, 10) >= ?)
                   """, arguments: [id, occurrence.dateString]) == true {
                try writeSchedule(db, id: id, due: stored, rule: text, occurrence: nil)
                moved += 1
                continue
            }
            // The occurrence it stands at; once moved on, the due date's own.
            var due = occurrence ?? stored
            var ended = false
            var steps = 0
            var lastCompletedAt = ""
            // Bounded: a copy per occurrence, and a user completes a few.
            while steps < 1000, let completedAt = try String.fetchOne(db, sql: """
                SELECT ifnull(completedAt, '') FROM reminders WHERE id = ? AND status = 'completed'
                """, arguments: [occurrenceID(series: id, due: due)]) {
                steps += 1
                lastCompletedAt = completedAt
                let day = DueDate(String(completedAt.prefix(10))) ?? due
                guard let next = rule.advance(from: due, completedOn: day) else {
                    ended = true
                    break
                }
                due = next.due
                rule = next.rule
            }
            guard steps > 0 else { continue }
            if ended {
                try db.execute(sql: """
                    UPDATE reminders SET status = 'completed', completedAt = coalesce(completedAt, ?), occurrence = NULL WHERE id = ?
                    """, arguments: [lastCompletedAt.isEmpty ? "\(due.dateString)T00:00:00" : lastCompletedAt, id])
            } else {
                try writeSchedule(db, id: id, due: due, rule: rule.rrule, occurrence: nil)
            }
            moved += 1
        }
        return moved
    }
}

extension Reminder {
    /// The rule, when the stored text is one this version reads; text it
    /// cannot read (another version's rule) reads as no repeat.
    public var rule: RepeatRule? { repeatRule.flatMap { try? RepeatRule(rrule: $0) } }
}

/// Everything a sync's merge may leave that a rule of the app forbids,
/// put right (see `Subtasks.repair` and `Repeats.repair`).
public enum SyncedRules {
    @discardableResult
    public static func repair(_ db: Database) throws -> Int {
        try Subtasks.repair(db) + Repeats.repair(db)
    }
}
