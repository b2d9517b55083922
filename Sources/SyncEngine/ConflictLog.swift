import CloudServer
import Foundation
import GRDB

/// An entry of the conflict log: a field both sides changed, or a delete
/// that beat an edit, with all three values and who won.
public struct ConflictEntry: Codable, Hashable, Sendable, Identifiable {
    public var id: String
    public var recordType: String
    /// The row's primary key.
    public var recordID: String
    /// The column, or "*" for the whole row (a delete).
    public var field: String
    public var ancestor: String?
    public var local: String?
    public var remote: String?
    public var localTime: Int64?
    public var remoteTime: Int64?
    /// "local", "remote" or "delete".
    public var winner: String
    public var localDevice: String?
    public var remoteDevice: String?
    /// Milliseconds since 1970.
    public var resolvedAt: Int64
    public var isDismissed: Bool
    /// Why an edit was dropped rather than merged; nil for a merge.
    public var cause: ConflictCause?
    /// Who caused it: the owner who changed or ended a share.
    public var byUser: String?
    /// What the shared record was called when the entry was logged (a
    /// list's title), to name it after it is gone from this device.
    public var subject: String?

    init(row: Row) {
        id = row["id"]
        recordType = row["recordType"]
        recordID = row["recordName"]
        field = row["field"]
        ancestor = row["ancestor"]
        local = row["local"]
        remote = row["remote"]
        localTime = row["localTime"]
        remoteTime = row["remoteTime"]
        winner = row["winner"]
        localDevice = row["localDevice"]
        remoteDevice = row["remoteDevice"]
        resolvedAt = row["resolvedAt"]
        isDismissed = row["isDismissed"]
        cause = (row["cause"] as String?).flatMap(ConflictCause.init(rawValue:))
        byUser = row["byUser"]
        subject = row["subject"]
    }

    /// The entry as `device` sees it. An entry is logged by the device
    /// that merged (its side is "local"), and synced to the user's other
    /// devices: on the device whose edit was the other side, the sides and
    /// the winner swap, so "local" is always the device reading it when it
    /// took part.
    /// The other side's device when it is another person's, as the log
    /// names it ("bob@laptop", `SyncEngine.remoteName(of:)`); nil for one
    /// of this user's devices.
    public var remotePerson: String? {
        remoteDevice.flatMap { $0.contains("@") ? $0 : nil }
    }

    public func seen(from device: String) -> ConflictEntry {
        guard localDevice != device, remoteDevice == device else { return self }
        var entry = self
        swap(&entry.local, &entry.remote)
        swap(&entry.localTime, &entry.remoteTime)
        swap(&entry.localDevice, &entry.remoteDevice)
        entry.winner = winner == "local" ? "remote" : (winner == "remote" ? "local" : winner)
        return entry
    }

    /// The values a dropped edit kept (`local`, and the server's in
    /// `remote`), as (column, value) pairs; nil for a value logged as plain
    /// text (a merged field, or an entry from before values were kept so).
    public static func keptValues(_ text: String?) -> [(column: String, value: String)]? {
        guard let text, text.hasPrefix("[["),
              let pairs = try? JSONDecoder().decode([[String]].self, from: Data(text.utf8)),
              pairs.allSatisfy({ $0.count == 2 }) else { return nil }
        return pairs.map { ($0[0], $0[1]) }
    }

    /// The value the merge kept and the one that lost, for an entry a
    /// side won ("local" or "remote"); nil for a delete's.
    public var sides: (kept: String?, losing: String?)? {
        switch winner {
        case "local": (local, remote)
        case "remote": (remote, local)
        default: nil
        }
    }

    /// Why the winner won, in words.
    public var reason: String {
        switch winner {
        case "delete": return "a delete wins over a concurrent edit"
        case "local":
            if let localTime, let remoteTime, localTime == remoteTime { return "both edits have the same time; this device's wins the tie" }
            return "this device's edit is the later one"
        default: return "the other device's edit is the later one"
        }
    }
}

