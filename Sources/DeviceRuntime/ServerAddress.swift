import CloudClient
import CloudServer
import Foundation
import Synchronization

/// Where a device's server is, and the one place that turns that into a
/// connection and a way of hearing about changes: a directory that every
/// device reaches, or a network service by URL. Nothing above this file
/// needs to know which.
public enum ServerAddress: Equatable, Sendable, CustomStringConvertible {
    /// A server kept in a directory (`DirectoryServer`).
    case directory(URL)
    /// A network service (`reminders serve`), signed in to as an account.
    case remote(URL, RemoteCredential)
    /// A network service this device is not signed in to (`reminders
    /// login` has not been run for it, or for another user): what stays on
    /// the device works, and opening the server throws `why`.
    case signedOut(URL, why: String)

    /// Where the server is, as the user names it and as the engine
    /// remembers it (a different location on a re-join is reported).
    public var description: String {
        switch self {
        case .directory(let url): url.path
        case .remote(let url, _), .signedOut(let url, _): url.absoluteString
        }
    }

    /// Opens the server.
    /// - Parameter createIfMissing: false once a running app has opened it:
    ///   a directory that went away is then waited for, not made again
    ///   empty (see `DirectoryServer.init`).
    /// - Throws: `CloudError` (unavailable, damaged, too new).
    public func open(createIfMissing: Bool = true) throws -> any ServerConnection {
        switch self {
        case .directory(let url): try DirectoryServer(directory: url, createIfMissing: createIfMissing, prefetchingPages: true)
        case .remote(let url, let credential): RemoteServer(url: url, credential: credential)
        case .signedOut(_, let why): throw CloudError.serverUnavailable(why)
        }
    }

    /// Opens the server for a device that last synced with the server at
    /// `knownLocation` (nil: none yet). A server directory that does not
    /// exist is made only for a device new to sync, or for one whose server
    /// it was (deleted: a reset, which the device fills again). A device
    /// that syncs with a server elsewhere is refused: a mistyped path would
    /// become a new, empty server that the device fills with everything it
    /// holds, leaving its shares and the other devices behind.
    public func open(createIfMissing: Bool = true, knownLocation: String?) throws -> any ServerConnection {
        if createIfMissing, let refusal = refusal(knownLocation: knownLocation) {
            throw CloudError.serverUnavailable(refusal)
        }
        return try open(createIfMissing: createIfMissing)
    }

    /// Why `open(knownLocation:)` refuses a server directory that does not
    /// exist: one elsewhere than this device's server (see there), or one
    /// whose folder does not exist either (`/nonexistent/deep/dir` is more
    /// likely a mistyped path than a server to make, folders and all). Nil
    /// when it opens or makes it (and for a network service).
    public func refusal(knownLocation: String?) -> String? {
        guard case .directory(let url) = self, !FileManager.default.fileExists(atPath: url.path) else { return nil }
        if let knownLocation, URL(fileURLWithPath: knownLocation).standardizedFileURL.path != url.standardizedFileURL.path {
            return "there is no server directory \(url.path); this device syncs with the server at \(knownLocation). "
                + "Point --server there, or make the directory first (mkdir -p) to move this device to a new server"
        }
        let folder = url.standardizedFileURL.deletingLastPathComponent()
        guard FileManager.default.fileExists(atPath: folder.path) else {
            return "server directory \(url.path) cannot be made: its folder \(folder.path) does not exist "
                + "(is --server mistyped? make the folder first to start a server there)"
        }
        return nil
    }

    /// A watch that calls `onTick` whenever the server may have changed,
    /// and at least every `pollInterval`.
    func watcher(pollInterval: TimeInterval, onUnavailable: @escaping @Sendable (String?) -> Void,
                 onTick: @escaping @Sendable () -> Void) -> any ServerWatching {
        switch self {
        case .directory(let url):
            ServerWatcher(directory: url, pollInterval: pollInterval, onUnavailable: onUnavailable, onTick: onTick)
        case .remote(let url, let credential):
            RemoteWatcher(server: RemoteServer(url: url, credential: credential), retryInterval: pollInterval,
                          onTick: onTick)
        case .signedOut(_, let why):
            SignedOutWatcher(why: why, onUnavailable: onUnavailable)
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

extension RemoteServer: ServerConnection {
    /// The databases of the account signed in to: the service decides who
    /// a request comes from, so `user` is the credential's.
    public func databases(user: String, device: String) -> (private: any CloudDatabase, shared: any CloudDatabase) {
        (database(scope: .private, device: device), database(scope: .shared, device: device))
    }

    /// -1 when the service cannot be reached: a value no head has, so the
    /// next round tries (and reports why it cannot).
    public func head() -> Int64 {
        (try? fetchHead()) ?? -1
    }
}

/// How live sync hears that the server may have changed.
protocol ServerWatching: Sendable {
    func start()
    /// The server was just opened or made: look again now.
    func rewatch()
    func stop()
}

extension ServerWatcher: ServerWatching {}

/// A service not signed in to has nothing to hear: it says why once.
struct SignedOutWatcher: ServerWatching {
    let why: String
    let onUnavailable: @Sendable (String?) -> Void
    func start() { onUnavailable(why) }
    func rewatch() {}
    func stop() {}
}

/// Hears of changes on a network service by a long poll: the service
/// answers when its head moves, or after a while with the same head. Ticks
/// after every change, and every `retryInterval` while the service cannot
/// be reached, so live sync retries and shows why.
final class RemoteWatcher: ServerWatching {
    private let server: RemoteServer
    private let retryInterval: TimeInterval
    private let onTick: @Sendable () -> Void
    private let state = Mutex(State())

    private struct State {
        var running = false
        var generation = 0
    }

    /// How long one long poll waits on the service.
    static let wait: Double = 25

    init(server: RemoteServer, retryInterval: TimeInterval, onTick: @escaping @Sendable () -> Void) {
        self.server = server
        self.retryInterval = retryInterval
        self.onTick = onTick
    }

    func start() {
        let generation = state.withLock { state -> Int? in
            guard !state.running else { return nil }
            state.running = true
            state.generation += 1
            return state.generation
        }
        guard let generation else { return }
        let server = self.server, retryInterval = self.retryInterval, onTick = self.onTick
        let isCurrent: @Sendable () -> Bool = { [weak self] in
            self?.state.withLock { $0.running && $0.generation == generation } ?? false
        }
        let thread = Thread {
            var last: Int64?
            while isCurrent() {
                do {
                    let head = try server.fetchHead(after: last, wait: last == nil ? 0 : Self.wait)
                    guard isCurrent() else { return }
                    if head != last {
                        last = head
                        onTick()
                    }
                } catch {
                    guard isCurrent() else { return }
                    last = nil
                    onTick()
                    Thread.sleep(forTimeInterval: retryInterval)
                }
            }
        }
        thread.name = "reminders.remote-watcher"
        thread.start()
    }

    func rewatch() {}

    func stop() {
        state.withLock { $0.running = false }
    }
}
