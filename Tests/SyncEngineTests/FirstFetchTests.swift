import CloudServer
import Foundation
import RemindersCore
import Testing
import TestSupport
@testable import SyncEngine

/// A device that sent records before it ever fetched their zone.
@Suite struct FirstFetchTests {
    /// Its first fetch starts with no token, which gets what the zone
    /// holds and no deletes: the list another device deleted meanwhile
    /// must go all the same (found by the convergence property).
    @Test func aDeviceThatSentBeforeItFetchedSeesTheDeletesMadeMeanwhile() throws {
        let directory = TemporaryDirectory()
        let (a, b) = try twoDevices(directory)
        let list = try a.store.createList(title: "Home").id
        let kept = try a.store.createList(title: "Work").id
        try a.engine.sendChanges()
        try b.sync()
        try b.store.deleteList(id: list)
        try b.sync()
        try a.engine.fetchChanges()
        #expect(try a.list(list) == nil)
        #expect(try a.list(kept) != nil)
        try a.sync()
        #expect(try a.export() == b.export())
    }
}
