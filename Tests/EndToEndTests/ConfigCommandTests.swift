import Foundation
import Testing
import TestSupport

/// The config file, `reminders config`, `edit --notes-editor` and shell
/// completion, through the built binary.
@Suite("Config file and terminal habits, end to end", .serialized)
struct ConfigCommandTests {
    /// Writes the config file where the defaults look for it.
    func writeConfig(_ cli: CommandRunner, _ text: String) throws -> String {
        let folder = cli.home.appendingPathComponent(".config/reminders")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("config.toml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// An executable script in the home folder.
    func script(_ cli: CommandRunner, _ name: String, _ body: String) throws -> String {
        let path = cli.home.appendingPathComponent(name).path
        try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    /// What `config --keys` prints is a config file that reads back as
    /// the same table (an action bound twice in one context, quit on the
    /// first start, is one entry: TOML takes a name once per table).
    @Test func theKeysPrintedAreAConfigFileThatReadsBack() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let printed = try cli.ok("config", "--keys")
        #expect(printed.contains("[keys.first-run]"))
        _ = try writeConfig(cli, printed)
        #expect(try cli.ok("config", "--keys") == printed)
    }

    @Test func configShowsEachValueAndWhereItCameFrom() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let path = try writeConfig(cli, """
            # mine
            default-list = "Groceries"
            due-hour = 8
            user = "alice"
            notify-command = "notify-send -u low"

            [keys.list]
            toggle-completion = ["x", "ctrl-t"]
            """)
        let text = try cli.ok("config", "--due-hour", "6", "--device", "laptop")
        let lines = text.split(separator: "\n").map(String.init)
        func row(_ name: String) -> String? { lines.first { $0.hasPrefix(name + " ") } }
        #expect(lines.first == "Config file: \(path)")
        #expect(row("user")?.hasSuffix("file \(path):4") == true, "\(text)")
        #expect(row("default-list")?.contains("Groceries") == true)
        #expect(row("default-list")?.hasSuffix("file \(path):2") == true)
        #expect(row("due-hour")?.contains(" 6 ") == true)
        #expect(row("due-hour")?.hasSuffix("option --due-hour") == true)
        #expect(row("device")?.hasSuffix("option --device") == true)
        #expect(row("server")?.hasSuffix("default") == true)
        #expect(row("notify-command")?.hasSuffix("file \(path):5") == true)
        #expect(row("keys.list.toggle-completion")?.contains("x, ctrl-t") == true)
        #expect(row("keys.list.toggle-completion")?.hasSuffix("\(path):8") == true)

        // The environment wins over the file, an option over both.
        let env = try cli.run(["config"], environment: ["REMINDERS_USER": "bob", "REMINDERS_DUE_HOUR": "7"])
        #expect(env.stdout.contains("environment REMINDERS_USER"))
        #expect(env.stdout.split(separator: "\n").first { $0.hasPrefix("due-hour ") }?.hasSuffix("environment REMINDERS_DUE_HOUR") == true)
        let option = try cli.run(["config", "--user", "carol"], environment: ["REMINDERS_USER": "bob"])
        #expect(option.stdout.split(separator: "\n").first { $0.hasPrefix("user ") }?.contains("carol") == true)
        #expect(option.stdout.contains("option --user"))
    }

    /// A database given by path with no device named is a device of the
    /// file's name, so that two databases on one server are two devices;
    /// a device named wins.
    @Test func aDatabaseGivenByPathIsADeviceOfItsName() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        func device(_ arguments: [String], environment: [String: String] = [:]) throws -> String? {
            let text = try cli.run(["config"] + arguments, environment: environment).stdout
            return text.split(separator: "\n").first { $0.hasPrefix("device ") }?
                .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
        }
        let desk = cli.home.appendingPathComponent("desk.sqlite").path
        #expect(try device([]) == "default")
        #expect(try device(["--db", desk]) == "desk")
        #expect(try device([], environment: ["REMINDERS_DB": desk]) == "desk")
        #expect(try device(["--db", desk, "--device", "laptop"]) == "laptop")
        // A file's name that is no device name is made one.
        let spaced = cli.home.appendingPathComponent("My Reminders.sqlite").path
        #expect(try device(["--db", spaced]) == "My-Reminders")
        #expect(try cli.run("add", "x", "--db", spaced).status == 0)
        #expect(try cli.run("lists", "--db", spaced).status == 0)
        // Two devices: an edit on each, the later one wins, and the
        // conflict names each side's device.
        try cli.ok("list", "add", "Inbox")
        try cli.ok("add", "Milk", "--list", "Inbox")
        try cli.ok("sync")
        try cli.ok("sync", "--db", desk)
        try cli.ok("edit", "Milk", "--notes", "here")
        try cli.ok("edit", "Milk", "--notes", "there", "--db", desk)
        try cli.ok("sync", "--db", desk)
        try cli.ok("sync")
        let conflicts = try cli.ok("conflicts")
        #expect(conflicts.contains(#"here "here" (default), there "there" (desk); remote won"#), "\(conflicts)")
        // A database keeps the name it synced under, however it is named
        // later: the default device's file given by path is still "default".
        let defaultFile = try #require(try cli.ok("config").split(separator: "\n").first { $0.hasPrefix("db ") }?
            .split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.map(String.init))
        #expect(try device(["--db", defaultFile]) == "default")

