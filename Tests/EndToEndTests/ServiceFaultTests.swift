import CloudClient
import CloudServer
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport

/// `reminders serve` killed with `kill -9` while devices work: in the middle
/// of large batches, and while a running app waits on its long poll. What
/// the server confirmed stays confirmed, nothing is sent twice, and the
/// devices converge once it is back on the same store.
@Suite("Service faults", .serialized)
struct ServiceFaultTests {
    /// Two devices send large batches at once (2,000 and 500 new
    /// reminders); the server is killed once the first batch of the larger
    /// one is confirmed. Every reminder the device no longer holds as
    /// pending is on the restarted server before any device syncs again;
    /// then both converge on every reminder, each once.
    @Test(arguments: ServerStoreKind.available)
    func killedMidBatchKeepsEveryConfirmedEdit(store kind: ServerStoreKind) throws {
        let served = try ServedFleet(store: kind)
        defer { served.cleanUp() }
        let fleet = served.fleet
        for device in ["laptop", "phone"] { try served.login(device) }
        let listID = try fleet.ok("laptop", "list", "add", "Bulk")
        try fleet.syncUntilQuiet([("laptop", "me"), ("phone", "me")])

        // The edits are made as the app makes them, one transaction each,
        // in this process (2,500 commands would take minutes); the syncs
        // are the binary's.
        let credential = RemoteCredential(userName: "me", secret: served.secrets["me"] ?? "")
        let laptop = try session("laptop", fleet: fleet, service: served.service, credential: credential)
        let phone = try session("phone", fleet: fleet, service: served.service, credential: credential)
        var titles: Set<String> = []
        for index in 0..<2_000 {
            let title = String(format: "Laptop %04d", index)
            _ = try laptop.store.createReminder(ReminderDraft(listID: listID, title: title, notes: "note \(index)"))
            titles.insert(title)
        }
        for index in 0..<500 {
            let title = String(format: "Phone %04d", index)
            _ = try phone.store.createReminder(ReminderDraft(listID: listID, title: title, priority: .high))
            titles.insert(title)
        }
        #expect(try laptop.engine.pendingCount() == 2_000)

        let syncs = try ["laptop", "phone"].map { try fleet.start($0, ["sync"]) }
        // Killed once the server confirmed a batch of the laptop's, while
        // the rest are still to go.
        var pendingAtKill = 0
        try eventually(timeout: 120, every: 0.002, "the laptop's first batch is confirmed") {
            pendingAtKill = try laptop.engine.pendingCount()
            return pendingAtKill < 2_000
        }
        served.service.kill()
        for (device, sync) in zip(["laptop", "phone"], syncs) {
            let result = try sync.wait(timeout: 120)
            // A sync that had finished is fine; one cut short says why.
            #expect(result.status == 0 || (result.status == 4 && result.errorLine?.contains("server") == true),
                    "\(device): \(result)")
        }
        #expect(pendingAtKill > 0, "the laptop's sync had finished before the server was killed")

        let confirmed = try confirmedReminders(laptop).union(try confirmedReminders(phone))
        try served.service.start()
        let onServer = try served.service.remote(user: "me", secret: credential.secret).database(scope: .private, device: "probe")
            .allRecords(in: ZoneID(name: "reminders", ownerName: "me"))
            .filter { $0.recordType == "reminders" }
        let onServerNames = Set(onServer.map(\.id.recordName))
        let lost = confirmed.subtracting(onServerNames)
        #expect(lost.isEmpty, "\(lost.count) reminders the server had confirmed are not on it after its restart")
        #expect(confirmed.count >= 400, "only \(confirmed.count) reminders were confirmed before the kill")

