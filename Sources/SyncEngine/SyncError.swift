import CloudServer
import Foundation

/// Errors of the sync engine. Each names the table, column or record at fault.
public enum SyncError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A synced table breaks a rule the engine relies on.
    case unsupportedSchema(table: String, column: String?, reason: String)
    /// The server refused or could not be reached; the changes stay pending.
    case server(CloudError)
    /// A local database error while syncing.
    case database(String)
    /// The user may only read this list (a read-only share).
    case permissionDenied(String)

    public var description: String {
        switch self {
        case let .unsupportedSchema(table, column, reason):
            if let column { return "table \(table), column \(column): \(reason)" }
            return "table \(table): \(reason)"
        case .server(let error): return "server: \(error.description)"
        case .database(let message): return "database: \(message)"
        case .permissionDenied(let message): return message
        }
    }
}
