import Foundation
import RemindersCore
import Testing
import TestSupport
@testable import RemindersViewModels

/// A device's first start seeds sample data only when nobody has any: not a
/// second copy from a joining device, not two copies from two devices
/// starting at the same moment on an empty server.
@Suite struct FirstRunTests {
    @Test func twoDevicesStartingAtOnceSeedOneCopy() throws {
        for round in 1...4 {
            let cloud = DeviceWorld()
            let devices = [try cloud.device("laptop"), try cloud.device("desktop")]
            let seeded = Seeded()
            DispatchQueue.concurrentPerform(iterations: devices.count) { index in
                seeded.record(index, Result { try devices[index].seedIfNew() })
            }
            let results = try seeded.results.sorted { $0.key < $1.key }.map { try $0.value.get() }
            #expect(results.filter { $0 }.count == 1, "round \(round): \(results)")
            for device in devices { try device.syncOnce() }
            for device in devices { try device.syncOnce() }
            let titles = try devices.map { try $0.listTitles() }
            #expect(!titles[0].isEmpty, "round \(round)")
            #expect(titles[0] == titles[1], "round \(round)")
            #expect(Set(titles[0]).count == titles[0].count, "round \(round): a list twice: \(titles[0])")
        }
    }

    @Test func aDeviceJoiningLaterSeedsNothing() throws {
        let cloud = DeviceWorld()
        let laptop = try cloud.device("laptop")
        #expect(try laptop.seedIfNew())
        try laptop.syncOnce()
        let desktop = try cloud.device("desktop")
        #expect(try !desktop.seedIfNew())
        #expect(try desktop.listTitles() == laptop.listTitles())
    }
}

private final class Seeded: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var results: [Int: Result<Bool, any Error>] = [:]

    func record(_ index: Int, _ result: Result<Bool, any Error>) {
        lock.withLock { results[index] = result }
    }
}
