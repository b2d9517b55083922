import CloudServer

extension CloudDatabase {
    /// Every record of `zone` the server holds, read page by page from the
    /// start of its change feed: what a device that joins now would get,
    /// through any store and any transport. None for a zone that was never
    /// made (no device sent anything).
    public func allRecords(in zone: ZoneID) throws -> [ServerRecord] {
        var records: [RecordID: ServerRecord] = [:]
        var token: ChangeToken?
        while true {
            let changes: ZoneChanges
            do {
                changes = try fetchZoneChanges(zoneID: zone, since: token, limit: 400)
            } catch CloudError.zoneNotFound where token == nil {
                return []
            }
            for record in changes.changed { records[record.id] = record }
            for deleted in changes.deleted { records[deleted.id] = nil }
            token = changes.token
            if !changes.moreComing { return Array(records.values) }
        }
    }
}
