import CloudServer
import Foundation

/// Where a device's server is, and the one place that turns that into a
/// connection and a way of hearing about changes. A directory that every
/// device reaches is the only transport today; the network service will be
/// a second case here, and nothing above this file needs to know which.
public enum ServerAddress: Equatable, Sendable, CustomStringConvertible {
    /// A server kept in a directory (`DirectoryServer`).
    case directory(URL)

    /// Where the server is, as the user names it and as the engine
    /// remembers it (a different location on a re-join is reported).
    public var description: String {
        switch self {
        case .directory(let url): url.path
        }
    }

    /// Opens the server.
    /// - Parameter createIfMissing: false once a running app has opened it:
    ///   a directory that went away is then waited for, not made again
    ///   empty (see `DirectoryServer.init`).
    /// - Throws: `CloudError` (unavailable, damaged, too new).
    public func open(createIfMissing: Bool = true) throws -> any ServerConnection {
        switch self {
        case .directory(let url): try DirectoryServer(directory: url, createIfMissing: createIfMissing)
        }
    }

    /// A watch that calls `onTick` whenever the server may have changed,
    /// and at least every `pollInterval`.
    func watcher(pollInterval: TimeInterval, onUnavailable: @escaping @Sendable (String?) -> Void,
                 onTick: @escaping @Sendable () -> Void) -> ServerWatcher {
        switch self {
        case .directory(let url):
            ServerWatcher(directory: url, pollInterval: pollInterval, onUnavailable: onUnavailable, onTick: onTick)
        }
    }
}

/// An open server, as a device uses it: the user's two databases, and the
/// head of its change feed (a number that moves with every commit).
public protocol ServerConnection: Sendable {
    /// The user's private database (their own lists) and shared database
    /// (lists others share with them), as `device` uses them.
    func databases(user: String, device: String) -> (private: any CloudDatabase, shared: any CloudDatabase)
    /// The head of the change feed: it moves with every commit.
    func head() -> Int64
}

/// A directory server is the connection of `ServerAddress.directory`.
extension DirectoryServer: ServerConnection {
    /// The user's private and shared databases in this directory, as
    /// `device` uses them.
    public func databases(user: String, device: String) -> (private: any CloudDatabase, shared: any CloudDatabase) {
        (database(user: user, scope: .private, device: device), database(user: user, scope: .shared, device: device))
    }
}
