import CloudServer
import Foundation
import RemindersCore
@testable import DeviceRuntime
@testable import RemindersViewModels
import Testing
import TestSupport

/// Two users on one temporary server: alice shares a list with bob through
/// the Sharing view model, bob accepts through the invitations view model.
@Suite(.serialized) struct SharingViewModelTests {
    private func environment(_ session: DeviceSession, _ live: LiveSync) -> AppEnvironment {
        AppEnvironment(store: session.store, userName: session.userName, deviceName: session.deviceName,
                       syncStatus: live, sharing: session.sharing, completionDelay: 0.2)
    }

    @Test func inviteAcceptChangePermissionRemove() async throws {
        let cloud = DeviceWorld()
        let alice = try cloud.device("mac", user: "alice")
        let bob = try cloud.device("phone", user: "bob")
        let listID = try alice.store.createList(title: "Groceries").id
        let aliceLive = cloud.live(alice)
        let bobLive = cloud.live(bob)
        try eventually(timeout: 5, "first rounds") {
            aliceLive.currentStatus().lastSync != nil && bobLive.currentStatus().lastSync != nil
        }
        let aliceEnv = environment(alice, aliceLive)
        let bobEnv = environment(bob, bobLive)

        let sharing = SharingViewModel(environment: aliceEnv, listID: listID)
        defer { sharing.stop() }
        #expect(try await sharing.waitFor(timeout: 5) { $0.isLoaded }.isOwner)
        sharing.invite("bob", permission: .readOnly)
        var state = try await sharing.waitFor(timeout: 10) { state in
            !state.isBusy && state.participants.contains { $0.userName == "bob" }
        }
        #expect(state.participants == [ListParticipant(userName: "bob", permission: .readOnly, status: .pending)])
        #expect(state.messageIsError == false)
        // Bob has no lists on the server yet: the invitation stands, and says so.
        #expect(state.message == "Invited bob (read-only); nobody named 'bob' has lists on this server yet; they will see the invitation when they sync")

        // Bob sees the invitation on Home, and accepts it.
        let invitations = InvitationsViewModel(environment: bobEnv)
        defer { invitations.stop() }
        invitations.refreshShares()
        let pending = try await invitations.waitFor(timeout: 10) { !$0.invitations.isEmpty }
        #expect(pending.invitations.first?.ownerName == "alice")
        #expect(pending.invitations.first?.permission == .readOnly)
        invitations.accept(try #require(pending.invitations.first))
        let accepted = try await invitations.waitFor(timeout: 10) { $0.pendingRequests == 0 && $0.invitations.isEmpty }
        #expect(accepted.messageIsError == false)
        try eventually(timeout: 5, "the list on bob's device") { try bob.listTitles() == ["Groceries"] }
        #expect(bobEnv.shareStatus(listID: listID) == .sharedBy(owner: "alice", isReadOnly: true))
        #expect(bobEnv.isReadOnly(listID: listID))

        // Bob may not change the sharing: the error lands in the state.
        let bobSharing = SharingViewModel(environment: bobEnv, listID: listID)
        defer { bobSharing.stop() }
        let loaded = try await bobSharing.waitFor(timeout: 5) { $0.isLoaded }
        #expect(loaded.isOwner == false)
        bobSharing.invite("carol", permission: .readWrite)
        let refused = try await bobSharing.waitFor(timeout: 10) { !$0.isBusy && $0.messageIsError }
        #expect(refused.message?.contains("owner") == true)

        // Nor delete alice's list: Home refuses instead of asking, and the
        // store refuses whatever asks it (read-write or not, only the owner
        // deletes a list).
        let home = HomeViewModel(environment: bobEnv)
        #expect(home.deletionSummary(listID: listID)?.refusal == "“Groceries” is alice's: only alice can delete it")
        #expect(throws: CoreError.self) { try bob.store.deleteList(id: listID) }
        #expect(try bob.listTitles() == ["Groceries"])

        // Alice sees the acceptance, then makes bob read-write.
        sharing.refreshShares()
        state = try await sharing.waitFor(timeout: 10) { $0.participants.first?.status == .accepted }
        sharing.setPermission("bob", .readWrite)
        state = try await sharing.waitFor(timeout: 10) { !$0.isBusy && $0.participants.first?.permission == .readWrite }
        #expect(state.message == "bob is now read-write")
        bobSharing.refreshShares()
        try eventually(timeout: 10, "bob read-write") { !bobEnv.isReadOnly(listID: listID) }
        do {
            try bob.store.deleteList(id: listID)
            Issue.record("a participant deleted the owner's list")
        } catch CoreError.readOnly(let message) {
            #expect(message == "list 'Groceries' is alice's, shared with you: only alice can delete it; leave it instead")
        }

        // Removing bob leaves no participants.
        sharing.remove("bob")
        state = try await sharing.waitFor(timeout: 10) { !$0.isBusy && $0.participants.isEmpty }
        #expect(state.messageIsError == false)
        #expect(state.isShared == false)
    }

    /// Bob leaves alice's list from its Sharing screen: it goes from his
    /// device, alice keeps it with its reminders, and the share says he
    /// is out.
    @Test func aParticipantLeavesTheList() async throws {
        let cloud = DeviceWorld()
        let alice = try cloud.device("mac", user: "alice")
        let bob = try cloud.device("phone", user: "bob")
        let list = try alice.store.createList(title: "Trip")
        _ = try alice.store.createReminder(ReminderDraft(listID: list.id, title: "Pack bags"))
        let aliceLive = cloud.live(alice)
        let bobLive = cloud.live(bob)
        try eventually(timeout: 5, "first rounds") {
            aliceLive.currentStatus().lastSync != nil && bobLive.currentStatus().lastSync != nil
        }
        let share = try alice.engine.share(table: "remindersLists", key: list.id, with: [("bob", .readWrite)])
        try bob.engine.acceptShare(id: share.id)
        try bob.engine.sync()
        #expect(try bob.listTitles() == ["Trip"])

        let bobSharing = SharingViewModel(environment: environment(bob, bobLive), listID: list.id)
        defer { bobSharing.stop() }
        #expect(try await bobSharing.waitFor(timeout: 5) { $0.isLoaded }.isOwner == false)
        bobSharing.leave()
        let left = try await bobSharing.waitFor(timeout: 10) { !$0.isBusy && $0.message != nil }
        #expect(left.messageIsError == false)
        #expect(left.message == "Left “Trip”, alice’s list")
        try eventually(timeout: 10, "the list gone from bob's device") { try bob.listTitles().isEmpty }
        try alice.engine.refreshShares()
        #expect(try alice.engine.localShares().first?.participant("bob")?.status == .removed)
        #expect(try alice.listTitles() == ["Trip"])
        #expect(try await alice.store.writer.read { db in try Reminder.fetchCount(db) } == 1)
    }

    @Test func withoutAServerActionsReportAnError() async throws {
        let store = RemindersStore(writer: try AppDatabase.inMemory(), clock: AppClock())
        let listID = try store.createList(title: "Solo").id
        let sharing = SharingViewModel(environment: AppEnvironment(store: store), listID: listID)
        defer { sharing.stop() }
        sharing.refresh()
        #expect(sharing.state.listTitle == "Solo")
        sharing.refreshShares()
        #expect(sharing.state.message == nil)
        sharing.invite("bob", permission: .readWrite)
        #expect(sharing.state.messageIsError)
        #expect(sharing.state.message?.contains("server") == true)
    }

}
