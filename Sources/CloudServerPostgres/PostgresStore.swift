import CloudServer
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// A server store in a PostgreSQL database: the same requests, semantics
/// and errors as the directory store (`StoreDatabase` runs on both), for
/// a deployment where several `reminders serve` processes share one
/// database.
///
/// - Writes run one at a time across every process: each takes the row
///   lock of the change counter first (as SQLite's `BEGIN IMMEDIATE` does),
///   so sequences are handed out without gaps and commit in order, and a
///   token never skips a change committed late.
/// - Reads run in one `REPEATABLE READ` snapshot each.
/// - A commit that changed anything notifies the channel `reminders_head`
///   with the new head; every process listens, so a device connected to
///   one server hears of a change saved through another.
/// - Assets are kept in the database, so every process serves every asset.
public final class PostgresStore: RecordStore, CloudStore, StoreTransactions {
    /// The layout this program writes, kept in `meta`; a database with a
    /// higher one is refused.
    public static let formatVersion: Int64 = 1
    static let headChannel = "reminders_head"

    public let address: PostgresAddress
    let pool: SessionPool
    private let clock: @Sendable () -> Date
    private let latestHead: Atomic<Int64>
    private let listener: HeadListener
    private let statistics = PlannerStatistics()
    package var assets: any AssetStoring { DatabaseAssets(store: self) }

    /// Connects, creates the tables in an empty database (or checks an
    /// existing one), and starts listening for other processes' commits.
    /// - throws: `CloudError.serverUnavailable` when the database cannot be
    ///   reached or holds something else; `incompatibleVersion` for a store
    ///   written by a newer program.
    public init(address: PostgresAddress, clock: @escaping @Sendable () -> Date = { Date() }) throws {
        self.address = address
        self.clock = clock
        pool = SessionPool(address: address)
        latestHead = Atomic(0)
        listener = HeadListener()
        try mapped { try pool.withSession { try PostgresSchema.prepare($0, address: address) } }
        latestHead.store(try currentSequence(), ordering: .relaxed)
        listener.start(store: self)
    }

    deinit {
        listener.stop()
    }

    public func cloudDatabase(user: String, scope: DatabaseScope, device: String) -> any CloudDatabase {
        database(user: user, scope: scope, device: device)
    }

    public func database(user: String, scope: DatabaseScope, device: String) -> StoreDatabase {
        StoreDatabase(store: self, userName: user, scope: scope, deviceName: device)
    }

    /// The latest change sequence any process committed, as the channel
    /// last told it (cheap: the long poll asks it often).
    public func head() -> Int64 {
        latestHead.load(ordering: .relaxed)
    }

    /// The latest change sequence, read from the database.
    public func currentSequence() throws -> Int64 {
        try read { try StoreMeta.integer($0, StoreMeta.sequence) }
    }

    /// Removes tombstones with a sequence up to `sequence`, as
    /// `DirectoryServer.compactTombstones(through:)` does.
    @discardableResult
    public func compactTombstones(through sequence: Int64) throws -> Int {
        try Compaction.compact(self, through: sequence)
    }

    /// Removes tombstones of records deleted before `date`, as
    /// `DirectoryServer.compactTombstones(olderThan:)` does.
    @discardableResult
    public func compactTombstones(olderThan date: Date) throws -> Int {
        try Compaction.compact(self, olderThan: date)
    }

    /// The compaction point: tokens older than this have expired.
    public func compactedThrough() throws -> Int64 {
        try read { try StoreMeta.integer($0, StoreMeta.compactedThrough) }
    }

    /// A consistent snapshot of the whole store.
    public func dump() throws -> ServerDump {
        try mapped { try ServerDump.read(self, location: "\(address)", formatVersion: Int(Self.formatVersion)) }
    }

    /// Stops listening and closes every connection.
    public func close() {
        listener.stop()
        statistics.stop()
        pool.closeAll()
    }

    /// Raises the head to `head`, never lowers it: this process's own
    /// commit, another process's notice and the listener's catch-up read
    /// arrive in any order, and an older one must not undo a newer one.
    func heard(head: Int64) {
        latestHead.max(head, ordering: .relaxed)
    }

