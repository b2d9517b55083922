import Foundation
import Synchronization
import GRDB

/// Makes this process's observations see writes that another process made
/// to the same database (the command line adding a reminder while the app
/// is open on the same device, or two copies of the app on one device).
///
/// GRDB observes only the writes of its own process. SQLite's
/// `PRAGMA data_version`, read on the writer connection, changes exactly
/// when another connection committed; when it does, every observation is
/// told that the whole database may have changed, and fetches again.
public final class OtherProcessWrites: Sendable {
    private let writer: any DatabaseWriter
    private let interval: TimeInterval
    private let queue = DispatchQueue(label: "reminders.other-process-writes")
    /// Bumped by `start` and `stop`: a chain of checks goes on only while
    /// the generation it was started in is current.
    private let generation = Atomic(0)
    private let lastVersion = Mutex<Int?>(nil)

    /// A watch that checks nothing until `start()`.
    /// - Parameters:
    ///   - writer: the device's database (`DeviceSession.writer`).
    ///   - interval: seconds between two checks.
    public init(writer: any DatabaseWriter, interval: TimeInterval = 0.25) {
        self.writer = writer
        self.interval = interval
    }

    /// Starts checking every `interval` seconds, on a queue of its own.
    /// Starting again restarts the checks.
    public func start() {
        let mine = generation.add(1, ordering: .acquiringAndReleasing).newValue
        scheduleCheck(mine)
    }

    /// Stops the checks; one under way finishes.
    public func stop() {
        generation.add(1, ordering: .acquiringAndReleasing)
    }

    private func scheduleCheck(_ mine: Int) {
        queue.asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self, self.generation.load(ordering: .acquiring) == mine else { return }
            self.check()
            self.scheduleCheck(mine)
        }
    }

    /// Reads the data version and, if another process committed since the
    /// last check, notifies observers. Returns whether it did.
    @discardableResult
    public func check() -> Bool {
        do {
            return try writer.writeWithoutTransaction { db -> Bool in
                let version = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                let last = lastVersion.withLock { last in
                    defer { last = version }
                    return last
                }
                guard let last, last != version else { return false }
                try db.inTransaction {
                    try db.notifyChanges(in: .fullDatabase)
                    return .commit
                }
                return true
            }
        } catch {
            return false
        }
    }

}
