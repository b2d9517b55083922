import ArgumentParser
import Foundation
import RemindersConfig
import SyncEngine
import RemindersCore
import RemindersTUI

/// Every setting the commands read, each with where its value came from:
/// an option, else the environment, else the config file, else the default
/// (`Setting.pick`, the one place that order is written). The config file
/// is read and checked whole, keys and colours too, so a mistake anywhere
/// in it stops every command that reads it, naming its line.
struct EffectiveSettings {
    let file: ConfigFile
    let server: Setting<String>
    let user: Setting<String>
    let device: Setting<String>
    let database: Setting<String>
    /// Empty: none (the first list).
    let defaultList: Setting<String>
    let dueHour: Setting<Int>
    /// Empty: none.
    let notifyCommand: Setting<String>
    /// Whether a new user's first start offers the sample lists.
    let sampleData: Setting<Bool>
    let keyBindings: KeyBindings
    let colors: ThemeColors

    /// - Parameters:
    ///   - common: `--config`, `--server`, `--user`, `--device`, `--db`.
    ///   - dueHour: `--due-hour`, where the command has it.
    ///   - notifyCommand: `--notify-command`, where the command has it.
    ///   - list: `add --list`, which stands in for the default list.
    /// - Throws: `ConfigFailure` for the file (exit 2), `CoreError` for a
    ///   bad environment value.
    ///   - noSampleData: `tui --no-sample-data`.
    init(common: CommonOptions, dueHour: String? = nil, notifyCommand: String? = nil, list: String? = nil,
         noSampleData: Bool = false, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        let file: ConfigFile
        do {
            file = try ConfigLocation(option: common.config, environment: environment, home: home).load()
        } catch {
            throw ConfigFailure(error)
        }
        self.file = file
        func option(_ value: String?, _ name: String) -> Setting<String>? {
            value.map { Setting($0, from: .option(name)) }
        }
        func variable(_ name: String) -> Setting<String>? {
            environment[name].flatMap { $0.isEmpty ? nil : Setting($0, from: .environment(name)) }
        }
        let dataDirectory = Location.dataDirectory(environment: environment)

        let serverFromFile = file.setting(file.server).map {
            Setting(ConfigLocation.expand($0.value, home: home), from: $0.origin)
        }
        server = .pick(option: option(common.server, "--server"), environment: variable("REMINDERS_SERVER"),
                       file: serverFromFile, standard: Setting("\(dataDirectory)/server", from: .standard))

        let named = option(common.user, "--user") ?? variable("REMINDERS_USER") ?? file.setting(file.user)
        // On a network service the account signed in to is the user, unless
        // told otherwise (`RemindersContext` checks that one is signed in).
        let signedIn = Credentials.isURL(server.value)
            ? try? Credentials.load(from: Credentials.path(environment: environment))
                .credential(for: server.value, user: named?.value).userName
            : nil
        user = named ?? Setting(signedIn ?? "me", from: .standard)

        // A database given by path, with no device named, keeps the name it
        // last synced under; a new one is a device of its file's name
        // (`--db desktop.sqlite` is "desktop"): two databases that both
        // said "default" would each take the other's saves for its own
        // (the merge's ancestor, the conflict log's sides).
        let givenDatabase = option(common.db, "--db") ?? variable("REMINDERS_DB")
        let namedDevice = option(common.device, "--device") ?? variable("REMINDERS_DEVICE")
        let standardDevice = namedDevice != nil ? "default" : givenDatabase.map { given in
            let path = Location.expand(given.value)
            return SyncEngine.storedDeviceName(databaseAt: path) ?? Self.deviceName(fromFile: path)
        } ?? "default"
        device = .pick(option: namedDevice, environment: nil, file: nil, standard: Setting(standardDevice, from: .standard))
        database = .pick(option: givenDatabase, environment: nil, file: nil,
                         standard: Setting("\(dataDirectory)/devices/\(user.value)-\(device.value).sqlite", from: .standard))

        defaultList = .pick(option: option(list, "--list"), environment: variable("REMINDERS_DEFAULT_LIST"),
                            file: file.setting(file.defaultList), standard: Setting("", from: .standard))

        let hourOption = try dueHour.map { Setting(try DueQueries.parseHour($0), from: .option("--due-hour")) }
        let hourVariable = try variable("REMINDERS_DUE_HOUR").map { setting in
            do {
                return Setting(try DueQueries.parseHour(setting.value), from: setting.origin)
            } catch let error as CoreError {
                throw CoreError.invalidInput("REMINDERS_DUE_HOUR: \(error.description)")
            }
        }
        self.dueHour = .pick(option: hourOption, environment: hourVariable, file: file.setting(file.dueHour),
                             standard: Setting(DueQueries.defaultHour, from: .standard))

        // An empty option turns off a command set in the environment or file.
        self.notifyCommand = .pick(option: option(notifyCommand, "--notify-command"),
                                   environment: variable("REMINDERS_NOTIFY_COMMAND"),
                                   file: file.setting(file.notifyCommand), standard: Setting("", from: .standard))

        sampleData = .pick(option: noSampleData ? Setting(false, from: .option("--no-sample-data")) : nil, environment: nil,
                           file: file.setting(file.sampleData), standard: Setting(true, from: .standard))

        do {
            keyBindings = try KeyBindings(rebinding: file.keys.map {
                KeyRebinding(context: $0.context, action: $0.action, keys: $0.keys, line: $0.line)
            })
            colors = try ThemeColors(file.colors.map {
                ColorSetting(role: $0.role, foreground: $0.foreground, background: $0.background,
                             isFallback: $0.isFallback, line: $0.line)
            })
        } catch {
            throw ConfigFailure(ConfigError(path: file.path, line: error.line, message: error.message))
        }
    }

    /// A device name from a database file's name: `desk.sqlite` is "desk",
    /// `My Reminders.db` "My-Reminders"; "default" for a name that leaves
    /// nothing (`.sqlite`, `/`).
    static func deviceName(fromFile path: String) -> String {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let name = String(String(stem.unicodeScalars.map { scalar -> Character in
            scalar == " " || scalar == "/" || scalar.properties.generalCategory == .control ? "-" : Character(scalar)
        }).prefix(64))
        // What is left must pass the check a device name typed passes.
        return name.hasPrefix(".") || (try? CommonOptions.checkName(name, what: "device")) == nil ? "default" : name
    }

    /// Settings read in a `validate()`: their errors become usage errors
    /// (exit 2) with the same one line.
    static func validating(_ body: () throws -> EffectiveSettings) throws -> EffectiveSettings {
        do {
            return try body()
        } catch let failure as ConfigFailure {
            throw ValidationError(failure.message)
        } catch let error as CoreError {
            throw ValidationError(error.description)
        }
    }

    /// A value from the file that the command line refuses (a user name
    /// with a slash) is the file's mistake: named with its line.
    func blamingFile<T>(_ setting: Setting<some Any>, _ body: () throws -> T) throws -> T {
        guard case .file(let path, let line) = setting.origin else { return try body() }
        do {
            return try body()
        } catch let error as ValidationError {
            throw ValidationError(ConfigError(path: path, line: line, message: error.message).description)
        } catch let error as CoreError {
            throw ValidationError(ConfigError(path: path, line: line, message: error.description).description)
        }
    }
}

/// The config file's mistakes on the command line: one line naming the
/// file and line, exit 2.
struct ConfigFailure: CommandLineError {
    let error: ConfigError

    init(_ error: ConfigError) {
        self.error = error
    }

    var message: String { error.description }
    var exitCode: Int32 { 2 }

}
