import Foundation
import GRDB
import ICalendar

/// Imports iCalendar collections in one transaction: all of it or none.
///
/// The UID is the key. A to-do already here is updated when the file's
/// version is later (SEQUENCE, then LAST-MODIFIED), or, when the file
/// gives neither, when its text changed since this device last imported
/// it; otherwise what is here stays, edits made here included. A vdir
/// file this device saw unchanged since its last import or export is not
/// read again, so a reminder deleted here does not come back from it.
public enum ICalendarImport {
    public struct Options: Sendable {
        /// Import everything into this list (a title or id; created when
        /// no list has it).
        public var list: String?
        /// Delete reminders of the imported lists that the import does not
        /// hold (see `deletions`).
        public var deleteMissing: Bool
        public var dryRun: Bool

        public init(list: String? = nil, deleteMissing: Bool = false, dryRun: Bool = false) {
            self.list = list
            self.deleteMissing = deleteMissing
            self.dryRun = dryRun
        }
    }

    /// What an import did, or would do.
    public struct Summary: Sendable, Equatable {
        public enum Kind: String, Sendable { case added, updated, deleted }
        public struct Change: Sendable, Equatable {
            public var kind: Kind
            public var list: String
            public var title: String
        }
        public var changes: [Change] = []
        public var unchanged = 0
        public var listsCreated: [String] = []
        public var listsUpdated: [String] = []
        public var skippedComponents = 0
        /// The to-dos whose repeat rule this version cannot follow (kept
        /// as written, and exported so; they do not repeat here), in the
        /// files' order: each title, and what is wrong with its rule.
        public var unfollowedRules: [UnfollowedRule] = []

        /// A to-do whose repeat rule cannot be followed here, and why.
        public struct UnfollowedRule: Equatable, Sendable {
            public var title: String
            public var problem: String
        }

        public func count(_ kind: Kind) -> Int { changes.filter { $0.kind == kind }.count }
    }

    /// Imports `collections`. With `dryRun` the changes are made and
    /// rolled back, so the summary is exactly what the import would do.
    public static func run(_ collections: [ICalendarCollection], options: Options, store: RemindersStore) throws -> Summary {
        let incoming = collections.reduce(0) { $0 + $1.items.count }
        // The settings, the transaction and their restoring are one use of
        // the writer connection, so that no other write of this process
        // runs with the import's settings or takes them for its own.
        return try store.writeWithoutTransaction { db in
            var previous: (cache: Int, tempStore: Int)?
            defer {
                if let previous {
                    try? db.execute(sql: "PRAGMA cache_size = \(previous.cache); PRAGMA temp_store = \(previous.tempStore)")
                }
            }
            if incoming >= 200 {
                // Thousands of rows in one transaction spill SQLite's
                // default 2 MB of pages to the file and read them back: the
                // import widens the cache while it runs, as the engine does
                // for a big fetch. And each insert's statement journal (the
                // pages it changes, as they were, to undo it alone) passes
                // the 64 KiB SQLite keeps in memory; once one has, every
                // later one in the transaction goes to a temporary file, a
                // fifth of a 10,000-reminder import. Temporary storage in
                // memory keeps them there. Both are set outside the
                // transaction (changing `temp_store` also drops TEMP tables;
                // the app keeps none past its migrations).
                previous = (try Int.fetchOne(db, sql: "PRAGMA cache_size") ?? -2000,
                            try Int.fetchOne(db, sql: "PRAGMA temp_store") ?? 0)
                try db.execute(sql: "PRAGMA cache_size = -65536; PRAGMA temp_store = MEMORY")
            }
            var summary = Summary()
            try db.inTransaction {
                // A big import into a small database builds the search
                // index and the counts once, at its end (`DerivedData`).
                let existing = try Int.fetchOne(db, sql: "SELECT count(*) FROM reminders") ?? 0
                let bulk = DerivedData.isWorthSuspending(incoming: incoming, existing: existing)
                if bulk { try DerivedData.suspend(db) }
                summary = try apply(collections, options: options, db: db, store: store)
                if bulk { try DerivedData.resume(db) }
                return options.dryRun ? .rollback : .commit
            }
            return summary
        }
    }

