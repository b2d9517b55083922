import Foundation
import GRDB
import RemindersCore
import RemindersTUI
import RemindersViewModels

/// The full-screen app: from process start to its first frame, the cost of
/// one frame, and the peak memory with a big database open on All.
struct AppBench {
    /// The terminal the frames are drawn for: wide enough for Home's
    /// preview of the selected list.
    static let width = 120
    static let height = 40

    let world: World
    let runs: Int

    /// Start to first frame, each in a fresh process (so the figure
    /// includes loading the program, opening the database and attaching the
    /// engine, as a user starting the app waits for).
    func firstFrame() throws -> [Figure] {
        let pathB = try world.device(), server = world.unusedServer
        var total = Samples(), inProcess = Samples()
        for run in 0...runs {
            let child = ChildProcess(arguments: ["--first-frame", "--db", pathB.path, "--server", server.path])
            let spawned = try child.start()
            defer { child.finish() }
            guard let (framed, opened) = child.next(timeout: 30, { line, _ -> (UInt64, UInt64)? in
                let parts = line.split(separator: " ")
                guard parts.count == 3, parts[0] == "frame", let framed = UInt64(parts[1]), let began = UInt64(parts[2]) else { return nil }
                return (framed, began)
            }) else { throw BenchError("the first-frame child printed no frame") }
            // The first start pays for a cold page cache: left out, like
            // the warm-up runs of the queries.
            if run == 0 { continue }
            total.add(Double(framed &- spawned) / 1e9)
            inProcess.add(Double(framed &- opened) / 1e9)
        }
        Progress.say("first frame \(Report.grouped(world.size)): \(Report.format(total.median, .seconds)) from exec, "
                     + "\(Report.format(inProcess.median, .seconds)) from main")
        return [
            Figure(section: "TUI", name: "start to first frame (\(Self.width)×\(Self.height), new process)", reminders: world.size,
                   samples: total, goal: .median(under: 0.020)),
            Figure(section: "TUI", name: "…of which opening the device and the frame (from main)", reminders: world.size,
                   samples: inProcess),
        ]
    }

    /// One full frame into the off-screen buffer. The TUI's only public
    /// way to draw is `renderFirstFrame`, which also starts the screens'
    /// view models (their reads), draws, and stops them. Asked for a
    /// terminal too small to lay out, it does all of that but draw the
    /// screens ("Please enlarge the terminal"); the difference of the two,
    /// measured alternately, is the drawing.
    func frame() throws -> [Figure] {
        let session = try openDevice(try world.device(), server: world.unusedServer, device: "B")
        defer { try? World.close(session.writer) }
        let environment = AppEnvironment(store: session.store, userName: World.userName, deviceName: "B")
        let app = TerminalApp(environment: environment)
        var figures: [Figure] = []
        for (width, height) in [(80, 24), (Self.width, Self.height)] {
            var full = Samples(), tooSmall = Samples(), difference = Samples()
            for index in 0..<(3 + max(runs * 6, 5)) {
                let drawn = timed { app.renderFirstFrame(width: width, height: height) }
                let skipped = timed { app.renderFirstFrame(width: 20, height: 6) }
                guard drawn.value.count == height, drawn.value.joined().contains("Today"),
                      skipped.value.joined().contains("enlarge") else {
                    throw BenchError("unexpected frames:\n" + (drawn.value + skipped.value).joined(separator: "\n"))
                }
                if index < 3 { continue }
                full.add(drawn.seconds)
                tooSmall.add(skipped.seconds)
                difference.add(max(0, drawn.seconds - skipped.seconds))
            }
            Progress.say("frame \(width)×\(height) at \(Report.grouped(world.size)): renderFirstFrame \(Report.format(full.median, .seconds)), "
                         + "without drawing \(Report.format(tooSmall.median, .seconds)), drawing \(Report.format(difference.median, .seconds))")
            if width == 80 {
                figures.append(Figure(section: "TUI", name: "renderFirstFrame, warm (screens' reads + drawing), 80×24",
                                      reminders: world.size, samples: full))
            }
            figures.append(Figure(
                section: "TUI",
                name: width == 80 ? "draw one full screen off-screen, 80×24"
                    : "draw one full screen off-screen, \(width)×\(height) (incl. creating Home's preview)",
                reminders: world.size, samples: difference, goal: width == 80 ? .median(under: 0.002) : nil))
        }
        return figures
    }