        // status says when the server directory is not there (a mistyped --server).
        let elsewhere = cli.home.appendingPathComponent("no-such-server").path
        let missing = try cli.ok("status", "--server", elsewhere)
        #expect(missing.contains("The server directory does not exist, and 'reminders sync' refuses it: there is no server directory"),
                "\(missing)")
        #expect(!(try cli.ok("status")).contains("does not exist"))
        // A server given whose folder is not there either is not made, folders and all.
        let deep = cli.home.appendingPathComponent("no-such-folder/deeper/server").path
        let refused = try cli.run("sync", "--server", deep, "--db", cli.home.appendingPathComponent("fresh.sqlite").path)
        #expect(refused.status == 4 && refused.stderr.contains("server directory \(deep) cannot be made: its folder"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("no-such-folder").path))
    }

    @Test func configJSONHasTheSameFacts() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let path = try writeConfig(cli, "due-hour = 8\n[colors]\naccent = \"#5fafff\"\n")
        let result = try cli.run(["config", "--json"], environment: ["REMINDERS_SERVER": "/srv/reminders"])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((json["file"] as? [String: Any])?["path"] as? String == path)
        #expect((json["file"] as? [String: Any])?["exists"] as? Bool == true)
        let settings = try #require(json["settings"] as? [String: [String: Any]])
        #expect(settings["due-hour"]?["value"] as? Int == 8)
        let hourFrom = settings["due-hour"]?["from"] as? [String: Any]
        #expect(hourFrom?["source"] as? String == "file")
        #expect(hourFrom?["path"] as? String == path)
        #expect(hourFrom?["line"] as? Int == 1)
        #expect(settings["server"]?["value"] as? String == "/srv/reminders")
        #expect(settings["server"]?["from"] as? [String: String] == ["source": "environment", "variable": "REMINDERS_SERVER"])
        #expect(settings["user"]?["from"] as? [String: String] == ["source": "default"])
        #expect(settings["default-list"]?["value"] is NSNull)
        let colors = try #require(json["colors"] as? [[String: Any]])
        #expect(colors.first?["role"] as? String == "accent")
        #expect(colors.first?["line"] as? Int == 3)
    }

    @Test func aMalformedFileStopsEveryCommandWithItsPathAndLine() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        for (text, line, words) in [
            ("due-hour = 8\n\ndefault-list = \"Inbox\n", 3, "not valid TOML"),
            ("due-hour = 8\nfavourite-colour = \"red\"\n", 2, "unknown setting “favourite-colour”"),
            ("[keys.list]\nnew-reminder = \"x\"\n", 2, "key “x” is bound twice in [keys.list]"),
            ("[keys]\n\nfrobnicate = \"z\"\n", 3, "names no action “frobnicate”"),
            ("[colors]\naccent = \"pink\"\n", 2, "“pink” is not a colour"),
            ("user = \"a b\"\n", 1, "user name 'a b' may not contain"),
        ] {
            let path = try writeConfig(cli, text)
            for command in [["lists"], ["config"], ["add", "Milk", "--list", "Home"], ["tui"]] {
                let result = try cli.run(command)
                #expect(result.status == 2, "\(command) with \(text): \(result)")
                #expect(result.stdout.isEmpty)
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.count == 1, "\(result.stderr)")
                #expect(result.stderr.hasPrefix("reminders: \(path):\(line): "), "\(command): \(result.stderr)")
                #expect(result.stderr.contains(words), "\(result.stderr)")
            }
        }
        // A file named by the option must be there.
        let missing = try cli.run(["lists", "--config", "/nonexistent/config.toml"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "reminders: /nonexistent/config.toml: no such config file\n")
    }

    @Test func addGoesToTheDefaultListAndTheEnvironmentOrOptionWins() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("seed")
        _ = try writeConfig(cli, "default-list = \"groceries\"\n")
        // Where it went is said on standard error, as for any list not named.
        let bananas = try cli.run("add", "Bananas")
        #expect(bananas.status == 0 && bananas.stderr == "Added “Bananas” to Groceries\n", "\(bananas)")
        try cli.ok("add", "Slides", "--list", "Work")
        _ = try cli.run(["add", "Call the bank"], environment: ["REMINDERS_DEFAULT_LIST": "Personal"])
        #expect(try cli.ok("show", "Groceries").contains("Bananas"))
        #expect(try cli.ok("show", "Work").contains("Slides"))
        #expect(try cli.ok("show", "Personal").contains("Call the bank"))
        // A ^List in the text wins over the default list.
        let named = try cli.run(["add", "Stamps ^Work"])
        #expect(named.status == 0, "\(named)")
        #expect(try cli.ok("show", "Work").contains("Stamps"))
        // With no default list, the first list.
        _ = try writeConfig(cli, "")
        let none = try cli.run(["add", "Nowhere"])
        #expect(none.status == 0)
        #expect(none.stderr == "Added “Nowhere” to Personal\n", "\(none)")
        // A default list that is not there is the config file's mistake.
        let path = try writeConfig(cli, "default-list = \"Garden\"\n")
        let missing = try cli.run(["add", "Seeds"])
        #expect(missing.status == 2)
        #expect(missing.errorLine?.hasPrefix("\(path):1:") == true, "\(missing)")
    }

    @Test func notesEditorEditsInATemporaryPrivateFileAndRemovesIt() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Home")
        let id = try cli.ok("add", "Milk", "--list", "Home", "--notes", "2 liters")
        let log = cli.home.appendingPathComponent("editor.log").path
        // Records the file's mode, path and text, then appends a line; the
        // file is the last argument.
        let editor = try script(cli, "edit-notes", """
            for file; do :; done
            stat -c '%a' "$file" > '\(log)'
            echo "$file" >> '\(log)'
            cat "$file" >> '\(log)'
            printf '\\nsemi-skimmed\\n' >> "$file"
            """)
        let result = try cli.run(["edit", id, "--notes-editor"], environment: ["EDITOR": "'\(editor)' --wait"])
        #expect(result.status == 0, "\(result)")
        let seen = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(seen[0] == "600")
        #expect(seen[1].hasSuffix(".txt"))
        #expect(!FileManager.default.fileExists(atPath: String(seen[1])))
        #expect(seen[2] == "2 liters")
        let exported = try cli.ok("export", "--json")
        #expect(exported.contains(#""notes" : "2 liters\nsemi-skimmed""#))
    }

    @Test func anEditorThatFailsOrChangesNothingChangesNothing() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Home")
        let id = try cli.ok("add", "Milk", "--list", "Home", "--notes", "2 liters")
        let failing = try script(cli, "failing", "echo changed > \"$1\"\nexit 3\n")
        let failed = try cli.run(["edit", id, "--notes-editor"], environment: ["EDITOR": failing])
        #expect(failed.status == 1)
        #expect(failed.stderr == "reminders: editor '\(failing)' exited with status 3; the notes are unchanged\n")
        let idle = try script(cli, "idle", "true\n")
        let unchanged = try cli.run(["edit", id, "--notes-editor"], environment: ["VISUAL": idle])
        #expect(unchanged.status == 0)
        #expect(unchanged.stdout == "Notes unchanged.\n")
        let missing = try cli.run(["edit", id, "--notes-editor"], environment: ["EDITOR": "no-such-editor-here"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("editor 'no-such-editor-here' was not found on PATH"))
        #expect(try cli.ok("export", "--json").contains(#""notes" : "2 liters""#))
    }

    @Test func completionScriptsAskTheBinaryForTitles() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        for shell in ["bash", "zsh", "fish"] {
            let script = try cli.ok("--generate-completion-script", shell)
            #expect(script.contains("---completion"), "\(shell)")
            #expect(script.contains("config"), "\(shell)")
        }
        try cli.ok("seed")
        try cli.ok("list", "add", "Garden Tools")
        // What the bash script runs for `reminders show G<Tab>`.
        let lists = try cli.ok("---completion", "show", "--", "positional@0", "2", "1", "reminders", "show", "G")
        #expect(lists.split(separator: "\n") == ["Garden Tools", "Groceries"])
        let tags = try cli.ok("---completion", "show", "--", "--tag", "3", "0", "reminders", "show", "--tag", "")
        #expect(tags.split(separator: "\n").contains("errands"))
        let reminders = try cli.ok("---completion", "edit", "--", "positional@0", "2", "2", "reminders", "edit", "Mi")
        #expect(reminders == "Milk")
        // Another user's device that does not exist: nothing, quietly, and no database made.
        let none = try cli.run(["---completion", "edit", "--", "positional@0", "4", "0", "reminders", "edit", "--user", "nobody", ""])
        #expect(none.status == 0 && none.stdout.isEmpty && none.stderr.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: cli.home.appendingPathComponent("data/reminders/devices/nobody-default.sqlite").path))
    }

    @Test func theManPageDescribesEverySubcommand() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/man/reminders.1"), encoding: .utf8)
        let help = try cli.ok("--help")
        let section = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        // A subcommand's line starts two spaces in ("complete, done" with its
        // other name); its description's next lines, further.
        let names = section.split(separator: "\n")
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") && !$0.hasPrefix("  See ") }
            .compactMap { $0.split(separator: " ").first.map { String($0.trimmingCharacters(in: [","])) } }
        #expect(names.count > 20)
        for name in names {
            #expect(page.contains(".It Em \(name)") || page.contains(".It Em \"\(name),") || page.contains("reminders \(name)"),
                    "\(name) is not in docs/man/reminders.1")
        }
    }
}
