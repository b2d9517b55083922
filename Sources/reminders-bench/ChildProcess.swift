import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This benchmark run again as a child process in one of its hidden modes,
/// with its output read line by line as it comes. Closing the child's
/// standard input tells it to exit, so no child outlives a parent that
/// died.
final class ChildProcess {
    let process = Process()
    private let output = Pipe()
    private let input = Pipe()
    private let received = ReceivedLines()

    /// The running executable, to start again as a child.
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }

    init(arguments: [String]) {
        process.executableURL = Self.executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.standardError
    }

    /// Starts the child; returns the monotonic time just before it did.
    @discardableResult
    func start() throws -> UInt64 {
        let stamp = monotonicNanoseconds()
        try process.run()
        let descriptor = output.fileHandleForReading.fileDescriptor
        let received = self.received
        let thread = Thread { received.read(descriptor) }
        thread.start()
        return stamp
    }

    /// Waits for the next line for which `match` returns a value, dropping
    /// the lines before it; nil on timeout or when the child ended.
    func next<T>(timeout: TimeInterval, _ match: (String, UInt64) -> T?) -> T? {
        received.next(timeout: timeout, match)
    }

    /// Closes the child's input (it exits) and waits for it, killing it
    /// after `timeout`.
    func finish(timeout: TimeInterval = 10) {
        try? input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}

/// A child's output lines with the moment each arrived: written by the
/// reading thread, waited for by the benchmark.
// Unchecked: its state is guarded by its NSCondition, since a waiter needs
// a condition variable, which `Mutex` has not.
private final class ReceivedLines: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [(line: String, stamp: UInt64)] = []
    private var finished = false

    /// Reads the child's output until it closes (on a thread of its own).
    func read(_ descriptor: Int32) {
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            let stamp = monotonicNanoseconds()
            pending.append(contentsOf: buffer[0..<count])
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                condition.lock()
                lines.append((line, stamp))
                condition.broadcast()
                condition.unlock()
            }
        }
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the next line for which `match` returns a value, dropping
    /// the lines before it; nil on timeout or when the child ended.
    func next<T>(timeout: TimeInterval, _ match: (String, UInt64) -> T?) -> T? {
        let deadline = Date().addingTimeInterval(timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            while !lines.isEmpty {
                let (line, stamp) = lines.removeFirst()
                if let value = match(line, stamp) { return value }
            }
            if finished { return nil }
            if !condition.wait(until: deadline) { return nil }
        }
    }
}

/// In a child: exit as soon as standard input closes (the parent is done or
/// gone).
func exitWhenInputCloses() {
    let thread = Thread {
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) > 0 {}
        exit(0)
    }
    thread.start()
}

/// In a child: one line on standard output, flushed at once.
func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
