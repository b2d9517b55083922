import CSQLiteSetup
import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A CloudKit-like server that lives in a directory: `server.sqlite` holds
/// zones, records, tombstones and shares; `assets/` holds asset files;
/// `HEAD` holds the latest change sequence for watchers.
///
/// No daemon runs: every process that opens the directory is the server for
/// its own requests, and SQLite serializes them. Each request is one
/// `BEGIN IMMEDIATE` transaction in WAL mode with `synchronous=FULL`, so a
/// request that returned is on disk, and one killed midway left nothing.
///
/// Several `DirectoryServer` instances, in one process or many, may use the
/// same directory at once.
public final class DirectoryServer: RecordStore {
    /// The store format this program writes; a store with a higher one is
    /// refused with `incompatibleVersion`.
    public static let formatVersion = Schema.formatVersion
    /// How long a request waits for another process's write to finish.
    public static let busyTimeout: TimeInterval = 10

    /// The server directory.
    public let directory: URL
    /// The file that holds the latest change sequence; watch its directory
    /// (the file is replaced by rename, so watch for moves into the
    /// directory, not for writes to the file).
    public var headFileURL: URL { headFile.url }

    let pool: DatabasePool
    private let assetFiles: AssetStore
    package var assets: any AssetStoring { assetFiles }
    /// `server.sqlite` as opened: a store deleted or replaced while open is
    /// refused instead of read and written through the old file's handles.
    private let storeFile: String
    private let storeFileIdentity: FileIdentity?
    private let headFile: HeadFile
    private let clock: @Sendable () -> Date
    /// Set for a device's own handle (`prefetchingPages`).
    private let prefetch: PagePrefetch?

