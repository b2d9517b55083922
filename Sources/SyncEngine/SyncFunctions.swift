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
