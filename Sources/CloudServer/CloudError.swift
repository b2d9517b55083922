import Foundation

/// Errors of the server, shaped like CloudKit's `CKError` codes.
///
/// Request-level errors are thrown; per-record errors come back in the
/// results of `modifyRecords`, so that one bad record is reported beside the
/// ones that were saved.
public enum CloudError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The save carried a stale or missing change tag: the current server
    /// record is attached so the client can merge and retry.
    case serverRecordChanged(ServerRecord)
    /// The zone does not exist (never created, or deleted).
    case zoneNotFound(ZoneID)
    /// The record does not exist on the server (never saved, or deleted).
    case unknownItem(RecordID)
    /// The request is over the limits: 400 records or 2 MB, assets not counted.
    case limitExceeded(String)
    /// Another record of the same zone failed, so this one was not saved:
    /// a batch is atomic per zone.
    case batchRequestFailed(RecordID)
    /// The user may not read or write this record or zone.
    case permissionFailure(String)
    /// The change token is older than the server's compaction point: fetch
    /// everything again from a nil token.
    case changeTokenExpired
    /// The asset referenced by a record was never uploaded, or its file is
    /// missing or altered on the server.
    case assetUnavailable(String)
    /// A share id, participant or user that does not exist.
    case shareNotFound(String)
    /// The server directory cannot be used: missing permissions, a damaged
    /// store, a full disk. The message names the file and what to do.
    case serverUnavailable(String)
    /// The server directory was written by a newer version of this program.
    case incompatibleVersion(String)

    public var description: String {
        switch self {
        case .serverRecordChanged(let record): "the server has a newer version of record \(record.id.recordName)"
        case .zoneNotFound(let zone): "zone \(zone) not found"
        case .unknownItem(let id): "record \(id.recordName) not found on the server"
        case .limitExceeded(let why): "request too large: \(why)"
        case .batchRequestFailed(let id): "record \(id.recordName) not saved: another change in its zone failed"
        case .permissionFailure(let why): "permission denied: \(why)"
        case .changeTokenExpired: "change token expired"
        case .assetUnavailable(let why): "asset unavailable: \(why)"
        case .shareNotFound(let what): "share not found: \(what)"
        case .serverUnavailable(let why): why
        case .incompatibleVersion(let why): why
        }
    }

    /// Errors after which the same request may succeed later unchanged.
    public var isTransient: Bool {
        switch self {
        case .serverUnavailable: true
        default: false
        }
    }
}
