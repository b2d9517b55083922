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
    private var present: Set<String> = []
    /// Metadata of the page's records read up front (nil inside: none).
    private var metadata: [String: Metadata?] = [:]
    private var absent: Set<String> = []
    private var queued: [[String]: (table: TableSchema, rows: [[DatabaseValue]])] = [:]
    /// The new rows' metadata (`Metadata.values`), saved after the rows.
    private var queuedMetadata: [[DatabaseValue]] = []
    /// The table of the queued rows.
    private(set) var queuedTable: String?

    init(batchingInserts: Bool) {
        self.batchingInserts = batchingInserts
    }

    func isPresent(_ recordName: String) -> Bool { present.contains(recordName) }

    func prefetched(_ recordName: String, metadata: Metadata?, exists: Bool) {
        self.metadata[recordName] = .some(metadata)
        if !exists { absent.insert(recordName) }
    }

    /// The record's metadata as read up front: `.some(nil)` for none, nil
    /// when not read up front.
    func prefetchedMetadata(_ recordName: String) -> Metadata?? { metadata[recordName] }

    func isKnownAbsent(_ recordName: String) -> Bool { absent.contains(recordName) }

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
