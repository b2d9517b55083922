import CloudServer
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels

/// Initial sync: every row of device A goes to a fresh server directory,
/// then to a fresh device B; beside it the floor, the same rows written to
/// a bare SQLite database in one transaction.
struct InitialSyncBench {
    let world: World
    let runs: Int

    func run() throws -> [Figure] {
        var upload = Samples(), download = Samples(), total = Samples()
        var floor = Samples(), appSchema = Samples(), ratio = Samples()
        let size = world.size
        for run in 1...runs {
            let folder = world.folder.appendingPathComponent("sync-\(run)")
            try? FileManager.default.removeItem(at: folder)
            let server = folder.appendingPathComponent("server")
            let pathA = folder.appendingPathComponent("a.sqlite")
            let pathB = folder.appendingPathComponent("b.sqlite")
            try World.copyDatabase(world.templateA, to: pathA)

            let a = try openDevice(pathA, server: server, device: "A")
            try a.connect()
            let sent = try timed { try a.engine.sendChanges() }
            let b = try openDevice(pathB, server: server, device: "B")
            try b.connect()
            let fetched = try timed { try b.engine.fetchChanges() }
            try verify(b)
            try World.close(a.writer)
            try World.close(b.writer)

            let bare = try timed { try writeBare(folder.appendingPathComponent("bare.sqlite")) }
            let app = try timed { try World.writeAppDatabase(world.data, at: folder.appendingPathComponent("app.sqlite")) }

            upload.add(sent.seconds)
            download.add(fetched.seconds)
            total.add(sent.seconds + fetched.seconds)
            floor.add(bare.seconds)
            appSchema.add(app.seconds)
            ratio.add((sent.seconds + fetched.seconds) / bare.seconds)
            Progress.say("initial sync \(Report.grouped(size)) run \(run)/\(runs): upload \(Report.format(sent.seconds, .seconds)) "
                         + "(\(sent.value.sentSaves) records), download \(Report.format(fetched.seconds, .seconds)) "
                         + "(\(fetched.value.receivedSaves) records), bare insert \(Report.format(bare.seconds, .seconds))")
            if run < runs { try FileManager.default.removeItem(at: folder) }
            world.server = server
            world.deviceA = pathA
            world.deviceB = pathB
        }
        let section = "Initial sync"
        return [
            Figure(section: section, name: "upload A → server", reminders: size, samples: upload),
            Figure(section: section, name: "download server → fresh B", reminders: size, samples: download),
            Figure(section: section, name: "upload + download", reminders: size, samples: total,
                   goal: size == 10_000 ? .median(under: 3) : nil),
            Figure(section: section, name: "floor: same rows into bare SQLite, 1 transaction", reminders: size, samples: floor),
            Figure(section: section, name: "same rows into the app schema (search, indexes), no sync", reminders: size,
                   samples: appSchema),
            Figure(section: section, name: "sync ÷ floor", reminders: size, unit: .ratio, samples: ratio),
        ]
    }

    /// B must hold exactly what A had: a benchmark that syncs nothing would
    /// be fast and worthless.
    func verify(_ b: DeviceSession) throws {
        let counts = try b.writer.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM reminders") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM remindersTags") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM remindersLists") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM remindersListCovers") ?? 0)
        }
        let data = world.data
        let expected = (data.reminders.count, data.links.count, data.lists.count, data.covers.count)
        guard counts == expected else {
            throw BenchError("device B has \(counts) (reminders, links, lists, covers) after the initial sync; expected \(expected)")
        }
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
