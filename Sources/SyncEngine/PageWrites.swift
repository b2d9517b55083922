import CloudServer
import GRDB

/// What applying one page's saves keeps from record to record: rows known
/// to exist (sparing the lookup of a parent written just before its
/// children), and, when the page is applied unguarded, new rows waiting to
/// be inserted many per statement.
///
/// Why batch: every statement that writes through a trigger into the
/// search index opens a statement savepoint, and SQLite's full-text index
/// writes its pending terms to disk at each one; a row per statement made
/// the index write a segment, and merge them, for every row. The caller
/// flushes before a record of another table, so parents are in the
/// database before their children, and at the end of the saves.
final class PageWrites {
    /// Rows per statement, largest first; a remainder takes the smaller ones.
    static let chunkSizes = [256, 64, 16, 4, 1]

    let batchingInserts: Bool
    /// Whether the page's records were taken to be new here without a
    /// look (`SyncEngine.applyPage`): their rows and metadata go in with a
    /// plain INSERT, which fails, and sends the page down the guarded
    /// path, should one exist after all (an upsert would write over it).
    let assumesNew: Bool
    private var present: Set<String> = []
    /// Metadata of the page's records read up front (nil inside: none).
    private var metadata: [String: Metadata?] = [:]
    private var absent: Set<String> = []
    private var queued: [[String]: (table: TableSchema, rows: [[DatabaseValue]])] = [:]
    /// The new rows' metadata (`Metadata.values`), saved after the rows.
    private var queuedMetadata: [[DatabaseValue]] = []
    /// The table of the queued rows.
    private(set) var queuedTable: String?

    /// Rows earlier pages of the fetch wrote, for a page applied unguarded.
    let known: KnownRows?

    /// Whether no record was held for its parent when the page began
    /// (`sync_held_records` empty): then none of the page's records has an
    /// older version held to forget.
    let holdsNone: Bool

    init(batchingInserts: Bool, assumesNew: Bool = false, known: KnownRows? = nil, holdsNone: Bool = false) {
        self.batchingInserts = batchingInserts
        self.assumesNew = assumesNew && batchingInserts
        self.known = known
        self.holdsNone = holdsNone
    }

    func isPresent(_ recordName: String) -> Bool {
        present.contains(recordName) || known?.contains(recordName) == true
    }

    /// The rows this page found or wrote, for `KnownRows`.
    var presentNames: Set<String> { present }

    /// Room for `count` more records read up front.
    func reserve(_ count: Int) {
        metadata.reserveCapacity(metadata.count + count)
        present.reserveCapacity(present.count + count)
    }

    /// Notes a record as read up front: `metadata`, and whether its row
    /// exists.
    func prefetched(_ recordName: String, metadata: Metadata?, exists: Bool) {
        self.metadata[recordName] = .some(metadata)
        if !exists { absent.insert(recordName) }
    }

    /// The record's metadata as read up front: `.some(nil)` for none (for
    /// every record of a page that `assumesNew`), nil when not read up
    /// front.
    func prefetchedMetadata(_ recordName: String) -> Metadata?? { assumesNew ? .some(nil) : metadata[recordName] }

    func isKnownAbsent(_ recordName: String) -> Bool { assumesNew || absent.contains(recordName) }

    func markPresent(_ recordName: String) { present.insert(recordName) }

    /// `values`: the primary key, then `columns`.
    func queueInsert(_ table: TableSchema, columns: [String], values: [DatabaseValue]) {
        queuedTable = table.name
        queued[columns, default: (table, [])].rows.append(values)
    }

    /// A new row's metadata, saved with the queued rows.
    func queueMetadata(_ values: [DatabaseValue]) {
        queuedMetadata.append(values)
    }

    func takeQueuedMetadata() -> [[DatabaseValue]] {
        defer { queuedMetadata = [] }
        return queuedMetadata
    }

    func takeQueued() -> [(table: TableSchema, columns: [String], rows: [[DatabaseValue]])] {
        defer {
            queued = [:]
            queuedTable = nil
        }
        return queued.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { ($0.value.table, $0.key, $0.value.rows) }
    }
}

/// Rows a zone's fetch wrote or found in its earlier pages, so that a later
/// page need not look each parent up again (a tag's link finding its
/// reminder, a page or more back: 270 ms of a first download of 100,000).
///
/// Only a hint: a row known here may have gone since (deleted by a later
/// page's cascade, or by the user between pages). A page applied unguarded
/// writes through the schema's foreign keys, so a child of such a row
/// fails its statement and the page is applied again guarded, without
/// these hints, looking every parent up. For the same reason the names
/// are kept as hashes: a collision only costs that fallback.
///
/// It also keeps every record name the fetch's pages carried, saved or
/// deleted, applied or not (`mayHold`): on a device that held no synced
/// rows when the fetch began, a record no earlier page carried can only
/// be here if the user made it since, under a key derived as the other
/// device derived it (a tag, a tag's link), which the plain INSERT of
/// `PageWrites.assumesNew` finds.
final class KnownRows {
    private var hashes: Set<Int> = []
    private var carried: Set<Int> = []

    func contains(_ recordName: String) -> Bool { hashes.contains(recordName.hashValue) }

    /// Whether an earlier page carried the record (or one whose name
    /// hashes alike: a look that was not needed).
    func mayHold(_ recordName: String) -> Bool { carried.contains(recordName.hashValue) }

    /// After a page, however it was applied: every record it carried.
    func noteCarried(_ page: ZoneChanges) {
        carried.reserveCapacity(carried.count + page.changed.count + page.deleted.count)
        for record in page.changed { carried.insert(record.id.recordName.hashValue) }
        for deletion in page.deleted { carried.insert(deletion.id.recordName.hashValue) }
    }

    /// After a page applied unguarded: the rows it wrote or found, less
    /// the records it deleted.
    func absorb(present: Set<String>, deleted: [RecordID]) {
        for name in present { hashes.insert(name.hashValue) }
        for id in deleted { hashes.remove(id.recordName.hashValue) }
    }
}
