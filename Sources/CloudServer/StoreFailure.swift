import Foundation
import GRDB

/// Turns whatever went wrong below the server (SQLite, the file system) into
/// the one error clients act on, `serverUnavailable`, with a message that
/// names the file and what to do about it.
enum StoreFailure {
    /// Maps an error thrown while using the store at `directory`. Errors that
    /// are already `CloudError` pass through unchanged.
    static func map(_ error: Error, directory: URL) -> CloudError {
        if let error = error as? CloudError { return error }
        let path = directory.path
        let file = directory.appendingPathComponent("server.sqlite").path
        if let error = error as? StoredDataCorrupted {
            return damaged(file: file, message: error.message)
        }
        if error is RowDecodingError {
            return damaged(file: file, message: "\(error)")
        }
        guard let error = error as? DatabaseError else {
            return .serverUnavailable("cannot use the server at \(path): \(error.localizedDescription)")
        }
        let message = error.message ?? "SQLite error \(error.extendedResultCode.rawValue)"
        switch error.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return damaged(file: file, message: message)
        case .SQLITE_FULL:
            return .serverUnavailable("the disk holding \(file) is full (\(message)); free some space and try again")
        case .SQLITE_IOERR:
            return .serverUnavailable("cannot read or write \(file) (\(message)); check the disk and try again")
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return .serverUnavailable("cannot open \(file) for writing (\(message)); check the permissions of \(path)")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return .serverUnavailable("the server at \(path) stayed busy for too long (\(message)); try again")
        default:
            return .serverUnavailable("the server at \(path) failed (\(message))")
        }
    }

    /// The store's content cannot be trusted: a garbled file, or data this
    /// program wrote but cannot read back.
    static func damaged(file: String, message: String) -> CloudError {
        .serverUnavailable("\(file) is damaged (\(message)); restore it from a backup or point --server at a new directory")
    }
}