    /// Peak resident size of the app with the database open on All, in a
    /// process of its own so that nothing measured before counts.
    func memory() throws -> [Figure] {
        let pathB = try world.device(), server = world.unusedServer
        var peaks = Samples(), baseline = Samples()
        for _ in 0..<max(1, min(runs, 3)) {
            peaks.add(try childPeak(["--memory", "--db", pathB.path, "--server", server.path]))
            baseline.add(try childPeak(["--memory", "--baseline"]))
        }
        Progress.say("memory \(Report.grouped(world.size)): peak \(Report.format(peaks.median, .bytes)) "
                     + "(an idle process: \(Report.format(baseline.median, .bytes)))")
        return [
            Figure(section: "Memory", name: "peak resident size, app open on All", reminders: world.size, unit: .bytes,
                   samples: peaks, goal: .median(under: 64 * 1024 * 1024)),
            Figure(section: "Memory", name: "peak resident size of this program doing nothing (for scale)", reminders: nil,
                   unit: .bytes, samples: baseline),
        ]
    }

    private func childPeak(_ arguments: [String]) throws -> Double {
        let child = ChildProcess(arguments: arguments)
        try child.start()
        defer { child.finish() }
        guard let peak = child.next(timeout: 60, { line, _ -> Double? in
            line.hasPrefix("peak ") ? Double(line.dropFirst(5)) : nil
        }) else { throw BenchError("the memory child (\(arguments.joined(separator: " "))) printed no peak") }
        return peak
    }
}

/// The hidden child modes of the app measurements.
enum AppChild {
    /// `--first-frame`: opens the device and draws Home's first frame, then
    /// prints `frame <monotonic ns at the frame> <monotonic ns at main>`.
    static func firstFrame(_ options: [String: String], startedAt: UInt64) throws {
        exitWhenInputCloses()
        guard let db = options["--db"], let server = options["--server"] else { throw BenchError("--first-frame needs --db and --server") }
        // As the full-screen app opens its device (`TUICommand`).
        let session = try openDevice(URL(fileURLWithPath: db), server: .directory(URL(fileURLWithPath: server)), device: "B",
                                     readersToWarm: TerminalApp.readersToWarm)
        let environment = AppEnvironment(store: session.store, userName: World.userName, deviceName: "B")
        let lines = TerminalApp(environment: environment).renderFirstFrame(width: AppBench.width, height: AppBench.height)
        let framed = monotonicNanoseconds()
        guard lines.joined().contains("Today") else { throw BenchError("the first frame does not show Home") }
        emit("frame \(framed) \(startedAt)")
        while true { sleep(3600) }
    }

    /// `--memory`: opens the device as the app does, draws Home, then
    /// opens All the way its screen does (the first 300 rows), and prints
    /// `peak <bytes>`. With `--baseline`, prints the peak of doing nothing.
    static func memory(_ options: [String: String]) throws {
        exitWhenInputCloses()
        if options["--baseline"] != nil {
            emit("peak \(ResidentSize.now().peak)")
            while true { sleep(3600) }
        }
        guard let db = options["--db"], let server = options["--server"] else { throw BenchError("--memory needs --db and --server") }
        let session = try openDevice(URL(fileURLWithPath: db), server: URL(fileURLWithPath: server), device: "B")
        let environment = AppEnvironment(store: session.store, userName: World.userName, deviceName: "B")
        let app = TerminalApp(environment: environment)
        _ = app.renderFirstFrame(width: AppBench.width, height: AppBench.height)
        let home = HomeViewModel(environment: environment)
        home.refresh()
        let all = ListDetailViewModel(environment: environment, filter: .all, limit: 300)
        all.refresh()
        // Let the observations' own first reads land as well.
        Thread.sleep(forTimeInterval: 0.3)
        guard all.state.rows.count == min(300, all.state.totalCount), all.state.totalCount > 0 else {
            throw BenchError("All shows \(all.state.rows.count) rows of \(all.state.totalCount)")
        }
        emit("peak \(ResidentSize.now().peak)")
        withExtendedLifetime((home, all)) {}
        while true { sleep(3600) }
    }
}
