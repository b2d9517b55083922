import CloudClient
import CloudServer
import DeviceRuntime
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import GRDB
import RemindersCore
import RemindersViewModels

/// Incremental sync between two processes: an edit on device A (this
/// process, with the app's `LiveSync`) until the follower process (device
/// B) has committed it to its database, through the server directory or,
/// over HTTP, through `reminders serve` in a third process. Times come from
/// CLOCK_MONOTONIC, which the processes share.
struct IncrementalSyncBench {
    enum Mode: String, CaseIterable {
        /// `LiveSync` in the follower: inotify on the server directory,
        /// polling as the fallback.
        case watch
        /// No watch: the follower checks the server's head every second,
        /// as `LiveSync`'s fallback poll does, and fetches when it moved.
        case poll
        /// Both devices reach the same store through `reminders serve` (a
        /// third process, on loopback), each with the app's `LiveSync`:
        /// the follower hears of the change by the head's long poll.
        case http
    }

    let world: World
    let edits: [Mode: Int]

    func run() throws -> [Figure] {
        guard let pathA = world.deviceA, let pathB = world.deviceB, let server = world.server else {
            Progress.say("incremental sync skipped: the initial sync at \(Report.grouped(world.size)) did not finish")
            return []
        }
        var figures: [Figure] = []
        var random = SeededGenerator(seed: 8)
        // The directory's modes share one device A; over HTTP it reaches the
        // same store through the service.
        try withDeviceA(pathA, server: .directory(server)) { a in
            for mode in [Mode.watch, .poll] {
                figures += try measure(mode, a: a, pathB: pathB, server: server, follower: [], random: &random)
            }
        }
        if let count = edits[.http], count > 0 {
            let service = ChildProcess(arguments: ["--serve", "--store", server.path])
            try service.start()
            defer { service.finish() }
            guard let (url, secret) = service.next(timeout: 60, { line, _ -> (URL, String)? in
                let parts = line.split(separator: " ")
                guard parts.count == 3, parts[0] == "serving", let url = URL(string: String(parts[1])) else { return nil }
                return (url, String(parts[2]))
            }) else {
                throw BenchError("the service for the incremental sync over HTTP did not start")
            }
            let address = ServerAddress.remote(url, RemoteCredential(userName: World.userName, secret: secret))
            try withDeviceA(pathA, server: address) { a in
                figures += try measure(.http, a: a, pathB: pathB, server: server,
                                       follower: ["--url", url.absoluteString, "--secret", secret], random: &random)
            }
        }
        return figures
    }

    /// Device A with the app's live sync to `server`, for `body`.
    private func withDeviceA(_ path: URL, server: ServerAddress, _ body: (DeviceSession) throws -> Void) throws {
        let a = try openDevice(path, server: server, device: "A")
        let live = LiveSync(engine: a.engine, server: server)
        live.start()
        live.drain()
        defer {
            live.stop()
            try? World.close(a.writer)
        }
        try body(a)
    }

    /// Edits on A until each reaches the follower in `mode`.
    private func measure(_ mode: Mode, a: DeviceSession, pathB: URL, server: URL, follower extra: [String],
                         random: inout SeededGenerator) throws -> [Figure] {
        guard let count = edits[mode], count > 0 else { return [] }
        let target = world.data.reminders[0].id
        var figures: [Figure] = []
        let follower = ChildProcess(arguments: ["--follower", "--mode", mode.rawValue, "--server", server.path,
                                                "--db", pathB.path, "--watch-id", target] + extra)
        try follower.start()
        defer { follower.finish() }
        var watchUnavailable: String?
        guard follower.next(timeout: 60, { line, _ -> Bool? in
            if line.hasPrefix("noinotify ") { watchUnavailable = String(line.dropFirst("noinotify ".count)) }
            return line == "ready" ? true : nil
        }) != nil else {
            throw BenchError("the follower (\(mode.rawValue)) did not start")
        }
        if let watchUnavailable {
            Progress.say("warning: the follower got no inotify instance (\(watchUnavailable)): its LiveSync falls back to polling; "
                         + "see /proc/sys/fs/inotify/max_user_instances")
        }
        var latencies = Samples(), sender = Samples()
        for edit in 1...count {
            // A pause of random length, so edits do not coalesce with the
            // previous round and, polling, meet the poll at every phase.
            usleep(UInt32.random(in: mode == .poll ? 80_000...1_080_000 : 80_000...250_000, using: &random))
            let title = "Bench edit \(mode.rawValue) \(edit)"
            let start = monotonicNanoseconds()
            try a.store.updateReminder(id: target, ReminderChanges(title: title))
            var headMoved: UInt64?
            let seen = follower.next(timeout: 15) { line, _ -> UInt64? in
                let parts = line.split(separator: " ", maxSplits: 2)
                if parts.count == 3, parts[0] == "head", headMoved == nil, let stamp = UInt64(parts[1]), stamp > start {
                    headMoved = stamp
                }
                guard parts.count == 3, parts[0] == "seen", parts[2] == title else { return nil }
                return UInt64(parts[1])
            }
            guard let seen else { throw BenchError("edit \(edit) (\(mode.rawValue)) did not reach device B within 15 s") }
            latencies.add(Double(seen &- start) / 1e9)
            if let headMoved, headMoved <= seen { sender.add(Double(headMoved &- start) / 1e9) }
        }
        Progress.say("incremental sync (\(mode.rawValue)), \(count) edits: p50 \(Report.format(latencies.median, .seconds)), "
                     + "p95 \(Report.format(latencies.percentile(95), .seconds)); of which edit → server head moved: "
                     + "p50 \(Report.format(sender.median, .seconds)), p95 \(Report.format(sender.percentile(95), .seconds))")
        let name = switch mode {
        case .watch where watchUnavailable == nil: "edit on A → in B's database, 2 processes, directory watch"
        case .watch: "edit on A → in B's database, 2 processes, directory watch UNAVAILABLE (no inotify instance left)"
        case .poll: "edit on A → in B's database, 2 processes, polling only (1 s)"
        case .http: "edit on A → in B's database over HTTP, 3 processes (A, reminders serve, B), long poll"
        }
        var figure = Figure(section: "Incremental sync", name: name, reminders: world.size, samples: latencies,
                            goal: mode == .poll ? nil : .p95(under: mode == .watch ? 0.030 : 0.300))
        figure.p95 = latencies.percentile(95)
        figures.append(figure)
        if mode != .poll, !sender.isEmpty {
            let name = mode == .http ? "…of which edit on A → server head moved (A's send over HTTP)"
                : "…of which edit on A → server head moved (A's send)"
            var part = Figure(section: "Incremental sync", name: name, reminders: world.size, samples: sender)
            part.p95 = sender.percentile(95)
            figures.append(part)
        }
        return figures
    }
}

