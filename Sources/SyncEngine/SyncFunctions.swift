import Foundation
import GRDB
import Synchronization

/// The state behind the SQL functions the change-capture triggers call.
/// One per engine; registered on the writer connection.
final class SyncFunctions: Sendable {
    private let applying = Atomic(false)
    /// The record names ("table/key") of the deletes from elsewhere being
    /// applied, while they are; nil otherwise (see `lostWithParent`).
    private let deletesApplied = Mutex<Set<String>?>(nil)
    /// The synced tables whose rows hold text a person wrote
    /// (`TableSchema.holdsWrittenText`): set once the tables are known.
    private let writtenText = Mutex<Set<String>>([])
    let wallClock: @Sendable () -> Int64
    /// Who this device is, to know its own versions of a record.
    private let userName: String
    private let deviceName: String

    init(wallClock: @escaping @Sendable () -> Int64, userName: String, deviceName: String) {
        self.wallClock = wallClock
        self.userName = userName
        self.deviceName = deviceName
    }

    var isApplying: Bool {
        get { applying.load(ordering: .acquiring) }
        set { applying.store(newValue, ordering: .releasing) }
    }

    func register(_ db: Database) {
        db.add(function: DatabaseFunction("sync_now", argumentCount: 0, pure: false) { [wallClock] _ in
            wallClock()
        })
        db.add(function: DatabaseFunction("sync_is_applying", argumentCount: 0, pure: false) { [weak self] _ in
            self?.isApplying ?? false
        })
        db.add(function: DatabaseFunction("sync_lost_values", argumentCount: nil, pure: true) { arguments in
            Self.lostValues(arguments)
        })
        db.add(function: DatabaseFunction("sync_lost_with_parent", argumentCount: 3, pure: false) { [weak self] arguments in
            self?.lostWithParent(arguments) ?? false
        })
        db.add(function: DatabaseFunction("sync_went_with_parent_id", argumentCount: 2, pure: true) { arguments in
            guard let table = String.fromDatabaseValue(arguments[0]), let key = String.fromDatabaseValue(arguments[1]) else {
                return nil
            }
            return SyncEngine.wentWithParentEntryID(table: table, key: key)
        })
    }

    /// `sync_lost_with_parent(recordType, recordName, lastKnownServerRecord)`:
    /// whether a confirmed row that goes by cascade with a parent deleted
    /// elsewhere must be logged here. It must when the deletes being
    /// applied (`applyingDeletes`) do not name it, so the deleting device
    /// never had it, and this device saved its last version, so its user
    /// made or last changed it: no other device would tell of it. Only a
    /// row that holds text a person wrote (not a tag link going with its
    /// reminder). A cascade of a delete made here, or of a purge, logs
    /// nothing.
    func lostWithParent(_ arguments: [DatabaseValue]) -> Bool {
        guard arguments.count == 3, let type = String.fromDatabaseValue(arguments[0]),
              let key = String.fromDatabaseValue(arguments[1]), let archive = Data.fromDatabaseValue(arguments[2]) else {
            return false
        }
        let named = deletesApplied.withLock { $0?.contains(RecordCoder.recordName(table: type, key: key)) }
        guard named == false, writtenTextTables.contains(type), let record = try? RecordCoder.decode(archive) else { return false }
        return record.modifiedByDevice == deviceName && record.modifiedByUser == userName
    }

    var writtenTextTables: Set<String> {
        get { writtenText.withLock { $0 } }
        set { writtenText.withLock { $0 = newValue } }
    }

    /// Runs `body`, which applies the deletes of `names` (record names)
    /// that came from elsewhere, with the delete triggers watching what
    /// goes with them (`lostWithParent`).
    func applyingDeletes<T>(of names: Set<String>, _ body: () throws -> T) rethrows -> T {
        deletesApplied.withLock { $0 = names }
        defer { deletesApplied.withLock { $0 = nil } }
        return try body()
    }

    /// `sync_lost_values(edited, editTimes, kept, column, value, isNumber, …)`:
    /// what a row deleted with its parent held that a person would want
    /// back, as the conflict log keeps it (`[[column, value], …]`, or NULL
    /// for nothing), after what `kept` holds (an earlier call's result for
    /// a table of many columns, or NULL). A confirmed row with pending
    /// edits (`edited`): the values of the columns edited here
    /// (`editTimes`), numbers as text. Any other (never confirmed, or
    /// confirmed and logged because the deleting device never had it): its
    /// non-empty text, what a person wrote, and its numbers other than 0
    /// (a priority, a flag), so that it can be put back whole. The same
    /// rule as `SyncEngine.editedValues`, for a row the delete has taken
    /// already.
    static func lostValues(_ arguments: [DatabaseValue]) -> String? {
        guard arguments.count >= 3 else { return nil }
        let confirmed = Bool.fromDatabaseValue(arguments[0]) ?? false
        let edited: Set<String> = confirmed ? editedColumns(String.fromDatabaseValue(arguments[1])) : []
        var pairs = String.fromDatabaseValue(arguments[2]).flatMap { try? JSONDecoder().decode([[String]].self, from: Data($0.utf8)) } ?? []
        // An edited row keeps its name too (its first text column, in the
        // first call), which names the entry once the row is gone.
        var nameColumn: String?
        var lookingForName = arguments[2].isNull
        var index = 3
        while index + 2 < arguments.count {
            defer { index += 3 }
            guard let column = String.fromDatabaseValue(arguments[index]) else { continue }
            let isNumber = Bool.fromDatabaseValue(arguments[index + 2]) ?? false
            if lookingForName, !isNumber {
                nameColumn = column
                lookingForName = false
            }
            let text: String
            switch arguments[index + 1].storage {
            case .null: continue
            case .string(let string): text = string
            case .int64(let number): text = String(number)
            case .double(let number): text = String(number)
            case .blob(let data): text = String(decoding: data, as: UTF8.self)
            }
            let kept = confirmed ? edited.contains(column) || (column == nameColumn && !text.isEmpty)
                : isNumber ? text != "0" : !text.isEmpty
            if kept { pairs.append([column, text]) }
        }
        return SyncEngine.encodeKept(pairs)
    }

    /// The columns an `editTimes` object names.
    private static func editedColumns(_ json: String?) -> Set<String> {
        guard let json, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else { return [] }
        return Set(object.keys)
    }

    /// Runs `body` with the triggers told that the writes are the engine's.
    func applying<T>(_ body: () throws -> T) rethrows -> T {
        isApplying = true
        defer { isApplying = false }
        return try body()
    }
}

/// Milliseconds since 1970 on this machine's clock: the wall-clock part of
/// the hybrid logical clock.
public let systemWallClock: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

extension Database {
    /// Runs SQL the engine runs once per record from a statement compiled
    /// once per connection: compiling a write to a synced table compiles its
    /// triggers too, which costs many times more than running it.
    func executeCached(_ sql: String, arguments: StatementArguments = []) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
