import Foundation

/// A wall clock (milliseconds since 1970) that moves only when a test moves
/// it: edits are ordered by the clock, not by sleeping. Devices given the
/// same clock share one time line; a clock set behind plays a device whose
/// clock is wrong.
public final class TestClock: @unchecked Sendable {  // every access holds `lock`
    private let lock = NSLock()
    private var value: Int64

    public init(_ start: Int64 = 1_800_000_000_000) { value = start }

    public var now: Int64 {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }

    public func advance(_ milliseconds: Int64 = 1_000) { lock.withLock { value += milliseconds } }
}
