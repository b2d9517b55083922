import Foundation
import SyncEngine

/// The device found that the server it reaches is not the one it last
/// synced with, and re-joined it: it fetched everything the server has and
/// sent everything it holds, merging by edit time (see docs/SYNC.md).
public struct ServerRejoin: Equatable, Sendable {
    /// What the device found in place of the server it synced with.
    public enum Cause: Equatable, Sendable {
        /// Another store: the directory was deleted and made again, or
        /// `--server` points elsewhere now.
        case replaced
        /// The same store, put back from an older copy.
        case olderCopy
        /// The device now points at another server.
        case elsewhere
    }

    /// Why the server is not the one this device synced with.
    public var cause: Cause
    /// Lists this user had shared that the server does not have: to share
    /// again.
    public var lostShares: [String] = []
    /// The server directory, as the user named it.
    public var server: String
    /// When this device noticed.
    public var at: Date

    /// A re-join, for a fake sync layer or a test.
    public init(cause: Cause, server: String, at: Date, lostShares: [String] = []) {
        self.cause = cause
        self.server = server
        self.at = at
        self.lostShares = lostShares
    }

    /// The engine's notice, in the terms of the screens.
    public init(_ notice: RejoinNotice, server: String, at: Date) {
        let cause: Cause = switch notice.reason {
        case .olderCopy: .olderCopy
        case .otherServer: .replaced
        case .otherLocation: .elsewhere
        }
        self.init(cause: cause, server: server, at: at, lostShares: notice.lostShares)
    }

    /// The message as a sentence's start: what the CLI prints (with a
    /// full stop) and the app's toast shows.
    public var sentence: String {
        let text = message
        return text.prefix(1).uppercased() + text.dropFirst()
    }

    /// What the user is told, once: in the CLI on standard error, in the
    /// app as a toast.
    public var message: String {
        let what = switch cause {
        case .olderCopy: "it was put back from an older copy"
        case .replaced: "it was reset or replaced"
        case .elsewhere: "this device now points at another server"
        }
        var text = "the server at \(server) is not the one this device synced with (\(what)): merging everything this device holds into it"
        if !lostShares.isEmpty {
            let names = lostShares.map { "“\($0)”" }.joined(separator: ", ")
            text += "; it does not have your shares of \(names): share them again"
        }
        return text
    }
}
