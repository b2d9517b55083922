import Foundation
import RemindersCore
import Testing
import TestSupport

/// Several devices (and users) on one server, each driven through the
/// built `reminders` binary with its own database, as separate processes:
/// what two terminals on one machine are, or, with a service URL, devices
/// on machines of their own that each sign in to `reminders serve`. The
/// files are laid out as a `DeviceWorld`'s, in a folder that is also the
/// commands' home.
final class DeviceFleet {
    let world: DeviceWorld
    let cli: CommandRunner
    /// The world's server directory, or the URL of a service.
    let serverAddress: String
    /// What runs a device's commands, by device name (`ip netns exec NAME`,
    /// for a device in a network namespace of its own).
    var launchers: [String: [String]] = [:]
    /// Another server than `serverAddress`, by device name (a second
    /// `reminders serve` on the same PostgreSQL store).
    var servers: [String: String] = [:]
    var server: URL { world.serverDirectory }

    /// The server address `device` uses.
    func serverAddress(of device: String) -> String {
        servers[device] ?? serverAddress
    }

    /// - Parameter service: the URL of `reminders serve` the devices reach
    ///   (each signs in with `login`); the world's directory if nil.
    init(now: String = "2026-03-01T10:00:00Z", service: URL? = nil) throws {
        world = DeviceWorld(now: now)
        cli = try CommandRunner(now: now, home: world.directory)
        serverAddress = service?.absoluteString ?? world.serverDirectory.path
    }

    func cleanUp() { cli.cleanUp() }

    func databaseURL(_ device: String, user: String = "me") -> URL {
        world.databaseURL(device, user: user)
    }

    /// The environment that points the binary at one device of one user,
    /// with credentials of its own.
    func environment(_ device: String, user: String = "me") -> [String: String] {
        world.commandEnvironment(device, user: user).merging([
            "REMINDERS_SERVER": serverAddress(of: device),
            "XDG_CONFIG_HOME": world.directory.appendingPathComponent("config/\(user)-\(device)").path,
        ]) { $1 }
    }

    /// Signs a device in to the service as `user`, with the account's
    /// secret (given by file, as a script would).
    @discardableResult
    func login(_ device: String, user: String = "me", secret: String) throws -> ProcessResult {
        let file = world.directory.appendingPathComponent("secret-\(user)-\(device)")
        try secret.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run(device, user: user, ["login", serverAddress(of: device), "--user", user, "--secret-file", file.path])
    }

    @discardableResult
    func run(_ device: String, user: String = "me", _ arguments: [String], environment extra: [String: String] = [:]) throws -> ProcessResult {
        try start(device, user: user, arguments, environment: extra).wait()
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

    /// Starts a command without waiting for it, to be waited for or killed.
    func start(_ device: String, user: String = "me", _ arguments: [String], environment extra: [String: String] = [:]) throws -> RunningProcess {
        try cli.start(arguments, environment: environment(device, user: user).merging(extra) { $1 },
                      launcher: launchers[device] ?? [])
    }
}


/// An integer from the environment, for scaling the long tests.
func environmentCount(_ name: String, default value: Int) -> Int {
    ProcessInfo.processInfo.environment[name].flatMap(Int.init).map { max(1, $0) } ?? value
}
