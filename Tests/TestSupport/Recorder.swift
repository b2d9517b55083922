import Synchronization

/// What callbacks on other threads saw (errors shown, values observed,
/// conflicts announced), kept in order for the test to read.
public final class Recorder<Element: Sendable>: Sendable {
    private let recorded = Mutex<[Element]>([])

    public init() {}

    public func append(_ element: Element) {
        recorded.withLock { $0.append(element) }
    }

    public func append(contentsOf elements: [Element]) {
        recorded.withLock { $0.append(contentsOf: elements) }
    }

    /// Everything recorded so far.
    public var all: [Element] { recorded.withLock { $0 } }
}
