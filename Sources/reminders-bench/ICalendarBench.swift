import Foundation
import RemindersCore

/// iCalendar export and import of every reminder in the world: the
/// export of one device as an .ics stream, its import into a fresh device
/// (the engine attached, so every row is captured for sync as the command
/// does), and the same import again, where every to-do is unchanged.
struct ICalendarBench {
    let world: World
    let runs: Int

    func run() throws -> [Figure] {
        let size = world.size
        let goal: Goal? = size == 10_000 ? .median(under: 1.0) : nil
        let source = try openDevice(try world.device(), server: world.unusedServer, device: "B")
        defer { try? World.close(source.writer) }
        let clock = DataSet.clock
        var text = ""
        var export = Samples()
        for _ in 0..<runs {
            export.add(try timed {
                let calendars = try source.writer.read { db in
                    try ICalendarExport.calendars(db, timeZone: clock.timeZone, now: clock.now)
                }
                text = ICalendarExport.text(calendars)
            }.seconds)
        }
        let file = world.folder.appendingPathComponent("export.ics")
        try Data(text.utf8).write(to: file)
        var reading = Samples()
        for _ in 0..<runs {
            reading.add(try timed { _ = try ICalendarFiles.read(file.path, timeZone: clock.timeZone, now: clock.now) }.seconds)
        }
        var fresh = Samples()
        var again = Samples()
        var imported = 0
        for run in 0..<runs {
            let url = world.folder.appendingPathComponent("import-\(run).sqlite")
            let device = try openDevice(url, server: world.unusedServer, device: "I\(run)")
            fresh.add(try timed {
                let collections = try ICalendarFiles.read(file.path, timeZone: clock.timeZone, now: clock.now)
                imported = try ICalendarImport.run(collections, options: .init(), store: device.store).count(.added)
            }.seconds)
            again.add(try timed {
                let collections = try ICalendarFiles.read(file.path, timeZone: clock.timeZone, now: clock.now)
                let summary = try ICalendarImport.run(collections, options: .init(), store: device.store)
                guard summary.changes.isEmpty else { throw BenchError("a second import changed \(summary.changes.count) reminders") }
            }.seconds)
            try World.close(device.writer)
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
        guard imported == size else { throw BenchError("the import added \(imported) reminders of \(size)") }
        let section = "iCalendar"
        Progress.say("icalendar \(Report.grouped(size)): export \(Report.format(export.median, .seconds)) "
                     + "(\(text.utf8.count / 1024) KB), read \(Report.format(reading.median, .seconds)), import \(Report.format(fresh.median, .seconds)), "
                     + "again \(Report.format(again.median, .seconds))")
        return [
            Figure(section: section, name: "export --ics, every list", reminders: size, samples: export, goal: goal),
            Figure(section: section, name: "import of that file into a fresh device", reminders: size, samples: fresh, goal: goal),
            Figure(section: section, name: "…of which reading and mapping the file", reminders: size, samples: reading),
            Figure(section: section, name: "the same import again (every to-do unchanged)", reminders: size, samples: again),
        ]
    }
}
