import Foundation

/// Thrown by `eventually` when its condition does not hold in time.
public struct EventuallyTimeout: Error, CustomStringConvertible {
    public var description: String
}

/// Waits for background work by its outcome: checks `condition` every
/// `interval` seconds (a check that starts a process wants a longer one)
/// until it holds, and returns how long that took. Throws
/// `EventuallyTimeout`, naming `what`, after `timeout` seconds.
@discardableResult
public func eventually(timeout: TimeInterval = 3, every interval: TimeInterval = 0.005, _ what: String = "condition",
                       _ condition: () throws -> Bool) throws -> TimeInterval {
    let start = Date()
    while true {
        if try condition() { return Date().timeIntervalSince(start) }
        if Date().timeIntervalSince(start) > timeout {
            throw EventuallyTimeout(description: "\(what) did not hold within \(timeout) s")
        }
        Thread.sleep(forTimeInterval: interval)
    }
}

/// `eventually` for async tests: the same checks, but it sleeps with
/// `Task.sleep`, so a long wait (a background process doing its work)
/// holds none of the few threads the test runner shares between tests.
@discardableResult
public func eventuallyAsync(timeout: TimeInterval = 3, every interval: TimeInterval = 0.005, _ what: String = "condition",
                            _ condition: () throws -> Bool) async throws -> TimeInterval {
    let start = Date()
    while true {
        if try condition() { return Date().timeIntervalSince(start) }
        if Date().timeIntervalSince(start) > timeout {
            throw EventuallyTimeout(description: "\(what) did not hold within \(timeout) s")
        }
        try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
    }
}
