import CloudClient
import CloudServer
import CloudServerPostgres
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import Synchronization
import SyncService

/// Initial sync: every row of device A goes to a fresh server directory,
/// then to a fresh device B; beside it the floor, the same rows written to
/// a bare SQLite database in one transaction.
///
/// Each run is a child process, so a run that would take too long can be
/// stopped (and reported as "more than") without stopping the benchmark.
struct InitialSyncBench {
    let world: World
    let runs: Int
    /// Seconds one run (upload and download) may take.
    let budget: TimeInterval
    /// Through `reminders serve` (in the child, on loopback) instead of the
    /// server directory.
    var overHTTP = false
    /// With the service's store in PostgreSQL (a cluster of the child's own,
    /// durable as a deployment's) instead of a directory.
    var onPostgres = false

    func run() throws -> [Figure] {
        var upload = Samples(), download = Samples(), total = Samples()
        var floor = Samples(), appSchema = Samples(), ratio = Samples()
        var stoppedUpload: Double?, stoppedDownload: Double?
        let size = world.size
        for run in 1...runs {
            let folder = world.folder.appendingPathComponent((onPostgres ? "pg-" : "") + (overHTTP ? "http-sync-" : "sync-") + "\(run)")
            try? FileManager.default.removeItem(at: folder)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let bare = try timed { try writeBare(folder.appendingPathComponent("bare.sqlite")) }
            let app = try timed { try World.writeAppDatabase(world.data, at: folder.appendingPathComponent("app.sqlite")) }
            floor.add(bare.seconds)
            appSchema.add(app.seconds)

            let child = ChildProcess(arguments: ["--sync-once", "--template", world.templateA.path, "--folder", folder.path]
                                     + (overHTTP ? ["--http", "yes"] : []) + (onPostgres ? ["--postgres", "yes"] : []))
            let began = Date()
            try child.start()
            // The child ends by itself once it is done (and runs its exit
            // handlers); it is stopped only if it does not.
            defer { child.finish(timeout: 10) }
            func next(_ key: String) -> (seconds: Double, records: Int)? {
                child.next(timeout: max(0, budget - Date().timeIntervalSince(began))) { line, _ in
                    let parts = line.split(separator: " ")
                    guard parts.count == 3, parts[0] == key, let seconds = Double(parts[1]), let records = Int(parts[2]) else { return nil }
                    return (seconds, records)
                }
            }
            guard let sent = next("upload") else {
                stoppedUpload = Date().timeIntervalSince(began)
                Progress.say("initial sync \(Report.grouped(size)) run \(run)/\(runs): upload stopped after \(Report.format(budget, .seconds))")
                break
            }
            guard let fetched = next("download") else {
                upload.add(sent.seconds)
                stoppedDownload = Date().timeIntervalSince(began) - sent.seconds
                Progress.say("initial sync \(Report.grouped(size)) run \(run)/\(runs): upload \(Report.format(sent.seconds, .seconds)), "
                             + "download stopped after \(Report.format(stoppedDownload ?? 0, .seconds))")
                break
            }
            guard child.next(timeout: 60, { line, _ in line == "done" ? true : nil }) != nil else {
                throw BenchError("initial sync \(size) run \(run) did not end well (see its error above)")
            }
            upload.add(sent.seconds)
            download.add(fetched.seconds)
            total.add(sent.seconds + fetched.seconds)
            ratio.add((sent.seconds + fetched.seconds) / bare.seconds)
            Progress.say("initial sync \(Report.grouped(size)) run \(run)/\(runs): upload \(Report.format(sent.seconds, .seconds)) "
                         + "(\(sent.records) records), download \(Report.format(fetched.seconds, .seconds)) "
                         + "(\(fetched.records) records); bare insert \(Report.format(bare.seconds, .seconds)), "
                         + "app schema \(Report.format(app.seconds, .seconds))")
            if overHTTP {
                try? FileManager.default.removeItem(at: folder)
                continue
            }
            if let previous = world.server?.deletingLastPathComponent() { try? FileManager.default.removeItem(at: previous) }
            world.server = folder.appendingPathComponent("server")
            world.deviceA = folder.appendingPathComponent("a.sqlite")
            world.deviceB = folder.appendingPathComponent("b.sqlite")
        }
        if overHTTP {
            let section = onPostgres ? "Initial sync over HTTP, PostgreSQL store" : "Initial sync over HTTP"
            return [
                Figure(section: section, name: "upload A → reminders serve", reminders: size, samples: upload,
                       stoppedAfter: stoppedUpload),
                Figure(section: section, name: "download reminders serve → fresh B", reminders: size, samples: download,
                       stoppedAfter: stoppedUpload ?? stoppedDownload),
                Figure(section: section, name: "upload + download over HTTP", reminders: size, samples: total,
                       goal: size == 10_000 ? .median(under: 3) : nil, stoppedAfter: stoppedUpload ?? stoppedDownload),
            ]
        }
        let section = "Initial sync"
        var stoppedTotal: Double?
        if let stoppedUpload { stoppedTotal = stoppedUpload }
        if let stoppedDownload { stoppedTotal = (upload.isEmpty ? 0 : upload.median) + stoppedDownload }
        return [
            Figure(section: section, name: "upload A → server", reminders: size, samples: upload, stoppedAfter: stoppedUpload),
            Figure(section: section, name: "download server → fresh B", reminders: size, samples: download,
                   stoppedAfter: stoppedUpload ?? stoppedDownload),
            // The second round's goals: under a second at 10,000, under ten
            // at 100,000, and at 10,000 within 12 times the floor.
            Figure(section: section, name: "upload + download", reminders: size, samples: total,
                   goal: size == 10_000 ? .median(under: 1) : size == 100_000 ? .median(under: 10) : nil,
                   stoppedAfter: stoppedTotal),
            Figure(section: section, name: "floor: same rows into bare SQLite, 1 transaction", reminders: size, samples: floor),
            Figure(section: section, name: "same rows into the app schema (search, indexes), no sync", reminders: size,
                   samples: appSchema),
            Figure(section: section, name: "sync ÷ floor", reminders: size, unit: .ratio,
                   samples: stoppedTotal == nil ? ratio : Samples([(stoppedTotal ?? 0) / floor.median]),
                   goal: size == 10_000 ? .median(under: 12) : nil, stoppedAfter: stoppedTotal.map { $0 / floor.median }),
        ]
    }

