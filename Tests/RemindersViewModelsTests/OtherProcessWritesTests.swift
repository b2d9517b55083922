import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport
@testable import DeviceRuntime
@testable import RemindersViewModels

/// A write through another connection (as another process would make)
/// reaches this connection's observations once the watcher notices it.
@Test func writesOfAnotherConnectionReachObservations() throws {
    let folder = TemporaryDirectory(prefix: "other-writes")
    let path = folder.url.appendingPathComponent("device.sqlite").path
    let app = try AppDatabase.open(path: path)
    let cli = try AppDatabase.open(path: path)
    let seen = Recorder<Int>()
    let cancellable = ValueObservation.tracking { db in try RemindersList.fetchCount(db) }
        .start(in: app, scheduling: .async(onQueue: DispatchQueue(label: "test")), onError: { _ in }, onChange: { seen.append($0) })
    defer { cancellable.cancel() }
    let watcher = OtherProcessWrites(writer: app)
    #expect(!watcher.check())
    try RemindersStore(writer: cli).createList(title: "From the command line")
    #expect(watcher.check())
    try eventually(timeout: 5, "the observation to see the new list") { seen.all.contains(1) }
    // The app's own writes do not count as another process's.
    try RemindersStore(writer: app).createList(title: "From the app")
    #expect(!watcher.check())
}
