import Crypto
import Foundation
import GRDB
import ICalendar

/// Writes lists as iCalendar: a VCALENDAR per list (RFC 5545, with RFC
/// 7986's NAME and IMAGE, and the X-WR-CALNAME, X-WR-RELCALID and
/// X-APPLE-CALENDAR-COLOR that calendar apps read), or a vdir folder per
/// list.
public enum ICalendarExport {
    public static let productID = "-//Reminders//Reminders//EN"

    /// One VCALENDAR per list, in the lists' order: every list, or the
    /// one `listID` names. Covers go in as IMAGE when `covers` is set.
    public static func calendars(_ db: Database, listID: String? = nil, timeZone: TimeZone, now: Date,
                                 covers: Bool = true) throws -> [ICalComponent] {
        let content = try Content.read(db, listID: listID)
        let mapping = TodoMapping(timeZone: timeZone, zones: TimeZones())
        return content.lists.map { list in
            var calendar = header(list)
            if covers, let image = content.covers[list.id] {
                calendar.properties.append(ICalProperty("IMAGE", image.base64EncodedString(), parameters: [
                    ICalParameter("VALUE", "BINARY"), ICalParameter("ENCODING", "BASE64"),
                    ICalParameter("FMTTYPE", "image/png"), ICalParameter("DISPLAY", "BADGE"),
                ]))
            }
            for item in content.reminders[list.id] ?? [] {
                calendar.components += content.todo(item, mapping: mapping, now: now)
            }
            return ICalendarZoneDefinitions.adding(to: calendar)
        }
    }

