/// Where the config file is: `--config FILE`, else `REMINDERS_CONFIG`, else
/// `$XDG_CONFIG_HOME/reminders/config.toml`, else
/// `~/.config/reminders/config.toml`. One named by the option or the
/// environment must exist; the default one may be missing.
public struct ConfigLocation: Sendable, Equatable {
    public var path: String
    /// Named by `--config` or `REMINDERS_CONFIG`, so it must be there.
    public var isRequired: Bool

    public init(path: String, isRequired: Bool) {
        self.path = path
        self.isRequired = isRequired
    }

    public init(option: String?, environment: [String: String], home: String) {
        if let option, !option.isEmpty {
            path = Self.expand(option, home: home)
            isRequired = true
        } else if let named = environment["REMINDERS_CONFIG"], !named.isEmpty {
            path = Self.expand(named, home: home)
            isRequired = true
        } else {
            // The XDG spec says a relative XDG_CONFIG_HOME is to be ignored.
            let base = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "\(home)/.config"
            path = "\(base)/reminders/config.toml"
            isRequired = false
        }
    }

    /// Reads the file.
    public func load() throws(ConfigError) -> ConfigFile {
        try ConfigFile.load(path: path, required: isRequired)
    }

    /// A leading `~/` as the home directory.
    public static func expand(_ path: String, home: String) -> String {
        path.hasPrefix("~/") ? home + path.dropFirst() : path
    }
}
