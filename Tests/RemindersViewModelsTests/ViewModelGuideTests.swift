import DeviceRuntime
import Foundation
import RemindersCore
import RemindersViewModels
import Testing

// The examples of docs/VIEW-MODELS.md, run as tests so the page cannot rot.
// Only the public API is used (no @testable import): what a library user has.

// MARK: Awaiting a state

/// Waits until a view model's state satisfies `condition`, and returns it.
/// `onChange` is called on the view model's queue after every change.
func state<Model: ViewModel>(of model: Model, within seconds: Double = 5,
                             where condition: @escaping @Sendable (Model.State) -> Bool) async throws -> Model.State {
    let states = AsyncStream<Model.State> { continuation in
        model.onChange = { continuation.yield(model.state) }
        continuation.yield(model.state)
    }
    // The first matching state, or nothing once the time is up.
    let found = try await withThrowingTaskGroup(of: Model.State?.self) { group in
        group.addTask {
            for await state in states where condition(state) { return state }
            return nil
        }
        group.addTask {
            try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
    }
    guard let found else { throw GuideTimeout() }
    return found
}

struct GuideTimeout: Error {}

// MARK: Opening a device

/// A device on a temporary database, with a server directory beside it.
/// The guide's own code, shown to readers, so not the tests' `DeviceWorld`.
func openDevice(_ name: String, in folder: URL) throws -> DeviceSession {
    try DeviceSession(
        databasePath: folder.appendingPathComponent("\(name).sqlite").path,
        server: .directory(folder.appendingPathComponent("server")),
        userName: "me", deviceName: name,
        clock: AppClock(pinned: AppClock.parseMoment("2026-03-01T10:00:00Z"), timeZone: TimeZone(identifier: "UTC") ?? .current))
}

@Suite struct ViewModelGuideTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("guide-\(UUID().uuidString)")

    @Test func aScreensViewModelFollowsTheDatabase() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let laptop = try openDevice("laptop", in: folder)
        let environment = AppEnvironment(store: laptop.store, userName: "me", deviceName: "laptop")
        let home = HomeViewModel(environment: environment)
        defer { home.stop() }

        let list = try laptop.store.createList(title: "Groceries")
        _ = try laptop.store.createReminder(ReminderDraft(listID: list.id, title: "Milk", priority: .high))

        let shown = try await state(of: home) { $0.lists.first?.summary.openCount == 1 }
        #expect(shown.lists.map(\.list.title) == ["Groceries"])
    }

    @Test func twoDevicesSyncThroughOneServerDirectory() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let laptop = try openDevice("laptop", in: folder)
        let desktop = try openDevice("desktop", in: folder)

        // The desktop's screens follow the server with no key pressed.
        let live = LiveSync(engine: desktop.engine, server: desktop.server)
        live.start()
        defer { live.stop() }
        let environment = AppEnvironment(store: desktop.store, userName: "me", deviceName: "desktop", syncStatus: live)
        let home = HomeViewModel(environment: environment)
        defer { home.stop() }

        // The laptop edits and syncs once, as `reminders sync` does.
        _ = try laptop.store.createList(title: "Garden")
        try laptop.connect()
        try laptop.engine.sync()

        let shown = try await state(of: home, within: 10) { $0.lists.contains { $0.list.title == "Garden" } }
        #expect(shown.lists.count == 1)
        #expect(live.currentStatus().pendingCount == 0)
    }
}
