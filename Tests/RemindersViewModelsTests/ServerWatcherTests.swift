import Foundation
@testable import DeviceRuntime
@testable import RemindersViewModels
import Testing
import TestSupport

/// The directory watch under live sync, with a poll far slower than any wait
/// here: every tick comes from the watch or from a wake-up the test asked for.
@Suite struct ServerWatcherTests {
    @Test func aDirectoryCreatedAfterTheStartIsWatchedWithoutBeingTold() throws {
        let parent = try Self.makeParent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("server")
        let (watcher, ticks) = try Self.startedWatcher(on: directory)
        defer { watcher.stop() }
        // The loop has looked for the directory, found none, and waits.

        // Another device's first round makes it; nobody tells this watcher.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try eventually(timeout: 10, "a tick from the parent's watch") { ticks.value >= 2 }

        // The head replaced by rename, as the server does.
        try Self.expectATick(ticks, after: { try Self.writeHead(in: directory) })
    }

    /// ext4 gives a directory made right after one was deleted the same
    /// inode number, which the watch used to take for the old directory.
    @Test func aDirectoryDeletedAndMadeAgainIsStillWatched() throws {
        let parent = try Self.makeParent()
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (watcher, ticks) = try Self.startedWatcher(on: directory)
        defer { watcher.stop() }
        try Self.expectATick(ticks, after: { try Self.writeHead(in: directory) })

        for _ in 0..<3 {
            try FileManager.default.removeItem(at: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            // A sleep on purpose: the deletion's own ticks (how many is not
            // fixed, so there is no count to wait for) come and go first, so
            // that none is taken for the head's.
            usleep(200_000)
            try Self.expectATick(ticks, after: { try Self.writeHead(in: directory) })
        }
    }

    /// A watcher with a 600 s poll, started, past its first wake-up.
    static func startedWatcher(on directory: URL) throws -> (ServerWatcher, Counter) {
        let ticks = Counter()
        let watcher = ServerWatcher(directory: directory, pollInterval: 600) { ticks.increment() }
        watcher.start()
        watcher.rewatch()
        try eventually("the first wake-up") { ticks.value == 1 }
        return (watcher, ticks)
    }

    static func makeParent() throws -> URL {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("server-watcher-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        return parent
    }

    static func writeHead(in directory: URL) throws {
        try Data("7\n".utf8).write(to: directory.appendingPathComponent("HEAD"), options: .atomic)
    }

    /// Repeats `change` until a tick follows it within a moment: the watch
    /// may still be on its way back after the directory reappeared, but it
    /// must come back (with a 600 s poll, only the watch ticks).
    static func expectATick(_ ticks: Counter, after change: () throws -> Void) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let before = ticks.value
            try change()
            if (try? eventually(timeout: 0.5, "a tick") { ticks.value > before }) != nil { return }
        }
        Issue.record("no tick followed a change in the directory for 10 s")
    }
}
