import Foundation
import GRDB

/// Makes this process's observations see writes that another process made
/// to the same database (the command line adding a reminder while the app
/// is open on the same device, or two copies of the app on one device).
///
/// GRDB observes only the writes of its own process. SQLite's
/// `PRAGMA data_version`, read on the writer connection, changes exactly
/// when another connection committed; when it does, every observation is
/// told that the whole database may have changed, and fetches again.
public final class OtherProcessWrites: @unchecked Sendable {
    private let writer: any DatabaseWriter
    private let interval: TimeInterval
    private let queue = DispatchQueue(label: "reminders.other-process-writes")
    private var timer: DispatchSourceTimer?
    private var lastVersion: Int?

    public init(writer: any DatabaseWriter, interval: TimeInterval = 0.25) {
        self.writer = writer
        self.interval = interval
    }

    public func start() {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.check() }
        self.timer = timer
        timer.resume()
    }

    public func stop() {
        timer?.cancel()
        timer = nil
    }

    /// Reads the data version and, if another process committed since the
    /// last check, notifies observers. Returns whether it did.
    @discardableResult
    public func check() -> Bool {
        do {
            return try writer.writeWithoutTransaction { db -> Bool in
                let version = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                defer { lastVersion = version }
                guard let lastVersion, lastVersion != version else { return false }
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

    deinit { timer?.cancel() }
}
