import Foundation
import Synchronization

/// The next page of a zone's changes, asked for as soon as a page says more
/// are coming: while the device applies one page (most of a first fetch's
/// time), the server reads the next (and over HTTP, sends it and this side
/// decodes it). A device's own handle on a server does this, never the
/// service: its pages are asked for by devices that prefetch themselves.
///
/// A page asked for ahead only answers the very request it stands for (the
/// same database, device, zone, token and limit); it fails or is old, the
/// request is made again. The engine sees what asking a moment earlier
/// would have given it: a page is the changes after its token as the
/// server had them, and whatever changed since comes after the page's own
/// token.
public final class PagePrefetch: Sendable {
    public struct Key: Hashable, Sendable {
        var scope: DatabaseScope
        var device: String
        var zone: ZoneID
        var token: ChangeToken
        var limit: Int

        public init(scope: DatabaseScope, device: String, zone: ZoneID, token: ChangeToken, limit: Int) {
            self.scope = scope
            self.device = device
            self.zone = zone
            self.token = token
            self.limit = limit
        }
    }

    public init() {}

    /// One page on its way, or arrived.
    private final class Page: Sendable {
        let key: Key
        let started = ContinuousClock.now
        let answer = Mutex<Result<ZoneChanges, any Error>?>(nil)
        let arrived = DispatchSemaphore(value: 0)

        init(key: Key) {
            self.key = key
        }
    }

    /// At most one page ahead per server: a first fetch reads one zone at
    /// a time.
    private let ahead = Mutex<Page?>(nil)

    /// A page older than this is asked for again: it would still be right,
    /// but a device that comes back to it that late was not waiting for it.
    static let freshFor: Duration = .seconds(10)

    /// The page after `token`: the one asked for ahead if it came, else
    /// asked for now (`fetch`); and the one after it asked for ahead when
    /// more are coming. `key` names the page that follows a token.
    public func page(since token: ChangeToken?, key: (ChangeToken) -> Key,
                     fetch: @escaping @Sendable (ChangeToken?) throws -> ZoneChanges) throws -> ZoneChanges {
        let ahead = token.flatMap { take(key($0)) }
        let changes = try ahead ?? fetch(token)
        if changes.moreComing {
            start(key(changes.token)) { try fetch(changes.token) }
        }
        return changes
    }

    /// Asks for the page of `key` in the background, in place of any page
    /// asked for before.
    public func start(_ key: Key, fetch: @escaping @Sendable () throws -> ZoneChanges) {
        let page = Page(key: key)
        ahead.withLock { $0 = page }
        DispatchQueue.global().async {
            let answer = Result { try fetch() }
            page.answer.withLock { $0 = answer }
            page.arrived.signal()
        }
    }

    /// The page asked for ahead for `key`, once it arrived; nil when none
    /// was, or it failed (asked again, the request says why), or is old.
    public func take(_ key: Key) -> ZoneChanges? {
        let page = ahead.withLock { ahead -> Page? in
            guard let page = ahead, page.key == key else { return nil }
            ahead = nil
            return page
        }
        guard let page else { return nil }
        page.arrived.wait()
        guard page.started.duration(to: .now) < Self.freshFor,
              case .success(let changes)? = page.answer.withLock({ $0 }) else { return nil }
        return changes
    }
}
