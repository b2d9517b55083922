import Foundation
import SyncEngine

/// The device found that the server it reaches is not the one it last
/// synced with, and re-joined it: it fetched everything the server has and
/// sent everything it holds, merging by edit time (see docs/SYNC.md).
public struct ServerRejoin: Equatable, Sendable {
    public enum Cause: Equatable, Sendable {
        /// Another store: the directory was deleted and made again, or
        /// `--server` points elsewhere now.
        case replaced
        /// The same store, put back from an older copy.
        case olderCopy
    }

    public var cause: Cause
    /// The server directory, as the user named it.
    public var server: String
    /// When this device noticed.
    public var at: Date

    public init(cause: Cause, server: String, at: Date) {
        self.cause = cause
        self.server = server
        self.at = at
    }

    init(_ reason: RejoinReason, server: String, at: Date) {
        self.init(cause: reason == .olderCopy ? .olderCopy : .replaced, server: server, at: at)
    }

    /// What the user is told, once: in the CLI on standard error, in the
    /// app as a toast.
    public var message: String {
        let what = cause == .olderCopy ? "it was put back from an older copy" : "it was reset or replaced"
        return "the server at \(server) is not the one this device synced with (\(what)): sending everything this device holds"
    }
}

extension DeviceSession {
    /// Why this device last re-joined its server, once (see
    /// `SyncEngine.takeRejoinNotice`).
    public func takeRejoin(at date: Date = Date()) throws -> ServerRejoin? {
        try engine.takeRejoinNotice().map { ServerRejoin($0, server: serverDirectory.path, at: date) }
    }
}