    static func apply(_ collections: [ICalendarCollection], options: Options, db: Database,
                      store: RemindersStore) throws -> Summary {
        var summary = Summary()
        // Every UID once.
        var seen: [String: (String, Int)] = [:]
        for collection in collections {
            summary.skippedComponents += collection.skipped
            summary.unfollowedRules += collection.items.compactMap { item in
                item.todo.unfollowedRule.map { Summary.UnfollowedRule(title: item.todo.reminder.title, problem: $0) }
            }
            for item in collection.items {
                if let (file, line) = seen[item.todo.reminder.id] {
                    throw CoreError.invalidInput(
                        "\(item.file):\(item.todo.line): UID '\(ICalParser.clip(item.todo.uid))' is also on line \(line) of \(file)")
                }
                seen[item.todo.reminder.id] = (item.file, item.todo.line)
            }
        }
        // The lists, then each to-do's final row.
        var targets: [(collection: ICalendarCollection, listID: String)] = []
        for collection in collections {
            // A file of events and no to-dos is no list: nothing is made
            // for it (a vdir folder is a list even while empty, and an
            // existing list's file may be empty on purpose, for
            // --delete-missing).
            if collection.items.isEmpty, collection.folder == nil,
               try !existingList(for: collection, options: options, db: db) {
                continue
            }
            let listID = try list(for: collection, options: options, db: db, summary: &summary)
            try store.writeGuard(db, [listID])
            targets.append((collection, listID))
        }
        var listTitles: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, title FROM remindersLists") { listTitles[row["id"]] = row["title"] }

        var incoming: [String: (item: ICalendarCollection.Item, listID: String)] = [:]
        for (collection, listID) in targets {
            for item in collection.items { incoming[item.todo.reminder.id] = (item, listID) }
        }
        // One level of subtasks, in the parent's list: a link that cannot
        // hold is kept in the text, not followed.
        var parentOf: [String: String] = [:]
        for (id, entry) in incoming {
            guard let parentID = entry.item.todo.reminder.parentID, parentID != id else { continue }
            if let parent = incoming[parentID] {
                guard parent.listID == entry.listID else { continue }
                parentOf[id] = parentID
            } else if let row = try Row.fetchOne(db, sql: "SELECT remindersListID, parentID FROM reminders WHERE id = ?",
                                                 arguments: [parentID]),
                      (row["remindersListID"] as String) == entry.listID, (row["parentID"] as String?) == nil {
                parentOf[id] = parentID
            }
        }
        // A parent that is itself a subtask here loses its own link instead.
        for (id, parentID) in parentOf where parentOf[parentID] != nil { parentOf[id] = nil }

        var nextPositions: [String: Int] = [:]
        // Parents first, for the foreign key; each group in file order.
        var inFileOrder: [String] = []
        for (collection, _) in targets { inFileOrder += collection.items.map(\.todo.reminder.id) }
        let ordered = inFileOrder.filter { parentOf[$0] == nil } + inFileOrder.filter { parentOf[$0] != nil }
        let seenFiles = try recordedFiles(db, in: targets.compactMap(\.collection.folder))
        // What is here already, in two reads rather than a few per to-do.
        var existingRows: [String: Reminder] = [:]
        var existingTags: [String: Set<String>] = [:]
        let ids = Array(incoming.keys)
        for start in stride(from: 0, to: ids.count, by: 500) {
            let chunk = Array(ids[start..<min(start + 500, ids.count)])
            for row in try Reminder.fetchAll(db, keys: chunk) { existingRows[row.id] = row }
            let marks = Array(repeating: "?", count: chunk.count).joined(separator: ",")
            for row in try Row.fetchAll(db, sql: "SELECT reminderID, tagID FROM remindersTags WHERE reminderID IN (\(marks))",
                                        arguments: StatementArguments(chunk)) {
                existingTags[row[0], default: []].insert(row[1])
            }
        }
        let mapping = TodoMapping(timeZone: store.clock.timeZone, zones: TimeZones())
        for id in ordered {
            let (item, listID) = incoming[id]!
            if let sha = item.fileSHA, seenFiles[item.file]?.sha == sha {
                summary.unchanged += 1
                continue
            }
            let existing = existingRows[id]
            var reminder = item.todo.reminder
            reminder.remindersListID = listID
            reminder.parentID = parentOf[id]
            if let position = item.todo.position {
                reminder.position = position
            } else if let existing, existing.remindersListID == listID {
                reminder.position = existing.position
            } else {
                if nextPositions[listID] == nil { nextPositions[listID] = try RemindersStore.nextPosition(db, listID: listID) }
                reminder.position = nextPositions[listID]!
                nextPositions[listID]! += 1
            }
            // A file without a COMPLETED time keeps the completion time here.
            if let existing, !item.todo.givesCompletedAt, existing.isCompleted, reminder.isCompleted {
                reminder.completedAt = existing.completedAt
            }
            if let existing {
                // A series' due date moved in the file is a move, as in the
                // app. The occurrence a file names (X-REMINDERS-OCCURRENCE)
                // counts while its rule is the one here: another client that
                // changed the rule kept the property without knowing it.
                if reminder.occurrence == nil || reminder.repeatRule != existing.repeatRule {
                    reminder.occurrence = Repeats.occurrence(before: existing, after: reminder)
                }
            }
            var kept = item.todo.kept
            if item.todo.reminder.parentID != nil, reminder.parentID == nil,
               !kept.properties.contains(where: { $0.name == "RELATED-TO" && TodoMapping.isParentLink($0) }) {
                kept.properties.append(.text("RELATED-TO", item.todo.parentUID ?? "", parameters: [ICalParameter("RELTYPE", "PARENT")]))
            }
            let exported = ExportedReminder(reminder: reminder, tags: item.todo.tags, parentUID: nil, repeatOfUID: nil)
            if kept.property("DTSTART") != nil, let due = reminder.dueDate {
                kept.properties.append(ICalProperty(TodoMapping.dueMarker, due.description))
            }
            kept.properties.append(ICalProperty(TodoMapping.sourceMarker, item.sourceHash))
            kept.properties.append(ICalProperty(TodoMapping.stateMarker, mapping.fingerprint(exported)))
            reminder.icalendar = kept.text
            guard reminder.icalendar!.utf8.count <= Schema.maximumICalendarBytes else {
                throw CoreError.invalidInput("\(item.file):\(item.todo.line): the properties kept for UID '\(ICalParser.clip(item.todo.uid))' take \(reminder.icalendar!.utf8.count) bytes; the limit is \(Schema.maximumICalendarBytes)")
            }
            let listTitle = listTitles[listID] ?? listID
            if let existing {
                if isUnchanged(existing, incoming: reminder, kept: kept, item: item, tagsHere: existingTags[id] ?? []) {
                    if options.list != nil, existing.remindersListID != listID {
                        // Asked into another list: it moves there, as this
                        // device has it (the file says nothing newer).
                        try store.writeGuard(db, [existing.remindersListID, listID])
                        var moved = existing
                        moved.remindersListID = listID
                        moved.parentID = reminder.parentID
                        moved.position = reminder.position
                        try moved.updateChanges(db, from: existing)
                        summary.changes.append(.init(kind: .updated, list: listTitle, title: existing.title))
                        try record(db, item: item)
                        continue
                    }
                    summary.unchanged += 1
                    try record(db, item: item)
                    continue
                }
                try store.writeGuard(db, [existing.remindersListID])
                // Only the columns that changed: the others keep their edit times.
                try reminder.updateChanges(db, from: existing)
                summary.changes.append(.init(kind: .updated, list: listTitle, title: reminder.title))
                try RemindersStore.setTags(db, reminderID: id, tags: item.todo.tags)
            } else {
                try reminder.insert(db)
                summary.changes.append(.init(kind: .added, list: listTitle, title: reminder.title))
                var keys = Set<String>()
                for tag in item.todo.tags {
                    let key = TagKey.of(tag)
                    guard keys.insert(key).inserted else { continue }
                    try db.cachedStatement(sql: "INSERT INTO tags (id, title) VALUES (?, ?) ON CONFLICT (id) DO NOTHING")
                        .execute(arguments: [key, tag])
                    try db.cachedStatement(sql: "INSERT INTO remindersTags (id, reminderID, tagID) VALUES (?, ?, ?)")
                        .execute(arguments: [ReminderTag.linkID(reminderID: id, tagKey: key), id, key])
                }
            }
            try record(db, item: item)
        }
        if options.deleteMissing {
            for (collection, listID) in targets {
                for reminder in try deletions(db, collection: collection, listID: listID, incoming: Set(incoming.keys)) {
                    summary.changes.append(.init(kind: .deleted, list: listTitles[listID] ?? listID, title: reminder.title))
                    try Reminder.deleteOne(db, key: reminder.id)
                }
            }
        }
        try forgetVanishedFiles(db, folders: targets.compactMap(\.collection.folder))
        _ = try SyncedRules.repair(db)
        return summary
    }