/// Why an edit was dropped instead of merged.
public enum ConflictCause: String, Codable, Hashable, Sendable {
    /// The owner made the share read-only: the server refused the edit.
    case readOnly
    /// The record is no longer shared with this user: the owner removed
    /// them, ended the share, or moved the record out of it.
    case noLongerShared
    /// The server was made again (or is another one) and has no share of
    /// the record: the owner must share it again.
    case shareLost
}

extension SyncEngine {
    /// The conflict log: a table of the engine's, synced in the user's own
    /// zone like the user's tables, so an entry logged by the device that
    /// merged reaches every device of the user, and dismissing it on one
    /// dismisses it everywhere.
    public static let conflictTable = "sync_conflicts"

    func logConflict(_ db: Database, table: String, key: String, field: String, ancestor: String?, local: String?,
                     remote: String?, localTime: Int64?, remoteTime: Int64?, winner: String, remoteDevice: String?,
                     cause: ConflictCause? = nil, byUser: String? = nil, subject: String? = nil,
                     resolvedAt: Int64? = nil) throws {
        if let cause {
            // A dropped edit is logged once, however many paths meet it.
            let logged = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM sync_conflicts
                               WHERE recordType = ? AND recordName = ? AND cause = ? AND local IS ? AND NOT isDismissed)
                """, arguments: [table, key, cause.rawValue, local]) ?? false
            if logged { return }
        }
        let id = UUID().uuidString.lowercased()
        try db.executeCached("""
            INSERT INTO sync_conflicts (id, recordType, recordName, field, ancestor, local, remote, localTime, remoteTime,
                                        winner, localDevice, remoteDevice, resolvedAt, cause, byUser, subject)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [id, table, key, field, ancestor, local, remote, localTime, remoteTime, winner,
                             deviceName, remoteDevice, resolvedAt ?? functions.wallClock(), cause?.rawValue, byUser, subject])
        // Logged inside the engine's own writes, which the triggers do not
        // capture: the entry is marked for sending here.
        if let log = tablesByName[Self.conflictTable] {
            try db.execute(sql: ChangeCapture.tick)
            try db.execute(sql: ChangeCapture.captureCreate(log, key: "?"), arguments: [id])
        }
    }

    /// The values of a row's pending edits, as the log keeps them for the
    /// user to copy out: `ConflictEntry.keptValues` reads them back as
    /// (column, value) pairs in column order. A row never on the server
    /// keeps its text fields.
    /// `whole`: with the row's name too (its first text, a title), for an
    /// entry whose row goes, which has nothing else to be named by.
    /// `linked`: the names tied to a row that goes (`linkedNames`), kept
    /// after its values, so that a put-back ties it again.
    func editedValues(_ db: Database, table: String, key: String, meta: Metadata?, whole: Bool = false,
                      keepingPlace: Bool = false, linked: [[String]] = [], linksEdited: Bool = false) throws -> String? {
        guard let schema = tablesByName[table] else { return nil }
        if meta?.isPendingDelete == true { return "deleted" }
        guard let row = try fetchRow(db, table: schema, key: key) else { return nil }
        let values = RecordCoder.values(of: row, table: schema).values
        // A row never on the server: its text, which is what a person wrote.
        var pairs = meta?.lastKnown == nil ? Self.writtenText(values, table: schema)
            : Self.editedPairs(values, table: schema, whole: whole, keepingPlace: keepingPlace,
                               kept: keptWhole[table] ?? [], anyway: linksEdited) { meta?.editTimes[$0] != nil }
        if !pairs.isEmpty { pairs += linked }
        return Self.encodeKept(pairs)
    }

    /// The names of the rows tied to a row through tables of links (a
    /// reminder's tags), as kept pairs: the named table's name and its
    /// rows' names as a JSON array, in their order (`["tags",
    /// "[\"Home\",\"Work\"]"]`); none for a table with no links, or a
    /// row with none.
    func linkedNames(_ db: Database, table: String, key: String) throws -> [[String]] {
        try (linksByTable[table] ?? []).compactMap { link in
            let names = try String.fetchAll(db.cachedStatement(sql: """
                SELECT n.\(link.nameColumn.quotedDatabaseIdentifier) FROM \(link.links.quotedDatabaseIdentifier) AS l
                JOIN \(link.named.quotedDatabaseIdentifier) AS n ON n.\(link.namedKey.quotedDatabaseIdentifier) = l.\(link.namedColumn.quotedDatabaseIdentifier)
                WHERE l.\(link.ownColumn.quotedDatabaseIdentifier) = ? ORDER BY 1
                """), arguments: [key])
            return Self.keptNames(names, of: link)
        }
    }

    /// Whether a row a fetched page deletes has links the deleting device
    /// never had (a tag put on a reminder here): those the page does not
    /// delete with it (`deleted`: the record names it deletes), as the
    /// deleting device's cascade would have (a request's deletes go
    /// children first, so a link's delete is never after its row's on one
    /// feed). An edit of the row as its user sees it, which the delete
    /// beats as it beats an edit of the row.
    /// Only links this device made count (pending here, or last saved by
    /// it): another device of the user that fetched the tag logs nothing.
    func hasLinksUnknownToDeleter(_ db: Database, table: String, key: String, deleted: Set<String>) throws -> Bool {
        try (linksByTable[table] ?? []).contains { link in
            try Row.fetchAll(db.cachedStatement(sql: """
                SELECT l.\(link.linksKey.quotedDatabaseIdentifier) AS key, m.isPendingSave AS pending,
                       m.lastKnownServerRecord AS known
                FROM \(link.links.quotedDatabaseIdentifier) AS l
                LEFT JOIN sync_metadata AS m ON m.recordType = \(link.links.databaseLiteral)
                                             AND m.recordName = l.\(link.linksKey.quotedDatabaseIdentifier)
                WHERE l.\(link.ownColumn.quotedDatabaseIdentifier) = ?
                """), arguments: [key]).contains { row in
                let name = RecordCoder.recordName(table: link.links, key: row["key"])
                guard !deleted.contains(name) else { return false }
                if row["pending"] == true { return true }
                guard let archive: Data = row["known"], let record = try? RecordCoder.decode(archive) else { return false }
                return record.modifiedByDevice == deviceName && record.modifiedByUser == userName
            }
        }
    }

    /// The same for a row deleted here with its links, whose deletes are
    /// still to be confirmed: the names its links' last-known records
    /// point at, where those rows are here.
    func pendingDeletedLinkNames(_ db: Database, table: String, key: String) throws -> [[String]] {
        try (linksByTable[table] ?? []).compactMap { link in
            let gone = try Row.fetchAll(db, sql: "SELECT \(Metadata.columns) FROM sync_metadata WHERE recordType = ? AND isPendingDelete",
                                        arguments: [link.links]).map(Metadata.init(row:))
            let keys = gone.compactMap { meta -> String? in
                guard case .string(let own)? = meta.lastKnown?.fields[link.ownColumn], own == key,
                      case .string(let named)? = meta.lastKnown?.fields[link.namedColumn] else { return nil }
                return named
            }
            guard !keys.isEmpty else { return nil }
            let names = try String.fetchAll(db, sql: """
                SELECT \(link.nameColumn.quotedDatabaseIdentifier) FROM \(link.named.quotedDatabaseIdentifier)
                WHERE \(link.namedKey.quotedDatabaseIdentifier) IN (\(databaseQuestionMarks(count: keys.count))) ORDER BY 1
                """, arguments: StatementArguments(keys))
            return Self.keptNames(names, of: link)
        }
    }

    /// Names as a kept pair: the named table and a JSON array; nil for none.
    private static func keptNames(_ names: [String], of link: TableSchema.Link) -> [String]? {
        guard !names.isEmpty, let data = try? JSONEncoder().encode(names) else { return nil }
        return [link.named, String(decoding: data, as: UTF8.self)]
    }

    /// The edited columns of a row's values, the parent's reference left
    /// out; `whole`, with its name (its first text column) too, when an
    /// edit shows (alone, the name would read as the edit); `keepingPlace`
    /// (a row a delete took), with the parent's reference too, so that it
    /// can be put back where it was, and the columns of `kept` that hold a
    /// value (`SyncedTable.keptWhole`), so that it comes back whole.
    /// `anyway`: the values even when no column was edited (the row's
    /// links were).
    static func editedPairs(_ values: FieldMap<FieldValue>, table: TableSchema, whole: Bool, keepingPlace: Bool = false,
                            kept: Set<String> = [], anyway: Bool = false, edited: (String) -> Bool) -> [[String]] {
        let name = whole ? table.nameColumn : nil
        // A row that goes keeps where it was too (a reminder's list), so
        // that it can be put back there.
        let place = keepingPlace ? table.parent?.column : nil
        let pairs: [[String]] = table.columns.compactMap { column in
            guard column != table.parent?.column || column == place, let text = RecordCoder.display(values[column]) else { return nil }
            let held = keepingPlace && kept.contains(column) && !text.isEmpty && (table.types[column] != "INTEGER" || text != "0")
            guard edited(column) || (column == name && !text.isEmpty) || column == place || held else { return nil }
            return [column, text]
        }
        return anyway || pairs.contains { edited($0[0]) } ? pairs : []
    }

    /// What a person wrote in a row, as the log keeps a row lost whole:
    /// its non-empty text and its numbers other than 0 (a priority, a
    /// flag), the parent's reference left out (the rule of
    /// `SyncFunctions.lostValues` for such a row, whose entry must match).
    static func writtenText(_ values: FieldMap<FieldValue>, table: TableSchema) -> [[String]] {
        table.columns.compactMap { column in
            guard column != table.parent?.column, let type = table.types[column], type == "TEXT" || type == "INTEGER",
                  let text = RecordCoder.display(values[column]), type == "TEXT" ? !text.isEmpty : text != "0" else { return nil }
            return [column, text]
        }
    }

    /// Kept values as JSON `[[column, value], …]`; nil for none.
    static func encodeKept(_ pairs: [[String]]) -> String? {
        guard !pairs.isEmpty, let data = try? JSONEncoder().encode(pairs) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The root the row is shared through (a reminder's list), as far as
    /// the rows here go.
    func shareRoot(_ db: Database, table: String, key: String) throws -> (schema: TableSchema, key: String)? {
        var schema = tablesByName[table]
        var key = key
        while let current = schema, current.sharesWithParent, let parent = current.parent,
              let row = try fetchRow(db, table: current, key: key), let parentKey: String = row[parent.column] {
            schema = tablesByName[parent.parentTable]
            key = parentKey
        }
        return schema.map { ($0, key) }
    }

    /// The first text field of the root the row is shared through (a
    /// list's title), read while the row is still here.
    func shareRootSubject(_ db: Database, table: String, key: String) throws -> String? {
        guard let (root, key) = try shareRoot(db, table: table, key: key) else { return nil }
        return try rowName(db, table: root, key: key)
    }

    /// The id of the entry of a confirmed row that went with its parent,
    /// the same on every device that logs it: the device that saved the
    /// row last (its delete trigger, `SyncFunctions.lostWithParent`) and
    /// one that fetched it as an orphan (`logWentWithParent`) may both
    /// see it go, and their entries are then one record.
    static func wentWithParentEntryID(table: String, key: String) -> String {
        derivedEntryID("went with its parent", table, key)
    }

    /// An entry id every device of the user derives alike from `parts`.
    static func derivedEntryID(_ parts: String...) -> String {
        String(Asset.digest(of: Data(parts.joined(separator: "\u{1F}").utf8)).prefix(32))
    }

    /// Marks the entry just inserted under a derived id (`INSERT OR
    /// IGNORE`: nothing when another device's came first) for sending,
    /// stamped at the start of time, as the delete trigger stamps its own
    /// (see `ChangeCapture.deleteTrigger`): two devices' entries merge as
    /// one, and a later dismissal beats either. Whether it was inserted.
    func captureDerivedEntry(_ db: Database, id: String) throws -> Bool {
        guard db.changesCount > 0, let log = tablesByName[Self.conflictTable] else { return false }
        try db.execute(sql: ChangeCapture.captureCreate(log, key: "?", at: "1"), arguments: [id])
        return true
    }

    /// A record made elsewhere that this device drops with a parent that
    /// is gone (deleted here, or no longer on the server) before it ever
    /// showed it: logged from the side of the device that saved it last,
    /// with its text, as that device's delete trigger logs it, so the two
    /// entries are one (`wentWithParentEntryID`). A version of this
    /// device's own is left to the trigger.
    func logWentWithParent(_ db: Database, record: ServerRecord, table: TableSchema, key: String) throws {
        guard table.holdsWrittenText, !isOwnVersion(record), let device = remoteName(of: record) else { return }
        let pairs = Self.writtenText(record.fields, table: table)
        let id = Self.wentWithParentEntryID(table: table.name, key: key)
        try db.executeCached("""
            INSERT OR IGNORE INTO sync_conflicts (id, recordType, recordName, field, ancestor, local, remote, localTime, remoteTime,
                                                  winner, localDevice, remoteDevice, resolvedAt)
            VALUES (?, ?, ?, '*', NULL, ?, 'deleted with its parent', NULL, NULL, 'delete', ?, NULL, ?)
            """, arguments: [id, table.name, key, Self.encodeKept(pairs) ?? "edited", device, functions.wallClock()])
        _ = try captureDerivedEntry(db, id: id)
    }

    /// Who made a version, as the log names the other side: the device,
    /// or, for another person's, "bob@laptop" (two people's devices may
    /// both be "laptop").
    func remoteName(of record: ServerRecord) -> String? {
        remoteName(user: record.modifiedByUser, device: record.modifiedByDevice)
    }

    /// The same, for a user and device named apart (a tombstone's deleter).
    func remoteName(user: String?, device: String?) -> String? {
        guard let device else { return nil }
        guard let user, user != userName else { return device }
        return "\(user)@\(device)"
    }

    /// A pending local edit lost to a delete made elsewhere. `linked`: the
    /// names tied to the row (`linkedNames`), read before its links went,
    /// when they may be gone by now (a fetched page deletes them first).
    /// `linksEdited`: the edit was of its links only (`hasLinksUnknownToDeleter`): the
    /// row is kept whole all the same.
    func logDeleteWins(_ db: Database, table: String, key: String, meta: Metadata, remoteDevice: String?,
                       linked: [[String]]? = nil, linksEdited: Bool = false) throws {
        try logConflict(db, table: table, key: key, field: "*", ancestor: nil,
                        local: try editedValues(db, table: table, key: key, meta: meta, whole: true, keepingPlace: true,
                                                linked: try linked ?? linkedNames(db, table: table, key: key),
                                                linksEdited: linksEdited) ?? "edited",
                        remote: "deleted",
                        localTime: meta.editTimes.values.max(), remoteTime: nil, winner: "delete", remoteDevice: remoteDevice)
    }

    func logDeleteWins(_ db: Database, change: OutgoingChange, remoteDevice: String?) throws {
        try logDeleteWins(db, table: change.table.name, key: change.key, meta: change.metadata, remoteDevice: remoteDevice)
    }

    /// A local edit the server refused: the share became read-only
    /// (`record` is the server's version), or the record is no longer
    /// shared with this user. The user's values are kept in the log.
    func logRefused(_ db: Database, table: String, key: String, meta: Metadata?, record: ServerRecord?, owner: String,
                    readOnly: Bool = false) throws {
        var serverValues: String?
        if let record, let schema = tablesByName[table], let meta, !meta.editTimes.isEmpty {
            serverValues = Self.encodeKept(schema.columns.filter { meta.editTimes[$0] != nil }.compactMap { column in
                RecordCoder.display(record.fields[column]).map { [column, $0] }
            })
        }
        // A row that goes (no record: no longer shared) keeps its names too,
        // for a copy put back; one refused read-only stays, and so do they.
        try logConflict(db, table: table, key: key, field: "*", ancestor: nil,
                        local: try editedValues(db, table: table, key: key, meta: meta, whole: true,
                                                linked: record == nil ? try linkedNames(db, table: table, key: key) : []) ?? "edited",
                        remote: record == nil ? nil : serverValues,
                        localTime: meta?.editTimes.values.max(), remoteTime: nil,
                        winner: record == nil ? "delete" : "remote", remoteDevice: nil,
                        cause: record == nil && !readOnly ? .noLongerShared : .readOnly, byUser: owner,
                        subject: try shareRootSubject(db, table: table, key: key))
    }

    /// The conflict log, newest first.
    public func conflicts(includingDismissed: Bool = true) throws -> [ConflictEntry] {
        try writer.read { db in try Self.conflicts(db, includingDismissed: includingDismissed) }
    }

    /// The log, newest first, read in the caller's transaction (an
    /// observation's, which cannot nest another).
    public static func conflicts(_ db: Database, includingDismissed: Bool = true) throws -> [ConflictEntry] {
        try Row.fetchAll(db, sql: """
            SELECT * FROM sync_conflicts \(includingDismissed ? "" : "WHERE NOT isDismissed")
            ORDER BY resolvedAt DESC, rowid DESC
            """).map(ConflictEntry.init(row:))
    }

    public func dismissConflict(id: String) throws {
        try writer.write { db in
            try db.execute(sql: "UPDATE sync_conflicts SET isDismissed = 1 WHERE id = ?", arguments: [id])
        }
    }

    /// Puts the losing value of a field conflict back, as a new local edit
    /// that syncs like any other. The columns its table writes together
    /// with the field (`SyncedTable.editedTogether`) go back with it, where
    /// the same two edits conflicted on them too: a due date does not go
    /// back without the occurrence it stood for. Returns false if the row
    /// is gone.
    @discardableResult
    public func restoreLosingValue(conflictID: String) throws -> Bool {
        try writer.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM sync_conflicts WHERE id = ?", arguments: [conflictID]) else {
                return false
            }
            let entry = ConflictEntry(row: row)
            guard let table = tablesByName[entry.recordType], table.columns.contains(entry.field), entry.sides != nil else {
                return false
            }
            var changed = try restore(entry, in: table, db)
            let companions = (editedTogether[table.name] ?? []).filter { $0.contains(entry.field) }.flatMap { $0 }
            for field in Set(companions).subtracting([entry.field]) where table.columns.contains(field) {
                // Logged by the same merge of the row (one time for all its
                // fields), with the same side winning.
                guard let other = try Row.fetchOne(db, sql: """
                    SELECT * FROM sync_conflicts
                    WHERE recordType = ? AND recordName = ? AND field = ? AND resolvedAt = ? AND winner = ? AND cause IS NULL
                      AND localDevice IS ? AND remoteDevice IS ?
                    ORDER BY rowid DESC LIMIT 1
                    """, arguments: [entry.recordType, entry.recordID, field, entry.resolvedAt, entry.winner,
                                     entry.localDevice, entry.remoteDevice])
                else { continue }
                changed = try restore(ConflictEntry(row: other), in: table, db) || changed
            }
            return changed
        }
    }

    /// Writes `entry`'s losing value into its row and marks the entry seen;
    /// whether the row was there to write.
    private func restore(_ entry: ConflictEntry, in table: TableSchema, _ db: Database) throws -> Bool {
        let losing = entry.sides?.losing ?? nil
        let value: DatabaseValue
        switch table.types[entry.field] {
        case "INTEGER": value = losing.flatMap { Int64($0) }?.databaseValue ?? .null
        case "REAL": value = losing.flatMap { Double($0) }?.databaseValue ?? .null
        default: value = losing?.databaseValue ?? .null
        }
        try db.execute(sql: """
            UPDATE \(table.name.quotedDatabaseIdentifier) SET \(entry.field.quotedDatabaseIdentifier) = ?
            WHERE \(table.primaryKey.quotedDatabaseIdentifier) = ?
            """, arguments: [value, entry.recordID])
        let changed = db.changesCount > 0
        try db.execute(sql: "UPDATE sync_conflicts SET isDismissed = 1 WHERE id = ?", arguments: [entry.id])
        return changed
    }
}
