import Foundation
@testable import RemindersViewModels
import Testing

/// The directory watch under live sync, with a poll far slower than any wait
/// here: every tick comes from the watch or from a wake-up the test asked for.
@Suite struct ServerWatcherTests {
    @Test func aDirectoryCreatedAfterTheStartIsWatchedOnceTheOwnerSaysSo() throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("server-watcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("server")
        let ticks = Counter()
        let watcher = ServerWatcher(directory: directory, pollInterval: 600) { ticks.increment() }
        defer { watcher.stop() }
        watcher.start()
        // The loop has looked for the directory, found none, and waits.
        watcher.rewatch()
        try eventually("the first wake-up") { ticks.value == 1 }

        // As the first sync round does: create it, then tell the watcher.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        watcher.rewatch()
        try eventually("the second wake-up") { ticks.value == 2 }

        // The head replaced by rename, as the server does.
        try Data("7\n".utf8).write(to: directory.appendingPathComponent("HEAD"), options: .atomic)
        try eventually(timeout: 10, "a tick from the watch") { ticks.value >= 3 }
    }
}