    /// Whether the import would change nothing that matters: the same
    /// reminder, or a file version not later than the one imported, or
    /// (without versions) the same text as imported before.
    private static func isUnchanged(_ existing: Reminder, incoming: Reminder, kept: ICalComponent,
                                    item: ICalendarCollection.Item, tagsHere: Set<String>) -> Bool {
        var comparable = incoming
        if !item.todo.givesCompletedAt { comparable.completedAt = existing.completedAt }
        if item.todo.position == nil { comparable.position = existing.position }
        let tagsThere = Set(item.todo.tags.map { TagKey.of($0) })
        let keptHere = existing.icalendar.flatMap { try? ICalParser.parse(Array($0.utf8), topLevel: "VTODO").first }
        if existing.status == .completing { comparable.status = .completing }
        var sameRow = comparable
        sameRow.icalendar = existing.icalendar
        // A reminder made here keeps no text: the file's then holds only
        // what the export writes from the row (its fields, compared above),
        // when it is this device's own export read back.
        let keptThere = keptHere == nil ? stable(kept, withoutFields: true) : stable(kept)
        if sameRow == existing, tagsHere == tagsThere, stable(keptHere) == keptThere {
            return true
        }
        // This app's own export read back, unedited since: nothing in it is
        // newer than the reminder here, which may have changed since.
        if item.todo.isUneditedExport { return true }
        let versionHere = TodoVersion(
            sequence: keptHere?.property("SEQUENCE").flatMap { Int($0.value) },
            lastModified: keptHere?.property("LAST-MODIFIED").flatMap { try? ICalDateTime(parsing: $0.value) }
                .map { ICalendarTime.moment($0, in: ICalendarTime.utc) })
        if item.todo.version.isKnown, versionHere.isKnown {
            return !item.todo.version.isNewer(than: versionHere)
        }
        if !item.todo.version.isKnown, keptHere?.property(TodoMapping.sourceMarker)?.value == item.sourceHash {
            return true
        }
        return false
    }