    /// The text of calendars, one after another (an iCalendar stream).
    public static func text(_ calendars: [ICalComponent]) -> String {
        var bytes: [UInt8] = []
        for calendar in calendars { ICalWriter.write(calendar, into: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func header(_ list: RemindersList) -> ICalComponent {
        ICalComponent("VCALENDAR", properties: [
            ICalProperty("VERSION", "2.0"),
            ICalProperty("PRODID", productID),
            .text("NAME", list.title),
            .text("X-WR-CALNAME", list.title),
            ICalProperty("X-WR-RELCALID", list.id),
            ICalProperty("X-APPLE-CALENDAR-COLOR", list.color.uppercased()),
            ICalProperty("X-APPLE-CALENDAR-ORDER", String(list.position)),
        ])
    }

    /// What an export reads, once.
    struct Content {
        var lists: [RemindersList]
        var covers: [String: Data]
        /// By list id, in the list's order.
        var reminders: [String: [ExportedReminder]]
        /// Kept text by reminder id, read.
        var kept: [String: ICalComponent]
        var ids: Set<String>

        static func read(_ db: Database, listID: String?) throws -> Content {
            var lists = try RemindersList.order(Column("position"), Column("title").collating(.nocase), Column("id")).fetchAll(db)
            if let listID { lists = lists.filter { $0.id == listID } }
            var covers: [String: Data] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT remindersListID, image FROM remindersListCovers") {
                covers[row["remindersListID"]] = row["image"]
            }
            var tags: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT remindersTags.reminderID, tags.title FROM remindersTags JOIN tags ON tags.id = remindersTags.tagID
                ORDER BY remindersTags.tagID
                """) {
                tags[row["reminderID"], default: []].append(row["title"])
            }
            let all = try Reminder.order(Column("position"), Column("id")).fetchAll(db)
            let rows = listID.map { listID in all.filter { $0.remindersListID == listID } } ?? all
            var kept: [String: ICalComponent] = [:]
            var uids: [String: String] = [:]
            for reminder in rows {
                guard let component = ICalParser.parseKept(reminder.icalendar) else { continue }
                kept[reminder.id] = component
                if let uid = component.property("UID")?.text { uids[reminder.id] = uid }
            }
            // Parents and series outside the rows read (another list) keep their UIDs too.
            let outside = Set(rows.compactMap(\.parentID) + rows.compactMap(\.repeatOf)).subtracting(rows.map(\.id))
            for id in outside {
                if let text = try String.fetchOne(db, sql: "SELECT icalendar FROM reminders WHERE id = ?", arguments: [id]),
                   let uid = ICalParser.parseKept(text)?.property("UID")?.text {
                    uids[id] = uid
                }
            }
            var byList: [String: [ExportedReminder]] = [:]
            for reminder in rows {
                byList[reminder.remindersListID, default: []].append(ExportedReminder(
                    reminder: reminder, tags: tags[reminder.id] ?? [],
                    parentUID: reminder.parentID.map { uids[$0] ?? $0 },
                    repeatOfUID: reminder.repeatOf.map { uids[$0] ?? $0 }))
            }
            let ids = Set(all.map(\.id))
            return Content(lists: lists, covers: covers, reminders: byList, kept: kept, ids: ids)
        }

        func todo(_ item: ExportedReminder, mapping: TodoMapping, now: Date) -> [ICalComponent] {
            mapping.exportTodo(item, kept: kept[item.reminder.id], now: now, exists: { ids.contains($0) })
        }
    }

    // MARK: vdir

    /// What writing a vdir did.
    public struct VdirSummary: Sendable, Equatable {
        public var written = 0
        public var unchanged = 0
        public var deleted = 0
        /// Files changed in the folder since this device last read or
        /// wrote them, left as they are: importing the folder first takes
        /// their changes in.
        public var changedThere: [String] = []
        public var folders: [String] = []
    }

    /// Writes every list into `root` as a vdir folder (`displayname`,
    /// `color`, `order`, one `.ics` per reminder; vdirsyncer carries the
    /// three to CalDAV as the collection's name, calendar-color and
    /// calendar-order), the folder a list was imported
    /// from when it came from one there. Files are written only when
    /// their content changed (the revision times aside), so a folder
    /// synced by vdirsyncer sends only what changed; files of reminders
    /// deleted here are removed when they are as this device left them.
    public static func writeVdir(_ root: String, store: RemindersStore) throws -> VdirSummary {
        let root = URL(fileURLWithPath: root).standardizedFileURL.path
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw CoreError.invalidInput("\(root): cannot create the folder")
        }
        let realRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let now = store.clock.now
        return try store.write { db in
            var summary = VdirSummary()
            let content = try Content.read(db, listID: nil)
            let mapping = TodoMapping(timeZone: store.clock.timeZone, zones: TimeZones())
            for list in content.lists {
                let recordedFolder = try String.fetchAll(db, sql: "SELECT path FROM local_icalendarFolders WHERE listID = ?",
                                                         arguments: [list.id])
                    .first { ($0 as NSString).deletingLastPathComponent == realRoot }
                let folder = recordedFolder ?? realRoot + "/" + list.id
                try makeFolder(folder)
                try writeIfChanged(folder + "/displayname", Array(list.title.utf8))
                try writeIfChanged(folder + "/color", Array(list.color.uppercased().utf8))
                try writeIfChanged(folder + "/order", Array(String(list.position).utf8))
                summary.folders.append(folder)
                let recorded = try ICalendarImport.recordedFiles(db, in: [folder])
                var pathOf: [String: String] = [:]
                for (path, file) in recorded { pathOf[file.reminderID] = path }
                var written = Set<String>()
                for item in content.reminders[list.id] ?? [] {
                    let path = pathOf[item.reminder.id] ?? folder + "/" + item.reminder.id + ".ics"
                    var calendar = ICalComponent("VCALENDAR", properties: [
                        ICalProperty("VERSION", "2.0"), ICalProperty("PRODID", productID),
                    ])
                    calendar.components = content.todo(item, mapping: mapping, now: now)
                    calendar = ICalendarZoneDefinitions.adding(to: calendar)
                    var bytes: [UInt8] = []
                    ICalWriter.write(calendar, into: &bytes)
                    written.insert(path)
                    if let existing = FileManager.default.contents(atPath: path) {
                        let existingSHA = sha256(existing)
                        if let record = recorded[path], record.sha != existingSHA {
                            summary.changedThere.append(path)
                            continue
                        }
                        if withoutRevision([UInt8](existing)) == withoutRevision(bytes) {
                            summary.unchanged += 1
                            try ICalendarImport.recordFile(db, path: path, folder: folder, sha: existingSHA, reminderID: item.reminder.id)
                            continue
                        }
                    }
                    try writeAtomically(path, bytes)
                    try ICalendarImport.recordFile(db, path: path, folder: folder, sha: sha256(Data(bytes)), reminderID: item.reminder.id)
                    summary.written += 1
                }
                for (path, record) in recorded where !written.contains(path) {
                    if let existing = FileManager.default.contents(atPath: path) {
                        guard sha256(existing) == record.sha else {
                            summary.changedThere.append(path)
                            continue
                        }
                        try? FileManager.default.removeItem(atPath: path)
                        summary.deleted += 1
                    }
                    try db.execute(sql: "DELETE FROM local_icalendarFiles WHERE path = ?", arguments: [path])
                }
                try db.execute(sql: """
                    INSERT INTO local_icalendarFolders (path, listID) VALUES (?, ?)
                    ON CONFLICT (path) DO UPDATE SET listID = excluded.listID
                    """, arguments: [folder, list.id])
            }
            return summary
        }
    }

    static func sha256(_ data: Data) -> String {
        hexDigits(SHA256.hash(data: data))
    }

    /// The text without DTSTAMP and LAST-MODIFIED lines, which say when
    /// the file was written rather than what it says.
    static func withoutRevision(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: 0x0A).filter {
            !$0.starts(with: Array("DTSTAMP:".utf8)) && !$0.starts(with: Array("LAST-MODIFIED:".utf8))
        }
    }

    private static func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CoreError.invalidInput("\(path): cannot create the folder")
        }
    }

    private static func writeIfChanged(_ path: String, _ bytes: [UInt8]) throws {
        if let existing = FileManager.default.contents(atPath: path), [UInt8](existing) == bytes { return }
        try writeAtomically(path, bytes)
    }

    /// Writes through a temporary file and a rename, so a reader never
    /// sees half a file.
    static func writeAtomically(_ path: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent("." + url.lastPathComponent + ".tmp")
        do {
            try Data(bytes).write(to: temporary)
            guard rename(temporary.path, path) == 0 else { throw CoreError.invalidInput("rename failed: errno \(errno)") }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CoreError.invalidInput("\(path): cannot write the file (\(error.localizedDescription))")
        }
    }
}
