import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls behind atomic, durable file replacement, which Foundation
/// does not expose (it cannot fsync a directory).
enum FileSync {
    /// An errno with the operation and path it came from.
    struct Failure: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var code: Int32

        var description: String {
            "\(operation) \(path): \(String(cString: strerror(code)))"
        }
    }

    /// Creates `url` (which must not exist) holding `data`; with `durable`,
    /// its bytes are on disk when this returns.
    static func writeDurably(_ data: Data, to url: URL, durable: Bool = true) throws {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure(operation: "create", path: url.path, code: errno) }
        defer { close(fd) }
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                guard let base = buffer.baseAddress else { break }
                let written = write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure(operation: "write", path: url.path, code: errno)
                }
                offset += written
            }
        }
        if durable, fsync(fd) != 0 {
            throw Failure(operation: "fsync", path: url.path, code: errno)
        }
    }

    /// Atomically puts `source` in place of `destination`.
    static func rename(_ source: URL, to destination: URL) throws {
        #if canImport(Glibc)
        let result = Glibc.rename(source.path, destination.path)
        #else
        let result = Darwin.rename(source.path, destination.path)
        #endif
        guard result == 0 else { throw Failure(operation: "rename to", path: destination.path, code: errno) }
    }

    /// Makes a rename inside `directory` durable.
    static func syncDirectory(_ directory: URL) throws {
        let fd = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(operation: "open", path: directory.path, code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Failure(operation: "fsync", path: directory.path, code: errno) }
    }
}
