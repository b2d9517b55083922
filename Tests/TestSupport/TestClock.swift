import Synchronization

/// A wall clock (milliseconds since 1970) that moves only when a test moves
/// it: edits are ordered by the clock, not by sleeping. Devices given the
/// same clock share one time line; a clock set behind plays a device whose
/// clock is wrong.
public final class TestClock: Sendable {
    private let value: Mutex<Int64>

    public init(_ start: Int64 = 1_800_000_000_000) { value = Mutex(start) }

    public var now: Int64 {
        get { value.withLock { $0 } }
        set { value.withLock { $0 = newValue } }
    }

    public func advance(_ milliseconds: Int64 = 1_000) { value.withLock { $0 += milliseconds } }
}
