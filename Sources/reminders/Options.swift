import ArgumentParser
import CloudClient
import Foundation
import RemindersConfig
import RemindersCore

/// The options every subcommand takes: where the server and this device's
/// database live, who and which device this is, and the config file. Each
/// falls back to an environment variable, then to the config file (server
/// and user), then to a default under the data directory.
struct CommonOptions: ParsableArguments {
    @Option(name: .customLong("config"), help: ArgumentHelp(
        "The config file (env REMINDERS_CONFIG; default $XDG_CONFIG_HOME/reminders/config.toml, ~/.config/reminders/config.toml).",
        valueName: "file"))
    var config: String?

    @Option(name: .customLong("server"), help: ArgumentHelp(
        "The server: a directory shared by all devices, or the URL of a `reminders serve` signed in to with `reminders login` (env REMINDERS_SERVER; default <data>/server).",
        valueName: "dir|url"))
    var server: String?

    @Option(name: .customLong("user"), help: ArgumentHelp(
        "Who is using this device (env REMINDERS_USER; default 'me').", valueName: "name"))
    var user: String?

    @Option(name: .customLong("device"), help: ArgumentHelp(
        "This device's name (env REMINDERS_DEVICE; default 'default'; with --db, the name that database synced under, or for a new one the file's name: desk.sqlite is 'desk').", valueName: "name"))
    var device: String?

    @Option(name: .customLong("db"), help: ArgumentHelp(
        "This device's database file (env REMINDERS_DB; default <data>/devices/<user>-<device>.sqlite).",
        valueName: "path"))
    var db: String?

    func validate() throws {
        // The config file first: a mistake in it is the first thing to say.
        let settings = try EffectiveSettings.validating { try EffectiveSettings(common: self) }
        let location = try resolve(settings)
        try settings.blamingFile(settings.user) { try Self.checkName(location.user, what: "user") }
        try Self.checkName(location.device, what: "device")
        // REMINDERS_NOW is read here so that a bad value fails before any work.
        do {
            _ = try AppClock.fromEnvironment()
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// The options with environment, config file and defaults applied.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Location {
        try resolve(EffectiveSettings(common: self, environment: environment), environment: environment)
    }

    func resolve(_ settings: EffectiveSettings,
                 environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Location {
        let server = settings.server.value
        let database = settings.database.value
        for (path, what) in [(server, "server"), (database, "database path")] where path.isEmpty {
            throw ValidationError("\(what) must not be empty")
        }

        return Location(
            dataDirectory: Location.dataDirectory(environment: environment),
            server: Credentials.isURL(server) ? server : Location.expand(server),
            user: settings.user.value, device: settings.device.value,
            databasePath: Location.expand(database))
    }

    /// User and device names end up in file names and on the server, so they
    /// are kept to printable characters without slashes.
    static func checkName(_ name: String, what: String) throws {
        guard !name.isEmpty else { throw ValidationError("\(what) name must not be empty") }
        guard name.count <= 64 else { throw ValidationError("\(what) name '\(name.prefix(20))…' is longer than 64 characters") }
        guard name != ".", name != "..", !name.contains("/"),
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) else {
            throw ValidationError("\(what) name '\(name)' may not contain slashes, spaces or control characters")
        }
    }
}

/// Where this device's data lives, resolved from `CommonOptions`.
struct Location: Sendable, Equatable {
    /// `$XDG_DATA_HOME/reminders`, or `~/.local/share/reminders`.
    var dataDirectory: String
    /// A server directory, or the URL of a network service.
    var server: String
    var user: String
    var device: String
    var databasePath: String

    static func dataDirectory(environment: [String: String]) -> String {
        // The XDG spec says a relative XDG_DATA_HOME is to be ignored.
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            return "\(xdg)/reminders"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return "\(home)/.local/share/reminders"
    }

    /// Expands a leading `~/`, which shells leave alone inside `--db=~/x`.
    static func expand(_ path: String) -> String {
        path.hasPrefix("~/") ? NSHomeDirectory() + path.dropFirst() : path
    }
}