    /// The kept text without the bookkeeping that differs between equal imports.
    /// `withoutFields`: nil when all that is left is the properties of the
    /// fields the app models (and the UID), whose values the row holds.
    private static func stable(_ kept: ICalComponent?, withoutFields: Bool = false) -> ICalComponent? {
        guard var kept else { return nil }
        kept.properties.removeAll {
            $0.name == TodoMapping.sourceMarker || $0.name == TodoMapping.stateMarker
                || TodoMapping.versionProperties.contains($0.name)
        }
        if withoutFields {
            let fields = Set(TodoMapping.Field.allCases.map(\.property)).union(["UID"])
            if kept.properties.allSatisfy({ fields.contains($0.name) }) && kept.components.isEmpty { return nil }
        }
        return kept.content
    }

    /// Whether the list a collection goes into is here already.
    private static func existingList(for collection: ICalendarCollection, options: Options, db: Database) throws -> Bool {
        try RemindersList.exists(db, key: targetListID(for: collection, options: options, db: db))
    }

    /// The id of the list a collection goes into, here already or not:
    /// `--list`'s, the one the collection names or its folder went into
    /// before, the first list of its name, or one derived from the name.
    private static func targetListID(for collection: ICalendarCollection, options: Options, db: Database) throws -> String {
        if let wanted = options.list {
            return (try? Resolver.list(db, wanted)) ?? derivedID("icalendar-list", wanted.lowercased())
        }
        let name = collection.name ?? collection.fallbackName
        var listID = collection.listID
        if listID == nil, let folder = collection.folder {
            listID = try String.fetchOne(db, sql: "SELECT listID FROM local_icalendarFolders WHERE path = ?", arguments: [folder])
        }
        if listID == nil {
            let byTitle = try String.fetchAll(db, sql: "SELECT id FROM remindersLists WHERE title = ? COLLATE NOCASE ORDER BY position, id",
                                              arguments: [name])
            listID = byTitle.first
        }
        return listID ?? derivedID("icalendar-list", name.lowercased())
    }

