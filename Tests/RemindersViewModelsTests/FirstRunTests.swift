import Foundation
import RemindersCore
import SyncEngine
import Testing
import TestSupport
@testable import DeviceRuntime
@testable import RemindersViewModels

/// A device's first start offers the sample lists only to a user who has
/// nothing anywhere, remembers the answer, and adds one copy: not a second
/// one from a joining device, not two from two devices answering at once.
@Suite struct FirstRunTests {
    @Test func twoDevicesAnsweringAtOnceAddOneCopy() throws {
        for round in 1...4 {
            let cloud = DeviceWorld()
            let devices = [try cloud.device("laptop"), try cloud.device("desktop")]
            for device in devices { #expect(try device.firstStart() == .offerSampleData, "round \(round)") }
            let answers = Answers()
            DispatchQueue.concurrentPerform(iterations: devices.count) { index in
                answers.record(index, Result { try devices[index].answerFirstRun(addSampleData: true) })
            }
            let outcomes = try answers.results.sorted { $0.key < $1.key }.map { try $0.value.get() }
            #expect(outcomes.filter { $0 == .added }.count == 1, "round \(round): \(outcomes)")
            #expect(outcomes.filter { $0 == .addedByAnotherDevice }.count == 1, "round \(round): \(outcomes)")
            for device in devices { try device.syncOnce() }
            for device in devices { try device.syncOnce() }
            let titles = try devices.map { try $0.listTitles() }
            #expect(titles[0] == ["Groceries", "Personal", "Work"], "round \(round)")
            #expect(titles[0] == titles[1], "round \(round)")
        }
    }

    @Test func aDeviceJoiningLaterIsNotAsked() throws {
        let cloud = DeviceWorld()
        let laptop = try cloud.device("laptop")
        #expect(try laptop.firstStart() == .offerSampleData)
        #expect(try laptop.answerFirstRun(addSampleData: true) == .added)
        try laptop.syncOnce()
        let desktop = try cloud.device("desktop")
        #expect(try desktop.firstStart() == .returning)
        #expect(try desktop.listTitles() == laptop.listTitles())
    }

    @Test func startingEmptyIsRememberedAndAddsNothing() throws {
        let cloud = DeviceWorld()
        let laptop = try cloud.device("laptop")
        #expect(try laptop.firstStart() == .offerSampleData)
        #expect(try laptop.answerFirstRun(addSampleData: false) == .startedEmpty)
        #expect(try cloud.device("laptop").firstStart() == .returning)
        #expect(try laptop.listTitles().isEmpty)
    }

    @Test func anInvitedUserIsNotOfferedSampleLists() throws {
        let cloud = DeviceWorld()
        let alice = try cloud.device("mac", user: "alice")
        let listID = try alice.store.createList(title: "Chores").id
        try alice.syncOnce()
        _ = try alice.engine.share(table: RemindersList.databaseTableName, key: listID,
                                   with: [(userName: "bob", permission: .readWrite)])
        let bob = try cloud.device("phone", user: "bob")
        #expect(try bob.firstStart() == .returning)
        #expect(try bob.listTitles().isEmpty)
    }

    @Test func aUserWithListsOnTheServerIsNotAsked() throws {
        let cloud = DeviceWorld()
        let laptop = try cloud.device("laptop")
        try laptop.store.createList(title: "Garden")
        try laptop.syncOnce()
        #expect(try cloud.device("desktop").firstStart() == .returning)
        #expect(try cloud.device("desktop").listTitles() == ["Garden"])
    }

    @Test func anUnreachableServerAsksNothingAndAddsNothing() throws {
        let cloud = DeviceWorld()
        // A file where the server directory should be: it cannot be opened.
        try Data("not a server".utf8).write(to: cloud.serverDirectory)
        let laptop = try cloud.device("laptop")
        guard case .serverUnreachable = try laptop.firstStart() else {
            Issue.record("expected the server to be unreachable")
            return
        }
        #expect(try laptop.listTitles().isEmpty)
        #expect(throws: (any Error).self) { try laptop.answerFirstRun(addSampleData: true) }
        #expect(try laptop.listTitles().isEmpty)
    }
}

private final class Answers: @unchecked Sendable {
    // A lock-guarded box written from `concurrentPerform`'s threads.
    private let lock = NSLock()
    private(set) var results: [Int: Result<SampleDataOutcome, any Error>] = [:]

    func record(_ index: Int, _ result: Result<SampleDataOutcome, any Error>) {
        lock.withLock { results[index] = result }
    }
}
