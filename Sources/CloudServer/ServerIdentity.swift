import Foundation

/// A point in one store's history: which store, a change sequence, and the
/// random id of the commit that ended there.
///
/// A device remembers the latest mark it saw (every answer that changes or
/// reads the store carries one) and checks it before it believes any answer
/// that means "gone": a server directory deleted and made again, another
/// directory, or a store put back from an older copy answers `unknownItem`,
/// `zoneNotFound` or an expired token for records it never had, and those
/// must not become deletes.
///
/// - `storeID` is drawn at random when a store is created: a store made
///   again, or another one, has another.
/// - A store restored from an older copy has a lower head than a device's
///   mark, or, once written to again, another commit id at the mark's
///   sequence.
public struct HistoryMark: Hashable, Codable, Sendable {
    public var storeID: String
    public var sequence: Int64
    /// Nil at sequence 0, and for sequences written before stores kept
    /// commit ids.
    public var commit: String?

    public init(storeID: String, sequence: Int64, commit: String?) {
        self.storeID = storeID
        self.sequence = sequence
        self.commit = commit
    }

    /// The mark of `sequence` in the store `db` holds.
    static func read(_ db: any StoreConnection, sequence: Int64) throws -> HistoryMark {
        HistoryMark(
            storeID: try StoreMeta.text(db, StoreMeta.serverID), sequence: sequence,
            commit: try db.text("SELECT id FROM commitLog WHERE sequence = ?", [sequence]))
    }

    /// The latest mark of the store `db` holds.
    static func head(_ db: any StoreConnection) throws -> HistoryMark {
        try read(db, sequence: try StoreMeta.integer(db, StoreMeta.sequence))
    }
}

/// The answer to `CloudDatabase.serverIdentity(checking:)`: where the store
/// stands, and what it holds at the sequence a device asked about.
public struct ServerIdentity: Hashable, Codable, Sendable {
    public var head: HistoryMark
    /// The store's mark at the asked sequence; nil if it has not reached
    /// that sequence.
    public var checked: HistoryMark?

    public init(head: HistoryMark, checked: HistoryMark?) {
        self.head = head
        self.checked = checked
    }

    static func read(_ db: any StoreConnection, checking sequence: Int64?) throws -> ServerIdentity {
        let head = try HistoryMark.head(db)
        let checked = try sequence.flatMap { $0 <= head.sequence ? try HistoryMark.read(db, sequence: $0) : nil }
        return ServerIdentity(head: head, checked: checked)
    }

    /// Whether this store is the one whose history reached `mark`: the same
    /// store, as far along, with the same commit there. A mark without a
    /// commit id (from before stores kept them) checks store and sequence.
    public func continues(_ mark: HistoryMark) -> Bool {
        guard head.storeID == mark.storeID, let checked else { return false }
        return mark.commit == nil || checked.commit == mark.commit
    }
}
