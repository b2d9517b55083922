import CSQLiteSetup
import Foundation
import GRDB

/// Opens a device's database file: configures it, refuses files that are
/// not databases or that a newer version wrote, and migrates it.
public enum AppDatabase {
    /// Opens (creating if needed) the database at `path`. Directories on the
    /// way are created. Never overwrites a file that is not a database.
    /// `readersToWarm`: connections for reading to open on other threads
    /// (see `warm`), started as soon as the file is open, alongside the
    /// check for migrations.
    public static func open(path: String, readersToWarm: Int = 0) throws -> DatabasePool {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CoreError.database("cannot create the folder of database \(path): \(error.localizedDescription)")
        }
        let existed = FileManager.default.fileExists(atPath: path)
        if existed {
            let header = try checkHeader(path: path)
            // The file's own header says this version migrated it last: no
            // need for a connection of its own to ask (see `versionStamp`).
            if header != Header(version: versionStamp, application: applicationID) { try checkVersion(path: path) }
            guard isWritable(path: path) else {
                throw CoreError.readOnly("database \(path) is read-only (the file or its folder cannot be written): "
                                         + "lists, show, search, export, tags and due can read it, nothing can change it")
            }
        }
        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: path, configuration: configuration())
            // GRDB's WAL set-up leaves the writer at synchronous=NORMAL,
            // which syncs the log only at checkpoints: a power cut could
            // take back the last edits the user saw saved (docs/PROMISES.md).
            // FULL syncs the log at every commit, as the server's store does.
            // A fetched page is applied in a savepoint, so every page it
            // changes is first copied to a statement journal, which beyond
            // 64 KiB SQLite writes to a temporary file (3,100 of the 45,800
            // write calls of a first sync of 10,000 reminders, all on the
            // new device); the writer keeps them in memory, as the server's
            // store does: at most the pages one fetched page changes.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL; PRAGMA temp_store = MEMORY")
            }
            warm(pool, readers: readersToWarm)
        } catch {
            // A file that passed the header's checks and then failed to open
            // is damaged past its first page (what `checkVersion` reported
            // when it opened every existing file first).
            throw CoreError.database(existed ? damaged(path: path, error) : "cannot open database \(path): \(describe(error))")
        }
        try migrate(pool, path: path)
        return pool
    }

    /// Sets SQLite's process-wide options (see `reminders_sqlite_setup`).
    /// Every connection's configuration calls it first; a program calls it
    /// at its start too, before anything it links opens a connection.
    public static func setUpSQLite() {
        _ = reminders_sqlite_setup()
    }

    /// Opens `readers` connections for reading on other threads, each
    /// reading the schema once, and returns at once. A connection's first
    /// read parses the whole schema (its forty triggers most of it), about
    /// a millisecond; a screen whose observations all start together would
    /// otherwise open its connections then, one after another on its way to
    /// the first frame, instead of alongside the work before it.
    private static func warm(_ pool: DatabasePool, readers: Int) {
        for _ in 0..<readers {
            pool.asyncRead { db in _ = try? Int.fetchOne(db.get(), sql: "SELECT count(*) FROM sqlite_master") }
        }
    }

    /// An in-memory database, for tests and benchmarks.
    public static func inMemory() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: configuration())
        try migrate(queue, path: ":memory:")
        return queue
    }

    /// Connections for reading, at most. Each new one parses the whole
    /// schema (37 KB, most of it the triggers: about 1.2 ms), and the
    /// screens' observations only use them for their first read (a change
    /// is read again on the writer's connection, which tracks what each
    /// one read). With GRDB's default of five, the first frame opened four
    /// of them at once on two processors; with two it came 2-3 ms sooner
    /// (21.3 -> 18.6 ms from exec, alternated), and one was no faster.
    static let maximumReaders = 2

    public static func configuration() -> Configuration {
        setUpSQLite()
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.label = "reminders"
        configuration.maximumReaderCount = maximumReaders
        return configuration
    }

    /// What `PRAGMA user_version` holds in a database this version
    /// migrated: the number of migrations it knows. SQLite keeps it in the
    /// file's first page, so `open` reads it with the magic header and
    /// skips the read-only connection that `checkVersion` opens, which was
    /// a tenth of a start.
    ///
    /// The header can lag behind the database only while the write-ahead
    /// log holds its first page, and then opening the pool writes nothing
    /// (it primes only an empty log), so `migrate` still refuses a newer
    /// database before anything is written. Versions that add a migration
    /// raise it; a database stamped with another number, or none (written
    /// before the stamp), goes through `checkVersion`.
    static var versionStamp: Int { Schema.migrator.migrations.count }

    /// What `PRAGMA application_id` holds in a database of ours ("RMDR"):
    /// SQLite's place in the header for saying which program a file
    /// belongs to. A version stamp alone cannot tell: another program's
    /// file may hold any `user_version`, ours among them. A file marked
    /// for another program is refused before anything opens it; one with
    /// no mark (ours from before the mark, or anybody's) goes through
    /// `checkVersion`, and `migrate` marks it.
    static let applicationID = 0x524D_4452

    /// The two numbers of a database file's header that say whose it is
    /// and how far it was migrated.
    struct Header: Equatable {
        var version: Int
        var application: Int
    }

    static func migrate(_ writer: some DatabaseWriter, path: String) throws {
        let migrator = Schema.migrator
        let known = Set(migrator.migrations)
        do {
            // One read decides, and a database already up to date is not
            // written at all. Read on the writer's connection, which opening
            // the pool set up already: the first read of a reader costs it
            // its own reading of the schema (a twentieth of a start).
            let (applied, suspended, stamp, mark) = try writer.writeWithoutTransaction { db in
                try db.readOnly {
                    (try migrator.appliedIdentifiers(db), try DerivedData.isSuspended(db),
                     try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0,
                     try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0)
                }
            }
            if !applied.isSubset(of: known) {
                throw CoreError.database("database \(path) was written by a newer version of reminders; upgrade reminders to open it")
            }
            // A load stopped before it rebuilt the search index and the
            // counts (`DerivedData`) is finished first, by the schema that
            // suspended it, before a migration may change its triggers.
            if suspended {
                try writer.write { db in try DerivedData.resume(db) }
            }
            guard applied != known || stamp != versionStamp || mark != applicationID else { return }
            try migrator.migrate(writer)
            try writer.write { db in
                try db.execute(sql: "PRAGMA user_version = \(versionStamp); PRAGMA application_id = \(applicationID)")
            }
            // Into the file itself, where the next start reads it, rather
            // than waiting in the log for the next checkpoint.
            _ = try? writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        } catch let error as CoreError {
            throw error
        } catch {
            throw CoreError.database(damaged(path: path, error))
        }
    }

    /// A non-empty file must start with SQLite's magic header, and not be
    /// marked as another program's (`applicationID`); anything else is
    /// refused before SQLite touches it. Returns the header's
    /// `user_version` (see `versionStamp`) and `application_id`, zeros for
    /// an empty file.
    @discardableResult
    static func checkHeader(path: String) throws -> Header {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CoreError.database("database \(path) is a directory; --db takes the path of a file (such as \(path)/reminders.sqlite)")
        }
        // Read through SQLite's file layer (`reminders_read_file_start`):
        // closing a descriptor of its own would drop the locks of any
        // connection this process has open on the file.
        var bytes = [UInt8](repeating: 0, count: 100)
        let read = reminders_read_file_start(path, &bytes, 100)
        guard read >= 0 else {
            throw CoreError.database("cannot read database \(path): "
                                     + (access(path, R_OK) == 0 ? "it cannot be opened" : String(cString: strerror(errno)).lowercased()))
        }
        bytes.removeLast(100 - read)
        // (SQLite's layer calls a file of one byte empty; it is not.)
        if bytes.isEmpty, (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0 == 0 {
            return Header(version: 0, application: 0)
        }
        guard bytes.starts(with: Array("SQLite format 3\u{0}".utf8)) else {
            throw CoreError.database("\(path) is not a reminders database (not an SQLite file); move it away or pass another --db")
        }
        guard bytes.count == 100 else { return Header(version: 0, application: 0) }
        // Big-endian 32-bit integers at offsets 60 and 68.
        let header = Header(version: bytes[60..<64].reduce(0) { $0 << 8 | Int($1) },
                            application: bytes[68..<72].reduce(0) { $0 << 8 | Int($1) })
        if header.application != 0, header.application != applicationID {
            let mark = String(header.application, radix: 16)
            throw CoreError.database("database \(path) is not a reminders database (another program marked it as its own: "
                                     + "application id 0x\(mark)); it was left untouched: point --db at a file of its own")
        }
        return header
    }

    /// Refuses a database that a newer version migrated, through a
    /// read-only connection: opening a `DatabasePool` writes to the file
    /// (it switches to WAL and primes the WAL with a write), and a file we
    /// refuse must be left exactly as it was.
    static func checkVersion(path: String) throws {
        let superseded: Bool
        let foreign: [String]
        do {
            let queue = try readOnlyQueue(path: path)
            (superseded, foreign) = try queue.read { db in
                // Tables and no record of our first migration: another
                // program's database (perhaps one that keeps GRDB's record
                // of migrations too), which a migration would write ours into.
                let tables = try String.fetchAll(db, sql: """
                    SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
                    """)
                let ours = try tables.contains("grdb_migrations")
                    && Schema.migrator.appliedIdentifiers(db).contains(Schema.firstMigration)
                return (try Schema.migrator.hasBeenSuperseded(db), ours ? [] : tables.filter { $0 != "grdb_migrations" })
            }
            try queue.close()
        } catch {
            throw CoreError.database(damaged(path: path, error))
        }
        if !foreign.isEmpty {
            let names = foreign.prefix(3).joined(separator: ", ") + (foreign.count > 3 ? " and \(foreign.count - 3) more" : "")
            throw CoreError.database("database \(path) is not a reminders database (it holds another program's tables: \(names)); "
                                     + "it was left untouched: point --db at a file of its own")
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
