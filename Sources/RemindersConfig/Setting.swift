/// Where a setting's value came from, as `reminders config` tells it.
public enum SettingOrigin: Sendable, Equatable, CustomStringConvertible {
    /// Nothing set it: the app's own value.
    case standard
    /// The config file, on this line.
    case file(path: String, line: Int?)
    /// An environment variable.
    case environment(String)
    /// A command-line option.
    case option(String)

    public var description: String {
        switch self {
        case .standard: "default"
        case .file(let path, let line): "file \(path)\(line.map { ":\($0)" } ?? "")"
        case .environment(let variable): "environment \(variable)"
        case .option(let name): "option \(name)"
        }
    }
}

/// A setting's effective value and where it came from.
public struct Setting<Value: Sendable & Equatable>: Sendable, Equatable {
    public var value: Value
    public var origin: SettingOrigin

    public init(_ value: Value, from origin: SettingOrigin) {
        self.value = value
        self.origin = origin
    }

    /// The one order of precedence: an option, else the environment, else
    /// the config file, else the default. Each source is nil when it does
    /// not set the value (an empty environment variable does not).
    public static func pick(option: Setting?, environment: Setting?, file: Setting?, standard: Setting) -> Setting {
        option ?? environment ?? file ?? standard
    }
}

extension ConfigFile {
    /// A file entry as a setting from this file.
    public func setting<Value>(_ entry: Entry<Value>?) -> Setting<Value>? {
        entry.map { Setting($0.value, from: .file(path: path, line: $0.line)) }
    }
}
