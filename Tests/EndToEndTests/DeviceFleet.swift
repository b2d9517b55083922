import Foundation
import RemindersCore
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Several devices (and users) on one server directory, each driven through
/// the built `reminders` binary with its own database, as separate
/// processes: what two terminals on one machine are.
final class DeviceFleet {
    let cli: CommandRunner
    let server: URL

    init(now: String = "2026-03-01T10:00:00Z") throws {
        cli = try CommandRunner(now: now)
        server = cli.home.appendingPathComponent("server")
    }

    func cleanUp() { cli.cleanUp() }

    func databaseURL(_ device: String, user: String = "me") -> URL {
        cli.home.appendingPathComponent("devices/\(user)-\(device).sqlite")
    }

    /// The environment that points the binary at one device of one user.
    func environment(_ device: String, user: String = "me") -> [String: String] {
        ["REMINDERS_SERVER": server.path, "REMINDERS_USER": user, "REMINDERS_DEVICE": device,
         "REMINDERS_DB": databaseURL(device, user: user).path]
    }

    @discardableResult
    func run(_ device: String, user: String = "me", _ arguments: [String], environment extra: [String: String] = [:]) throws -> CommandRunner.Result {
        try cli.run(arguments, environment: environment(device, user: user).merging(extra) { $1 })
    }

    /// Runs a command that must succeed quietly; returns stdout, trimmed.
    @discardableResult
    func ok(_ device: String, user: String = "me", _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(device, user: user, arguments)
        #expect(result.status == 0 && result.stderr.isEmpty,
                "\(user)@\(device): reminders \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `export --json` of a device, as text (byte-for-byte comparable).
    func exportText(_ device: String, user: String = "me", sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(device, user: user, ["export", "--json"])
        #expect(result.status == 0, "\(user)@\(device): export: \(result)", sourceLocation: sourceLocation)
        return result.stdout
    }

    func export(_ device: String, user: String = "me", sourceLocation: SourceLocation = #_sourceLocation) throws -> ExportDump {
        try JSONDecoder().decode(ExportDump.self, from: Data(try exportText(device, user: user, sourceLocation: sourceLocation).utf8))
    }

    /// What one `sync --json` did; nil if the output was not a report.
    struct SyncCounts: Decodable {
        var sentSaves, sentDeletes, receivedSaves, receivedDeletes, merged, dropped: Int
        var isEmpty: Bool { sentSaves + sentDeletes + receivedSaves + receivedDeletes + merged + dropped == 0 }
    }

    /// A sync that must succeed; returns its report.
    @discardableResult
    func sync(_ device: String, user: String = "me", sourceLocation: SourceLocation = #_sourceLocation) throws -> SyncCounts? {
        let result = try run(device, user: user, ["sync", "--json"])
        #expect(result.status == 0 && result.stderr.isEmpty, "\(user)@\(device): sync: \(result)", sourceLocation: sourceLocation)
        return try? JSONDecoder().decode(SyncCounts.self, from: Data(result.stdout.utf8))
    }

    /// Syncs the devices in turn until quiet: every device has synced,
    /// sending nothing, after the last sync that sent anything. Returns the
    /// number of syncs; fails the test after `limit`.
    @discardableResult
    func syncUntilQuiet(_ devices: [(device: String, user: String)], limit: Int = 20,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        var current: Set<Int> = []
        var syncs = 0
        var index = 0
        while current.count < devices.count {
            guard syncs < limit else {
                Issue.record("devices still exchanging changes after \(limit) syncs", sourceLocation: sourceLocation)
                return syncs
            }
            let (device, user) = devices[index]
            syncs += 1
            guard let counts = try sync(device, user: user, sourceLocation: sourceLocation) else { return syncs }
            if counts.sentSaves + counts.sentDeletes + counts.merged + counts.dropped > 0 {
                // Others must fetch what this one sent; it has it already.
                current = [index]
            } else {
                current.insert(index)
            }
            index = (index + 1) % devices.count
        }
        return syncs
    }

    /// A command started in the background, to be waited for or killed.
    final class Running {
        let process: Process
        let out: URL
        let err: URL

        init(process: Process, out: URL, err: URL) {
            self.process = process
            self.out = out
            self.err = err
        }

        var pid: Int32 { process.processIdentifier }

        /// SIGKILL, like `kill -9`.
        func kill() {
            if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
        }

        /// Waits for the end; `killed` tells whether a signal ended it.
        func wait() throws -> (result: CommandRunner.Result, killedBy: Int32?) {
            process.waitUntilExit()
            defer {
                try? FileManager.default.removeItem(at: out)
                try? FileManager.default.removeItem(at: err)
            }
            let result = CommandRunner.Result(
                status: process.terminationStatus,
                stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
            return (result, process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil)
        }
    }

    /// Starts a command without waiting for it.
    func start(_ device: String, user: String = "me", _ arguments: [String], environment extra: [String: String] = [:]) throws -> Running {
        let process = Process()
        process.executableURL = cli.binary
        process.arguments = arguments
        process.environment = cli.environment.merging(environment(device, user: user)) { $1 }.merging(extra) { $1 }
        process.currentDirectoryURL = cli.home
        let out = cli.home.appendingPathComponent("stdout-\(UUID().uuidString)")
        let err = cli.home.appendingPathComponent("stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, out: out, err: err)
    }
}


/// An integer from the environment, for scaling the long tests.
func environmentCount(_ name: String, default value: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap(Int.init).map { max(1, $0) } ?? value
}
