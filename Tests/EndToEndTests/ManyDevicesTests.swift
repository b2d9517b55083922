import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport

/// Fifty devices of one user at once on one `reminders serve` (on
/// PostgreSQL, half of them on a second server on the same database): each a
/// series of `reminders` processes with a database and credentials of its
/// own, adding, editing, completing and deleting reminders of three shared
/// lists at random and syncing, for a bounded time. No command fails,
/// except a sync the store turned away as busy (contention: the next sync
/// retries it); then every device converges on the same export, holding
/// every reminder made and not deleted, once.
///
/// Processes, not engines in this process: the binary's whole path (start,
/// credentials, its database, one HTTP client per process) is what fifty
/// devices would run, and a process costs about 50 ms of CPU here. They run
/// at a lower priority (`nice`) with short pauses between commands, so the
/// rest of the suite, running beside them on two cores, keeps its share.
///
/// `REMINDERS_MANY_DEVICES` sets the number of devices (default 50),
/// `REMINDERS_MANY_DEVICES_SECONDS` how long they edit (default 20).
@Suite("Many devices", .serialized)
struct ManyDevicesTests {
    @Test(arguments: ServerStoreKind.available)
    func fiftyDevicesEditingSharedListsConverge(store kind: ServerStoreKind) throws {
        let deviceCount = environmentCount("REMINDERS_MANY_DEVICES", default: 50)
        let seconds = environmentCount("REMINDERS_MANY_DEVICES_SECONDS", default: 20)
        let started = Date()
        let served = try ServedFleet(store: kind)
        defer { served.cleanUp() }
        let fleet = served.fleet
        let devices = (0..<deviceCount).map { String(format: "d%02d", $0) }
        for device in devices { fleet.launchers[device] = ["nice", "-n", "10"] }
        // On PostgreSQL, half the devices go through a second server on the
        // same database: what one server commits, the other's devices fetch.
        var second: ServiceProcess?
        if kind == .postgres {
            let other = try ServiceProcess(store: served.store, home: served.folder.url)
            try other.start()
            second = other
            for device in devices.enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
                fleet.servers[device] = other.url.absoluteString
            }
        }
        defer { second?.stop() }

        let secretFile = fleet.world.directory.appendingPathComponent("secret")
        try (served.secrets["me"] ?? "").write(to: secretFile, atomically: true, encoding: .utf8)
        try expectAllSucceed(try devices.map {
            try fleet.start($0, ["login", fleet.serverAddress(of: $0), "--user", "me", "--secret-file", secretFile.path])
        }, "login")
        let lists = try ["Home", "Work", "Shopping"].map { try fleet.ok(devices[0], "list", "add", $0) }
        try fleet.sync(devices[0])
        try expectAllSucceed(try devices.map { try fleet.start($0, ["sync"]) }, "first sync")

        let deadline = Date().addingTimeInterval(TimeInterval(seconds))
        let events = Recorder<Event>()
        let finished = DispatchGroup()
        for (index, device) in devices.enumerated() {
            let worker = Worker(device: device, cli: fleet.cli, environment: fleet.environment(device),
                                launcher: fleet.launchers[device] ?? [], databasePath: fleet.databaseURL(device).path,
                                lists: lists, random: SeededGenerator(seed: UInt64(index)))
            finished.enter()
            Thread {
                defer { finished.leave() }
                var worker = worker
                while Date() < deadline {
                    events.append(worker.step())
                    // A person's pause, short: many commands, not all at once.
                    Thread.sleep(forTimeInterval: Double.random(in: 0...0.1, using: &worker.random))
                }
            }.start()
        }
        finished.wait()
        let editing = Date()
        var contention = events.all.filter { $0 == .contention }.count

        // Sync rounds, every device at once, until one in which no device
        // sent or merged anything: then each has fetched all there is.
        var rounds = 0
        var quiet = false
        while !quiet, rounds < 8 {
            rounds += 1
            quiet = true
            let syncs = try devices.map { try fleet.start($0, ["sync", "--json"]) }
            for (device, sync) in zip(devices, syncs) {
                let result = try sync.wait(timeout: 300)
                if Worker.isContention(result) {
                    contention += 1
                    quiet = false
                    continue
                }
                guard result.status == 0, result.stderr.isEmpty,
                      let counts = try? JSONDecoder().decode(DeviceFleet.SyncCounts.self, from: Data(result.stdout.utf8)) else {
                    Issue.record("\(device): final sync: \(result)")
                    return
                }
                if counts.sentSaves + counts.sentDeletes + counts.merged + counts.dropped > 0 { quiet = false }
            }
        }
        #expect(quiet, "the devices still exchanged changes after \(rounds) rounds")

