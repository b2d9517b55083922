import Foundation
import SyncService
import Testing
import TestSupport

@Suite struct AccountFileTests {
    /// `reminders serve` keeps one `AccountStore`; the store's directory is
    /// put back from a copy while it runs. The accounts of the copy are the
    /// ones that count from the next request on.
    @Test func anAccountsFilePutBackIsReadInsteadOfTheOneOpened() throws {
        let directory = TemporaryDirectory()
        let store = directory.url.appendingPathComponent("store")
        let served = try AccountStore(directory: store)
        let aliceSecret = try served.add("alice")
        let backup = directory.url.appendingPathComponent("backup")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        let copy = try AccountStore(directory: backup)
        let carolSecret = try copy.add("carol")
        #expect(served.verify("alice", secret: aliceSecret))

        try FileManager.default.removeItem(at: store)
        try FileManager.default.copyItem(at: backup, to: store)
        #expect(try served.names() == ["carol"])
        #expect(!served.verify("alice", secret: aliceSecret))
        #expect(served.verify("carol", secret: carolSecret))
        // An account removed by another process (`serve user remove`) in
        // the file put back is refused by the one serving.
        try AccountStore(directory: store).remove("carol")
        #expect(!served.verify("carol", secret: carolSecret))
    }

    /// A file that is no accounts file yet (a copy still arriving) leaves
    /// the one open in use.
    @Test func aFileThatIsNotYetAnAccountsFileLeavesTheOneOpen() throws {
        let directory = TemporaryDirectory()
        let store = directory.url.appendingPathComponent("store")
        let served = try AccountStore(directory: store)
        let secret = try served.add("alice")
        let file = store.appendingPathComponent("accounts.sqlite")
        try FileManager.default.removeItem(at: file)
        try Data().write(to: file)
        #expect(served.verify("alice", secret: secret))
        #expect(try served.names() == ["alice"])
    }
}
