import CloudServerPostgres
import Foundation

/// One run: every phase at every size, in an order that lets later phases
/// reuse the files of earlier ones (queries and the app use device B of the
/// initial sync).
struct BenchRun {
    let options: BenchOptions

    func run() throws -> Report {
        let began = Date()
        let start = monotonicNanoseconds()
        let root = options.workFolder
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("reminders-bench-\(getpid())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { if !options.keep { try? FileManager.default.removeItem(at: root) } }
        Progress.say("reminders-bench \(options.quick ? "--quick " : "")sizes \(options.sizes.map(Report.grouped).joined(separator: ", ")) in \(root.path)")

        var figures: [Figure] = []
        let phases = options.phases
        let largest = options.sizes.max() ?? 0
        for size in options.sizes {
            let atFocus = size == options.focusSize
            let needsWorld = phases.contains(.sync) || phases.contains(.queries) || phases.contains(.icalendar)
                || (atFocus && (phases.contains(.incremental) || phases.contains(.app)))
                || (size == largest && phases.contains(.memory))
            guard needsWorld else { continue }
            let world = try World(size: size, under: root)
            if phases.contains(.sync) || (atFocus && phases.contains(.incremental)) {
                let syncFigures = try InitialSyncBench(world: world, runs: options.syncRuns(size), budget: options.syncBudget(size)).run()
                if phases.contains(.sync) {
                    figures += syncFigures
                    var overHTTP = InitialSyncBench(world: world, runs: options.syncRuns(size), budget: options.syncBudget(size))
                    overHTTP.overHTTP = true
                    figures += try overHTTP.run()
                    if LocalCluster.binaries() != nil {
                        overHTTP.onPostgres = true
                        figures += try overHTTP.run()
                    } else {
                        Progress.say("initial sync over HTTP on PostgreSQL skipped: PostgreSQL's programs are not installed")
                    }
                }
            }
            if phases.contains(.queries) {
                figures += try QueryBench(world: world, runs: options.queryRuns(size)).run()
            }
            if phases.contains(.icalendar) {
                figures += try ICalendarBench(world: world, runs: options.syncRuns(size)).run()
            }
            if atFocus, phases.contains(.app) {
                let app = AppBench(world: world, runs: options.appRuns)
                figures += try app.firstFrame()
                figures += try app.frame()
            }
            if atFocus, phases.contains(.incremental) {
                figures += try IncrementalSyncBench(world: world, edits: options.edits).run()
            }
            if size == largest, phases.contains(.memory) {
                figures += try AppBench(world: world, runs: options.appRuns).memory()
            }
            if !options.keep { try? FileManager.default.removeItem(at: world.folder) }
        }
        // Sections in a fixed order, each figure's sizes together and
        // ascending, so the table reads as growth.
        let sections = ["Initial sync", "Initial sync over HTTP", "Incremental sync", "Queries", "iCalendar", "TUI", "Memory"]
        var firstSeen: [String: Int] = [:]
        for (index, figure) in figures.enumerated() where firstSeen[figure.name] == nil { firstSeen[figure.name] = index }
        figures.sort { a, b in
            let keyA = (sections.firstIndex(of: a.section) ?? sections.count, firstSeen[a.name] ?? 0, a.reminders ?? 0)
            let keyB = (sections.firstIndex(of: b.section) ?? sections.count, firstSeen[b.name] ?? 0, b.reminders ?? 0)
            return keyA < keyB
        }
        return Report(machine: .current(), mode: options.quick ? "quick" : "full", startedAt: ISO8601DateFormatter().string(from: began),
                      durationSeconds: Double(monotonicNanoseconds() - start) / 1e9, figures: figures)
    }

}
