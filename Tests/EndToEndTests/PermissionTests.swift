import Foundation
import RemindersCore
import Testing
import TestSupport

/// Alice shares a list with Bob read-only and with Carol read-write, then
/// removes Carol; Dave was never invited. Through every command, none of
/// them changes the list (and only Bob can read it); whatever a stale local
/// copy lets a command do locally is refused by the server at the next sync
/// and never reaches Alice.
@Suite("Permissions, end to end", .serialized)
struct PermissionTests {
    /// A read-write participant may delete the owner's reminders one by
    /// one, but not the list: the server keeps the list, so a delete of it
    /// here would take every reminder in it from everyone and leave the
    /// list empty. Refused before anything goes, with the way out named.
    @Test func aReadWriteParticipantCannotDeleteTheOwnersList() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let list = try fleet.ok("laptop", user: "alice", "list", "add", "Family")
        _ = try fleet.ok("laptop", user: "alice", "add", "Milk", "--list", list)
        _ = try fleet.ok("laptop", user: "alice", "add", "Eggs", "--list", list)
        try fleet.sync("laptop", user: "alice")
        // Bob has no lists on the server yet: the share says so on stderr.
        let share = try fleet.run("laptop", user: "alice", ["share", list, "--with", "bob"]).stdout
        try fleet.ok("phone", user: "bob", "accept", String(share.prefix(8)))
        try fleet.sync("phone", user: "bob")
        let before = try fleet.exportText("laptop", user: "alice")

