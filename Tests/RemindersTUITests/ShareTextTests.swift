@testable import RemindersTUI
import RemindersViewModels
import Testing

@Suite struct ShareTextTests {
    @Test func theLineSaysWhoAndReadOnlyOnce() {
        #expect(ShareText.line(.sharedBy(owner: "alice", isReadOnly: true)) == "Shared by alice · read-only")
        #expect(ShareText.line(.sharedBy(owner: "alice", isReadOnly: false)) == "Shared by alice")
        #expect(ShareText.line(.sharedWith([SharedPerson(name: "bob", isInvited: false), SharedPerson(name: "carol", isInvited: true)]))
                == "Shared with bob, carol (invited)")
        #expect(ShareText.line(.sharedWith([SharedPerson(name: "bob", isInvited: false, isReadOnly: true),
                                            SharedPerson(name: "carol", isInvited: true, isReadOnly: true)]))
                == "Shared with bob (read-only), carol (invited, read-only)")
    }

    @Test func theReadOnlyToastNamesTheOwner() {
        #expect(ShareText.readOnlyToast(.sharedBy(owner: "alice", isReadOnly: true)) == "read-only: shared by alice")
        #expect(ShareText.readOnlyToast(nil) == "read-only: shared with you read-only")
    }
}