    func writeBare(_ url: URL) throws {
        try World.removeDatabase(url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: DataSet.bareSchema)
        }
        try queue.write { db in try world.data.insert(into: db) }
        try queue.close()
    }
}

/// The hidden `--sync-once` mode: one initial sync from a copy of the
/// template. Prints `upload <seconds> <records>`, `download <seconds>
/// <records>`, then `done` once B is checked to hold what A holds.
enum SyncOnce {
    static func run(_ options: [String: String]) throws {
        exitWhenInputCloses()
        guard let template = options["--template"], let folderPath = options["--folder"] else {
            throw BenchError("--sync-once needs --template PATH --folder DIR")
        }
        let folder = URL(fileURLWithPath: folderPath)
        let server = folder.appendingPathComponent("server")
        let pathA = folder.appendingPathComponent("a.sqlite")
        let pathB = folder.appendingPathComponent("b.sqlite")
        try World.copyDatabase(URL(fileURLWithPath: template), to: pathA)
        let address: ServerAddress = options["--http"] == nil
            ? .directory(server) : try LoopbackService.start(store: server, postgres: options["--postgres"] != nil)

        let a = try openDevice(pathA, server: address, device: "A")
        try a.connect()
        // One call sends at most 50 requests; a big first upload takes
        // several, as repeated syncs would.
        let sent = try timed { () throws -> Int in
            var records = 0
            while true {
                let report = try a.engine.sendChanges()
                records += report.sentSaves
                let pending = try a.engine.pendingCount()
                if report.sentSaves == 0 || pending == 0 { return records }
            }
        }
        emit("upload \(sent.seconds) \(sent.value)")
        let b = try openDevice(pathB, server: address, device: "B")
        try b.connect()
        let fetched = try timed { try b.engine.fetchChanges() }
        emit("download \(fetched.seconds) \(fetched.value.receivedSaves)")
        // B must hold exactly what A has: a sync that moved nothing would be
        // fast and worthless.
        let countA = try counts(a), countB = try counts(b)
        guard countA == countB else {
            throw BenchError("after the initial sync device B has \(countB), device A \(countA) (reminders, tag links, lists, covers)")
        }
        try World.close(a.writer)
        try World.close(b.writer)
        LoopbackService.stopCluster()
        emit("done")
    }

    static func counts(_ session: DeviceSession) throws -> [Int] {
        try session.writer.read { db in
            try ["reminders", "remindersTags", "remindersLists", "remindersListCovers"].map { table in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
            }
        }
    }
}

/// `reminders serve` on loopback inside a benchmark child, with an account
/// for the benchmark's user.
enum LoopbackService {
    /// The PostgreSQL cluster of this process's service, stopped when the
    /// process exits.
    private static let cluster = Mutex<LocalCluster?>(nil)

    /// - Parameter postgres: keep the store in a PostgreSQL cluster made in
    ///   `store` instead of in the directory itself.
    static func start(store: URL, postgres: Bool = false) throws -> ServerAddress {
        let cloudStore: any CloudStore
        let accounts: AccountStore
        if postgres {
            let started = try LocalCluster(directory: store.appendingPathComponent("postgres"))
            cluster.withLock { $0 = started }
            atexit { LoopbackService.cluster.withLock { try? $0?.stop(immediately: true) } }
            let database = try PostgresStore(address: try started.createDatabase("bench"))
            (cloudStore, accounts) = (database, AccountStore(database: database))
        } else {
            (cloudStore, accounts) = (try DirectoryServer(directory: store), try AccountStore(directory: store))
        }
        let secret = try accounts.add(World.userName)
        let service = SyncServer(store: cloudStore, accounts: accounts)
        let bound = Mutex<Int?>(nil)
        let listening = DispatchSemaphore(value: 0)
        let app = try service.application(host: "127.0.0.1", port: 0) { port in
            bound.withLock { $0 = port }
            listening.signal()
        }
        Task { try await app.run() }
        guard listening.wait(timeout: .now() + 30) == .success, let port = bound.withLock({ $0 }),
              let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw BenchError("the loopback service did not start")
        }
        return .remote(url, RemoteCredential(userName: World.userName, secret: secret))
    }

    /// Stops this process's PostgreSQL cluster, if it has one, now. Left
    /// to the exit, it could outlive the process (a child stopped by its
    /// parent runs no exit handlers), and a server still holding what it
    /// inherited from the child kept the parent waiting a minute for it.
    static func stopCluster() {
        cluster.withLock { cluster in
            try? cluster?.stop(immediately: true)
            cluster = nil
        }
    }

    /// The hidden `--serve` mode: the service in a process of its own.
    /// Prints `serving <url> <secret>`, then serves until its standard
    /// input closes.
    static func serve(_ options: [String: String]) throws -> Never {
        exitWhenInputCloses()
        guard let store = options["--store"] else { throw BenchError("--serve needs --store DIR") }
        guard case .remote(let url, let credential) = try start(store: URL(fileURLWithPath: store)) else {
            throw BenchError("the loopback service gave no URL")
        }
        emit("serving \(url.absoluteString) \(credential.secret)")
        while true { sleep(3600) }
    }
}