        let exports = try devices.map { try fleet.start($0, ["export", "--json"]) }.map { try $0.wait(timeout: 300) }
        for (device, export) in zip(devices, exports) where export.stdout != exports[0].stdout || export.status != 0 {
            Issue.record("\(device)'s export differs from \(devices[0])'s: \(export.status == 0 ? "" : "\(export)")")
        }
        let dump = try JSONDecoder().decode(ExportDump.self, from: Data(exports[0].stdout.utf8))
        var created: Set<String> = [], deleted: Set<String> = [], edits = 0, syncs = 0, merged = 0, failures: [String] = []
        for event in events.all {
            switch event {
            case .created(let id): created.insert(id)
            case .deleted(let id): deleted.insert(id)
            case .edited: edits += 1
            case .synced(let count):
                syncs += 1
                merged += count
            case .contention: break
            case .failed(let failure): failures.append(failure)
            }
        }
        for failure in failures.prefix(20) { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "\(failures.count) commands failed")
        let ids = dump.reminders.map(\.id)
        #expect(Set(ids).count == ids.count, "a reminder is listed twice")
        #expect(Set(ids) == created.subtracting(deleted),
                "\(Set(ids).subtracting(created).count) unknown, \(created.subtracting(deleted).subtracting(ids).count) missing")
        #expect(syncs >= deviceCount, "only \(syncs) syncs ran while editing")
        print("""
            many devices (\(kind.rawValue) store\(second == nil ? "" : ", two servers")): \(deviceCount) devices for \(seconds) s, \(events.all.count) commands \
            (\(created.count) adds, \(edits) edits, \(deleted.count) deletes, \(syncs) syncs merging \(merged) records), \
            \(contention) syncs turned away as busy and retried, converged in \(rounds) rounds \
            (\(String(format: "%.1f", Date().timeIntervalSince(editing))) s); \(dump.reminders.count) reminders; \
            \(String(format: "%.1f", Date().timeIntervalSince(started))) s in all
            """)
    }

    /// What one command of a device did.
    enum Event: Equatable, Sendable {
        case created(String)
        case deleted(String)
        case edited
        /// A sync, with the number of records it merged with others' edits.
        case synced(merged: Int)
        /// A sync the store turned away as busy, retried by the next one.
        case contention
        case failed(String)
    }

    /// One device's random work: each step is one `reminders` command.
    struct Worker: Sendable {
        let device: String
        let cli: CommandRunner
        let environment: [String: String]
        let launcher: [String]
        let databasePath: String
        let lists: [String]
        var random: SeededGenerator
        var counter = 0

        mutating func step() -> Event {
            counter += 1
            do {
                let roll = Int.random(in: 0..<100, using: &random)
                let known = roll < 35 ? [] : try reminderIDs()
                switch roll {
                case 0..<35:
                    let list = lists.randomElement(using: &random) ?? ""
                    let result = try run(["add", "\(device) \(counter)", "--list", list])
                    return outcome(result, "add", .created(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
                case 35..<70 where !known.isEmpty:
                    let id = known.randomElement(using: &random) ?? ""
                    let change: [String] = switch Int.random(in: 0..<5, using: &random) {
                    case 0: ["edit", id, "--title", "\(device) retitled \(counter)"]
                    case 1: ["edit", id, "--notes", "note \(counter) from \(device)"]
                    case 2: ["edit", id, "--priority", ["none", "low", "medium", "high"].randomElement(using: &random) ?? "none"]
                    case 3: ["edit", id, Bool.random(using: &random) ? "--flag" : "--unflag"]
                    default: ["complete", id]
                    }
                    return outcome(try run(change), change[0], .edited)
                case 70..<74 where !known.isEmpty:
                    let id = known.randomElement(using: &random) ?? ""
                    return outcome(try run(["delete", id]), "delete", .deleted(id))
                default:
                    let result = try run(["sync", "--json"])
                    if Self.isContention(result) { return .contention }
                    let counts = try? JSONDecoder().decode(DeviceFleet.SyncCounts.self, from: Data(result.stdout.utf8))
                    return outcome(result, "sync", .synced(merged: counts?.merged ?? 0))
                }
            } catch {
                return .failed("\(device): \(error)")
            }
        }

        func run(_ arguments: [String]) throws -> ProcessResult {
            try cli.start(arguments, environment: environment, launcher: launcher).wait(timeout: 300)
        }

        /// `success` for a command that succeeded quietly.
        func outcome(_ result: ProcessResult, _ what: String, _ success: Event) -> Event {
            result.status == 0 && result.stderr.isEmpty ? success : .failed("\(device): \(what): \(result)")
        }

        /// The reminders on this device now, read from its database between
        /// two of its commands (no command of this device runs meanwhile).
        func reminderIDs() throws -> [String] {
            guard FileManager.default.fileExists(atPath: databasePath) else { return [] }
            return try DatabaseQueue(path: databasePath).read {
                try String.fetchAll($0, sql: "SELECT id FROM reminders ORDER BY id")
            }
        }

        /// A sync the store turned away because it stayed busy: contention,
        /// which the next sync retries.
        static func isContention(_ result: ProcessResult) -> Bool {
            result.status == 4 && result.stderr.contains("busy")
        }
    }

    /// Waits for every process; each must succeed.
    func expectAllSucceed(_ processes: [RunningProcess], _ what: String) throws {
        for process in processes {
            let result = try process.wait(timeout: 300)
            #expect(result.status == 0, "\(what): \(process.command.suffix(3).joined(separator: " ")): \(result)")
        }
    }
}
