import Foundation
import GRDB

/// Opens a device's database file: configures it, refuses files that are
/// not databases or that a newer version wrote, and migrates it.
public enum AppDatabase {
    /// Opens (creating if needed) the database at `path`. Directories on the
    /// way are created. Never overwrites a file that is not a database.
    public static func open(path: String) throws -> DatabasePool {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CoreError.database("cannot create the folder of database \(path): \(error.localizedDescription)")
        }
        if FileManager.default.fileExists(atPath: path) {
            try checkHeader(path: path)
            try checkVersion(path: path)
            guard isWritable(path: path) else {
                throw CoreError.readOnly("database \(path) is read-only (the file or its folder cannot be written): "
                                         + "lists, show, search, export, tags and due can read it, nothing can change it")
            }
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration())
        } catch {
            throw CoreError.database("cannot open database \(path): \(describe(error))")
        }
        try migrate(pool, path: path)
        return pool
    }

    /// An in-memory database, for tests and benchmarks.
    public static func inMemory() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: configuration())
        try migrate(queue, path: ":memory:")
        return queue
    }

    public static func configuration() -> Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "reminders"
        return configuration
    }

    static func migrate(_ writer: some DatabaseWriter, path: String) throws {
        let migrator = Schema.migrator
        do {
            let superseded = try writer.read { db in
                try migrator.hasBeenSuperseded(db)
            }
            if superseded {
                throw CoreError.database("database \(path) was written by a newer version of reminders; upgrade reminders to open it")
            }
            // A load stopped before it rebuilt the search index and the
            // counts (`DerivedData`) is finished first, by the schema that
            // suspended it, before a migration may change its triggers.
            if try writer.read({ db in try DerivedData.isSuspended(db) }) {
                try writer.write { db in try DerivedData.resume(db) }
            }
            try migrator.migrate(writer)
        } catch let error as CoreError {
            throw error
        } catch {
            throw CoreError.database(damaged(path: path, error))
        }
    }

    /// A non-empty file must start with SQLite's magic header; anything else
    /// is refused before SQLite touches it.
    static func checkHeader(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CoreError.database("cannot read database \(path): permission denied")
        }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        if header.isEmpty { return }
        guard header == Data("SQLite format 3\u{0}".utf8) else {
            throw CoreError.database("\(path) is not a reminders database (not an SQLite file); move it away or pass another --db")
        }
    }

    /// Refuses a database that a newer version migrated, through a
    /// read-only connection: opening a `DatabasePool` writes to the file
    /// (it switches to WAL and primes the WAL with a write), and a file we
    /// refuse must be left exactly as it was.
    static func checkVersion(path: String) throws {
        let superseded: Bool
        do {
            let queue = try readOnlyQueue(path: path)
            superseded = try queue.read { db in
                try Schema.migrator.hasBeenSuperseded(db)
            }
            try queue.close()
        } catch {
            throw CoreError.database(damaged(path: path, error))
        }
        if superseded {
            throw CoreError.database("database \(path) was written by a newer version of reminders; upgrade reminders to open it")
        }
    }

    /// Whether this process may write the database file and its folder
    /// (SQLite makes the write-ahead log and its index beside the file).
    /// A folder not made yet counts as writable when the nearest folder
    /// above it that exists is.
    public static func isWritable(path: String) -> Bool {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.path), folder.pathComponents.count > 1 {
            folder = folder.deletingLastPathComponent()
        }
        return access(folder.path, W_OK) == 0 && (!FileManager.default.fileExists(atPath: path) || access(path, W_OK) == 0)
    }

    /// Opens an existing database for reading only, changing nothing in its
    /// folder: for commands that only read, on a file the user may not
    /// write (a copy from a backup, another user's folder). Refuses files
    /// that are not ours, newer ones, and older ones that would need a
    /// migration (which is a write).
    public static func openReadOnly(path: String) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CoreError.database("database \(path) does not exist, and its folder cannot be written to make it")
        }
        try checkHeader(path: path)
        try checkVersion(path: path)
        let queue: DatabaseQueue
        let complete: Bool
        do {
            queue = try readOnlyQueue(path: path)
            complete = try queue.read { db in try Schema.migrator.hasCompletedMigrations(db) }
        } catch {
            throw CoreError.database(damaged(path: path, error))
        }
        guard complete else {
            throw CoreError.database("database \(path) is read-only and was written by an older version of reminders; "
                                     + "it must be upgraded by a write: make it writable and run any command once")
        }
        return queue
    }

    /// A read-only connection. A database in WAL mode needs its index
    /// (`-shm`) to be read; where that file is missing and the folder
    /// cannot be written to make it, the file is opened as immutable: read
    /// as it is on disk, which holds as long as nobody writes it meanwhile.
    static func readOnlyQueue(path: String) throws -> DatabaseQueue {
        var configuration = configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_CANTOPEN {
            let immutable = URL(fileURLWithPath: path).absoluteString + "?immutable=1"
            let queue = try DatabaseQueue(path: immutable, configuration: configuration)
            try queue.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        }
    }

    /// The message for a file SQLite cannot read as ours, with what to do:
    /// the file is left as it was, so it can still be restored or examined.
    static func damaged(path: String, _ error: Error) -> String {
        "database \(path) is damaged or not a reminders database (\(describe(error))); it was left untouched: "
            + "restore it from a backup, or move it away and run 'reminders sync' to get back what was synced"
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return "\(error)"
    }
}
