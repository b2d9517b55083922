import CloudServer
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import Testing

/// The full-screen app's case: this process holds device A's database open
/// with its live sync running, while `reminders add` and `reminders sync`
/// (other processes) write the same file and device B syncs beside it.
/// Nothing is lost and no "database is locked" reaches anyone.
@Suite(.serialized) struct SharedDatabaseTests {
    @Test func liveSyncAndCommandsOnTheSameDatabaseLoseNothing() throws {
        let rounds = ProcessInfo.processInfo.environment["REMINDERS_CONCURRENCY_ROUNDS"].flatMap(Int.init) ?? 12
        let folder = TemporaryDirectory()
        let server = folder.url.appendingPathComponent("server")
        let pathA = folder.url.appendingPathComponent("a.sqlite").path
        let cli = try BinaryRunner(home: folder.url)
        func device(_ name: String, _ path: String) -> [String: String] {
            ["REMINDERS_SERVER": server.path, "REMINDERS_USER": "me", "REMINDERS_DEVICE": name, "REMINDERS_DB": path]
        }
        let envA = device("a", pathA)
        let envB = device("b", folder.url.appendingPathComponent("b.sqlite").path)

        // The app: its session and live sync, recording every error it shows.
        let session = try DeviceSession(databasePath: pathA, server: .directory(server), userName: "me", deviceName: "a",
                                        clock: AppClock(pinned: Date(timeIntervalSince1970: 1_772_359_200)))
        let live = LiveSync(engine: session.engine, server: .directory(server))
        let errors = ErrorLog()
        let subscription = live.observeStatus { [live] in
            if let message = live.currentStatus().errorMessage { errors.append(message) }
        }
        defer { subscription.cancel() }
        live.start()
        defer { live.stop() }

        let listID = try session.store.createList(title: "Shared by processes").id
        var expected: Set<String> = []
        var processes = 0
        for round in 1...rounds {
            // In parallel: the app edits, a command adds to the same database,
            // a command syncs it, and device B adds and syncs.
            let running = [
                try cli.start(["add", "cli-\(round)", "--list", listID], environment: envA),
                try cli.start(["sync"], environment: envA),
                try cli.start(["sync"], environment: envB),
            ]
            processes += running.count
            for step in 0..<3 {
                let title = "app-\(round)-\(step)"
                _ = try session.store.createReminder(ReminderDraft(listID: listID, title: title))
                expected.insert(title)
            }
            expected.insert("cli-\(round)")
            for process in running {
                let result = try process.wait()
                #expect(result.status == 0 && result.stderr.isEmpty, "round \(round): \(result)")
            }
            if round % 3 == 0 {
                let title = "b-\(round)"
                #expect(try cli.run(["add", title, "--list", listID], environment: envB).status == 0)
                expected.insert(title)
                processes += 1
            }
        }
        live.syncNow()
        live.drain()
        for _ in 0..<3 {
            for env in [envA, envB] {
                let result = try cli.run(["sync"], environment: env)
                #expect(result.status == 0 && result.stderr.isEmpty, "final sync: \(result)")
            }
        }
        #expect(errors.messages.isEmpty, "the app showed sync errors: \(errors.messages)")
        let exportA = try cli.run(["export", "--json"], environment: envA).stdout
        let exportB = try cli.run(["export", "--json"], environment: envB).stdout
        #expect(exportA == exportB)
        let dump = try JSONDecoder().decode(ExportDump.self, from: Data(exportA.utf8))
        let titles = dump.reminders.map(\.title)
        #expect(titles.count == Set(titles).count, "duplicates: \(titles.sorted())")
        #expect(Set(titles) == expected)
        print("shared database: \(rounds) rounds, \(processes) processes beside the live sync, \(expected.count) reminders")
    }
}

final class ErrorLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    func append(_ message: String) { lock.withLock { stored.append(message) } }
    var messages: [String] { lock.withLock { stored } }
}

/// Runs the built `reminders` binary (found next to the test bundle, or at
/// `REMINDERS_BINARY`) with a pinned clock and nothing of the caller's
/// environment.
struct BinaryRunner {
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String
        var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    final class Running {
        let process: Process
        let out: URL
        let err: URL
        init(process: Process, out: URL, err: URL) {
            self.process = process
            self.out = out
            self.err = err
        }

        func wait() throws -> Result {
            process.waitUntilExit()
            defer {
                try? FileManager.default.removeItem(at: out)
                try? FileManager.default.removeItem(at: err)
            }
            return Result(status: process.terminationStatus,
                          stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                          stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
        }
    }

    let binary: URL
    let home: URL

    init(home: URL) throws {
        self.home = home
        binary = try Self.locate()
    }

    func start(_ arguments: [String], environment: [String: String]) throws -> Running {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = [
            "PATH": "/usr/bin:/bin", "HOME": home.path, "TZ": "UTC", "LANG": "C.UTF-8",
            "REMINDERS_NOW": "2026-03-01T10:00:00Z",
        ].merging(environment) { $1 }
        let out = home.appendingPathComponent("out-\(UUID().uuidString)")
        let err = home.appendingPathComponent("err-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, out: out, err: err)
    }

    func run(_ arguments: [String], environment: [String: String]) throws -> Result {
        try start(arguments, environment: environment).wait()
    }

    static func locate() throws -> URL {
        if let override = ProcessInfo.processInfo.environment["REMINDERS_BINARY"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        var starts = [Bundle.main.bundleURL]
        if let first = CommandLine.arguments.first { starts.append(URL(fileURLWithPath: first)) }
        starts += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map(\.bundleURL)
        for start in starts {
            var folder = start.standardizedFileURL.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = folder.appendingPathComponent("reminders")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   FileManager.default.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        struct NotFound: Error, CustomStringConvertible {
            var description: String { "the reminders binary was not found next to the test bundle; build it or set REMINDERS_BINARY" }
        }
        throw NotFound()
    }
}
