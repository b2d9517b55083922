import Foundation

/// A server directory served to other machines (`reminders serve`). When
/// its store file is deleted or replaced (the store reset, a backup put
/// back), the next request opens the directory again, as a device's app
/// does, instead of refusing every request until the service restarts. A
/// directory still missing, or a store file still arriving, is waited for
/// (`DirectoryServer.init(createIfMissing: false)`): requests meanwhile get
/// the old store's refusal.
public final class ServedDirectory: CloudStore, @unchecked Sendable {
    private let lock = NSLock()
    private var server: DirectoryServer

    public init(_ server: DirectoryServer) {
        self.server = server
    }

    /// The store as it is now in the directory. Opened again outside the
    /// lock (an open may wait on the store's lock), so other requests are
    /// not held up meanwhile; the first store opened is kept.
    public var current: DirectoryServer {
        let served = lock.withLock { server }
        guard (try? served.checkStoreFile()) == nil,
              let reopened = try? DirectoryServer(directory: served.directory, createIfMissing: false) else { return served }
        return lock.withLock {
            if server === served { server = reopened }
            return server
        }
    }

    public func cloudDatabase(user: String, scope: DatabaseScope, device: String) -> any CloudDatabase {
        current.database(user: user, scope: scope, device: device)
    }

    public func head() -> Int64 { current.head() }
}
