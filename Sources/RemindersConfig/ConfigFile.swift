import Foundation
import TOMLKit

/// The user's config file, read and checked for shape: settings, key
/// bindings and colours, each with the line it is on. What the names in
/// `[keys]` and `[colors]` mean is the full-screen app's to check; which
/// value wins over the environment and the options is `Setting`'s.
///
///     default-list = "Inbox"
///     due-hour = 8
///     notify-command = "notify-send --app-name=Reminders"
///     server = "~/Sync/reminders-server"
///     user = "alice"
///     sample-data = false
///
///     [keys]
///     search = ["/", "ctrl-f"]
///
///     [keys.list]
///     toggle-completion = ["x", "space"]
///
///     [colors]
///     accent = "#5fafff"
///     status-bar = { fg = 250, bg = 236 }
///
///     [colors.fallback]
///     accent = "bright-blue"
public struct ConfigFile: Sendable, Equatable {
    /// A value and the line it was set on.
    public struct Entry<Value: Sendable & Equatable>: Sendable, Equatable {
        public var value: Value
        public var line: Int?

        public init(_ value: Value, line: Int?) {
            self.value = value
            self.line = line
        }
    }

    /// One entry of `[keys]` or `[keys.CONTEXT]`.
    public struct KeyEntry: Sendable, Equatable {
        /// Nil for `[keys]` itself.
        public var context: String?
        public var action: String
        public var keys: [String]
        public var line: Int?
    }

    /// One entry of `[colors]` or `[colors.fallback]`.
    public struct ColorEntry: Sendable, Equatable {
        public var role: String
        public var foreground: String?
        public var background: String?
        public var isFallback: Bool
        public var line: Int?
    }

    /// Where the file is (or would be).
    public var path: String
    /// False when there is no file at the default place: every setting
    /// then has its default.
    public var exists: Bool
    public var defaultList: Entry<String>?
    public var dueHour: Entry<Int>?
    public var notifyCommand: Entry<String>?
    public var server: Entry<String>?
    public var user: Entry<String>?
    /// False: a new user's first start is never offered the sample lists.
    public var sampleData: Entry<Bool>?
    public var keys: [KeyEntry] = []
    public var colors: [ColorEntry] = []

    /// The settings a file may hold at its top level, besides its tables.
    public static let settingNames = ["default-list", "due-hour", "notify-command", "sample-data", "server", "user"]

    /// No file: every setting has its default.
    public init(path: String) {
        self.path = path
        exists = false
    }

