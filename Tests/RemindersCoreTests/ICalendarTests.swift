import Foundation
import GRDB
import ICalendar
import Testing
import TestSupport
@testable import RemindersCore

/// iCalendar import and export through the core: the mapping, what is
/// kept, versions, and bad input.
@Suite struct ICalendarMappingTests {
    /// Removed with the test's suite value.
    let directory = TemporaryDirectory(prefix: "ical")
    var folder: String { directory.url.path }

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder + "/" + name
        let crlf = text.contains("\r\n") ? text : text.replacingOccurrences(of: "\n", with: "\r\n")
        try Data(crlf.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @discardableResult
    func importFile(_ path: String, into store: RemindersStore, _ options: ICalendarImport.Options = .init()) throws -> ICalendarImport.Summary {
        let collections = try ICalendarFiles.read(path, timeZone: store.clock.timeZone, now: store.clock.now)
        return try ICalendarImport.run(collections, options: options, store: store)
    }

    func exported(_ store: RemindersStore) throws -> String {
        try ICalendarExport.text(store.read { try ICalendarExport.calendars($0, timeZone: store.clock.timeZone, now: store.clock.now) })
    }

    func dump(_ store: RemindersStore) throws -> ExportDump {
        try store.read { try ExportDump.read($0, owner: { _ in "me" }) }
    }

    func calendar(_ todos: String, header: String = "X-WR-CALNAME:Errands") -> String {
        "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Test//EN\n\(header)\n\(todos)\nEND:VCALENDAR\n"
    }

    /// A file of events and no to-dos makes no list (it made an empty one,
    /// named after the file); an existing list's empty file is still its
    /// file.
    @Test func aFileWithoutToDosMakesNoList() throws {
        let store = try makeStore()
        let events = try file("ev.ics", calendar("BEGIN:VEVENT\nUID:e1\nSUMMARY:Dinner\nDTSTART:20261201T190000\nEND:VEVENT",
                                                 header: "X-WR-CALNAME:Evenings"))
        let summary = try importFile(events, into: store)
        #expect(summary.listsCreated.isEmpty && summary.skippedComponents == 1)
        #expect(try store.read { try RemindersList.fetchCount($0) } == 0)
        let errands = try store.createList(title: "Errands")
        try store.add("Stamps", to: errands)
        let empty = try file("errands.ics", calendar(""))
        let deleted = try importFile(empty, into: store, .init(deleteMissing: true))
        #expect(deleted.count(.deleted) == 1)
    }

    @Test func exportThenImportIntoAFreshDeviceGivesTheSameReminders() throws {
        let a = try makeStore()
        let home = try a.createList(title: "Home", color: "#e8524a")
        let series = try a.createReminder(ReminderDraft(
            listID: home.id, title: "Water plants, inside; outside", notes: "Line one\nLine \\two",
            dueDate: try due("2026-03-02T08:30"), priority: .high, isFlagged: true, tags: ["Garden", "Éte"],
            repeatRule: "FREQ=WEEKLY;BYDAY=MO,TH", alertBefore: 900))
        try a.createReminder(ReminderDraft(listID: home.id, title: "Fill can", parentID: series.id))
        let done = try a.add("Paid rent", to: home, due: "2026-03-01", priority: .low)
        _ = try a.complete(id: done.id)
        try a.createReminder(ReminderDraft(listID: home.id, title: "Every 3 days after", dueDate: try due("2026-03-03"),
                                           priority: .medium, repeatRule: "FREQ=DAILY;INTERVAL=3;FROM=COMPLETION"))
        _ = try a.complete(id: series.id)
        let text = try exported(a)
        let b = try makeStore()
        let summary = try importFile(try file("a.ics", text), into: b)
        #expect(summary.count(.added) == 5)
        #expect(try dump(b) == dump(a))
        // And again: nothing changes.
        let again = try importFile(try file("a.ics", text), into: b)
        #expect(again.changes.isEmpty && again.unchanged == 5)
        // Into A, which made them: its own export read back changes nothing
        // (it said every to-do was updated, and wrote each).
        let before = try dump(a)
        let own = try importFile(try file("a.ics", text), into: a)
        #expect(own.changes.isEmpty && own.unchanged == 5, "\(own.changes)")
        #expect(try dump(a) == before)
        #expect(try a.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM reminders WHERE icalendar IS NOT NULL") } == 0)
        // B's export is A's, but for the revision times.
        func stable(_ text: String) -> [Substring] {
            text.split(separator: "\r\n").filter { !$0.hasPrefix("DTSTAMP") && !$0.hasPrefix("LAST-MODIFIED") }
        }
        #expect(stable(try exported(b)) == stable(text))
    }

    /// A series moved off one occurrence keeps its due date where the user
    /// put it, which every client shows, and names the occurrence it stands
    /// for in X-REMINDERS-OCCURRENCE. A fresh device reads back both dates,
    /// so completing it there goes on by the schedule, not from the move.
    /// A repeating to-do with a start: completed here, its DTSTART moves
    /// with its due date and keeps its distance (RFC 5545 counts the
    /// occurrences from it); unchanged, it is written back as it was.
    @Test func aStartMovesWithTheDueDate() throws {
        let store = try makeStore()
        let todos = ["BEGIN:VTODO", "UID:bins", "SUMMARY:Bins", "DTSTART;TZID=Europe/Berlin:20260302T070000", "DUE:20260302T080000",
                     "RRULE:FREQ=WEEKLY;BYDAY=MO", "END:VTODO", "BEGIN:VTODO", "UID:rent", "SUMMARY:Rent",
                     "DTSTART;VALUE=DATE:20260227", "DUE;VALUE=DATE:20260301", "RRULE:FREQ=MONTHLY", "END:VTODO"]
        try importFile(try file("start.ics", calendar(todos.joined(separator: "\n"))), into: store)
        func lines() throws -> [String] { try exported(store).split(separator: "\r\n").map(String.init) }
        #expect(try lines().contains("DTSTART;TZID=Europe/Berlin:20260302T070000"))
        #expect(try lines().contains("DTSTART;VALUE=DATE:20260227"))
        #expect(!(try lines()).contains { $0.hasPrefix("X-REMINDERS-IMPORTED") })
        let ids = try store.read { try Reminder.order(Column("title")).fetchAll($0) }.map(\.id)
        for id in ids { _ = try store.complete(id: id) }
        let after = try lines()
        #expect(after.contains("DUE:20260309T080000") && after.contains("DTSTART;TZID=Europe/Berlin:20260309T070000"), "\(after)")
        #expect(after.contains("DUE;VALUE=DATE:20260401") && after.contains("DTSTART;VALUE=DATE:20260330"), "\(after)")
        // A new time for the series moves the start's time with it.
        try store.updateReminder(id: ids[0], ReminderChanges(dueDate: .some(try due("2026-03-09T10:30"))))
        #expect(try lines().contains("DTSTART;TZID=Europe/Berlin:20260309T093000"))
        #expect(TodoMapping.minutes(from: try due("2026-03-09T10:30"), to: try due("2026-03-08")) == -1440)
    }

    @Test func aMovedOccurrenceIsWrittenAndReadBack() throws {
        let a = try makeStore()
        let home = try a.createList(title: "Home")
        let bins = try a.createReminder(ReminderDraft(listID: home.id, title: "Bins", dueDate: try due("2026-03-02T08:00"),
                                                      repeatRule: "FREQ=WEEKLY;BYDAY=MO"))
        try a.updateReminder(id: bins.id, ReminderChanges(dueDate: .some(try due("2026-03-04T08:00"))))
        let text = try exported(a)
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(lines.contains("DUE:20260304T080000"))
        #expect(lines.contains("X-REMINDERS-OCCURRENCE:20260302T080000"))
        let b = try makeStore()
        #expect(try importFile(try file("a.ics", text), into: b).count(.added) == 1)
        #expect(try dump(b) == dump(a))
        let moved = try #require(try b.read { try Reminder.fetchOne($0, key: bins.id) })
        #expect(moved.dueDate?.description == "2026-03-04T08:00" && moved.occurrence?.description == "2026-03-02T08:00")
        // Read again, nothing changes; written again, the same text.
        let again = try importFile(try file("a.ics", text), into: b)
        #expect(again.changes.isEmpty && again.unchanged == 1)
        func stable(_ text: String) -> [Substring] {
            text.split(separator: "\r\n").filter { !$0.hasPrefix("DTSTAMP") && !$0.hasPrefix("LAST-MODIFIED") }
        }
        #expect(stable(try exported(b)) == stable(text))
        _ = try b.complete(id: bins.id)
        #expect(try b.read { try Reminder.fetchOne($0, key: bins.id) }?.dueDate?.description == "2026-03-09T08:00")
        // The copy of the occurrence done keeps which one it was, through a
        // file too: taking the completion back there moves the series back.
        let e = try makeStore()
        try importFile(try file("b.ics", try exported(b)), into: e)
        #expect(try dump(e) == dump(b))
        // Moved back, nothing names an occurrence.
        try a.updateReminder(id: bins.id, ReminderChanges(dueDate: .some(try due("2026-03-02T08:00"))))
        #expect(!(try exported(a)).contains("X-REMINDERS-OCCURRENCE"))
        // A day's reminder snoozed to a time the next morning stays a day's
        // series: the occurrence keeps its form (a date) through the file.
        let plants = try a.createReminder(ReminderDraft(listID: home.id, title: "Water plants", dueDate: try due("2026-03-02"),
                                                        repeatRule: "FREQ=DAILY"))
        try a.moveOccurrence(id: plants.id, to: try due("2026-03-03T09:00"))
        let c = try makeStore()
        try importFile(try file("c.ics", try exported(a)), into: c)
        let snoozed = try #require(try c.read { try Reminder.fetchOne($0, key: plants.id) })
        #expect(snoozed.occurrence?.description == "2026-03-02")
        #expect(Repeats.nextOccurrences(snoozed, count: 2).map(\.description) == ["2026-03-04", "2026-03-05"])
        // A value that is no date is named with its line.
        let bad = try file("bad.ics", calendar("BEGIN:VTODO\nUID:x1\nSUMMARY:Bins\nDUE:20260304\nRRULE:FREQ=WEEKLY\nX-REMINDERS-OCCURRENCE:soon\nEND:VTODO"))
        do {
            try importFile(bad, into: b)
            Issue.record("a bad X-REMINDERS-OCCURRENCE was imported")
        } catch {
            #expect("\(error)".contains("bad.ics:10: X-REMINDERS-OCCURRENCE: 'soon' is not a date"), "\(error)")
        }
        // Another client that changed the rule kept the property it does not
        // know: on a device that has the series, the new rule clears it.
        let daily = text.replacingOccurrences(of: "RRULE:FREQ=WEEKLY;BYDAY=MO", with: "RRULE:FREQ=DAILY")
            .replacingOccurrences(of: "DUE:20260304T080000", with: "DUE:20260311T080000")
            .replacingOccurrences(of: #"LAST-MODIFIED:\d{8}T\d{6}Z"#, with: "LAST-MODIFIED:20300101T000000Z", options: .regularExpression)
        let d = try makeStore()
        try importFile(try file("d1.ics", text), into: d)
        try importFile(try file("d2.ics", daily), into: d)
        let changed = try #require(try d.read { try Reminder.fetchOne($0, key: bins.id) })
        #expect(changed.repeatRule == "FREQ=DAILY" && changed.occurrence == nil)
    }

    @Test func keepsWhatItDoesNotModelAndWritesItBack() throws {
        let todo = """
            BEGIN:VTODO
            UID:nextcloud-1234@example.org
            DTSTAMP:20260101T100000Z
            CREATED:20251201T100000Z
            LAST-MODIFIED:20260101T100000Z
            SEQUENCE:3
            SUMMARY;LANGUAGE=de;X-FOO=bar:Milch kaufen
            DESCRIPTION:Bio\\, zwei Liter
            DUE:20260305T170000Z
            PRIORITY:2
            STATUS:IN-PROCESS
            PERCENT-COMPLETE:40
            CATEGORIES:Einkauf,Haus
            CATEGORIES:extra
            RRULE:FREQ=HOURLY;INTERVAL=5
            GEO:48.85;2.35
            URL;VALUE=URI:https://example.org/task/1
            ATTACH;FMTTYPE=text/plain:https://example.org/list.txt
            CLASS:PRIVATE
            X-OC-HIDESUBTASKS:1
            X-APPLE-SORT-ORDER:7
            RELATED-TO;RELTYPE=SIBLING:other@example.org
            BEGIN:VALARM
            ACTION:EMAIL
            TRIGGER:-P1D
            SUMMARY:mail
            DESCRIPTION:mail me
            ATTENDEE:mailto:a@example.org
            END:VALARM
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;RELATED=END:-PT30M
            DESCRIPTION:Reminder
            X-MOZ-LASTACK:20260101T000000Z
            END:VALARM
            END:VTODO
            """
        let store = try makeStore()
        try importFile(try file("nc.ics", calendar(todo)), into: store)
        let reminder = try #require(try store.read { try Reminder.fetchOne($0) })
        #expect(reminder.title == "Milch kaufen")
        #expect(reminder.notes == "Bio, zwei Liter")
        #expect(reminder.dueDate == (try due("2026-03-05T17:00")))
        #expect(reminder.priority == .high)
        #expect(reminder.status == .incomplete)
        #expect(reminder.repeatRule == nil)
        #expect(reminder.alertBefore == 1800)
        #expect(reminder.position == 7)
        #expect(reminder.id == derivedID("icalendar-uid", "nextcloud-1234@example.org"))
        let tags = try store.read { try String.fetchAll($0, sql: "SELECT tagID FROM remindersTags ORDER BY tagID") }
        #expect(tags == ["einkauf", "extra", "haus"])
        // Every property and alarm comes back as it was.
        let exportedText = try exported(store)
        let back = try #require(try ICalParser.parse(Array(exportedText.utf8)).first?.components.first)
        let original = try #require(try ICalParser.parse(Array(calendar(todo).replacingOccurrences(of: "\n", with: "\r\n").utf8)).first?.components.first)
        for property in original.properties {
            #expect(back.properties.map(\.content).contains(property.content), "\(property.name) was lost")
        }
        #expect(back.components.map(\.content) == original.components.map(\.content))
        #expect(!exportedText.contains("X-REMINDERS-IMPORTED"))
    }

    @Test func anEditHereWritesTheNewValueAndANewRevision() throws {
        let store = try makeStore()
        try importFile(try file("t.ics", calendar("""
            BEGIN:VTODO
            UID:a@b
            DTSTAMP:20260101T100000Z
            LAST-MODIFIED:20260101T100000Z
            SEQUENCE:2
            SUMMARY:Task
            PRIORITY:2
            STATUS:CANCELLED
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;RELATED=END:-PT30M
            END:VALARM
            END:VTODO
            """)), into: store)
        let id = derivedID("icalendar-uid", "a@b")
        #expect(try exported(store).contains("PRIORITY:2\r\n"))
        #expect(try exported(store).contains("STATUS:CANCELLED\r\n"))
        // An alarm kept without a due date stays through other edits.
        try store.updateReminder(id: id, ReminderChanges(priority: .low))
        #expect(try exported(store).contains("TRIGGER;RELATED=END:-PT30M\r\n"))
        // A new lead needs a due date to count from.
        try store.updateReminder(id: id, ReminderChanges(dueDate: .some(DueDate("2026-03-10T09:00")), alertBefore: .some(3600)))
        let text = try exported(store)
        #expect(text.contains("PRIORITY:9\r\n") && !text.contains("PRIORITY:2"))
        #expect(text.contains("STATUS:CANCELLED\r\n"), "still completed: kept as written")
        #expect(text.contains("SEQUENCE:3\r\n"))
        #expect(text.contains("LAST-MODIFIED:20260301T100000Z\r\n"))
        #expect(text.contains("TRIGGER;RELATED=END:-PT1H\r\n") && !text.contains("-PT30M"))
        #expect(text.contains("UID:a@b\r\n"))
    }

    @Test func mapsDueDatesPrioritiesStatusAndAlarms() throws {
        let store = try makeStore()
        try importFile(try file("m.ics", calendar("""
            BEGIN:VTODO
            UID:1
            SUMMARY:date
            DUE;VALUE=DATE:20260310
            PRIORITY:5
            END:VTODO
            BEGIN:VTODO
            UID:2
            SUMMARY:berlin
            DUE;TZID=/mozilla.org/20050126_1/Europe/Berlin:20260310T090000
            PRIORITY:7
            STATUS:COMPLETED
            LAST-MODIFIED:20260305T120000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;VALUE=DATE-TIME:20260310T074500Z
            END:VALARM
            END:VTODO
            BEGIN:VTODO
            UID:3
            SUMMARY:floating
            DUE:20260310T090000
            PRIORITY:0
            COMPLETED:20260302T080000Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER:-P1D
            END:VALARM
            END:VTODO
            BEGIN:VTODO
            UID:4
            SUMMARY:
            DTSTART:20260309T090000
            RRULE:FREQ=DAILY
            RELATED-TO:1
            END:VTODO
            """)), into: store)
        let rows = try store.read { try Reminder.order(Column("title")).fetchAll($0) }
        let byTitle = Dictionary(uniqueKeysWithValues: rows.map { ($0.title, $0) })
        #expect(byTitle["date"]?.dueDate == (try due("2026-03-10")))
        #expect(byTitle["date"]?.priority == .medium)
        #expect(byTitle["berlin"]?.dueDate == (try due("2026-03-10T08:00")))
        #expect(byTitle["berlin"]?.priority == .low)
        #expect(byTitle["berlin"]?.status == .completed)
        #expect(byTitle["berlin"]?.completedAt == "2026-03-05T12:00:00")
        #expect(byTitle["berlin"]?.alertBefore == 900)
        #expect(byTitle["floating"]?.completedAt == "2026-03-02T08:00:00")
        #expect(byTitle["floating"]?.alertBefore == 86_400)
        #expect(byTitle["floating"]?.priority == Priority.none)
        // No title, a rule without a due date (kept, not followed), and a parent by bare RELATED-TO.
        let untitled = try #require(byTitle["Untitled"])
        #expect(untitled.repeatRule == nil)
        #expect(untitled.parentID == byTitle["date"]?.id)
        #expect(try exported(store).contains("RRULE:FREQ=DAILY\r\n"))
    }

    @Test func versionsDecideWhetherAFileUpdatesAReminder() throws {
        let store = try makeStore()
        func todo(_ summary: String, sequence: Int?) -> String {
            calendar("BEGIN:VTODO\nUID:v@x\n" + (sequence.map { "SEQUENCE:\($0)\n" } ?? "") + "SUMMARY:\(summary)\nEND:VTODO")
        }
        let id = derivedID("icalendar-uid", "v@x")
        func title() throws -> String? { try store.read { try Reminder.fetchOne($0, key: id)?.title } }
        try importFile(try file("v.ics", todo("one", sequence: 1)), into: store)
        // The same version with other text: this device's copy stays.
        #expect(try importFile(try file("v.ics", todo("other", sequence: 1)), into: store).unchanged == 1)
        // A later one updates it.
        #expect(try importFile(try file("v.ics", todo("two", sequence: 2)), into: store).count(.updated) == 1)
        #expect(try title() == "two")
        // An older one does not.
        #expect(try importFile(try file("v.ics", todo("zero", sequence: 0)), into: store).unchanged == 1)
        #expect(try title() == "two")
        // Without versions: the text decides. An edit here survives the same file again...
        try importFile(try file("n.ics", todo("plain", sequence: nil)), into: store)
        try store.updateReminder(id: id, ReminderChanges(title: "edited here"))
        #expect(try importFile(try file("n.ics", todo("plain", sequence: nil)), into: store).unchanged == 1)
        #expect(try title() == "edited here")
        // ...and a changed file wins.
        try importFile(try file("n.ics", todo("changed there", sequence: nil)), into: store)
        #expect(try title() == "changed there")
    }

    @Test func badInputNamesFileAndLineAndImportsNothing() throws {
        let store = try makeStore()
        let good = try file("good.ics", calendar("BEGIN:VTODO\nUID:ok\nSUMMARY:fine\nEND:VTODO"))
        _ = good
        let cases: [(String, String)] = [
            (calendar("BEGIN:VTODO\nUID:1\nSUMMARY:x\nDUE;TZID=Mars/Olympus:20260101T090000\nEND:VTODO"), "bad.ics:8: unknown time zone 'Mars/Olympus' in DUE"),
            (calendar("BEGIN:VTODO\nUID:1\nDUE:20260230\nEND:VTODO"), "bad.ics:7: DUE: '20260230' is not a real date"),
            (calendar("BEGIN:VTODO\nUID:1\nPRIORITY:12\nEND:VTODO"), "bad.ics:7: PRIORITY '12' is not a number from 0 to 9"),
            (calendar("BEGIN:VTODO\nSUMMARY:x\nRECURRENCE-ID:20260101T090000Z\nEND:VTODO"),
             "bad.ics:5: a VTODO with RECURRENCE-ID needs the UID of the to-do whose occurrence it is"),
            (calendar("BEGIN:VTODO\nUID:1\nSUMMARY:a\u{85}b\nEND:VTODO"), "bad.ics:7: SUMMARY: title must not contain control characters"),
            (calendar("BEGIN:VTODO\nUID:1\nEND:VTODO\nBEGIN:VTODO\nUID:1\nEND:VTODO"), "bad.ics:8: UID '1' is also on line 5 of"),
            ("PK\u{03}\u{04}binary", "bad.ics:1: not iCalendar"),
        ]
        for (text, message) in cases {
            let path = try file("bad.ics", text)
            #expect {
                try importFile(path, into: store)
            } throws: { error in
                "\(error)".contains(message) || { print("\(error) ≠ \(message)"); return false }()
            }
            #expect(try store.read { try Reminder.fetchCount($0) } == 0)
            #expect(try store.read { try RemindersList.fetchCount($0) } == 0)
        }
    }

    /// A to-do without a UID (RFC 5545 asks for one) is imported under one
    /// made from its text: the same file again changes nothing, the same
    /// text twice is two to-dos, and export writes the UID it was given.
    @Test func aTodoWithoutAUIDIsGivenOneFromItsText() throws {
        let store = try makeStore()
        let text = calendar("BEGIN:VTODO\nSUMMARY:Milk\nDTSTAMP:20260101T000000Z\nEND:VTODO\n"
                            + "BEGIN:VTODO\nSUMMARY:Milk\nEND:VTODO\nBEGIN:VTODO\nSUMMARY:Bread\nEND:VTODO")
        let first = try importFile(try file("n.ics", text), into: store)
        #expect(first.count(.added) == 3)
        let again = try importFile(try file("n.ics", text.replacingOccurrences(of: "20260101T000000Z", with: "20260202T000000Z")),
                                   into: store)
        #expect(again.count(.added) == 0 && again.unchanged == 3)
        let titles = try store.read { try Reminder.fetchAll($0).map(\.title).sorted() }
        #expect(titles == ["Bread", "Milk", "Milk"])
        // Completed elsewhere, it is the same to-do.
        let done = try importFile(try file("n.ics", text.replacingOccurrences(of: "SUMMARY:Bread", with: "SUMMARY:Bread\nSTATUS:COMPLETED")),
                                  into: store)
        #expect(done.count(.added) == 0 && done.count(.updated) == 1)
        let exported = ICalendarExport.text(try store.read { try ICalendarExport.calendars($0, timeZone: store.clock.timeZone, now: store.clock.now) })
        #expect(exported.components(separatedBy: "UID:").count == 4)
    }

    /// An export read back unedited says nothing newer than the reminders
    /// had when exported: a completion made here since stays, and a to-do
    /// the file left as exported counts as unchanged; one edited in the
    /// file (elsewhere, after the export) is updated.
    @Test func anOlderExportReadBackLeavesWhatChangedSince() throws {
        let store = try makeStore()
        try importFile(try file("a.ics", calendar("BEGIN:VTODO\nUID:w\nSUMMARY:Water plants\nLOCATION:Balcony\nEND:VTODO\n"
                                                   + "BEGIN:VTODO\nUID:t\nSUMMARY:Take out trash\nEND:VTODO")), into: store)
        let exported = ICalendarExport.text(try store.read { try ICalendarExport.calendars($0, timeZone: store.clock.timeZone, now: store.clock.now) })
        #expect(exported.contains("X-REMINDERS-EXPORTED-STATE:"))
        let plants = TodoMapping.id(forUID: "w"), trash = TodoMapping.id(forUID: "t")
        _ = try store.complete(id: plants)
        let back = try importFile(try file("e.ics", exported), into: store)
        #expect(back.count(.updated) == 0 && back.unchanged == 2)
        #expect(try store.read { try Reminder.fetchOne($0, key: plants)?.status } == .completed)
        // Edited in the file after the export: the file's edit is taken, the other to-do stays unchanged.
        let edited = exported.replacingOccurrences(of: "SUMMARY:Take out trash", with: "SUMMARY:Take out trash and glass")
        let again = try importFile(try file("e2.ics", edited), into: store)
        #expect(again.count(.updated) == 1 && again.unchanged == 1)
        #expect(try store.read { try Reminder.fetchOne($0, key: trash)?.title } == "Take out trash and glass")
        #expect(try store.read { try Reminder.fetchOne($0, key: plants)?.status } == .completed)
        // The marker is not kept: the next export writes the reminder's own.
        #expect(try store.read { try Reminder.fetchOne($0, key: trash)?.icalendar }?.contains("X-REMINDERS-EXPORTED-STATE") == false)
        // A property the app keeps but does not model, edited in the file, is an edit too.
        let moved = exported.replacingOccurrences(of: "LOCATION:Balcony", with: "LOCATION:Kitchen")
        #expect(moved != exported)
        let third = try importFile(try file("e3.ics", moved), into: store)
        #expect(third.count(.updated) >= 1)
        #expect(try store.read { try Reminder.fetchOne($0, key: plants)?.icalendar }?.contains("LOCATION:Kitchen") == true)
    }

    @Test func aDryRunChangesNothing() throws {
        let store = try makeStore()
        let summary = try importFile(try file("d.ics", calendar("BEGIN:VTODO\nUID:1\nSUMMARY:x\nEND:VTODO")), into: store,
                                     .init(dryRun: true))
        #expect(summary.count(.added) == 1 && summary.listsCreated == ["Errands"])
        #expect(try store.read { try Reminder.fetchCount($0) } == 0)
    }

    /// A big import widens the writer's cache and keeps its statement
    /// journals in memory while it runs, and leaves both as they were,
    /// whether it commits, is a dry run or fails halfway.
    @Test func aBigImportLeavesTheConnectionsSettingsAsTheyWere() throws {
        let store = try makeStore()
        func settings() throws -> [Int] {
            try store.writer.writeWithoutTransaction { db in
                [try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? 0, try Int.fetchOne(db, sql: "PRAGMA temp_store") ?? 0]
            }
        }
        let before = try settings()
        let todos = (0..<250).map { "BEGIN:VTODO\nUID:big-\($0)\nSUMMARY:Item \($0)\nCATEGORIES:Work\nEND:VTODO" }
        let big = try file("big.ics", calendar(todos.joined(separator: "\n")))
        #expect(try importFile(big, into: store, .init(dryRun: true)).count(.added) == 250)
        #expect(try settings() == before)
        #expect(try store.read { try Reminder.fetchCount($0) } == 0)
        let broken = try file("broken.ics", calendar((todos + ["BEGIN:VTODO\nUID:bad\nPRIORITY:12\nEND:VTODO"]).joined(separator: "\n")))
        #expect(throws: CoreError.self) { try importFile(broken, into: store) }
        #expect(try settings() == before)
        #expect(try store.read { try Reminder.fetchCount($0) } == 0)
        #expect(try importFile(big, into: store).count(.added) == 250)
        #expect(try settings() == before)
        #expect(try store.read { try Reminder.fetchCount($0) } == 250)
        #expect(try store.search("Item 249").hits.count == 1)
    }

    @Test func deleteMissingDeletesOnlyWhenAsked() throws {
        let store = try makeStore()
        let both = calendar("BEGIN:VTODO\nUID:1\nSUMMARY:one\nEND:VTODO\nBEGIN:VTODO\nUID:2\nSUMMARY:two\nEND:VTODO")
        let one = calendar("BEGIN:VTODO\nUID:1\nSUMMARY:one\nEND:VTODO")
        try importFile(try file("x.ics", both), into: store)
        try importFile(try file("x.ics", one), into: store)
        #expect(try store.read { try Reminder.fetchCount($0) } == 2)
        let summary = try importFile(try file("x.ics", one), into: store, .init(deleteMissing: true))
        #expect(summary.changes.map(\.title) == ["two"])
        #expect(try store.read { try Reminder.fetchCount($0) } == 1)
    }

    /// A file imported before, imported again into a list named with
    /// `--list`, moves its to-dos there, as this device has them; the list
    /// is not left empty with "4 unchanged".
    @Test func importingAgainIntoAnotherListMovesTheToDosThere() throws {
        let store = try makeStore()
        let path = try file("x.ics", calendar("BEGIN:VTODO\nUID:1\nSUMMARY:one\nEND:VTODO\nBEGIN:VTODO\nUID:2\nSUMMARY:two\nEND:VTODO"))
        try importFile(path, into: store)
        let again = try importFile(path, into: store, .init(list: "Elsewhere"))
        #expect(again.count(.updated) == 2 && again.unchanged == 0)
        let lists = try store.read { db in try String.fetchAll(db, sql: """
            SELECT DISTINCT l.title FROM reminders r JOIN remindersLists l ON l.id = r.remindersListID
            """) }
        #expect(lists == ["Elsewhere"])
        // Once there, the same import changes nothing.
        #expect(try importFile(path, into: store, .init(list: "Elsewhere")).unchanged == 2)
    }

    @Test func aVdirFolderRoundTripsAndKeepsDeletesAndRemoteEditsApart() throws {
        let a = try makeStore()
        let list = try a.createList(title: "Chores")
        let keep = try a.add("Keep", to: list, due: "2026-03-04T10:00", priority: .medium)
        let gone = try a.add("Gone", to: list)
        let vdir = folder + "/vdir"
        var summary = try ICalendarExport.writeVdir(vdir, store: a)
        #expect(summary.written == 2)
        let listFolder = vdir + "/" + list.id
        #expect(try String(contentsOfFile: listFolder + "/displayname", encoding: .utf8) == "Chores")
        // Unchanged: nothing is written again.
        summary = try ICalendarExport.writeVdir(vdir, store: a)
        #expect(summary.written == 0 && summary.unchanged == 2)
        // A reminder deleted here: its file goes at the next export, and an import before that does not bring it back.
        _ = try a.deleteReminder(id: gone.id)
        let collections = try ICalendarFiles.read(vdir, timeZone: utc, now: a.clock.now)
        #expect(try ICalendarImport.run(collections, options: .init(), store: a).changes.isEmpty)
        summary = try ICalendarExport.writeVdir(vdir, store: a)
        #expect(summary.deleted == 1)
        #expect(!FileManager.default.fileExists(atPath: listFolder + "/" + gone.id + ".ics"))
        // A file edited there is not overwritten; importing takes the edit in.
        let path = listFolder + "/" + keep.id + ".ics"
        let edited = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "SUMMARY:Keep", with: "SUMMARY:Kept there")
        try Data(edited.utf8).write(to: URL(fileURLWithPath: path))
        try a.updateReminder(id: keep.id, ReminderChanges(notes: "here"))
        summary = try ICalendarExport.writeVdir(vdir, store: a)
        #expect(summary.changedThere == [path])
        _ = try ICalendarImport.run(try ICalendarFiles.read(vdir, timeZone: utc, now: a.clock.now), options: .init(), store: a)
        #expect(try a.read { try Reminder.fetchOne($0, key: keep.id)?.title } == "Kept there")
        // A fresh device importing the folder gets the same list.
        let b = try makeStore()
        _ = try ICalendarImport.run(try ICalendarFiles.read(vdir, timeZone: utc, now: b.clock.now), options: .init(), store: b)
        #expect(try dump(b).lists.map(\.id) == [list.id])
        #expect(try dump(b).reminders.map(\.title) == ["Kept there"])
        // A vdir file holds one to-do.
        try Data(calendar("BEGIN:VTODO\nUID:1\nEND:VTODO\nBEGIN:VTODO\nUID:2\nEND:VTODO").utf8)
            .write(to: URL(fileURLWithPath: listFolder + "/two.ics"))
        #expect(throws: CoreError.self) { try ICalendarFiles.read(vdir, timeZone: utc, now: b.clock.now) }
    }
}
