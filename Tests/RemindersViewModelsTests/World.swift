import Foundation
import RemindersCore
import TestSupport
@testable import RemindersViewModels

/// A device's world for one test: a database file in a temporary folder, a
/// clock pinned to Sunday 2026-03-01 10:00 UTC and a short completion delay.
final class World {
    static let utc = DeviceWorld.utc
    let folder = TemporaryDirectory(prefix: "vm-tests")
    let environment: AppEnvironment
    var directory: URL { folder.url }

    init(completionDelay: TimeInterval = 0.2, completionClock: any CompletionClock = DispatchCompletionClock(),
         sharing: any SharingInfoProvider = NoSharing(), syncStatus: any SyncStatusProvider = LocalOnlySyncStatus(),
         dayMonthOrder: DayMonthOrder = .dayFirst, defaultList: String? = nil) throws {
        let pool = try AppDatabase.open(path: folder.url.appendingPathComponent("reminders.sqlite").path)
        let clock = AppClock(pinned: AppClock.parseMoment("2026-03-01T10:00:00Z"), timeZone: Self.utc)
        environment = AppEnvironment(store: RemindersStore(writer: pool, clock: clock), userName: "alice",
                                     deviceName: "laptop", syncStatus: syncStatus, sharing: sharing,
                                     completionDelay: completionDelay, completionClock: completionClock,
                                     defaultList: defaultList, dayMonthOrder: dayMonthOrder)
    }

    var store: RemindersStore { environment.store }

    @discardableResult
    func list(_ title: String, color: String? = nil) throws -> String {
        try store.createList(title: title, color: color).id
    }

    @discardableResult
    func reminder(_ title: String, in listID: String, notes: String = "", due: String? = nil,
                  priority: Priority = .none, flagged: Bool = false, tags: [String] = []) throws -> String {
        try store.createReminder(ReminderDraft(
            listID: listID, title: title, notes: notes, dueDate: due.flatMap(DueDate.init),
            priority: priority, isFlagged: flagged, tags: tags)).id
    }

    func status(of id: String) throws -> ReminderStatus? {
        try environment.writer.read { db in try Reminder.fetchOne(db, key: id)?.status }
    }

    func row(_ id: String) throws -> ReminderRow? {
        let clock = environment.clock
        return try environment.writer.read { db in try Queries.reminder(db, id: id, clock: clock) }
    }
}

extension ListDetailState {
    var titles: [String] { rows.map(\.reminder.title) }
}

extension SearchState {
    var titles: [String] { hits.map(\.row.reminder.title) }
}

/// Counts calls from any thread.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

/// Time for the completion batch that moves only when the test says so:
/// what is due runs inside `advance(by:)`, on the test's thread.
final class ManualCompletionClock: CompletionClock, @unchecked Sendable {
    private struct Entry {
        var id: Int
        var due: TimeInterval
        var action: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var now: TimeInterval = 0
    private var entries: [Entry] = []
    private var nextID = 0

    func schedule(after delay: TimeInterval, _ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        let id = lock.withLock { () -> Int in
            nextID += 1
            entries.append(Entry(id: nextID, due: now + delay, action: action))
            return nextID
        }
        return { [weak self] in
            guard let self else { return }
            self.lock.withLock { self.entries.removeAll { $0.id == id } }
        }
    }

    /// Moves time on and runs, in order, what fell due.
    func advance(by seconds: TimeInterval) {
        let due = lock.withLock { () -> [Entry] in
            now += seconds
            let due = entries.filter { $0.due <= now }.sorted { $0.due < $1.due }
            entries.removeAll { $0.due <= now }
            return due
        }
        for entry in due { entry.action() }
    }
}
