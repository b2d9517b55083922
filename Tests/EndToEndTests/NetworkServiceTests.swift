import Foundation
import Testing
import TestSupport

/// The real binary as a network service and as its devices: `reminders
/// serve` on a loopback port, accounts, `reminders login`, and devices of
/// two people that sync and share through it by URL.
@Suite struct NetworkServiceTests {
    @Test func devicesOfTwoPeopleSyncAndShareThroughReminderServe() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let store = runner.home.appendingPathComponent("store").path
        let aliceSecret = try #require(try runner.ok("serve", "user", "add", "alice", "--store", store)
            .split(separator: "\n").last.map(String.init))
        let bobSecret = try #require(try runner.ok("serve", "user", "add", "bob", "--store", store)
            .split(separator: "\n").last.map(String.init))
        #expect(try runner.ok("serve", "user", "list", "--store", store) == "alice\nbob")
        // The same name twice is refused, and the first account stays.
        #expect(try runner.run("serve", "user", "add", "alice", "--store", store).status == 2)

        let port = try freeLoopbackPort()
        // A mistyped store, or one without accounts, serves no one: refused
        // with one line, and nothing is made.
        let typo = runner.home.appendingPathComponent("stroe").path
        let missing = try runner.run("serve", "--store", typo, "--listen", "127.0.0.1:\(port)")
        #expect(missing.status == 2 && missing.stderr.contains("there is no store at \(typo)"), "\(missing)")
        #expect(!FileManager.default.fileExists(atPath: typo))
        let empty = runner.home.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let noAccounts = try runner.run("serve", "--store", empty.path, "--listen", "127.0.0.1:\(port)")
        #expect(noAccounts.status == 2 && noAccounts.stderr.contains("there are no accounts in"), "\(noAccounts)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)

        let server = try runner.start(["serve", "--store", store, "--listen", "127.0.0.1:\(port)"])
        defer { server.signal(SIGTERM); _ = try? server.wait(timeout: 10) }
        let url = "http://127.0.0.1:\(port)"

        // Each device keeps its credentials in its own config folder.
        func device(_ name: String) -> [String: String] {
            ["XDG_CONFIG_HOME": runner.home.appendingPathComponent("config-\(name)").path,
             "REMINDERS_SERVER": url, "REMINDERS_DEVICE": name]
        }
        func login(_ name: String, _ user: String, _ secret: String) throws -> ProcessResult {
            let file = runner.home.appendingPathComponent("secret-\(name)")
            try secret.write(to: file, atomically: true, encoding: .utf8)
            return try runner.run(["login", url, "--user", user, "--secret-file", file.path], environment: device(name))
        }
        try eventually(timeout: 20, "the service answers") { (try? login("laptop", "alice", aliceSecret))?.status == 0 }
        #expect(try login("phone", "bob", "not-the-secret").status == 3)
        #expect(try login("phone", "bob", bobSecret).status == 0)
        #expect(try login("desktop", "alice", aliceSecret).status == 0)

        // Two devices of Alice: an edit on one reaches the other.
        #expect(try runner.run(["list", "add", "Groceries"], environment: device("laptop")).status == 0)
        #expect(try runner.run(["add", "Milk", "--list", "Groceries"], environment: device("laptop")).status == 0)
        #expect(try runner.run(["sync"], environment: device("laptop")).status == 0)
        #expect(try runner.run(["sync"], environment: device("desktop")).status == 0)
        #expect(try runner.run(["lists"], environment: device("desktop")).stdout.contains("Groceries"))
        // A mistyped URL (localhost for 127.0.0.1) names where this device is signed in.
        var mistypedDevice = device("desktop")
        mistypedDevice["REMINDERS_SERVER"] = "http://localhost:\(port)"
        let mistyped = try runner.run(["sync"], environment: mistypedDevice)
        #expect(mistyped.status == 4 && mistyped.stderr.contains("signed in to \(url). Point --server there"), "\(mistyped)")
        // What stays on the device works there all the same, for a user
        // whose device exists: reading, editing (it waits as pending) and
        // the status. Without a user, the default one's would be opened.
        let unnamed = try runner.run(["show", "Groceries"], environment: mistypedDevice)
        #expect(unnamed.status == 4 && unnamed.stderr.contains("not signed in"), "\(unnamed)")
        mistypedDevice["REMINDERS_USER"] = "alice"
        let readThere = try runner.run(["show", "Groceries"], environment: mistypedDevice)
        #expect(readThere.status == 0 && readThere.stdout.contains("Milk"), "\(readThere.stderr)")
        #expect(try runner.run(["add", "Bread", "--list", "Groceries"], environment: mistypedDevice).status == 0)
        let statusThere = try runner.run(["status"], environment: mistypedDevice)
        #expect(statusThere.status == 0 && statusThere.stdout.contains("Pending: 1 save"), "\(statusThere)")
        #expect(try runner.run(["sync"], environment: device("desktop")).status == 0)
        #expect(try runner.run(["sync"], environment: device("laptop")).status == 0)
        #expect(try runner.run(["show", "Groceries"], environment: device("laptop")).stdout.contains("Bread"))

        // Alice shares the list with Bob, read-only; Bob sees it and may not change it.
        #expect(try runner.run(["share", "Groceries", "--with", "bob", "--read-only"], environment: device("laptop")).status == 0)
        let shares = try runner.run(["shares"], environment: device("phone"))
        #expect(shares.stdout.contains("alice"), "\(shares)")
        // Bob has no list of his own: the invitation is the next step.
        let bobsLists = try runner.run(["lists"], environment: device("phone"))
        #expect(bobsLists.stdout.contains("No lists yet. alice invites you to “Groceries”: 'reminders accept "), "\(bobsLists)")
        #expect(try runner.run(["accept", Self.shareID(in: shares.stdout)], environment: device("phone")).status == 0)
        #expect(try runner.run(["sync"], environment: device("phone")).status == 0)
        let shown = try runner.run(["show", "Groceries"], environment: device("phone"))
        #expect(shown.status == 0 && shown.stdout.contains("Milk"), "\(shown)")
        #expect(try runner.run(["complete", "Milk"], environment: device("phone")).status == 3)

        // The service is down: edits wait as pending; it comes back and they go.
        server.signal(SIGTERM)
        _ = try server.wait(timeout: 10)
        #expect(try runner.run(["add", "Eggs", "--list", "Groceries"], environment: device("desktop")).status == 0)
        let down = try runner.run(["sync"], environment: device("desktop"))
        #expect(down.status == 4)
        #expect(down.stderr.contains("connection refused"), "\(down)")
        let again = try runner.start(["serve", "--store", store, "--listen", "127.0.0.1:\(port)"])
        defer { again.signal(SIGTERM); _ = try? again.wait(timeout: 10) }
        try eventually(timeout: 20, "the service answers again") {
            (try? runner.run(["sync"], environment: device("desktop")))?.status == 0
        }
        #expect(try runner.run(["sync"], environment: device("laptop")).status == 0)
        let titles = try runner.run(["export", "--json"], environment: device("laptop")).stdout
        #expect(titles.contains("Eggs") && titles.contains("Milk"))
    }

    /// A device given a PostgreSQL store, or a URL of another kind, as its
    /// server refuses with one line, and makes nothing (such text used to be
    /// taken for a directory's path, and one was made).
    @Test func aDatabaseOrOtherURLAsAServerIsRefused() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        for server in ["postgres://me@db.example/reminders", "ftp://example.com/lists"] {
            let result = try runner.run(["sync"], environment: ["REMINDERS_SERVER": server])
            #expect(result.status == 2)
            #expect(result.stderr.split(separator: "\n").count == 1)
            #expect(result.stderr.contains(server))
        }
        let postgres = try runner.run(["lists"], environment: ["REMINDERS_SERVER": "postgres://me@db.example/reminders"])
        #expect(postgres.stderr.contains("reminders serve"))
        let made = try FileManager.default.contentsOfDirectory(atPath: runner.home.path)
        #expect(!made.contains { $0.hasPrefix("postgres:") || $0.hasPrefix("ftp:") })
    }

    static func shareID(in text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).first { $0.count >= 8 && $0.allSatisfy { $0.isHexDigit || $0 == "-" } }
            .map(String.init) ?? ""
    }
}