    /// Reads the file at `path`; a file that is not there is no error
    /// unless `required` (named by an option or the environment).
    /// - Throws: `ConfigError` naming the file and line.
    public static func load(path: String, required: Bool) throws(ConfigError) -> ConfigFile {
        guard FileManager.default.fileExists(atPath: path) else {
            if required { throw ConfigError(path: path, line: nil, message: "no such config file") }
            return ConfigFile(path: path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(path: path, line: nil, message: "cannot read the config file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigError(path: path, line: nil, message: "the config file is not UTF-8 text")
        }
        return try ConfigFile(path: path, text: text)
    }

    /// Parses config text.
    /// - Throws: `ConfigError` naming `path` and the line.
    public init(path: String, text: String) throws(ConfigError) {
        self.path = path
        exists = true
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(path: path, line: error.source.begin.line, message: "not valid TOML: \(error.description)")
        } catch {
            throw ConfigError(path: path, line: nil, message: "not valid TOML: \(error)")
        }
        let lines = SourceLines(text)
        func fail(_ keyPath: [String], _ message: String) -> ConfigError {
            ConfigError(path: path, line: lines.line(of: keyPath), message: message)
        }
        func string(_ key: String, _ value: TOMLValueConvertible, allowEmpty: Bool = false) throws(ConfigError) -> Entry<String> {
            guard let text = value.string else { throw fail([key], "\(key) must be a string, not \(Self.kind(value))") }
            guard allowEmpty || !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw fail([key], "\(key) must not be empty")
            }
            return Entry(text, line: lines.line(of: [key]))
        }
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            switch key {
            case "default-list": defaultList = try string(key, value)
            case "notify-command": notifyCommand = try string(key, value, allowEmpty: true)
            case "server": server = try string(key, value)
            case "user": user = try string(key, value)
            case "sample-data":
                guard let offer = value.bool else {
                    throw fail([key], "sample-data must be true or false, not \(Self.kind(value))")
                }
                sampleData = Entry(offer, line: lines.line(of: [key]))
            case "due-hour":
                guard let hour = value.int, (0...23).contains(hour) else {
                    throw fail([key], "due-hour must be a whole number from 0 to 23, not \(value.debugDescription)")
                }
                dueHour = Entry(hour, line: lines.line(of: [key]))
            case "keys":
                keys = try Self.keyEntries(value, lines: lines, fail: fail)
            case "colors":
                colors = try Self.colorEntries(value, lines: lines, fail: fail)
            default:
                throw fail([key], "unknown setting “\(key)” (settings: \(Self.settingNames.joined(separator: ", ")); tables: [keys], [colors])")
            }
        }
    }

    private static func kind(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .table: "a table"
        case .array: "an array"
        case .string: "a string"
        case .int: "a number"
        case .double: "a number"
        case .bool: "true or false"
        default: "a date"
        }
    }

    /// `[keys]`: `action = "key"` or `action = ["key", "g g"]`, and tables
    /// of the same per context.
    private static func keyEntries(_ value: TOMLValueConvertible, lines: SourceLines,
                                   fail: ([String], String) -> ConfigError) throws(ConfigError) -> [KeyEntry] {
        guard let table = value.table else { throw fail(["keys"], "keys must be a table ([keys])") }
        var entries: [KeyEntry] = []
        func keyList(_ value: TOMLValueConvertible, _ keyPath: [String]) throws(ConfigError) -> [String] {
            let name = keyPath.joined(separator: ".")
            if let single = value.string { return [single] }
            guard let array = value.array else {
                throw fail(keyPath, "\(name) must be a key name or an array of them (\"x\", [\"j\", \"down\"]), not \(kind(value))")
            }
            var keys: [String] = []
            for element in array {
                guard let key = element.string else { throw fail(keyPath, "\(name) must hold key names in quotes, not \(kind(element))") }
                keys.append(key)
            }
            return keys
        }
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            if let context = value.table {
                for action in context.keys.sorted() {
                    guard let keys = context[action] else { continue }
                    let path = ["keys", key, action]
                    entries.append(KeyEntry(context: key, action: action, keys: try keyList(keys, path), line: lines.line(of: path)))
                }
            } else {
                let path = ["keys", key]
                entries.append(KeyEntry(context: nil, action: key, keys: try keyList(value, path), line: lines.line(of: path)))
            }
        }
        return entries
    }

    /// `[colors]`: `role = colour` (the foreground) or `role = { fg = …,
    /// bg = … }`; `[colors.fallback]` the same for 8 or 16 colours.
    private static func colorEntries(_ value: TOMLValueConvertible, lines: SourceLines,
                                     fail: ([String], String) -> ConfigError) throws(ConfigError) -> [ColorEntry] {
        guard let table = value.table else { throw fail(["colors"], "colors must be a table ([colors])") }
        var entries: [ColorEntry] = []
        func color(_ value: TOMLValueConvertible, _ keyPath: [String]) throws(ConfigError) -> String {
            if let text = value.string { return text }
            if let number = value.int { return String(number) }
            throw fail(keyPath, "\(keyPath.joined(separator: ".")) must be a colour (\"#rrggbb\", 0-255, or a name such as \"red\"), not \(kind(value))")
        }
        func collect(_ table: TOMLTable, fallback: Bool) throws(ConfigError) {
            let prefix = fallback ? ["colors", "fallback"] : ["colors"]
            for role in table.keys.sorted() {
                guard let value = table[role] else { continue }
                if !fallback, role == "fallback" { continue }
                let path = prefix + [role]
                let line = lines.line(of: path)
                if let parts = value.table {
                    var foreground: String?
                    var background: String?
                    for part in parts.keys.sorted() {
                        guard let partValue = parts[part] else { continue }
                        switch part {
                        case "fg", "foreground": foreground = try color(partValue, path + [part])
                        case "bg", "background": background = try color(partValue, path + [part])
                        default:
                            throw fail(path + [part], "\(path.joined(separator: ".")) takes fg and bg, not “\(part)”")
                        }
                    }
                    entries.append(ColorEntry(role: role, foreground: foreground, background: background, isFallback: fallback, line: line))
                } else {
                    entries.append(ColorEntry(role: role, foreground: try color(value, path), background: nil, isFallback: fallback, line: line))
                }
            }
        }
        try collect(table, fallback: false)
        if let fallback = table["fallback"] {
            guard let fallbackTable = fallback.table else { throw fail(["colors", "fallback"], "colors.fallback must be a table ([colors.fallback])") }
            try collect(fallbackTable, fallback: true)
        }
        return entries
    }
}
