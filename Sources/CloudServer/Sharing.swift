import Foundation

/// The sharing requests of one database: owners create shares, invite and
/// remove participants, delete shares; participants accept and leave.
///
/// Every change that alters who sees what updates `sharedView` in the same
/// transaction (see `SharedVisibility`), so access starts and ends at once,
/// and participants' next fetches report it.
struct ShareRequests {
    let database: StoreDatabase

    private var store: any RecordStore { database.store }
    private var userName: String { database.userName }

    func save(rootRecordID root: RecordID, participants: [(userName: String, permission: SharePermission)]) throws -> Share {
        guard database.scope == .private else {
            throw CloudError.permissionFailure("shares are saved in the private database of the root record's owner")
        }
        guard root.zoneID.ownerName == userName else {
            throw CloudError.permissionFailure("record \(root.recordName) belongs to \(root.zoneID.ownerName); only its owner can share it")
        }
        for participant in participants {
            if participant.userName.trimmingCharacters(in: .whitespaces).isEmpty {
                throw CloudError.shareNotFound("a participant's user name is empty")
            }
            if participant.userName == userName {
                throw CloudError.permissionFailure("\(userName) owns the share of \(root.recordName) and cannot also be a participant")
            }
        }
        return try store.write(user: userName, device: database.deviceName) { context in
            let db = context.db
            guard try context.zoneState(root.zoneID) == .live else { throw CloudError.zoneNotFound(root.zoneID) }
            guard let stored = try StoredRecord.fetch(db, root), !stored.isDeleted else { throw CloudError.unknownItem(root) }
            let shareID: String
            if let existing = try ShareCoverage(db: db).share(rootedAt: root) {
                shareID = existing
            } else {
                shareID = UUID().uuidString.lowercased()
                try db.execute(
                    "INSERT INTO share (id, ownerName, zoneName, rootRecordName, createdSequence) VALUES (?, ?, ?, ?, ?)",
                    [shareID, root.zoneID.ownerName, root.zoneID.name, root.recordName, context.nextSequence()])
            }
            for (name, permission) in participants {
                let current = try Self.participant(db, shareID: shareID, userName: name)
                switch current {
                case nil:
                    try db.execute(
                        "INSERT INTO participant (shareID, userName, permission, status, sequence) VALUES (?, ?, ?, 'pending', ?)",
                        [shareID, name, permission.rawValue, context.nextSequence()])
                case let participant? where participant.status == .removed:
                    // Inviting again someone who was removed or left.
                    try update(context, shareID: shareID, userName: name, permission: permission, status: .pending)
                case let participant? where participant.permission != permission:
                    try update(context, shareID: shareID, userName: name, permission: permission, status: participant.status)
                default:
                    break
                }
            }
            return try Self.load(db, id: shareID)
        }
    }

    func removeParticipant(shareID: String, userName participantName: String) throws -> Share {
        try store.write(user: userName, device: database.deviceName) { context in
            let share = try ownedShare(context.db, id: shareID)
            guard let participant = try Self.participant(context.db, shareID: shareID, userName: participantName) else {
                throw CloudError.shareNotFound("\(participantName) is not a participant of share \(shareID)")
            }
            if participant.status != .removed {
                try update(context, shareID: shareID, userName: participantName, permission: participant.permission, status: .removed)
                try SharedVisibility(context: context).refresh(subtreesOf: [share.rootRecordID], changed: [:])
            }
            return try Self.load(context.db, id: shareID)
        }
    }

    func delete(shareID: String) throws {
        try store.write(user: userName, device: database.deviceName) { context in
            let share = try ownedShare(context.db, id: shareID)
            try context.db.execute("DELETE FROM share WHERE id = ?", [shareID])
            // Pending invitations vanish too: move the head so invitees notice.
            _ = context.nextSequence()
            try SharedVisibility(context: context).refresh(subtreesOf: [share.rootRecordID], changed: [:])
        }
    }

    func fetchAll() throws -> [Share] {
        try store.read { db in
            let ids: [String]
            switch database.scope {
            case .private:
                ids = try db.texts("SELECT id FROM share WHERE ownerName = ? ORDER BY id", [userName])
            case .shared:
                ids = try db.texts("""
                    SELECT s.id FROM share s JOIN participant p ON p.shareID = s.id
                    WHERE p.userName = ? AND p.status IN ('pending', 'accepted')
                    ORDER BY s.id
                    """, [userName])
            }
            return try ids.map { try Self.load(db, id: $0) }
        }
    }