    /// Opens the server in `directory`, creating the directory and an empty
    /// store if they do not exist (unless `createIfMissing` is false: a
    /// running app that had the directory and lost it waits for it to come
    /// back instead of making an empty one, which would also stand in the
    /// way of a backup being put back there).
    ///
    /// - parameter clock: the server clock, which stamps modification dates.
    ///   Tests and `REMINDERS_NOW` pin it; dates still increase on every save
    ///   of a record.
    /// - parameter prefetchingPages: read a fetch's next page while the
    ///   caller applies one (`PagePrefetch`): for a device's own handle,
    ///   not for the service, whose devices prefetch themselves.
    /// - throws: `serverUnavailable` for a directory that cannot be created
    ///   or written, or a damaged store; `incompatibleVersion` for a store
    ///   written by a newer program.
    public init(directory: URL, createIfMissing: Bool = true, clock: @escaping @Sendable () -> Date = { Date() },
                prefetchingPages: Bool = false) throws {
        let directory = directory.standardizedFileURL
        self.directory = directory
        self.clock = clock
        prefetch = prefetchingPages ? PagePrefetch() : nil
        headFile = HeadFile(directory: directory)
        try Self.prepareDirectory(directory, createIfMissing: createIfMissing)
        let file = directory.appendingPathComponent("server.sqlite").path

        _ = reminders_sqlite_setup()
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.label = "CloudServer"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            try Schema.refuseNewerStore(file: file, directory: directory.path)
            pool = try DatabasePool(path: file, configuration: configuration)
            // GRDB's WAL setup lowers the writer to synchronous=NORMAL after
            // `prepareDatabase` ran; a confirmed save must survive power loss.
            try pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                // Each zone of a request is written in a savepoint, so every
                // page it changes is first copied to a statement journal,
                // which beyond 64 KiB SQLite writes to a temporary file (10,000
                // of the 58,000 write calls of a first sync of 10,000
                // reminders). Kept in memory instead: at most the pages one
                // request changes.
                try db.execute(sql: "PRAGMA temp_store = MEMORY")
            }
            try pool.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try Schema.prepare(db, path: directory.path)
                    return .commit
                }
            }
        } catch {
            throw StoreFailure.map(error, directory: directory)
        }
        assetFiles = try AssetStore(directory: directory.appendingPathComponent("assets"))
        storeFile = file
        storeFileIdentity = FileIdentity(path: file)
        if headFile.read() == nil {
            publishHead()
        }
    }

    /// One user's private or shared database on this server, making requests
    /// as `device` (recorded as `modifiedByDevice` on what it saves).
    public func database(user: String, scope: DatabaseScope, device: String) -> StoreDatabase {
        StoreDatabase(store: self, userName: user, scope: scope, deviceName: device, prefetch: prefetch)
    }

    /// The latest change sequence, from the `HEAD` file (cheap enough to call
    /// on every tick), or from the store if the file is missing or garbled;
    /// 0 if neither can be read.
    public func head() -> Int64 {
        if let head = headFile.read() { return head }
        return (try? currentSequence()) ?? 0
    }

    /// The latest change sequence, read from the store.
    public func currentSequence() throws -> Int64 {
        try read { try StoreMeta.integer($0, StoreMeta.sequence) }
    }

    /// Removes tombstones (deleted records, records that left a participant's
    /// view, deleted zones) with a sequence up to `sequence`, and makes that
    /// the compaction point: a change token older than it then gets
    /// `changeTokenExpired`, because it may have missed those deletions.
    /// Tokens at or after the point keep working.
    ///
    /// - returns: the number of record tombstones removed.
    @discardableResult
    public func compactTombstones(through sequence: Int64) throws -> Int {
        try Compaction.compact(self, through: sequence)
    }

    /// Removes tombstones of records deleted before `date` (and every
    /// tombstone older than the newest of those), like
    /// `compactTombstones(through:)`. Devices that have not synced since
    /// `date` start over from a nil token.
    @discardableResult
    public func compactTombstones(olderThan date: Date) throws -> Int {
        try Compaction.compact(self, olderThan: date)
    }

    /// The compaction point: tokens older than this have expired.
    public func compactedThrough() throws -> Int64 {
        try read { try StoreMeta.integer($0, StoreMeta.compactedThrough) }
    }

    // MARK: Requests

    /// Refuses requests once `server.sqlite` is no longer the file this
    /// server opened: its directory was deleted (and perhaps made again),
    /// or the file was replaced by another store or an older copy. The
    /// handles still open would go on reading and writing a file nobody
    /// else sees; opening the directory again finds what is there now.
    func checkStoreFile() throws {
        guard let opened = storeFileIdentity, FileIdentity(path: storeFile) != opened else { return }
        throw CloudError.serverUnavailable(
            "the server directory \(directory.path) was deleted or replaced while in use; it is opened again once a whole store is back in it")
    }

    /// Runs a read in a snapshot of the store.
    package func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try checkStoreFile()
        do {
            return try pool.read { db in try body(SQLiteConnection(db)) }
        } catch {
            throw StoreFailure.map(error, directory: directory)
        }
    }

    /// Runs one write request in one IMMEDIATE transaction, then publishes
    /// the new head if it changed anything. A thrown error rolls back
    /// everything the request did.
    package func write<T>(user: String, device: String, _ body: (WriteContext) throws -> T) throws -> T {
        try checkStoreFile()
        let outcome: (value: T, changed: Bool)
        do {
            outcome = try pool.writeWithoutTransaction { db in
                var outcome: (value: T, changed: Bool)?
                try db.inTransaction(.immediate) {
                    outcome = try WriteContext.perform(
                        on: SQLiteConnection(db), now: clock(), user: user, device: device, body)
                    return .commit
                }
                guard let outcome else {
                    throw DatabaseError(resultCode: .SQLITE_INTERNAL, message: "the write transaction did not run")
                }
                return outcome
            }
        } catch {
            throw StoreFailure.map(error, directory: directory)
        }
        if outcome.changed {
            publishHead()
        }
        return outcome.value
    }

    private func publishHead() {
        headFile.publish {
            try pool.read { try StoreMeta.integer(SQLiteConnection($0), StoreMeta.sequence) }
        }
    }

    private static func prepareDirectory(_ directory: URL, createIfMissing: Bool) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw CloudError.serverUnavailable(
                    "\(directory.path) is a file, not a server directory; point --server at a directory")
            }
        } else if !createIfMissing {
            throw CloudError.serverUnavailable(
                "server directory \(directory.path) is gone (edits wait; 'reminders sync' makes a new one)")
        } else {
            if let problem = StoreFailure.makeFolders(directory) {
                throw CloudError.serverUnavailable(
                    "cannot create the server directory \(directory.path) (\(problem)); check that its parent exists and is writable")
            }
        }
        guard access(directory.path, W_OK | X_OK) == 0 else {
            throw CloudError.serverUnavailable(
                "the server directory \(directory.path) is not writable (\(String(cString: strerror(errno)))); fix its permissions or point --server elsewhere")
        }
        try checkStoreFile(directory, createIfMissing: createIfMissing)
    }

    /// A store is made only in an empty directory, and only when
    /// `createIfMissing`: a directory that holds other files is no server
    /// (a mistyped `--server` naming a folder of documents), and a running
    /// app waits for a store that is not there yet. A store file shorter
    /// than its header says is still being copied (a backup being put
    /// back): opening it would write into the copy, so it is waited for.
    private static func checkStoreFile(_ directory: URL, createIfMissing: Bool) throws {
        let path = directory.appendingPathComponent("server.sqlite").path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else {
            guard createIfMissing else {
                throw CloudError.serverUnavailable(
                    "server directory \(directory.path) holds no server.sqlite yet (being put back, or emptied); edits wait, and 'reminders sync' makes a new one")
            }
            // The accounts `reminders serve user add` makes come first.
            let others = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).filter { entry in
                !entry.hasPrefix(".") && !["accounts.sqlite", "accounts.sqlite-wal", "accounts.sqlite-shm", "accounts.sqlite-journal"].contains(entry)
            }.sorted()
            guard others.isEmpty else {
                let named = others.prefix(3).joined(separator: ", ") + (others.count > 3 ? ", …" : "")
                throw CloudError.serverUnavailable(
                    "\(directory.path) is not a server directory: it holds other files (\(named)) and no server.sqlite; point --server at a server directory, or at a new empty one")
            }
            return
        }
        var size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
        if !createIfMissing {
            // A running app opens it again once it stopped changing: a copy
            // being put back would otherwise be written into halfway.
            let modified = attributes[.modificationDate] as? Date ?? .distantPast
            guard StoreFileWatch.isSettled(path: path, size: size, modified: modified) else {
                throw CloudError.serverUnavailable(
                    "\(path) is changing (a backup being put back?); it is opened once it has not changed for a second")
            }
        }
        // A file shorter than its header says may be one a checkpoint is
        // growing (it writes the header first) or one being copied: it is
        // looked at again for a moment before it is refused. An empty file
        // is a store being made, unless it is the start of a copy.
        func isWhole() -> Bool {
            if size == 0 { return createIfMissing && !isChanging(path) }
            // A file with another header is left to the open, which calls it damaged.
            return size >= 100 && (expectedSize(path).map { size >= $0 } ?? true)
        }
        for _ in 0..<20 {
            if isWhole() { return }
            Thread.sleep(forTimeInterval: 0.05)
            size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        if isWhole() { return }
        throw CloudError.serverUnavailable(isChanging(path)
            ? "\(path) is still being written (\(size) bytes, shorter than it says): a copy being put back? Edits wait until it is whole"
            : "\(path) is shorter than it says (\(size) bytes): it was cut short; restore it from a backup or point --server at a new directory")
    }

    /// Whether a file changed within `StoreFileWatch.settleTime`.
    private static func isChanging(_ path: String) -> Bool {
        StoreFileWatch.isRecent((try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date ?? .distantPast)
    }

    /// The size an SQLite file's header gives (page size times page count),
    /// nil when the header cannot be read or gives none.
    /// Read through SQLite's file layer (`reminders_read_file_start`): this
    /// process may hold the store open through another server already (the
    /// app's live sync beside its first start's), and closing a descriptor
    /// of its own would drop that server's locks.
    static func expectedSize(_ path: String) -> Int64? {
        var header = [UInt8](repeating: 0, count: 100)
        guard reminders_read_file_start(path, &header, 100) == 100,
              header.starts(with: Array("SQLite format 3\u{0}".utf8)) else { return nil }
        func number(_ offset: Int, _ count: Int) -> Int64 {
            header[offset..<offset + count].reduce(0) { $0 << 8 | Int64($1) }
        }
        let pageSize = number(16, 2) == 1 ? 65_536 : number(16, 2)
        // The page count is valid only while the change counter matches
        // the "version valid for" number (SQLite 3.7.0 and later).
        guard number(24, 4) == number(92, 4) else { return pageSize }
        return pageSize * max(1, number(28, 4))
    }
}

/// The device and inode of a file, to tell whether a path still names the
/// file that was opened.
package struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64

    package init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// Whether a store file a running app opens again has settled
/// (`DirectoryServer.init(createIfMissing: false)`): not changed for
/// `settleTime`, by its change time (`cp -a` sets the original's only once
/// the copy is whole; a store in WAL mode changes its main file only at a
/// checkpoint), or by the same size and change time seen that long ago.
enum StoreFileWatch {
    static let settleTime: TimeInterval = 1
    private static let seen = NSLock()
    nonisolated(unsafe) private static var sightings: [String: (size: Int64, modified: Date, since: Date)] = [:]

    /// Whether a change at `modified` is within `settleTime` of `now`.
    static func isRecent(_ modified: Date, now: Date = Date()) -> Bool {
        now.timeIntervalSince(modified) < settleTime
    }

    static func isSettled(path: String, size: Int64, modified: Date, now: Date = Date()) -> Bool {
        if !isRecent(modified, now: now) { return true }
        return seen.withLock {
            if let last = sightings[path], last.size == size, last.modified == modified {
                return now.timeIntervalSince(last.since) >= settleTime
            }
            sightings[path] = (size, modified, now)
            return false
        }
    }
}
