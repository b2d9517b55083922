import CloudServer
import Foundation
import GRDB
import RemindersCore
import Testing
@testable import SyncEngine
import TestSupport

/// A cover whose image file the server lost or altered: the rest of the
/// sync goes on, the cover waits, and arrives once the server can give it
/// or a later version replaces it.
@Suite struct WaitingAssetTests {
    let directory = TemporaryDirectory()

    /// A list "Garden" with a cover and three reminders on A, synced; the
    /// server's asset file then damaged as `damage` says.
    private func gardenWithDamagedCover(_ damage: String) throws -> (a: Device, server: DirectoryServer, list: RemindersList, asset: URL, bytes: Data) {
        let server = try makeServer(directory)
        let a = try Device("A", server: server)
        let list = try a.store.createList(title: "Garden")
        try a.store.setCover(listID: list.id, png: SampleCovers.png(named: "ocean"))
        for title in ["Weed", "Water", "Prune"] {
            try a.store.createReminder(ReminderDraft(listID: list.id, title: title))
        }
        try a.sync()
        let assets = directory.url.appendingPathComponent("server/assets")
        let files = try FileManager.default.contentsOfDirectory(atPath: assets.path).filter { !$0.hasPrefix(".") }
        #expect(files.count == 1)
        let asset = assets.appendingPathComponent(files[0])
        let bytes = try Data(contentsOf: asset)
        switch damage {
        case "missing": try FileManager.default.removeItem(at: asset)
        default:
            var altered = bytes
            altered[altered.count / 2] ^= 0xFF
            try altered.write(to: asset)
        }
        return (a, server, list, asset, bytes)
    }

    @Test(arguments: ["missing", "altered"])
    func aNewDeviceGetsEverythingButTheLostCoverAndTheCoverOnceTheFileIsBack(damage: String) throws {
        let (a, server, list, asset, bytes) = try gardenWithDamagedCover(damage)
        let c = try Device("C", server: server)
        // Before, the fetch failed on the image and C received nothing.
        let report = try c.sync()
        #expect(report.receivedSaves >= 4)
        #expect(try c.list(list.id)?.title == "Garden")
        #expect(try c.export().reminders.count == 3)
        #expect(try c.export().lists.first?.coverImageSHA256 == nil)
        let waiting = try c.engine.waitingAssets()
        #expect(waiting.count == 1)
        #expect(waiting.first?.subject == "Garden")
        #expect(waiting.first?.table == "remindersListCovers")
        #expect(waiting.first?.problem.contains(asset.path) == true)
        #expect(try c.pending() == 0)

        // An edit of the list on C goes, and takes nothing from the cover.
        try c.store.updateList(id: list.id, title: "Yard")
        try c.sync()
        try a.sync()
        #expect(try a.list(list.id)?.title == "Yard")
        #expect(try a.export().lists.first?.coverImageSHA256 == Asset.digest(of: bytes))
        // Still waiting, tried again at each sync.
        try c.sync()
        #expect(try c.engine.waitingAssets().count == 1)

        // The file put back: the next sync brings the cover.
        try bytes.write(to: asset)
        try c.sync()
        #expect(try c.engine.waitingAssets().isEmpty)
        #expect(try c.export() == a.export())
        #expect(try c.pending() == 0)
    }

    @Test func aNewCoverReplacesTheWaitingOne() throws {
        let (a, server, list, _, _) = try gardenWithDamagedCover("missing")
        let c = try Device("C", server: server)
        try c.sync()
        #expect(try c.engine.waitingAssets().count == 1)
        try a.store.setCover(listID: list.id, png: SampleCovers.png(named: "forest"))
        try a.sync()
        try c.sync()
        #expect(try c.engine.waitingAssets().isEmpty)
        #expect(try c.export().lists.first?.coverImageSHA256 == Asset.digest(of: #require(SampleCovers.png(named: "forest"))))
        #expect(try c.export() == a.export())
    }

    @Test func aClearedCoverOrADeletedListEndsTheWait() throws {
        let (a, server, list, _, _) = try gardenWithDamagedCover("missing")
        let c = try Device("C", server: server)
        try c.sync()
        #expect(try c.engine.waitingAssets().count == 1)
        try a.store.setCover(listID: list.id, png: nil)
        try a.sync()
        try c.sync()
        #expect(try c.engine.waitingAssets().isEmpty)
        #expect(try c.export() == a.export())

        // Again, with the list deleted.
        try a.store.setCover(listID: list.id, png: SampleCovers.png(named: "sunrise"))
        try a.sync()
        let assets = directory.url.appendingPathComponent("server/assets")
        for file in try FileManager.default.contentsOfDirectory(atPath: assets.path) where !file.hasPrefix(".") {
            try FileManager.default.removeItem(at: assets.appendingPathComponent(file))
        }
        try c.sync()
        #expect(try c.engine.waitingAssets().count == 1)
        _ = try a.store.deleteList(id: list.id)
        try a.sync()
        try c.sync()
        #expect(try c.engine.waitingAssets().isEmpty)
        #expect(try c.list(list.id) == nil)
        #expect(try c.export() == a.export())
    }

    /// The list deleted on the device where its cover waits: the wait ends
    /// with it (it named a list that no longer exists, at every sync).
    @Test func aListDeletedHereEndsTheWaitOfItsCover() throws {
        let (_, server, list, _, _) = try gardenWithDamagedCover("missing")
        let c = try Device("C", server: server)
        try c.sync()
        #expect(try c.engine.waitingAssets().count == 1)
        _ = try c.store.deleteList(id: list.id)
        try c.sync()
        #expect(try c.engine.waitingAssets().isEmpty)
    }

    /// A device that sets a cover of its own on the list whose cover waits:
    /// its cover wins, as a later edit does, and the wait ends.
    @Test func aCoverSetWhileOneWaitsWins() throws {
        let (a, server, list, _, _) = try gardenWithDamagedCover("missing")
        let c = try Device("C", server: server)
        try c.sync()
        try c.store.setCover(listID: list.id, png: SampleCovers.png(named: "forest"))
        try c.sync()
        try a.sync()
        #expect(try c.engine.waitingAssets().isEmpty)
        #expect(try a.export().lists.first?.coverImageSHA256 == Asset.digest(of: #require(SampleCovers.png(named: "forest"))))
        #expect(try c.export() == a.export())
        #expect(try c.pending() == 0)
    }
}
