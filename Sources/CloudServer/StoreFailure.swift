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
            return .serverUnavailable("cannot use the server at \(path): \(reason(error))")
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

    /// Why a file operation failed, in the system's words ("Permission
    /// denied") when the error carries them: Foundation's own ("The
    /// operation could not be completed.") says less.
    static func reason(_ error: Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        for candidate in [underlying, error as NSError].compactMap({ $0 }) where candidate.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(candidate.code)))
        }
        return error.localizedDescription
    }

    /// Makes a folder and its missing parents, as `mkdir -p` does; nil when
    /// they are there, else the first that could not be made and why, in
    /// the system's words ("/etc/passwd: Not a directory").
    static func makeFolders(_ directory: URL) -> String? {
        var path = ""
        for component in directory.standardizedFileURL.pathComponents {
            path = component == "/" ? "/" : (path.hasSuffix("/") ? path : path + "/") + component
            if mkdir(path, 0o755) != 0, errno != EEXIST {
                return "\(path): \(String(cString: strerror(errno)))"
            }
        }
        return nil
    }

    /// The store's content cannot be trusted: a garbled file, or data this
    /// program wrote but cannot read back.
    static func damaged(file: String, message: String) -> CloudError {
        .serverUnavailable("\(file) is damaged (\(message)); restore it from a backup or point --server at a new directory")
    }
}