    // MARK: Transactions

    package func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try mapped {
            try pool.withSession { session in
                try session.inTransaction("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY") { try body(session) }
            }
        }
    }

    package func write<T>(user: String, device: String, _ body: (WriteContext) throws -> T) throws -> T {
        let (value, head) = try mapped {
            try pool.withSession { session in
                try session.inTransaction("BEGIN") {
                    // One writer at a time, in every process: the counter's row lock.
                    try session.execute("SELECT value FROM meta WHERE key = ? FOR UPDATE", [StoreMeta.sequence])
                    let outcome = try WriteContext.perform(on: session, now: clock(), user: user, device: device, body)
                    guard outcome.changed else { return (outcome.value, Int64?.none) }
                    let head = try StoreMeta.integer(session, StoreMeta.sequence)
                    // Delivered to every listener when, and only if, this commits.
                    try session.execute("SELECT pg_notify(?, ?)", [Self.headChannel, String(head)])
                    return (outcome.value, head)
                }
            }
        }
        if let head {
            heard(head: head)
            statistics.refreshIfStale(pool)
        }
        return value
    }

    package func transaction<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try mapped { try pool.withSession { session in try session.inTransaction("BEGIN") { try body(session) } } }
    }

    /// Runs `body`, turning what PostgreSQL or the connection threw into
    /// the `serverUnavailable` clients act on.
    func mapped<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as CloudError {
            throw error
        } catch let error as StoredDataCorrupted {
            throw CloudError.serverUnavailable("the PostgreSQL store \(address) holds data this program cannot read (\(error.message)); restore it from a backup")
        } catch {
            throw CloudError.serverUnavailable("the PostgreSQL store \(address) failed: \(Self.describe(error))")
        }
    }

    /// What went wrong, in PostgreSQL's own words where it gave any.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] {
            let code = error.serverInfo?[.sqlState].map { " (\($0))" } ?? ""
            return message + code
        }
        if let underlying = error.underlying {
            let text = "\(underlying)"
            if text.contains("Connection refused") || text.contains("No such file") {
                return "nothing takes connections there; is PostgreSQL running, and on that address?"
            }
            return "cannot connect (\(text))"
        }
        return "\(error.code)"
    }
}

extension StoreSession {
    /// Runs `body` between `begin` and COMMIT, and rolls back if it throws.
    func inTransaction<T>(_ begin: String, _ body: () throws -> T) throws -> T {
        try execute(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            try collect()
            return value
        } catch {
            if !connection.isClosed {
                try? execute("ROLLBACK")
                try? collect()
            }
            throw error
        }
    }
}

/// Keeps PostgreSQL's planner statistics abreast of a table that grows
/// fast. Without them the planner guesses that a zone holds a handful of
/// records, and looks a batch's records up by walking the zone's change
/// index with the names as a filter: every batch read the whole zone, and
/// the first upload of 100,000 reminders took 58 s instead of about ten.
/// Autovacuum analyzes at most once a minute, too late for an upload; so
/// after a commit, at most once a second, a table that has changed by more
/// rows than it held at its last analysis is analyzed again, off the
/// request's path. The table doubles between analyses, so one that fills
/// to n rows is analyzed about log2(n / 1,000) times; a table in its
/// steady state is left to autovacuum.
final class PlannerStatistics: Sendable {
    private let checkedAt = Mutex<ContinuousClock.Instant?>(nil)
    private let running = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    private let queue = DispatchQueue(label: "reminders.postgres.analyze")

    func refreshIfStale(_ pool: SessionPool) {
        let now = ContinuousClock.now
        let due = checkedAt.withLock { last -> Bool in
            if let last, now - last < .seconds(1) { return false }
            last = now
            return true
        }
        // One at a time: a check still running (an ANALYZE of a big table)
        // is not queued behind.
        guard due, !stopped.load(ordering: .relaxed),
              running.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        queue.async {
            defer { self.running.store(false, ordering: .releasing) }
            guard !self.stopped.load(ordering: .relaxed) else { return }
            // A failure leaves the statistics to autovacuum, as before. A
            // table another session holds (its own ANALYZE, a vacuum, an
            // index being built) is skipped rather than waited for.
            try? pool.withSession { session in
                let stale = try session.texts("""
                    SELECT quote_ident(s.schemaname) || '.' || quote_ident(s.relname)
                    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
                    WHERE s.schemaname = current_schema() AND s.n_mod_since_analyze > greatest(1000, c.reltuples)
                    """)
                for table in stale where !self.stopped.load(ordering: .relaxed) {
                    try session.execute("ANALYZE (SKIP_LOCKED) \(table)", [])
                    try session.collect()
                }
            }
        }
    }

