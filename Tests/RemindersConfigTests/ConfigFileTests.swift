import Testing
@testable import RemindersConfig

@Suite struct ConfigFileTests {
    let path = "/home/alice/.config/reminders/config.toml"

    func parse(_ text: String) throws(ConfigError) -> ConfigFile {
        try ConfigFile(path: path, text: text)
    }

    func error(_ text: String) -> ConfigError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyKindOfEntryIsReadWithItsLine() throws {
        let file = try parse("""
            # Settings
            default-list = "Inbox"
            due-hour = 8
            notify-command = "notify-send -u critical"
            server = "~/Sync/server"
            user = "alice"

            [keys]
            search = ["/", "ctrl-f"]

            [keys.list]
            toggle-completion = ["x", "space"]
            new-reminder = "a"

            [colors]
            accent = "#5fafff"
            tag = 110
            status-bar = { fg = 250, bg = "#303030" }

            [colors.fallback]
            accent = "bright-blue"
            """)
        #expect(file.exists)
        #expect(file.defaultList == .init("Inbox", line: 2))
        #expect(file.dueHour == .init(8, line: 3))
        #expect(file.notifyCommand == .init("notify-send -u critical", line: 4))
        #expect(file.server == .init("~/Sync/server", line: 5))
        #expect(file.user == .init("alice", line: 6))
        #expect(file.keys == [
            .init(context: "list", action: "new-reminder", keys: ["a"], line: 13),
            .init(context: "list", action: "toggle-completion", keys: ["x", "space"], line: 12),
            .init(context: nil, action: "search", keys: ["/", "ctrl-f"], line: 9),
        ])
        #expect(file.colors == [
            .init(role: "accent", foreground: "#5fafff", background: nil, isFallback: false, line: 16),
            .init(role: "status-bar", foreground: "250", background: "#303030", isFallback: false, line: 18),
            .init(role: "tag", foreground: "110", background: nil, isFallback: false, line: 17),
            .init(role: "accent", foreground: "bright-blue", background: nil, isFallback: true, line: 21),
        ])
    }

    @Test func dottedKeysAndMultiLineArraysKeepTheirLines() throws {
        let file = try parse("""
            keys.list.toggle-completion = [
              "x",
              "space",
            ]
            "default-list" = "Work" # quoted key
            [keys."search-results"]
            edit-reminder = "e"
            """)
        #expect(file.keys.first { $0.action == "toggle-completion" }?.line == 1)
        #expect(file.defaultList?.line == 5)
        #expect(file.keys.first { $0.action == "edit-reminder" }?.line == 7)
    }

    @Test func notTOMLIsRefusedWithTheLineOfTheMistake() {
        let error = error("""
            due-hour = 8

            default-list = "Inbox
            """)
        #expect(error?.path == path)
        #expect(error?.line == 3)
        #expect(error?.message.hasPrefix("not valid TOML") == true)
        #expect(error?.description.hasPrefix("\(path):3: not valid TOML") == true)
    }

    @Test func anUnknownSettingIsRefusedWithItsLine() {
        let error = error("""
            due-hour = 8
            default_list = "Inbox"
            """)
        #expect(error?.line == 2)
        #expect(error?.message.contains("unknown setting “default_list”") == true)
    }

    @Test func valuesOfTheWrongKindAreRefusedWithTheirLines() {
        #expect(error("due-hour = \"eight\"")?.message == "due-hour must be a whole number from 0 to 23, not \"eight\"")
        #expect(error("\n\ndue-hour = 24")?.line == 3)
        #expect(error("user = 7")?.message == "user must be a string, not a number")
        #expect(error("server = \"  \"")?.message == "server must not be empty")
        #expect(error("keys = 3")?.message == "keys must be a table ([keys])")
        #expect(error("[keys.list]\nnew-reminder = 3")?.line == 2)
        #expect(error("[keys]\nsearch = [\"/\", 3]")?.message == "keys.search must hold key names in quotes, not a number")
        #expect(error("[colors]\naccent = true")?.line == 2)
        #expect(error("[colors]\naccent = { fg = 1, under = 2 }")?.message == "colors.accent takes fg and bg, not “under”")
        #expect(error("[colors]\nfallback = 3")?.message == "colors.fallback must be a table ([colors.fallback])")
    }

    @Test func anEmptyNotifyCommandIsAllowedToTurnItOff() throws {
        #expect(try parse("notify-command = \"\"").notifyCommand?.value == "")
    }

    @Test func aMissingFileAtTheDefaultPlaceMeansDefaults() throws {
        let file = try ConfigFile.load(path: "/nonexistent/reminders/config.toml", required: false)
        #expect(!file.exists)
        #expect(file.keys.isEmpty && file.dueHour == nil)
    }

    @Test func aMissingFileThatWasNamedIsAnError() {
        #expect(throws: ConfigError(path: "/nonexistent/config.toml", line: nil, message: "no such config file")) {
            try ConfigFile.load(path: "/nonexistent/config.toml", required: true)
        }
    }
}

@Suite struct ConfigLocationTests {
    @Test func theOptionWinsOverTheEnvironmentWhichWinsOverXDG() {
        let environment = ["REMINDERS_CONFIG": "/etc/r.toml", "XDG_CONFIG_HOME": "/xdg"]
        #expect(ConfigLocation(option: "~/mine.toml", environment: environment, home: "/home/a")
            == ConfigLocation(path: "/home/a/mine.toml", isRequired: true))
        #expect(ConfigLocation(option: nil, environment: environment, home: "/home/a")
            == ConfigLocation(path: "/etc/r.toml", isRequired: true))
        #expect(ConfigLocation(option: nil, environment: ["XDG_CONFIG_HOME": "/xdg"], home: "/home/a")
            == ConfigLocation(path: "/xdg/reminders/config.toml", isRequired: false))
    }

    @Test func aRelativeXDGConfigHomeIsIgnored() {
        #expect(ConfigLocation(option: nil, environment: ["XDG_CONFIG_HOME": "relative"], home: "/home/a").path
            == "/home/a/.config/reminders/config.toml")
    }
}

@Suite struct SettingPrecedenceTests {
    let option = Setting("opt", from: .option("--server"))
    let environment = Setting("env", from: .environment("REMINDERS_SERVER"))
    let file = Setting("file", from: .file(path: "/c.toml", line: 3))
    let standard = Setting("default", from: .standard)

    @Test func anOptionWinsOverTheEnvironmentTheFileAndTheDefault() {
        #expect(Setting.pick(option: option, environment: environment, file: file, standard: standard) == option)
        #expect(Setting.pick(option: nil, environment: environment, file: file, standard: standard) == environment)
        #expect(Setting.pick(option: nil, environment: nil, file: file, standard: standard) == file)
        #expect(Setting.pick(option: nil, environment: nil, file: nil, standard: standard) == standard)
    }

    @Test func originsSayWhereAValueCameFrom() {
        #expect(file.origin.description == "file /c.toml:3")
        #expect(environment.origin.description == "environment REMINDERS_SERVER")
        #expect(option.origin.description == "option --server")
        #expect(standard.origin.description == "default")
    }
}
