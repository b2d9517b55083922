import Foundation

/// Where a server keeps its records: a directory (SQLite) or a PostgreSQL
/// database. The requests of `StoreDatabase` (batches, change feeds,
/// sharing) are written once, on `StoreConnection`, and run on either.
///
/// A store gives each request one transaction: reads see one snapshot,
/// and writes run one at a time, each seeing every write committed before
/// it, so that change sequences are handed out without gaps and commit in
/// order.
package protocol RecordStore: Sendable {
    /// Runs a read in one snapshot of the store.
    func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T
    /// Runs one write request in one transaction (see
    /// `WriteContext.perform`), after every write committed before it and
    /// before any that follows. A thrown error rolls back everything.
    func write<T>(user: String, device: String, _ body: (WriteContext) throws -> T) throws -> T
    /// The store's asset bytes.
    var assets: any AssetStoring { get }
}

/// Asset bytes, by SHA-256.
package protocol AssetStoring: Sendable {
    /// Stores bytes under their hash; storing the same bytes again is a no-op.
    func upload(_ data: Data) throws -> Asset
    /// Whether the store holds the asset, with the right size.
    func contains(_ asset: Asset) -> Bool
    /// The asset's bytes, verified against its hash.
    func read(_ asset: Asset) throws -> Data
    /// Where the bytes are kept, for messages.
    var location: String { get }
}

/// A database that runs plain transactions, for tables beside the store's
/// own (the accounts of a network service).
package protocol StoreTransactions: Sendable {
    /// Runs `body` in one read-write transaction; a thrown error rolls it back.
    func transaction<T>(_ body: (any StoreConnection) throws -> T) throws -> T
}