        let refused = try fleet.run("phone", user: "bob", ["list", "delete", "Family", "--yes"])
        #expect(refused.status == 3, "\(refused)")
        #expect(refused.errorLine == "list “Family” is alice's, shared with you: only alice can delete it; "
                + "'reminders leave Family' takes it off your devices", "\(refused)")
        try fleet.sync("phone", user: "bob")
        try fleet.sync("laptop", user: "alice")
        #expect(try fleet.exportText("laptop", user: "alice") == before)
        #expect(try fleet.export("phone", user: "bob").reminders.map(\.title).sorted() == ["Eggs", "Milk"])
    }

    /// A reminder Bob made in Alice's list, refused when she made it
    /// read-only before his sync, comes back as a copy in a list of his
    /// own from the conflict log (under an id of its own: the refused one
    /// may be Alice's some day); a delete the share refused has nothing to
    /// put back, and says why.
    @Test func aReminderTheShareRefusedComesBackAsACopyInAListOfYourOwn() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let (list, booked) = try Self.aliceSharesTripWithBob(fleet, holding: "Book hotel")
        let hotel = try #require(booked)
        let pending = try fleet.ok("phone", user: "bob", "add", "Bob pending", "--list", list, "--notes", "call first")
        try fleet.ok("phone", user: "bob", "delete", hotel)
        _ = try fleet.run("laptop", user: "alice", ["share", list, "--with", "bob", "--read-only"])
        try fleet.sync("phone", user: "bob")

        let log = try fleet.run("phone", user: "bob", ["conflicts", "--json"]).stdout
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [[String: Any]])
        let made = try #require(entries.first { $0["recordID"] as? String == pending })
        let deleted = try #require(entries.first { $0["recordID"] as? String == hotel })
        let refusedDelete = try fleet.run("phone", user: "bob", ["conflicts", "--keep-other", String((deleted["id"] as? String ?? "").prefix(8))])
        #expect(refusedDelete.status == 2)
        #expect(refusedDelete.errorLine == "the delete was refused by the share: the reminder is back already")
        let back = try fleet.run("phone", user: "bob", ["conflicts", "--keep-other", String((made["id"] as? String ?? "").prefix(8))])
        #expect(back.status == 0, "\(back)")
        #expect(back.stdout == "“Bob pending” is back, as a copy in Mine (a new reminder: 'reminders sync' sends it).\n")
        try fleet.sync("phone", user: "bob")
        let bob = try fleet.export("phone", user: "bob").reminders
        let copy = try #require(bob.first { $0.title == "Bob pending" })
        #expect(copy.id != pending && copy.notes == "call first")
        #expect(bob.map(\.title).sorted() == ["Bob pending", "Book hotel"])
        #expect(try fleet.export("laptop", user: "alice").reminders.map(\.title) == ["Book hotel"])
    }

    /// Alice's list "Trip" (with `reminder` in it, if given), shared with
    /// Bob, who has a list "Mine" of his own and has accepted on his phone.
    private static func aliceSharesTripWithBob(_ fleet: DeviceFleet, holding reminder: String? = nil) throws -> (list: String, reminder: String?) {
        let list = try fleet.ok("laptop", user: "alice", "list", "add", "Trip")
        let made = try reminder.map { try fleet.ok("laptop", user: "alice", "add", $0, "--list", list) }
        try fleet.sync("laptop", user: "alice")
        _ = try fleet.ok("phone", user: "bob", "list", "add", "Mine")
        try fleet.sync("phone", user: "bob")
        let share = try fleet.run("laptop", user: "alice", ["share", list, "--with", "bob"]).stdout
        try fleet.ok("phone", user: "bob", "accept", String(share.prefix(8)))
        try fleet.sync("phone", user: "bob")
        return (list, made)
    }

    /// Bob's phone and tablet both see the entry of a reminder the share
    /// refused (the log syncs), and both put it back before they sync
    /// again: they make one copy between them, not one each, and a third
    /// put-back says it is back already.
    @Test func twoDevicesPuttingBackOneRefusedReminderMakeOneCopy() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let (list, _) = try Self.aliceSharesTripWithBob(fleet)
        let pending = try fleet.ok("phone", user: "bob", "add", "Bob pending", "--list", list)
        _ = try fleet.run("laptop", user: "alice", ["share", list, "--with", "bob", "--read-only"])
        try fleet.sync("phone", user: "bob")
        try fleet.sync("tablet", user: "bob")

        let log = try fleet.run("tablet", user: "bob", ["conflicts", "--json"]).stdout
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(log.utf8)) as? [[String: Any]])
        let entry = try #require(entries.first { $0["recordID"] as? String == pending }?["id"] as? String)
        for device in ["phone", "tablet"] {
            let back = try fleet.run(device, user: "bob", ["conflicts", "--keep-other", String(entry.prefix(8))])
            #expect(back.status == 0, "\(device): \(back)")
        }
        try fleet.sync("phone", user: "bob")
        try fleet.sync("tablet", user: "bob")
        try fleet.sync("phone", user: "bob")
        for device in ["phone", "tablet"] {
            let copies = try fleet.export(device, user: "bob").reminders.filter { $0.title == "Bob pending" }
            #expect(copies.count == 1, "\(device): \(copies)")
        }
        let again = try fleet.run("phone", user: "bob", ["conflicts", "--keep-other", String(entry.prefix(8))])
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout == "“Bob pending” was put back already, in Mine.\n")
    }

    /// A sync inside `unshare` that finds a list shared with this user gone
    /// says so, as `sync` does: the next sync would not.
    @Test func unshareSaysASharedListItsSyncFoundGone() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let (trip, _) = try Self.aliceSharesTripWithBob(fleet)
        _ = try fleet.run("phone", user: "bob", ["share", "Mine", "--with", "carol"])
        try fleet.sync("phone", user: "bob")
        try fleet.ok("laptop", user: "alice", "list", "delete", trip, "--yes")
        try fleet.sync("laptop", user: "alice")
        let unshared = try fleet.run("phone", user: "bob", ["unshare", "Mine", "--with", "carol"])
        #expect(unshared.status == 0, "\(unshared)")
        #expect(unshared.stdout == "Removed carol from “Mine”.\n"
                + "alice's list “Trip” is gone from this device: it was deleted, or is no longer shared with you.\n", "\(unshared)")
    }

    /// Bob's only list is Alice's, shared with him read-only: his first
    /// `add` without a list makes his own "Reminders" instead of failing
    /// on hers.
    @Test func theFirstAddOfSomeoneWithOnlyAReadOnlyListMakesTheirOwn() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let list = try fleet.ok("laptop", user: "alice", "list", "add", "Trip")
        try fleet.sync("laptop", user: "alice")
        let share = try fleet.run("laptop", user: "alice", ["share", list, "--with", "bob", "--read-only"]).stdout
        try fleet.ok("phone", user: "bob", "accept", String(share.prefix(8)))
        try fleet.sync("phone", user: "bob")
        let added = try fleet.run("phone", user: "bob", ["add", "Milk"])
        #expect(added.status == 0, "\(added)")
        #expect(added.stderr == "No list to add to: made “Reminders”.\nAdded “Milk” to Reminders\n")
    }

    @Test func readOnlyRemovedAndUninvitedUsersCannotChangeOrReadTheList() throws {
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let list = try fleet.ok("laptop", user: "alice", "list", "add", "Family")
        let milk = try fleet.ok("laptop", user: "alice", "add", "Milk", "--list", list, "--notes", "oat")
        try fleet.sync("laptop", user: "alice")
        // Bob and Carol have no lists on the server yet: each share says so
        // on standard error, and the invitation stands.
        let invited = try fleet.run("laptop", user: "alice", ["share", list, "--with", "bob", "--read-only"])
        #expect(invited.status == 0 && invited.stderr.contains("nobody named 'bob'"), "\(invited)")
        let share = invited.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try fleet.run("laptop", user: "alice", ["share", list, "--with", "carol"]).status == 0)
        for user in ["bob", "carol"] {
            try fleet.ok("phone", user: user, "accept", String(share.prefix(8)))
            try fleet.sync("phone", user: user)
            #expect(try fleet.export("phone", user: user).reminders.map(\.title) == ["Milk"], "\(user) got the list")
        }
        try fleet.ok("laptop", user: "alice", "unshare", list, "--with", "carol")
        let aliceBefore = try fleet.exportText("laptop", user: "alice")

        var tried = 0
        // Bob reads, and every change is refused at once: exit 3.
        try fleet.ok("phone", user: "bob", "show", list)
        let bobChanges: [[String]] = [
            ["edit", milk, "--title", "Bob's milk"], ["edit", milk, "--flag"], ["complete", milk], ["delete", milk],
            ["add", "Beer", "--list", list], ["list", "edit", list, "--title", "Bob's"], ["list", "delete", list],
            ["list", "cover", list, packageRoot.appendingPathComponent("Assets/covers/forest.png").path],
            ["share", list, "--with", "dave"], ["unshare", list], ["unshare", list, "--with", "alice"],
        ]
        for arguments in bobChanges {
            let result = try fleet.run("phone", user: "bob", arguments)
            tried += 1
            #expect(result.status == 3, "bob \(arguments): \(result)")
            #expect(result.errorLine != nil, "bob \(arguments): \(result)")
        }
        // His own tags he may put on it: they are his, in his own zone.
        try fleet.ok("phone", user: "bob", "edit", milk, "--tags", "bobs")
        try fleet.sync("phone", user: "bob")
        #expect(try fleet.export("phone", user: "bob").reminders.first?.tags == ["bobs"])

        // Carol's device still holds the list until it syncs; whatever she
        // changes there is refused by the server and undone here.
        let carolChanges: [[String]] = [
            ["edit", milk, "--title", "Carol's milk"], ["add", "Wine", "--list", list], ["complete", milk],
        ]
        for arguments in carolChanges {
            _ = try fleet.run("phone", user: "carol", arguments)
            tried += 1
        }
        try fleet.sync("phone", user: "carol")
        for arguments in [["show", list], ["edit", milk, "--title", "again"], ["add", "x", "--list", list], ["delete", milk],
                          ["share", list, "--with", "dave"], ["accept", String(share.prefix(8))]] {
            let result = try fleet.run("phone", user: "carol", arguments)
            tried += 1
            #expect(result.status == 2, "carol \(arguments): \(result)")
        }
        #expect(try fleet.export("phone", user: "carol").reminders.isEmpty)

        // Dave never had it: every command says so, and accepting fails.
        try fleet.sync("desk", user: "dave")
        for arguments in [["show", list], ["show", "Family"], ["edit", milk, "--title", "x"], ["complete", milk], ["delete", milk],
                          ["add", "x", "--list", list], ["share", list, "--with", "eve"], ["accept", String(share.prefix(8))],
                          ["accept", share], ["leave", list]] {
            let result = try fleet.run("desk", user: "dave", arguments)
            tried += 1
            #expect(result.status == 2, "dave \(arguments): \(result)")
        }
        try fleet.sync("desk", user: "dave")
        #expect(try fleet.export("desk", user: "dave").lists.isEmpty)

        // Alice's list is as she left it, on her device and on Bob's.
        try fleet.syncUntilQuiet([("laptop", "alice"), ("phone", "bob"), ("phone", "carol"), ("desk", "dave")])
        #expect(try fleet.exportText("laptop", user: "alice") == aliceBefore)
        let bob = try fleet.export("phone", user: "bob")
        #expect(bob.reminders.map(\.title) == ["Milk"] && bob.reminders.first?.notes == "oat")
        print("permissions end to end: \(tried) commands by users who may not change the list")
    }
}