    /// No check starts after this; one under way is waited for, so that
    /// the store holds no connection once it is closed.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        queue.sync {}
    }
}

/// The store's connections, opened as requests need them and kept for the
/// next ones. A connection that failed is dropped, never reused.
final class SessionPool: Sendable {
    let address: PostgresAddress
    private let idle = Mutex<[PostgresConnection]>([])
    private let closed = Atomic<Bool>(false)
    private let nextID = Atomic<Int>(1)
    /// How many idle connections are kept.
    private static let keep = 16
    let logger = Logger(label: "reminders.postgres")

    init(address: PostgresAddress) {
        self.address = address
    }

    deinit {
        closeAll()
    }

    func connect() throws -> PostgresConnection {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        return try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(), configuration: try address.configuration(),
            id: id, logger: logger
        ).wait()
    }

    func withSession<T>(_ body: (StoreSession) throws -> T) throws -> T {
        // An idle connection the server closed meanwhile (a restart) is
        // dropped for another.
        var connection = try idle.withLock { $0.popLast() } ?? connect()
        while connection.isClosed {
            connection = try idle.withLock { $0.popLast() } ?? connect()
        }
        let session = StoreSession(connection, logger: logger)
        do {
            let value = try body(session)
            checkIn(connection)
            return value
        } catch {
            // A connection that failed mid-request may be in any state.
            if connection.isClosed || !(error is CloudError) {
                Self.discard(connection)
            } else {
                checkIn(connection)
            }
            throw error
        }
    }

    private func checkIn(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        let kept = idle.withLock { connections -> Bool in
            // A request that ends after the pool closed keeps no connection.
            guard !closed.load(ordering: .relaxed), connections.count < Self.keep else { return false }
            connections.append(connection)
            return true
        }
        if !kept { Self.discard(connection) }
    }

    func closeAll() {
        for connection in idle.withLock({ connections in
            closed.store(true, ordering: .relaxed)
            defer { connections.removeAll() }
            return connections
        }) {
            Self.discard(connection)
        }
    }

    /// Closes a connection, holding on to it until it is closed (one let
    /// go while still open is a programming error to PostgresNIO).
    static func discard(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }
}

/// Listens on the head channel on a connection of its own, on a thread of
/// its own, and connects again (reading the head afresh) whenever the
/// connection drops.
final class HeadListener: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let current = Mutex<PostgresConnection?>(nil)

    func start(store: PostgresStore) {
        let thread = Thread { [weak store] in
            while let store, !self.stopped.load(ordering: .relaxed) {
                self.listen(store)
                guard !self.stopped.load(ordering: .relaxed) else { return }
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        thread.name = "reminders-postgres-listen"
        thread.start()
    }

    private func listen(_ store: PostgresStore) {
        guard let connection = try? store.pool.connect() else { return }
        current.withLock { $0 = connection }
        defer { current.withLock { $0 = nil } }
        connection.addListener(channel: PostgresStore.headChannel) { [weak store] _, notification in
            if let head = Int64(notification.payload) { store?.heard(head: head) }
        }
        guard (try? connection.query(PostgresQuery(unsafeSQL: "LISTEN \(PostgresStore.headChannel)"), logger: store.pool.logger).wait()) != nil else {
            SessionPool.discard(connection)
            return
        }
        // What committed while nobody listened.
        if let head = try? store.currentSequence() { store.heard(head: head) }
        if stopped.load(ordering: .relaxed) { SessionPool.discard(connection) }
        try? connection.closeFuture.wait()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        current.withLock { connection in connection.map(SessionPool.discard) }
    }
}
