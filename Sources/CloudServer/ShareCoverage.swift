import Foundation

/// Answers "which shares cover this record?" by walking its parent chain.
///
/// A share covers its root and every live record whose chain of parents
/// reaches the root through live records. Only parents of the same owner
/// count: otherwise one user's share could cover, and open to writes,
/// another user's records. Coverage is computed from the
/// current parents rather than stored, so a record moved to another parent
/// is covered by its new parent's shares at once.
///
/// Results are memoized: call `reset()` after any write that changes
/// records or shares.
final class ShareCoverage {
    private let db: any StoreConnection
    private var memo: [RecordID: [String]] = [:]
    private var rootMemo: [RecordID: String?] = [:]
    private var viewerMemo: [String: Set<String>] = [:]

    init(db: any StoreConnection) {
        self.db = db
    }

    func reset() {
        memo.removeAll()
        rootMemo.removeAll()
        viewerMemo.removeAll()
    }

    /// The ids of the shares covering a record; empty for a deleted or
    /// missing record.
    func shares(covering id: RecordID) throws -> [String] {
        var path: [RecordID] = []
        var seen: Set<RecordID> = []
        var inherited: [String] = []
        var current: RecordID? = id
        while let link = current {
            if let known = memo[link] {
                inherited = known
                break
            }
            // A cycle of parents reaches no root beyond itself.
            guard seen.insert(link).inserted, let parent = try liveParent(of: link) else { break }
            path.append(link)
            current = parent.parent
        }
        var covering = inherited
        for link in path.reversed() {
            if let share = try share(rootedAt: link) {
                covering.append(share)
            }
            memo[link] = covering
        }
        return memo[id] ?? inherited
    }

    /// The shares a record would be covered by if it were saved under
    /// `parent`: those rooted at the record itself, plus the parent's.
    func shares(covering id: RecordID, underParent parent: RecordID?) throws -> [String] {
        var covering: [String] = []
        if let parent, parent.zoneID.ownerName == id.zoneID.ownerName {
            covering = try shares(covering: parent)
        }
        if let own = try share(rootedAt: id) {
            covering.append(own)
        }
        return covering
    }

    /// The id of the share whose root is `id`, if any.
    func share(rootedAt id: RecordID) throws -> String? {
        if let known = rootMemo[id] { return known }
        let share = try db.text("""
            SELECT id FROM share WHERE ownerName = ? AND zoneName = ? AND rootRecordName = ?
            """, [id.zoneID.ownerName, id.zoneID.name, id.recordName])
        rootMemo[id] = share
        return share
    }

    /// Users who see a share's records: its accepted participants.
    func viewers(of shareID: String) throws -> Set<String> {
        if let known = viewerMemo[shareID] { return known }
        let viewers = Set(try db.texts("""
            SELECT userName FROM participant WHERE shareID = ? AND status = 'accepted'
            """, [shareID]))
        viewerMemo[shareID] = viewers
        return viewers
    }

    /// Users who see a record in their shared database.
    func viewers(of id: RecordID) throws -> Set<String> {
        var viewers: Set<String> = []
        for share in try shares(covering: id) {
            viewers.formUnion(try self.viewers(of: share))
        }
        return viewers
    }

    /// What `userName` may do with records covered by `shares`: the best
    /// permission among the shares the user accepted, or nil.
    func access(of userName: String, through shares: [String]) throws -> SharePermission? {
        var best: SharePermission?
        for share in shares {
            guard let raw = try db.text("""
                    SELECT permission FROM participant WHERE shareID = ? AND userName = ? AND status = 'accepted'
                    """, [share, userName]),
                  let permission = SharePermission(rawValue: raw) else { continue }
            if permission == .readWrite { return .readWrite }
            best = permission
        }
        return best
    }

    private struct Link {
        var parent: RecordID?
    }

    /// The parent link of a live record; nil if the record is deleted or
    /// missing, which ends a chain.
    private func liveParent(of id: RecordID) throws -> Link? {
        guard let row = try db.row("""
            SELECT parentOwnerName, parentZoneName, parentRecordName FROM record
            WHERE ownerName = ? AND zoneName = ? AND recordName = ? AND isDeleted = 0
            """, [id.zoneID.ownerName, id.zoneID.name, id.recordName]) else {
            return nil
        }
        guard let owner = try row.optionalText(0),
              let zone = try row.optionalText(1),
              let name = try row.optionalText(2),
              owner == id.zoneID.ownerName else {
            return Link(parent: nil)
        }
        return Link(parent: RecordID(recordName: name, zoneID: ZoneID(name: zone, ownerName: owner)))
    }
}