    /// The list a collection goes into, created or renamed as needed.
    private static func list(for collection: ICalendarCollection, options: Options, db: Database,
                             summary: inout Summary) throws -> String {
        let name = collection.name ?? collection.fallbackName
        let id = try targetListID(for: collection, options: options, db: db)
        if let wanted = options.list {
            if try RemindersList.exists(db, key: id) { return id }
            return try createList(db, id: id, title: try Validation.title(wanted, of: "list title"), color: collection.color,
                                  summary: &summary)
        }
        if var list = try RemindersList.fetchOne(db, key: id) {
            var changed = false
            if let title = collection.name, list.title != title { list.title = title; changed = true }
            if let color = collection.color, list.color != color { list.color = color; changed = true }
            if let position = collection.position, list.position != position { list.position = position; changed = true }
            if changed {
                try list.update(db)
                summary.listsUpdated.append(list.title)
            }
        } else {
            _ = try createList(db, id: id, title: name, color: collection.color, position: collection.position, summary: &summary)
        }
        if let cover = collection.cover {
            try db.execute(sql: """
                INSERT INTO remindersListCovers (remindersListID, image) VALUES (?, ?)
                ON CONFLICT (remindersListID) DO UPDATE SET image = excluded.image WHERE image IS NOT excluded.image
                """, arguments: [id, cover])
        }
        if let folder = collection.folder {
            try db.execute(sql: """
                INSERT INTO local_icalendarFolders (path, listID) VALUES (?, ?)
                ON CONFLICT (path) DO UPDATE SET listID = excluded.listID
                """, arguments: [folder, id])
        }
        return id
    }

    private static func createList(_ db: Database, id: String, title: String, color: String?, position: Int? = nil,
                                   summary: inout Summary) throws -> String {
        if try RemindersList.exists(db, key: id) { return id }
        let position = try position ?? Int.fetchOne(db, sql: "SELECT ifnull(max(position), -1) + 1 FROM remindersLists") ?? 0
        // The palette's first, not the next unused: a list's id comes from
        // its name, so two devices importing one file make the same list,
        // and must give it the same colour.
        try RemindersList(id: id, title: title, color: color ?? RemindersStore.palette[0], position: position).insert(db)
        summary.listsCreated.append(title)
        return id
    }

    /// The reminders `--delete-missing` deletes from a list: those the
    /// import does not hold. From a vdir folder this device read or wrote
    /// before, only those whose file it saw there and which is gone: a
    /// reminder added here since is not yet in the folder, and stays.
    private static func deletions(_ db: Database, collection: ICalendarCollection, listID: String,
                                  incoming: Set<String>) throws -> [Reminder] {
        var candidates = try Reminder.filter(Column("remindersListID") == listID)
            .order(Column("position"), Column("id")).fetchAll(db).filter { !incoming.contains($0.id) }
        if let folder = collection.folder {
            let known = try recordedFiles(db, in: [folder])
            if !known.isEmpty {
                let seenThere = Set(known.values.map(\.reminderID))
                candidates = candidates.filter { seenThere.contains($0.id) }
            }
        }
        // Subtasks of a deleted parent go with it.
        let deleted = Set(candidates.map(\.id))
        return candidates.filter { $0.parentID == nil || !deleted.contains($0.parentID!) }
    }

    // MARK: What this device saw in vdir folders

    typealias RecordedFile = (sha: String, reminderID: String)

    static func recordedFiles(_ db: Database, in folders: [String]) throws -> [String: RecordedFile] {
        var files: [String: RecordedFile] = [:]
        for folder in Set(folders) {
            for row in try Row.fetchAll(db, sql: "SELECT path, sha256, reminderID FROM local_icalendarFiles WHERE folder = ?",
                                        arguments: [folder]) {
                files[row["path"]] = (row["sha256"], row["reminderID"])
            }
        }
        return files
    }

    private static func record(_ db: Database, item: ICalendarCollection.Item) throws {
        guard let sha = item.fileSHA else { return }
        let folder = (item.file as NSString).deletingLastPathComponent
        try recordFile(db, path: item.file, folder: folder, sha: sha, reminderID: item.todo.reminder.id)
    }

    static func recordFile(_ db: Database, path: String, folder: String, sha: String, reminderID: String) throws {
        try db.execute(sql: """
            INSERT INTO local_icalendarFiles (path, folder, sha256, reminderID) VALUES (?, ?, ?, ?)
            ON CONFLICT (path) DO UPDATE SET sha256 = excluded.sha256, reminderID = excluded.reminderID
            """, arguments: [path, folder, sha, reminderID])
    }

    /// Forgets files gone from the folders.
    private static func forgetVanishedFiles(_ db: Database, folders: [String]) throws {
        for (path, _) in try recordedFiles(db, in: folders) where !FileManager.default.fileExists(atPath: path) {
            try db.execute(sql: "DELETE FROM local_icalendarFiles WHERE path = ?", arguments: [path])
        }
    }
}

extension ICalParser {
    /// A reminder's kept text as a VTODO; nil for none or text that does
    /// not read (another version wrote it): the reminder exports without it.
    static func parseKept(_ text: String?) -> ICalComponent? {
        guard let text else { return nil }
        return try? parse(Array(text.utf8), topLevel: "VTODO").first
    }
}
