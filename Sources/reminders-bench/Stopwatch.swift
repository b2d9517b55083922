import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC in nanoseconds: one clock for every process on the
/// machine, so a time taken in the follower process can be compared with
/// one taken here.
func monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Seconds taken by `body`, and its result.
func timed<T>(_ body: () throws -> T) rethrows -> (seconds: Double, value: T) {
    let start = monotonicNanoseconds()
    let value = try body()
    return (Double(monotonicNanoseconds() - start) / 1e9, value)
}

/// Progress lines on stderr, stamped with the time since the run began, so
/// a long run shows it is alive without mixing into the table on stdout.
enum Progress {
    nonisolated(unsafe) static var start = monotonicNanoseconds()
    nonisolated(unsafe) static var quiet = false

    static func say(_ message: String) {
        guard !quiet else { return }
        let began = start
        let elapsed = Double(monotonicNanoseconds() - began) / 1e9
        FileHandle.standardError.write(Data(String(format: "[%6.1fs] ", elapsed).appending(message + "\n").utf8))
    }
}