/// The hidden follower mode: device B in a process of its own. Prints
/// `ready` once in sync, then `seen <monotonic ns> <title>` each time a
/// commit changes the title of the watched reminder. Exits when its
/// standard input closes.
enum Follower {
    static func run(_ options: [String: String]) throws {
        exitWhenInputCloses()
        guard let serverPath = options["--server"], let dbPath = options["--db"], let watchID = options["--watch-id"],
              let mode = options["--mode"].flatMap(IncrementalSyncBench.Mode.init(rawValue:)) else {
            throw BenchError("--follower needs --server DIR --db PATH --watch-id ID --mode watch|poll|http")
        }
        let server = URL(fileURLWithPath: serverPath)
        // Over HTTP, B reaches the same store through the service; the head
        // is still read from the directory, to split the latency.
        var address = ServerAddress.directory(server)
        if mode == .http {
            guard let url = options["--url"].flatMap(URL.init(string:)), let secret = options["--secret"] else {
                throw BenchError("--follower --mode http needs --url URL --secret SECRET")
            }
            address = .remote(url, RemoteCredential(userName: World.userName, secret: secret))
        }
        let session = try openDevice(URL(fileURLWithPath: dbPath), server: address, device: "B")
        let state = TitleState(try session.writer.read { db in
            try String.fetchOne(db, sql: "SELECT title FROM reminders WHERE id = ?", arguments: [watchID])
        })
        // When the server's head moves, as seen from here (a read of the
        // HEAD file every 2 ms): splits the latency into the sender's part
        // and the receiver's.
        let headReader = try DirectoryServer(directory: server)
        let headThread = Thread {
            var last = headReader.head()
            while true {
                usleep(2_000)
                let head = headReader.head()
                if head != last {
                    emit("head \(monotonicNanoseconds()) \(head)")
                    last = head
                }
            }
        }
        headThread.start()
        let observation = DatabaseRegionObservation(tracking: Table("reminders"))
        let cancellable = observation.start(in: session.writer, onError: { _ in }, onChange: { db in
            let stamp = monotonicNanoseconds()
            let title = try? String.fetchOne(db, sql: "SELECT title FROM reminders WHERE id = ?", arguments: [watchID])
            if let title, state.replace(title) { emit("seen \(stamp) \(title)") }
        })
        try withExtendedLifetime(cancellable) {
            switch mode {
            case .watch:
                // LiveSync falls back to its 1 s poll, silently, when it
                // cannot get an inotify instance (fs.inotify.max_user_instances
                // is per user, 128 by default): say so, or the figure lies.
                let probe = inotify_init1(Int32(IN_CLOEXEC))
                if probe < 0 {
                    emit("noinotify \(String(cString: strerror(errno)))")
                } else {
                    close(probe)
                }
                let live = LiveSync(engine: session.engine, server: .directory(server))
                live.start()
                live.drain()
                emit("ready")
                while true { sleep(3600) }
            case .http:
                let live = LiveSync(engine: session.engine, server: address)
                live.start()
                live.drain()
                emit("ready")
                while true { sleep(3600) }
            case .poll:
                let directory = try session.connect()
                try session.engine.sync()
                var lastHead = directory.head()
                emit("ready")
                while true {
                    usleep(1_000_000)
                    let head = directory.head()
                    if head != lastHead {
                        try session.engine.fetchChanges()
                        lastHead = head
                    }
                }
            }
        }
    }

    /// The watched reminder's last title, shared with the observation's
    /// queue.
    final class TitleState: Sendable {
        private let title: Mutex<String?>

        init(_ title: String?) {
            self.title = Mutex(title)
        }

        /// Stores `title`; true when it differs from the previous one.
        func replace(_ new: String) -> Bool {
            title.withLock { title in
                defer { title = new }
                return title != new
            }
        }
    }
}
