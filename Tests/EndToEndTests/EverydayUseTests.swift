import Foundation
import Testing
import TestSupport

/// The command line's smaller frictions a new user met.
@Suite struct EverydayUseTests {
    @Test func aSecondListWithTheSameTitleIsMadeWithAWarning() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("list", "add", "Personal")
        let second = try cli.run("list", "add", "personal")
        #expect(second.status == 0)
        #expect(second.stderr == "reminders: note: another list is titled 'personal' too; commands that take a list will need an id for either\n")
        let ambiguous = try cli.run("show", "Personal")
        #expect(ambiguous.status == 2)
        #expect(ambiguous.errorLine?.contains("is ambiguous") == true)
    }
}

extension EverydayUseTests {
    /// A database the user may only read (a read-only file in a read-only
    /// folder) still answers the commands that read; one that writes says
    /// the database is read-only (exit 3) and changes nothing. As root the
    /// commands run as `nobody`, for whom permissions hold.
    @Test func readingCommandsWorkOnAReadOnlyDatabase() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("seed")
        let before = try Data(contentsOf: cli.defaultDatabase)
        let folder = cli.defaultDatabase.deletingLastPathComponent()
        let asRoot = getuid() == 0
        var launcher: [String] = []
        if asRoot {
            // nobody must reach the binary and the files: a copy beside them.
            for url in [cli.home, cli.home.appendingPathComponent("data"), folder.deletingLastPathComponent()] {
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
            }
            launcher = ["/usr/sbin/runuser", "-u", "nobody", "--"]
        }
        let binary = cli.home.appendingPathComponent("reminders-copy")
        // Copied by cp, in a process of its own: a copy written from this
        // process left its descriptor open in whatever another test started
        // meanwhile (a server, a cluster), and running the copy then failed
        // with "Text file busy" for as long as that process lived.
        let copied = try Subprocess.run(["/bin/cp", cli.binary.path, binary.path], environment: cli.environment)
        #expect(copied.status == 0, "\(copied)")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: cli.defaultDatabase.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path) }
        func run(_ arguments: [String]) throws -> ProcessResult {
            try Subprocess.run(launcher + [binary.path] + arguments, environment: cli.environment, directory: cli.home)
        }
        for command in [["lists"], ["show", "Groceries"], ["search", "milk"], ["tags"], ["due"], ["export", "--json"]] {
            let result = try run(command)
            #expect(result.status == 0, "\(command): \(result)")
        }
        #expect(try run(["show", "Groceries"]).stdout.contains("Milk"))
        let refused = try run(["add", "Bread", "--list", "Groceries"])
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.errorLine?.contains("is read-only (the file or its folder cannot be written)") == true, "\(refused)")
        #expect(try Data(contentsOf: cli.defaultDatabase) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == [cli.defaultDatabase.lastPathComponent])
    }
}
