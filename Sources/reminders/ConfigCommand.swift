import ArgumentParser
import Foundation
import RemindersConfig
import RemindersTUI

/// `reminders config`: every setting's effective value and where it came
/// from (an option, the environment, the config file and its line, or the
/// default); `--keys` prints the whole key table as config entries.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the effective settings and where each came from.",
        discussion: """
            Settings come from an option, else the environment, else the config \
            file ($XDG_CONFIG_HOME/reminders/config.toml, or --config FILE, or \
            REMINDERS_CONFIG), else the default. The file holds default-list, \
            due-hour, notify-command, server and user, and the tables [keys] \
            and [colors]; README.md has an example.
            """)

    @Flag(help: "Print {file:{path,exists}, settings:{NAME:{value, from}}, keys:[…], colors:[…]}.")
    var json = false

    @Flag(help: "Print every key binding in effect, as config entries ([keys.CONTEXT] action = keys).")
    var keys = false

    @Option(name: .customLong("notify-command"), help: ArgumentHelp(
        "As for the full-screen app, to see it win over the environment and the file.", valueName: "command"))
    var notifyCommand: String?

    @OptionGroup var dueHour: DueHourOption

    @OptionGroup var common: CommonOptions

    func run() throws {
        let settings = try EffectiveSettings(common: common, dueHour: dueHour.value, notifyCommand: notifyCommand)
        if keys {
            printKeys(settings.keyBindings)
        } else if json {
            try JSONOutput.print(ConfigJSON(settings))
        } else {
            printText(settings)
        }
    }

    private func printText(_ settings: EffectiveSettings) {
        let file = settings.file
        print("Config file: \(file.path)\(file.exists ? "" : " (not there: defaults apply)")")
        var rows: [(String, String, String)] = [
            ("server", settings.server.value, settings.server.origin.description),
            ("user", settings.user.value, settings.user.origin.description),
            ("device", settings.device.value, settings.device.origin.description),
            ("db", settings.database.value, settings.database.origin.description),
            ("default-list", settings.defaultList.value.isEmpty ? "(none: the first list)" : settings.defaultList.value,
             settings.defaultList.origin.description),
            ("due-hour", String(settings.dueHour.value), settings.dueHour.origin.description),
            ("notify-command", settings.notifyCommand.value.isEmpty ? "(none)" : settings.notifyCommand.value,
             settings.notifyCommand.origin.description),
            ("sample-data", settings.sampleData.value ? "offered on a new user's first start" : "never offered",
             settings.sampleData.origin.description),
        ]
        for entry in file.keys {
            let name = "keys" + (entry.context.map { ".\($0)" } ?? "") + ".\(entry.action)"
            rows.append((name, entry.keys.isEmpty ? "(unbound)" : entry.keys.joined(separator: ", "),
                         SettingOrigin.file(path: file.path, line: entry.line).description))
        }
        for entry in file.colors {
            let name = "colors" + (entry.isFallback ? ".fallback" : "") + ".\(entry.role)"
            let value = [entry.foreground.map { "fg \($0)" }, entry.background.map { "bg \($0)" }].compactMap { $0 }
            rows.append((name, value.joined(separator: ", "), SettingOrigin.file(path: file.path, line: entry.line).description))
        }
        let nameWidth = rows.map { $0.0.count }.max() ?? 0
        let valueWidth = min(40, rows.map { TerminalText.clean($0.1).count }.max() ?? 0)
        for (name, value, origin) in rows {
            let shown = TerminalText.clean(value)
            let padding = String(repeating: " ", count: max(0, valueWidth - shown.count))
            print("\(name.padding(toLength: nameWidth, withPad: " ", startingAt: 0))  \(shown)\(padding)  \(origin)")
        }
    }

    private func printKeys(_ bindings: KeyBindings) {
        var context: String?
        for row in bindings.rows {
            if row.context != context {
                if context != nil { print("") }
                print("[keys.\(row.context)]")
                context = row.context
            }
            let keys = row.keys.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
            let value = keys.count == 1 ? keys[0] : "[" + keys.joined(separator: ", ") + "]"
            let entry = "\(row.action) = \(value)"
            print(entry.padding(toLength: max(entry.count, 44), withPad: " ", startingAt: 0) + "  # " + row.description)
        }
    }
}

