import CloudServer
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels

/// Files of one benchmark size: the generated rows, a template of device A
/// (every row pending upload), a device for the read-only phases, and the
/// devices and server of the latest initial-sync run, which the incremental
/// sync reuses.
final class World {
    static let userName = "bench"

    let size: Int
    let data: DataSet
    let folder: URL
    /// Device A's database with every row written and the engine attached,
    /// closed; each run starts from a copy.
    let templateA: URL
    /// A device holding every row, for queries, the app and memory: a copy
    /// of the template (its sync metadata says "pending", which no screen
    /// reads).
    func device() throws -> URL {
        let url = folder.appendingPathComponent("device.sqlite")
        if !FileManager.default.fileExists(atPath: url.path) { try Self.copyDatabase(templateA, to: url) }
        return url
    }
    /// The server a device opens with (never contacted by the read-only
    /// phases).
    var unusedServer: URL { folder.appendingPathComponent("unused-server") }
    /// The server and devices the last initial sync left behind, when it
    /// finished.
    var server: URL?
    var deviceA: URL?
    var deviceB: URL?

    init(size: Int, under root: URL) throws {
        self.size = size
        folder = root.appendingPathComponent("world-\(size)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let generated = timed { DataSet.generate(reminders: size) }
        data = generated.value
        Progress.say("world \(Report.grouped(size)): generated \(Report.grouped(data.reminders.count)) reminders, "
                     + "\(Report.grouped(data.links.count)) tag links in \(Report.format(generated.seconds, .seconds))")
        templateA = folder.appendingPathComponent("template-a.sqlite")
        let written = try timed { try Self.writeAppDatabase(data, at: templateA) }
        let attached = try timed { () throws -> Void in
            let session = try openDevice(templateA, server: unusedServer, device: "A")
            try Self.close(session.writer)
        }
        Progress.say("world \(Report.grouped(size)): template written in \(Report.format(written.seconds, .seconds)), "
                     + "engine attached (all rows pending) in \(Report.format(attached.seconds, .seconds))")
    }

    /// Writes the data set into a fresh app database (schema, search,
    /// indexes; no engine) in one transaction; returns when it is closed.
    static func writeAppDatabase(_ data: DataSet, at url: URL) throws {
        try removeDatabase(url)
        let pool = try AppDatabase.open(path: url.path)
        try pool.write { db in try data.insert(into: db) }
        try close(pool)
    }

    /// Checkpoints the WAL into the main file and closes, so that the file
    /// alone is the whole database and can be copied.
    static func close(_ writer: DatabasePool) throws {
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        try writer.close()
    }

    static func removeDatabase(_ url: URL) throws {
        for suffix in ["", "-wal", "-shm"] {
            let file = URL(fileURLWithPath: url.path + suffix)
            if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
        }
    }

    static func copyDatabase(_ source: URL, to destination: URL) throws {
        try removeDatabase(destination)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: destination)
    }
}

/// Opens a device the way the app does: database, migrations, engine.
func openDevice(_ url: URL, server: URL, device: String) throws -> DeviceSession {
    try openDevice(url, server: .directory(server), device: device)
}

func openDevice(_ url: URL, server: ServerAddress, device: String, readersToWarm: Int = 0) throws -> DeviceSession {
    try DeviceSession(databasePath: url.path, server: server, userName: World.userName, deviceName: device,
                      clock: DataSet.clock, readersToWarm: readersToWarm)
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
