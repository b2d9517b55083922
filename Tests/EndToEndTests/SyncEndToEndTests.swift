import Foundation
import Synchronization
import Testing
import TestSupport

/// Two and more `reminders` processes on one server directory.
@Suite struct SyncEndToEndTests {
    func device(_ runner: CommandRunner, _ name: String, user: String = "me") -> [String: String] {
        ["REMINDERS_DEVICE": name, "REMINDERS_USER": user]
    }

    /// The laptop seeds the sample data and syncs; the desktop joins.
    func seededLaptopAndDesktop(_ runner: CommandRunner) throws -> (laptop: [String: String], desktop: [String: String]) {
        let a = device(runner, "laptop"), b = device(runner, "desktop")
        #expect(try runner.run(["seed"], environment: a).status == 0)
        #expect(try runner.run(["sync"], environment: a).status == 0)
        #expect(try runner.run(["sync"], environment: b).status == 0)
        return (a, b)
    }

    @Test func scriptedSessionOnTwoDevicesConverges() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let (a, b) = try seededLaptopAndDesktop(runner)
        // Edits on both, then both sync at the same time.
        let added = try runner.run(["add", "Water plants", "--list", "Personal", "--due", "2026-03-02T08:00", "--tag", "home"], environment: a)
        #expect(added.status == 0)
        let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try runner.run(["edit", "Milk", "--notes", "Whole milk", "--flag"], environment: b).status == 0)
        #expect(try runner.run(["complete", "Call mom"], environment: b).status == 0)
        #expect(try runner.run(["list", "add", "Garden", "--color", "#5cc15a"], environment: b).status == 0)
        try inParallel([{ try runner.run(["sync"], environment: a) }, { try runner.run(["sync"], environment: b) }])
        for _ in 0..<2 {
            #expect(try runner.run(["sync"], environment: a).status == 0)
            #expect(try runner.run(["sync"], environment: b).status == 0)
        }
        let exportA = try runner.run(["export", "--json"], environment: a)
        let exportB = try runner.run(["export", "--json"], environment: b)
        #expect(exportA.status == 0)
        #expect(exportA.stdout == exportB.stdout)
        #expect(exportA.stdout.contains(id))
        #expect(exportA.stdout.contains("Whole milk"))
        #expect(exportA.stdout.contains("Garden"))
        let status = try runner.run(["status", "--json"], environment: a)
        #expect(status.stdout.contains("\"pendingSaves\" : 0"))
    }

    @Test func conflictIsLoggedAndShownByTheCommandLine() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let (a, b) = try seededLaptopAndDesktop(runner)
        // The desktop's edit is the later one: its process starts after the
        // laptop's has ended (the binary's engine reads the system clock).
        #expect(try runner.run(["edit", "Milk", "--title", "Milk from laptop"], environment: a).status == 0)
        #expect(try runner.run(["edit", "Milk", "--title", "Milk from desktop", "--notes", "2 liters"], environment: b).status == 0)
        #expect(try runner.run(["sync"], environment: a).status == 0)
        let merged = try runner.run(["sync"], environment: b)
        #expect(merged.stdout.contains("conflicts"))
        #expect(try runner.run(["sync"], environment: a).status == 0)
        let conflicts = try runner.run(["conflicts", "--json"], environment: b)
        #expect(conflicts.stdout.contains("\"field\" : \"title\""))
        #expect(conflicts.stdout.contains("\"winner\" : \"local\""))
        #expect(conflicts.stdout.contains("\"remoteDevice\" : \"laptop\""))
        #expect(try runner.run(["export", "--json"], environment: a).stdout == runner.run(["export", "--json"], environment: b).stdout)
    }

    @Test func sharingThroughTheCommandLine() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let alice = device(runner, "laptop", user: "alice"), bob = device(runner, "desktop", user: "bob")
        #expect(try runner.run(["list", "add", "Trip"], environment: alice).status == 0)
        #expect(try runner.run(["add", "Tickets", "--list", "Trip"], environment: alice).status == 0)
        let shared = try runner.run(["share", "Trip", "--with", "bob", "--read-only"], environment: alice)
        #expect(shared.status == 0, "\(shared)")
        let shareID = shared.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let invitations = try runner.run(["shares", "--json"], environment: bob)
        #expect(invitations.stdout.contains("\"status\" : \"pending\""))
        #expect(invitations.stdout.contains("\"listTitle\" : \"Trip\""))
        #expect(try runner.run(["accept", String(shareID.prefix(8))], environment: bob).status == 0)
        #expect(try runner.run(["show", "Trip"], environment: bob).stdout.contains("Tickets"))
        let refused = try runner.run(["add", "Hotel", "--list", "Trip"], environment: bob)
        #expect(refused.status == 3)
        #expect(refused.errorLine?.contains("read-only") == true)
        #expect(try runner.run(["share", "Trip", "--with", "bob", "--read-write"], environment: alice).status == 0)
        #expect(try runner.run(["sync"], environment: bob).status == 0)
        #expect(try runner.run(["add", "Hotel", "--list", "Trip"], environment: bob).status == 0)
        #expect(try runner.run(["sync"], environment: bob).status == 0)
        #expect(try runner.run(["sync"], environment: alice).status == 0)
        #expect(try runner.run(["show", "Trip"], environment: alice).stdout.contains("Hotel"))
        let left = try runner.run(["leave", "Trip"], environment: bob)
        #expect(left.status == 0 && left.stdout == "Left “Trip”, shared by alice.\n", "\(left)")
        #expect(try !runner.run(["lists"], environment: bob).stdout.contains("Trip"))
        #expect(try runner.run(["unshare", "Trip"], environment: alice).status == 0)
    }

    /// `accept` takes the list's title as other commands take a list's, and
    /// sharing with yourself is bad usage (2), refused before the server.
    @Test func acceptByTitleAndSharingWithYourself() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let alice = device(runner, "laptop", user: "alice"), bob = device(runner, "desktop", user: "bob")
        #expect(try runner.run(["list", "add", "Chores"], environment: alice).status == 0)
        let yourself = try runner.run(["share", "Chores", "--with", "alice"], environment: alice)
        #expect(yourself.status == 2, "\(yourself)")
        #expect(yourself.errorLine == "you are alice: a list cannot be shared with its own owner")
        // Nobody named bob has lists here yet: the invitation stands, with a word.
        let early = try runner.run(["share", "Chores", "--with", "bob"], environment: alice)
        #expect(early.status == 0)
        #expect(early.stderr == "Invited bob to “Chores” (read-write): they accept with 'reminders accept'.\n"
                + "reminders: note: nobody named 'bob' has lists on this server yet; they will see the invitation when they sync\n")
        #expect(try runner.run(["list", "add", "Bob's own"], environment: bob).status == 0)
        #expect(try runner.run(["sync"], environment: bob).status == 0)
        // Now bob is known: "Bob" gets the suggestion, "bob" no word at all.
        let misspelt = try runner.run(["share", "Chores", "--with", "Bob"], environment: alice)
        #expect(misspelt.status == 0)
        #expect(misspelt.stderr.hasSuffix("reminders: note: did you mean 'bob'? User names are case-sensitive, and nobody named 'Bob' "
                                          + "has lists on this server yet (the invitation stands)\n"), "\(misspelt)")
        #expect(try runner.run(["unshare", "Chores", "--with", "Bob"], environment: alice).status == 0)
        let known = try runner.run(["share", "Chores", "--with", "bob"], environment: alice)
        #expect(known.status == 0 && known.stderr == "bob is invited to “Chores” already (read-write).\n", "\(known)")
        let unknown = try runner.run(["accept", "Garden"], environment: bob)
        #expect(unknown.status == 2)
        #expect(unknown.errorLine?.contains("no invitation is for a list titled 'Garden'") == true, "\(unknown)")
        let accepted = try runner.run(["accept", "chores"], environment: bob)
        #expect(accepted.status == 0, "\(accepted)")
        #expect(accepted.stdout == "Accepted: Chores, shared by alice.\n")
        #expect(try runner.run(["lists"], environment: bob).stdout.contains("Chores"))
        // Once bob is in, sharing again changes what he may do, with no
        // word of invitations.
        #expect(try runner.run(["sync"], environment: alice).status == 0)
        let readOnly = try runner.run(["share", "Chores", "--with", "bob", "--read-only"], environment: alice)
        #expect(readOnly.status == 0 && readOnly.stderr == "bob may now only read “Chores”.\n", "\(readOnly)")
        #expect(try runner.run(["unshare", "Chores", "--with", "bob"], environment: alice).stdout == "Removed bob from “Chores”.\n")
        // Those removed are named apart from those who have the list.
        let shares = try runner.run(["shares"], environment: alice).stdout
        #expect(shares.hasSuffix("  Chores  shared with nobody; removed: Bob, bob\n"), "\(shares)")
        // Someone not in the share, or a list shared with nobody: said
        // with the list, as bad input (2), not as a permission (3).
        let nobody = try runner.run(["unshare", "Chores", "--with", "carol"], environment: alice)
        #expect(nobody.status == 2 && nobody.errorLine == "list “Chores” is not shared with carol", "\(nobody)")
        let notShared = try runner.run(["unshare", "Bob's own"], environment: bob)
        #expect(notShared.status == 2 && notShared.errorLine == "list “Bob's own” is not shared with anyone", "\(notShared)")
        let notHis = try runner.run(["unshare", "Chores"], environment: bob)
        #expect(notHis.status == 3 && notHis.errorLine == "list “Chores” is alice's: only alice can change its sharing", "\(notHis)")
    }

    @Test func unreachableServerExitsFourAndKeepsLocalData() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let garbage = runner.home.appendingPathComponent("broken-server")
        try FileManager.default.createDirectory(at: garbage, withIntermediateDirectories: true)
        try Data("not a database at all, just text that is long enough".utf8).write(to: garbage.appendingPathComponent("server.sqlite"))
        let env = ["REMINDERS_SERVER": garbage.path]
        #expect(try runner.run(["list", "add", "Offline work"], environment: env).status == 0)
        let sync = try runner.run(["sync"], environment: env)
        #expect(sync.status == 4)
        #expect(sync.errorLine?.contains("server.sqlite") == true)
        #expect(try runner.run(["lists"], environment: env).stdout.contains("Offline work"))
        #expect(try runner.run(["status", "--json"], environment: env).stdout.contains("\"pendingSaves\" : 1"))
    }

    /// A device that syncs with one server, pointed at a directory that
    /// does not exist (a mistyped path), is refused: no new server is made
    /// and filled with everything it holds. Made by hand, it is a new server.
    /// The directory of the device's own server, deleted, is made again.
    @Test func aMistypedServerDirectoryIsRefusedNotMade() throws {
        let runner = try CommandRunner()
        defer { runner.cleanUp() }
        let (a, _) = try seededLaptopAndDesktop(runner)
        let typo = runner.home.appendingPathComponent("servr/new")
        let refused = try runner.run(["sync", "--server", typo.path], environment: a)
        #expect(refused.status == 4, "\(refused)")
        #expect(refused.errorLine?.contains("there is no server directory \(typo.path)") == true, "\(refused)")
        #expect(refused.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: typo.path))
        // Back where it was, nothing changed.
        #expect(try runner.run(["sync"], environment: a).stdout.contains("Sent 0 saves"))
        // Made by hand, it is a server to move to.
        try FileManager.default.createDirectory(at: typo, withIntermediateDirectories: true)
        let moved = try runner.run(["sync", "--server", typo.path], environment: a)
        #expect(moved.status == 0, "\(moved)")
        // The device's own server directory, deleted, is made again (a reset).
        try FileManager.default.removeItem(at: typo)
        let remade = try runner.run(["sync", "--server", typo.path], environment: a)
        #expect(remade.status == 0, "\(remade)")
        #expect(FileManager.default.fileExists(atPath: typo.appendingPathComponent("server.sqlite").path))
    }

    func inParallel(_ jobs: [@Sendable () throws -> ProcessResult]) throws {
        let group = DispatchGroup()
        let outcomes = Mutex<[Result<ProcessResult, any Error>]>([])
        for job in jobs {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                let outcome = Result { try job() }
                outcomes.withLock { $0.append(outcome) }
            }
        }
        group.wait()
        for outcome in outcomes.withLock({ $0 }) {
            let result = try outcome.get()
            #expect(result.status == 0, "\(result)")
        }
    }
}