/// `config --json`.
struct ConfigJSON: Encodable {
    struct File: Encodable {
        var path: String
        var exists: Bool
    }

    /// Where a value came from: `{"source": "file", "path": …, "line": …}`,
    /// `{"source": "environment", "variable": …}`, `{"source": "option",
    /// "option": …}` or `{"source": "default"}`.
    struct Origin: Encodable {
        var source: String
        var path: String?
        var line: Int?
        var variable: String?
        var option: String?

        init(_ origin: SettingOrigin) {
            switch origin {
            case .standard: source = "default"
            case .file(let path, let line): source = "file"; self.path = path; self.line = line
            case .environment(let variable): source = "environment"; self.variable = variable
            case .option(let option): source = "option"; self.option = option
            }
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(source, forKey: .source)
            try container.encodeIfPresent(path, forKey: .path)
            if path != nil { try container.encode(line, forKey: .line) }
            try container.encodeIfPresent(variable, forKey: .variable)
            try container.encodeIfPresent(option, forKey: .option)
        }

        enum CodingKeys: String, CodingKey { case source, path, line, variable, option }
    }

    /// A value (a string, a number, or null for none) and its origin.
    struct Value: Encodable {
        var text: String?
        var number: Int?
        var from: Origin

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let number {
                try container.encode(number, forKey: .value)
            } else {
                try container.encode(text, forKey: .value)
            }
            try container.encode(from, forKey: .from)
        }

        enum CodingKeys: String, CodingKey { case value, from }
    }

    struct KeyEntry: Encodable {
        var context: String?
        var action: String
        var keys: [String]
        var line: Int?

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(context, forKey: .context)
            try container.encode(action, forKey: .action)
            try container.encode(keys, forKey: .keys)
            try container.encode(line, forKey: .line)
        }

        enum CodingKeys: String, CodingKey { case context, action, keys, line }
    }

    struct ColorEntry: Encodable {
        var role: String
        var fg: String?
        var bg: String?
        var fallback: Bool
        var line: Int?

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(role, forKey: .role)
            try container.encode(fg, forKey: .fg)
            try container.encode(bg, forKey: .bg)
            try container.encode(fallback, forKey: .fallback)
            try container.encode(line, forKey: .line)
        }

        enum CodingKeys: String, CodingKey { case role, fg, bg, fallback, line }
    }

    var file: File
    var settings: [String: Value]
    var keys: [KeyEntry]
    var colors: [ColorEntry]

    init(_ settings: EffectiveSettings) {
        let file = settings.file
        self.file = File(path: file.path, exists: file.exists)
        func text(_ setting: Setting<String>) -> Value {
            Value(text: setting.value.isEmpty ? nil : setting.value, from: Origin(setting.origin))
        }
        self.settings = [
            "server": text(settings.server),
            "user": text(settings.user),
            "device": text(settings.device),
            "db": text(settings.database),
            "default-list": text(settings.defaultList),
            "due-hour": Value(number: settings.dueHour.value, from: Origin(settings.dueHour.origin)),
            "notify-command": text(settings.notifyCommand),
            "sample-data": Value(text: settings.sampleData.value ? "offer" : "never", from: Origin(settings.sampleData.origin)),
        ]
        keys = file.keys.map { KeyEntry(context: $0.context, action: $0.action, keys: $0.keys, line: $0.line) }
        colors = file.colors.map { ColorEntry(role: $0.role, fg: $0.foreground, bg: $0.background, fallback: $0.isFallback, line: $0.line) }
    }
}