    func accept(shareID: String) throws -> Share {
        try store.write(user: userName, device: database.deviceName) { context in
            let share = try invitedShare(context.db, id: shareID)
            guard let participant = try Self.participant(context.db, shareID: shareID, userName: userName) else {
                throw CloudError.shareNotFound("\(userName) was not invited to share \(shareID)")
            }
            switch participant.status {
            case .removed:
                throw CloudError.permissionFailure(
                    "\(userName) was removed from share \(shareID) or left it; ask \(share.ownerName) for a new invitation")
            case .accepted:
                break
            case .pending:
                try update(context, shareID: shareID, userName: userName, permission: participant.permission, status: .accepted)
                try SharedVisibility(context: context).refresh(subtreesOf: [share.rootRecordID], changed: [:])
            }
            return try Self.load(context.db, id: shareID)
        }
    }

    func leave(shareID: String) throws {
        try store.write(user: userName, device: database.deviceName) { context in
            let share = try invitedShare(context.db, id: shareID)
            guard let participant = try Self.participant(context.db, shareID: shareID, userName: userName) else {
                throw CloudError.shareNotFound("\(userName) is not a participant of share \(shareID)")
            }
            guard participant.status != .removed else { return }
            try update(context, shareID: shareID, userName: userName, permission: participant.permission, status: .removed)
            try SharedVisibility(context: context).refresh(subtreesOf: [share.rootRecordID], changed: [:])
        }
    }

    // MARK: Rows

    private func ownedShare(_ db: any StoreConnection, id: String) throws -> Share {
        guard database.scope == .private else {
            throw CloudError.permissionFailure("shares are managed in the private database of their owner")
        }
        let share = try Self.load(db, id: id)
        guard share.ownerName == userName else {
            throw CloudError.permissionFailure("share \(id) belongs to \(share.ownerName); only its owner can change it")
        }
        return share
    }

    private func invitedShare(_ db: any StoreConnection, id: String) throws -> Share {
        let share = try Self.load(db, id: id)
        guard share.ownerName != userName else {
            throw CloudError.permissionFailure("\(userName) owns share \(id); delete it instead")
        }
        return share
    }

    private func update(_ context: WriteContext, shareID: String, userName: String, permission: SharePermission, status: ParticipantStatus) throws {
        try context.db.execute(
            "UPDATE participant SET permission = ?, status = ?, sequence = ? WHERE shareID = ? AND userName = ?",
            [permission.rawValue, status.rawValue, context.nextSequence(), shareID, userName])
    }

    static func participant(_ db: any StoreConnection, shareID: String, userName: String) throws -> ShareParticipant? {
        guard let row = try db.row(
            "SELECT permission, status FROM participant WHERE shareID = ? AND userName = ?",
            [shareID, userName]) else { return nil }
        return try participant(userName: userName, permission: try row.text(0), status: try row.text(1))
    }

    /// A share with its participants sorted by user name.
    static func load(_ db: any StoreConnection, id: String) throws -> Share {
        guard let row = try db.row("SELECT ownerName, zoneName, rootRecordName FROM share WHERE id = ?", [id]) else {
            throw CloudError.shareNotFound("no share with id \(id)")
        }
        let owner = try row.text(0)
        let root = RecordID(recordName: try row.text(2), zoneID: ZoneID(name: try row.text(1), ownerName: owner))
        let rows = try db.rows(
            "SELECT userName, permission, status FROM participant WHERE shareID = ? ORDER BY userName", [id])
        let participants = try rows.map { try participant(userName: try $0.text(0), permission: try $0.text(1), status: try $0.text(2)) }
        return Share(id: id, rootRecordID: root, ownerName: owner, participants: participants)
    }

    private static func participant(userName: String, permission rawPermission: String, status rawStatus: String) throws -> ShareParticipant {
        guard let permission = SharePermission(rawValue: rawPermission), let status = ParticipantStatus(rawValue: rawStatus) else {
            throw StoredDataCorrupted(message: "participant \(userName) has permission \(rawPermission) and status \(rawStatus)")
        }
        return ShareParticipant(userName: userName, permission: permission, status: status)
    }
}
