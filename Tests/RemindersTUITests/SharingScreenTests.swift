import DeviceRuntime
import Foundation
import GRDB
@testable import RemindersTUI
import RemindersCore
import RemindersViewModels
import Testing

/// The Sharing screen and Home's invitations, drawn off screen from a
/// `sync_shares` table filled by hand (no server).
@Suite struct SharingScreenTests {
    private func addShares(_ world: TestWorld, _ rows: [(id: String, listID: String, owner: String, participants: String)],
                           preview: String? = nil) throws {
        try world.store.writer.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS sync_shares (id TEXT PRIMARY KEY, rootRecordType TEXT, rootRecordName TEXT,
                    zoneName TEXT, ownerName TEXT, participants TEXT, rootPreview TEXT)
                """)
            for row in rows {
                try db.execute(sql: "INSERT INTO sync_shares VALUES (?, 'remindersLists', ?, 'zone', ?, ?, ?)",
                               arguments: [row.id, row.listID, row.owner, row.participants, preview])
            }
        }
    }

    @Test func sharingScreenShowsParticipantsWithPermissionAndStatus() throws {
        let world = try TestWorld(width: 80, height: 24, sharing: ListSharing(userName: "me"))
        let list = try #require(try world.lists().first)
        try addShares(world, [(id: "share-1", listID: list.id, owner: "me", participants: """
            [{"userName":"bob","permission":"read-write","status":"accepted"},
             {"userName":"carol","permission":"read-only","status":"pending"},
             {"userName":"dan","permission":"read-only","status":"removed"}]
            """)])
        world.app.push(SharingScreen(environment: world.environment, listID: list.id))
        let text = world.text
        #expect(text.contains("Sharing “\(list.title)”"))
        #expect(text.contains("You own this list."))
        #expect(text.contains("PARTICIPANT"))
        let bob = try #require(text.split(separator: "\n").first { $0.contains("bob") })
        #expect(bob.contains("read-write") && bob.contains("accepted"))
        let carol = try #require(text.split(separator: "\n").first { $0.contains("carol") })
        #expect(carol.contains("read-only") && carol.contains("invited"))
        #expect(!text.contains("dan"))
        #expect(text.contains("invite"))

        // Invite without a server: the prompt closes and the error shows.
        world.press(.character("i"))
        #expect(world.text.contains("User name"))
        world.press(.tab)
        #expect(world.text.contains("Permission: read-only"))
        world.type("erin")
        world.press(.enter)
        #expect(world.text.contains("Sharing needs a server"))

        // Stop sharing asks first.
        world.press(.character("X"))
        #expect(world.text.contains("Stop sharing “\(list.title)” with everyone?"))
        world.press(.character("n"))

        // So does removing one person: an accepted one loses the list.
        world.press(.character("g"), .character("d"))
        #expect(world.text.contains("Remove bob from “\(list.title)”?"), "\(world.text)")
        #expect(world.text.contains("They lose their copy of the list"))
        world.press(.character("n"))
        #expect(!world.text.contains("Remove bob"))
        #expect(world.text.split(separator: "\n").contains { $0.contains("bob") && $0.contains("accepted") })
        world.press(.character("j"), .character("d"))
        #expect(world.text.contains("Withdraw the invitation of carol to “\(list.title)”?"), "\(world.text)")
        world.press(.character("n"))
    }

    @Test func homeShowsInvitationsOnlyWhenThereAreAny() throws {
        let world = try TestWorld(width: 80, height: 30, sharing: ListSharing(userName: "me"))
        #expect(!world.text.contains("INVITATIONS"))
        try addShares(world, [(id: "share-2", listID: "someone-elses-list", owner: "alice", participants: """
            [{"userName":"me","permission":"read-write","status":"pending"}]
            """)])
        let text = world.text
        #expect(text.contains("INVITATIONS"))
        #expect(text.contains("alice invites you to a list (read-write)"))
        // Nothing was chosen yet: the invitation is, so that Enter, which
        // its heading says accepts, does.
        #expect((world.app.top as? HomeScreen)?.selection == .invitation("share-2"))
        // Once the user moves, an invitation that comes takes nothing.
        world.press(.character("j"))
        try addShares(world, [(id: "share-3", listID: "another-list", owner: "carol", participants: """
            [{"userName":"me","permission":"read-write","status":"pending"}]
            """)])
        _ = world.text
        #expect((world.app.top as? HomeScreen)?.selection != .invitation("share-3"))
    }

    @Test func anInvitationIsNamedByTheTitleTheServerShowed() throws {
        let world = try TestWorld(width: 80, height: 30, sharing: ListSharing(userName: "me"))
        try addShares(world, [(id: "share-4", listID: "someone-elses-list", owner: "alice", participants: """
            [{"userName":"me","permission":"read-only","status":"pending"}]
            """)], preview: ##"{"title":"Garden","color":"#5cc15a"}"##)
        #expect(world.text.contains("alice invites you to “Garden” (read-only)"))
        // At 60 columns too: the keys are said once, on the heading.
        let narrow = try TestWorld(width: 60, height: 20, sharing: ListSharing(userName: "me"))
        try addShares(narrow, [(id: "share-4", listID: "someone-elses-list", owner: "alice", participants: """
            [{"userName":"me","permission":"read-only","status":"pending"}]
            """)], preview: ##"{"title":"Garden","color":"#5cc15a"}"##)
        let lines = narrow.text.split(separator: "\n")
        #expect(lines.contains { $0.contains("alice invites you to “Garden”") }, "\(narrow.text)")
        #expect(lines.contains { $0.contains("INVITATIONS") && $0.contains("accept") })
    }

    @Test func readOnlyListEditKeysShowTheOwner() throws {
        let world = try TestWorld(width: 80, height: 24, sharing: ListSharing(userName: "me"))
        let list = try #require(try world.lists().first)
        try world.store.writer.write { db in
            try db.execute(sql: """
                CREATE TABLE sync_metadata (recordType TEXT, recordName TEXT, ownerName TEXT)
                """)
            try db.execute(sql: "INSERT INTO sync_metadata VALUES ('remindersLists', ?, 'alice')", arguments: [list.id])
        }
        try addShares(world, [(id: "share-3", listID: list.id, owner: "alice", participants: """
            [{"userName":"me","permission":"read-only","status":"accepted"}]
            """)])
        let sharing = ListSharing(userName: "me")
        let environment = AppEnvironment(store: world.store, userName: "me", deviceName: "laptop", sharing: sharing)
        let app = AppController(environment: environment, options: TUIOptions(), colorMode: .indexed256,
                                size: (80, 24), now: { pinnedNow }, wake: {})
        app.start()
        app.push(ListDetailScreen(environment: environment, filter: .list(list.id)))
        app.refresh()
        #expect(app.render().text.contains("Shared by alice · read-only"))
        app.handle(.key(.character("a")))
        app.refresh()
        #expect(app.render().text.contains("read-only: shared by alice"))
    }
}
