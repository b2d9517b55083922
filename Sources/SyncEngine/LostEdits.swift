import CloudServer
import Foundation
import GRDB

/// An edit of another person's that a merge on this device beat: the
/// field, its edit time, and whose it was.
///
/// The conflict log syncs within one user's zone, so when Bob's later edit
/// of a shared reminder beats Alice's, only Bob's devices would log it, and
/// Alice's edit would simply be replaced on hers. Instead Bob's device
/// sends, with the merged record, which of the server's fields lost to its
/// own (`lostEditsField`); each of Alice's devices that knew the version
/// that lost logs the entry from her side, under an id every one of her
/// devices derives alike, so they are one entry. The note goes with the
/// next save of the row only, and a later save leaves it out.
struct LostEdit: Codable, Equatable {
    /// The column.
    var field: String
    /// The edit time of the value that lost.
    var time: Int64
    /// Who made it.
    var user: String
    var device: String
    /// The value both sides had before, as the merge's log shows it, so
    /// that both people's entries name the same one. Absent in a note
    /// from a version before it was sent, and where the merge had none.
    var ancestor: String?
}

extension SyncEngine {
    /// The record field that carries a merge's `LostEdit`s to the server,
    /// as JSON; no column is named so.
    static let lostEditsField = "sync.lostEdits"

    /// Notes, after a merge, the server's edits that lost to this device's
    /// when another person made them (see `LostEdit`), for the row's next
    /// save, with any noted before and not sent yet.
    ///
    /// A record names only who saved it last, not who set each field: an
    /// edit is taken for the last saver's only when it is the newest of the
    /// record's (a save stamps its own edits later than all it had seen).
    /// A merge saved by another person can still name them for an edit
    /// they merged in; the receiving side checks too (`logEditsLostHere`).
    func noteLostEdits(_ db: Database, table: String, key: String, record: ServerRecord, columns: [String],
                       serverTime: (String) -> Int64?, ancestor: (String) -> String?) throws {
        guard !columns.isEmpty, let user = record.modifiedByUser, user != userName, let device = record.modifiedByDevice,
              let newest = record.fieldModificationTimes.values.max() else { return }
        var lost = try String.fetchOne(db.cachedStatement(sql: "SELECT lost FROM sync_lost_edits WHERE recordType = ? AND recordName = ?"),
                                       arguments: [table, key])
            .flatMap { try? JSONDecoder().decode([LostEdit].self, from: Data($0.utf8)) } ?? []
        for column in columns {
            guard let time = serverTime(column), time == newest else { continue }
            lost.removeAll { $0.field == column }
            lost.append(LostEdit(field: column, time: time, user: user, device: device, ancestor: ancestor(column)))
        }
        guard !lost.isEmpty else { return }
        try db.executeCached("INSERT OR REPLACE INTO sync_lost_edits (recordType, recordName, lost) VALUES (?, ?, ?)",
                             arguments: [table, key, String(decoding: try JSONEncoder().encode(lost), as: UTF8.self)])
    }

    /// The notes to send, by record name, read once for a batch; empty
    /// (without reading the table twice) when there are none.
    func lostEditsToSend(_ db: Database) throws -> [String: String] {
        guard try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sync_lost_edits)")) == true else { return [:] }
        var notes: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT recordType, recordName, lost FROM sync_lost_edits") {
            notes[RecordCoder.recordName(table: row["recordType"], key: row["recordName"])] = row["lost"]
        }
        return notes
    }

    /// Forgets a row's notes once the server answered the save that carried
    /// them (taken, refused, or a newer version to merge, which notes
    /// again what loses then): they never ride with a later save.
    func forgetLostEdits(_ db: Database, table: String, key: String) throws {
        try db.executeCached("DELETE FROM sync_lost_edits WHERE recordType = ? AND recordName = ?", arguments: [table, key])
    }

    /// Logs, from this user's side, the edits of this user's that a fetched
    /// record says lost to another person's merge, where this device knew
    /// the version that lost: its last-known record has that edit time and
    /// was saved by this user. Returns how many it logged.
    func logEditsLostHere(_ db: Database, record: ServerRecord, table: TableSchema, key: String, known: ServerRecord) throws -> Int {
        guard known.modifiedByUser == userName, case .string(let text)? = record.fields[Self.lostEditsField],
              let lost = try? JSONDecoder().decode([LostEdit].self, from: Data(text.utf8)) else { return 0 }
        var logged = 0
        for edit in lost where edit.user == userName && table.columns.contains(edit.field) {
            guard known.fieldModificationTimes[edit.field] == edit.time, let winTime = record.fieldModificationTimes[edit.field],
                  winTime != edit.time else { continue }
            let id = Self.derivedEntryID("lost to", table.name, key, edit.field, String(edit.time), String(winTime))
            try db.executeCached("""
                INSERT OR IGNORE INTO sync_conflicts (id, recordType, recordName, field, ancestor, local, remote, localTime, remoteTime,
                                                      winner, localDevice, remoteDevice, resolvedAt)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'remote', ?, ?, ?)
                """, arguments: [id, table.name, key, edit.field, edit.ancestor, RecordCoder.display(known.fields[edit.field]),
                                 RecordCoder.display(record.fields[edit.field]), edit.time, winTime, edit.device,
                                 remoteName(of: record), functions.wallClock()])
            if try captureDerivedEntry(db, id: id) { logged += 1 }
        }
        return logged
    }
}
