import GRDB

/// Work an app does row by row in triggers of its own (a search index,
/// counts) that a big download does better once, at its end.
///
/// The engine calls `begin` in the transaction of the first page of a
/// zone's first download, when that page is big and brings more records
/// than the device holds (`isWorthIt`), and `end` in the transaction of
/// the zone's last page, or in one of its own should the fetch stop
/// before. Both must do nothing when called again. `begin` must leave in
/// the database what the app needs to finish by itself should the process
/// stop before `end`: the engine keeps no mark of its own.
public struct BulkLoad: Sendable {
    /// Whether a page of `incoming` records, arriving at a device that
    /// holds `existing` synced rows, is worth a bulk load.
    public var isWorthIt: @Sendable (_ incoming: Int, _ existing: Int) -> Bool
    public var begin: @Sendable (Database) throws -> Void
    public var end: @Sendable (Database) throws -> Void

    public init(isWorthIt: @escaping @Sendable (_ incoming: Int, _ existing: Int) -> Bool,
                begin: @escaping @Sendable (Database) throws -> Void,
                end: @escaping @Sendable (Database) throws -> Void) {
        self.isWorthIt = isWorthIt
        self.begin = begin
        self.end = end
    }
}