        try fleet.syncUntilQuiet([("laptop", "me"), ("phone", "me")])
        let laptopExport = try fleet.exportText("laptop")
        #expect(laptopExport == (try fleet.exportText("phone")), "the devices' exports differ")
        let dump = try JSONDecoder().decode(ExportDump.self, from: Data(laptopExport.utf8))
        #expect(dump.reminders.count == 2_500)
        #expect(Set(dump.reminders.map(\.title)) == titles, "titles lost or duplicated")
        let final = try served.service.remote(user: "me", secret: credential.secret).database(scope: .private, device: "probe")
            .allRecords(in: ZoneID(name: "reminders", ownerName: "me"))
            .filter { $0.recordType == "reminders" }
        #expect(final.count == 2_500, "the server holds \(final.count) reminders")
        print("service killed mid-batch (\(kind.rawValue) store): \(2_000 - pendingAtKill) of the laptop's 2,000 confirmed "
              + "when killed, \(confirmed.count) confirmed in all, all on the restarted server")
    }

    /// A running app (live sync, waiting on its long poll) sees the server
    /// killed: it reports it unreachable within seconds, keeps an edit made
    /// meanwhile as pending, and once the server is back sends it and hears
    /// of other devices' changes again at once.
    @Test(arguments: ServerStoreKind.available)
    func aLiveDeviceReportsTheServerGoneAndRecovers(store kind: ServerStoreKind) throws {
        let served = try ServedFleet(store: kind)
        defer { served.cleanUp() }
        let fleet = served.fleet
        try served.login("phone")
        let credential = RemoteCredential(userName: "me", secret: served.secrets["me"] ?? "")
        let desk = try session("desk", fleet: fleet, service: served.service, credential: credential)
        // A short retry period, so the test does not wait a second per try.
        let live = LiveSync(engine: desk.engine, server: desk.server, pollInterval: 0.2)
        live.start()
        defer { live.stop() }
        try eventually(timeout: 30, "the first live round") {
            let status = live.currentStatus()
            return status.lastSync != nil && status.errorMessage == nil
        }
        // A change on the phone arrives through the long poll.
        try fleet.ok("phone", "list", "add", "From the phone")
        try fleet.sync("phone")
        try eventually(timeout: 10, "the phone's list reaches the desk") {
            try desk.writer.read { try RemindersList.fetchCount($0) } == 1
        }

        // The server dies while the desk's long poll waits on it.
        served.service.kill()
        let noticed = try eventually(timeout: 10, "the desk reports the server unreachable") {
            live.currentStatus().errorMessage?.contains("cannot reach the server") == true
        }
        // Sooner than a long poll's own wait (25 s) would have ended.
        #expect(noticed < 5, "the desk took \(noticed) s to notice")
        _ = try desk.store.createList(title: "While the server was down")
        try eventually(timeout: 10, "the edit is pending, the error still shown") {
            let status = live.currentStatus()
            return status.pendingCount == 1 && status.errorMessage != nil && status.connection != .syncing
        }
        let refusedAt = Date()
        let down = try fleet.run("phone", ["sync"])
        #expect(down.status == 4 && down.errorLine?.contains("connection refused") == true, "\(down)")
        // A refused connection is an answer: no waiting out a timeout.
        #expect(Date().timeIntervalSince(refusedAt) < 2.5, "a sync took \(Date().timeIntervalSince(refusedAt)) s to fail")

        try served.service.start()
        let recovered = try eventually(timeout: 20, "the desk sends its edit once the server is back") {
            let status = live.currentStatus()
            return status.pendingCount == 0 && status.errorMessage == nil
        }
        try fleet.sync("phone")
        #expect(try fleet.export("phone").lists.map(\.title).sorted() == ["From the phone", "While the server was down"])
        // The long poll is back too: a new change arrives without a key pressed.
        try fleet.ok("phone", "list", "add", "After the restart")
        try fleet.sync("phone")
        try eventually(timeout: 10, "the phone's next list reaches the desk") {
            try desk.writer.read { try RemindersList.fetchCount($0) } == 3
        }
        print("live device and a killed server (\(kind.rawValue) store): unreachable reported after "
              + "\(String(format: "%.2f", noticed)) s, recovered \(String(format: "%.2f", recovered)) s after the restart")
    }

    /// Stopping the server (SIGTERM) does not wait for the long polls of
    /// the devices that listen to it: they are answered, and it ends.
    @Test(arguments: ServerStoreKind.available)
    func stoppingTheServerEndsItsLongPolls(store kind: ServerStoreKind) throws {
        let served = try ServedFleet(store: kind)
        defer { served.cleanUp() }
        let remote = served.service.remote(user: "me", secret: served.secrets["me"] ?? "")
        let head = try remote.fetchHead()
        let answers = Recorder<Result<Int64, CloudError>>()
        let polled = DispatchSemaphore(value: 0)
        Thread {
            answers.append(Result { try remote.fetchHead(after: head, wait: 25) }.mapError { $0 as? CloudError ?? .serverUnavailable("\($0)") })
            polled.signal()
        }.start()
        // Until the poll waits on the server: nothing tells when it does,
        // and nothing answers it sooner.
        Thread.sleep(forTimeInterval: 1)
        let stopping = Date()
        served.service.stop()
        let stopped = Date().timeIntervalSince(stopping)
        #expect(polled.wait(timeout: .now() + 5) == .success, "the long poll is still waiting")
        #expect(stopped < 5, "the server took \(stopped) s to stop")
        #expect(try answers.all.first?.get() == head, "\(answers.all)")
    }

    /// A device's session in this process, on the database file its
    /// commands use, reaching the service by URL.
    func session(_ device: String, fleet: DeviceFleet, service: ServiceProcess,
                 credential: RemoteCredential) throws -> DeviceSession {
        try DeviceSession(databasePath: fleet.databaseURL(device).path, server: .remote(service.url, credential),
                          userName: credential.userName, deviceName: device,
                          clock: AppClock(pinned: fleet.world.now, timeZone: DeviceWorld.utc))
    }

    /// The record names of the reminders a device holds as confirmed by the
    /// server: created, sent, and no longer pending. (The engine's own
    /// table: no command shows this per record.)
    func confirmedReminders(_ session: DeviceSession) throws -> Set<String> {
        try session.writer.read { db in
            Set(try String.fetchAll(db, sql: """
                SELECT 'reminders/' || recordName FROM sync_metadata
                WHERE recordType = 'reminders' AND NOT isPendingSave AND lastKnownServerRecord IS NOT NULL
                """))
        }
    }
}
