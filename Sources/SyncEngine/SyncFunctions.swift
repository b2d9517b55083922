import Foundation
import GRDB
import Synchronization

/// The state behind the SQL functions the change-capture triggers call.
/// One per engine; registered on the writer connection.
final class SyncFunctions: Sendable {
    private let applying = Atomic(false)
    let wallClock: @Sendable () -> Int64

    init(wallClock: @escaping @Sendable () -> Int64) {
        self.wallClock = wallClock
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
    }

    /// `sync_lost_values(confirmed, editTimes, kept, column, value, isNumber, …)`:
    /// what a row deleted with its pending edits held that a person would
    /// want back, as the conflict log keeps it (`[[column, value], …]`, or
    /// NULL for nothing), after what `kept` holds (an earlier call's result
    /// for a table of many columns, or NULL). A row the server never
    /// confirmed: its non-empty text, what a person wrote. A confirmed one:
    /// the values of the columns edited here (`editTimes`), numbers as
    /// text. The same rule as `SyncEngine.editedValues`, for a row the
    /// delete has taken already.
    static func lostValues(_ arguments: [DatabaseValue]) -> String? {
        guard arguments.count >= 3 else { return nil }
        let confirmed = Bool.fromDatabaseValue(arguments[0]) ?? false
        let edited: Set<String> = confirmed ? editedColumns(String.fromDatabaseValue(arguments[1])) : []
        var pairs = String.fromDatabaseValue(arguments[2]).flatMap { try? JSONDecoder().decode([[String]].self, from: Data($0.utf8)) } ?? []
        var index = 3
        while index + 2 < arguments.count {
            defer { index += 3 }
            guard let column = String.fromDatabaseValue(arguments[index]) else { continue }
            let isNumber = Bool.fromDatabaseValue(arguments[index + 2]) ?? false
            let text: String
            switch arguments[index + 1].storage {
            case .null: continue
            case .string(let string): text = string
            case .int64(let number): text = String(number)
            case .double(let number): text = String(number)
            case .blob(let data): text = String(decoding: data, as: UTF8.self)
            }
            let kept = confirmed ? edited.contains(column) : !isNumber && !text.isEmpty
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
