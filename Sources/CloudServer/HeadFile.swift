import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `HEAD` file of a server directory: the latest change sequence, as text.
///
/// Devices watch the directory (inotify) to learn that another process
/// wrote, without opening the database; SQLite gives no cross-process change
/// notification. The file is replaced atomically (temp file + rename), so a
/// reader sees the old or the new number, never half of one.
struct HeadFile: Sendable {
    let url: URL
    private let temporaryURL: URL
    private let lockURL: URL

    init(directory: URL) {
        url = directory.appendingPathComponent("HEAD")
        temporaryURL = directory.appendingPathComponent(".HEAD.tmp")
        lockURL = directory.appendingPathComponent(".HEAD.lock")
    }

    /// The sequence in the file, or nil if it is missing or unreadable.
    func read() -> Int64? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return Int64(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Writes the current head, which `currentHead` reads from the database
    /// while this process holds the head lock.
    ///
    /// Reading under the lock is what keeps the file from going backwards
    /// when two processes commit at once: whoever writes last read the head
    /// after both commits. Failures are ignored: the file is a hint, the
    /// database is the truth, and devices also poll.
    func publish(currentHead: () throws -> Int64) {
        let lock = open(lockURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { return }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0 {
            guard errno == EINTR else { return }
        }
        defer { flock(lock, LOCK_UN) }
        guard let head = try? currentHead() else { return }
        if read() == head { return }
        unlink(temporaryURL.path)
        do {
            try FileSync.writeDurably(Data("\(head)\n".utf8), to: temporaryURL, durable: false)
            try FileSync.rename(temporaryURL, to: url)
        } catch {
            unlink(temporaryURL.path)
        }
    }
}
