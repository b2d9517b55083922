import CloudClient
import CloudServer
import DeviceRuntime
import Foundation
import Testing
import TestSupport
@testable import SyncEngine

/// `reminders serve` in a process of its own, reached over HTTP by every
/// device, and killed with `kill -9` now and then: at least once per run,
/// in the middle of a device's sync, then started again on the same store
/// and port, at once or a few steps later. Steps taken while it is down
/// fail as a device sees it fail (`serverUnavailable`) and leave their
/// edits pending.
struct ServiceConvergenceServer: ConvergenceServer {
    let service: ServiceProcess
    let remote: RemoteServer
    /// The service's own randomness, apart from the run's, so the devices'
    /// steps are those of the same seed on a directory.
    private var random: SeededGenerator
    /// The step before which the service is surely killed: in the middle
    /// of a run (runs have 20 steps or more).
    private let crashStep: Int
    /// The step at which the service starts again, while it is down.
    private var downUntil: Int?
    private(set) var kills = 0

    init(service: ServiceProcess, user: String, secret: String, seed: Int) {
        self.service = service
        remote = service.remote(user: user, secret: secret)
        random = SeededGenerator(seed: UInt64(seed) &* 104_729 &+ 3)
        crashStep = Int.random(in: 5...15, using: &random)
    }

    var connection: any ServerConnection { remote }

    mutating func disrupt(before step: Int, device: Device) throws -> String? {
        if let downUntil {
            guard step >= downUntil else { return nil }
            try service.start()
            self.downUntil = nil
            return "server started again on the same store"
        }
        guard step == crashStep || Int.random(in: 0..<20, using: &random) == 0 else { return nil }
        // The kill lands somewhere in the device's sync: before its first
        // request, between two, or while one is on the wire.
        let delay = Double.random(in: 0...0.02, using: &random)
        let downFor = Int.random(in: 0...3, using: &random)
        let service = self.service
        let killed = DispatchSemaphore(value: 0)
        Thread {
            Thread.sleep(forTimeInterval: delay)
            service.kill()
            killed.signal()
        }.start()
        let outcome: String
        do {
            let report = try device.sync()
            outcome = "its sync finished first (sent \(report.sentSaves + report.sentDeletes))"
        } catch let error where Self.isUnavailable(error) {
            outcome = "its sync failed: \(error)"
        }
        killed.wait()
        kills += 1
        if downFor == 0 {
            try service.start()
        } else {
            downUntil = step + downFor
        }
        return "server killed -9 \(Int(delay * 1000)) ms into a sync of \(device.name), \(outcome); "
            + (downFor == 0 ? "started again at once" : "down for \(downFor) steps")
    }

    func excuses(_ error: any Error) -> Bool {
        downUntil != nil && Self.isUnavailable(error)
    }

    mutating func recover() throws {
        if downUntil != nil {
            try service.start()
            downUntil = nil
        }
    }

    func tagRecordNames() throws -> [String] {
        let zone = ZoneID(name: "reminders", ownerName: remote.credential.userName)
        return try remote.database(scope: .private, device: "probe").allRecords(in: zone)
            .filter { $0.recordType == "tags" }.map(\.id.recordName)
    }

    /// How a device meets a server that is not there.
    static func isUnavailable(_ error: any Error) -> Bool {
        switch error {
        case CloudError.serverUnavailable, SyncError.server(.serverUnavailable): true
        default: false
        }
    }
}

@Suite(.serialized) struct ConvergenceOverServiceTests {
    /// The convergence property with every device on `reminders serve`,
    /// which is killed and started again as the devices work.
    @Test(arguments: ServerStoreKind.available, Self.seeds)
    func convergesThroughAServiceThatCrashes(store kind: ServerStoreKind, seed: Int) throws {
        let folder = TemporaryDirectory(prefix: "reminders-convergence")
        let store = try kind.make(in: folder.url)
        defer { store.remove() }
        let service = try ServiceProcess(store: store, home: folder.url)
        let secret = try service.addUser("me")
        try service.start()
        defer { service.stop() }
        var server = ServiceConvergenceServer(service: service, user: "me", secret: secret, seed: seed)
        let started = Date()
        let run = try ConvergenceProperty.check(seed: seed, on: &server)
        #expect(server.kills >= 1, "seed \(seed): the server was never killed")
        let cutShort = run.log.filter { $0.contains("its sync failed") }.count
        print("convergence over reminders serve (\(kind.rawValue) store): seed \(seed), \(run.devices) devices, "
              + "\(run.steps) steps, \(server.kills) kills (\(cutShort) cutting a sync short), "
              + "\(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        if ProcessInfo.processInfo.environment["REMINDERS_CONVERGENCE_LOG"] != nil {
            print(run.log.joined(separator: "\n"))
        }
    }

    /// 12 seeds; `REMINDERS_SERVICE_CONVERGENCE_SEEDS=N` runs N, and
    /// `REMINDERS_SERVICE_CONVERGENCE_SEED=S` replays seed S alone (the
    /// moment a kill lands in a sync is the machine's, not the seed's).
    static let seeds: [Int] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["REMINDERS_SERVICE_CONVERGENCE_SEED"].flatMap(Int.init) { return [seed] }
        return Array(0..<(environment["REMINDERS_SERVICE_CONVERGENCE_SEEDS"].flatMap(Int.init) ?? 12))
    }()
}
