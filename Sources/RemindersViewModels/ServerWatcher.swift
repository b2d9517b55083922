import CloudServer
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Notices when the server's head moves: an inotify watch on the server
/// directory (the `HEAD` file is replaced by rename), with a poll every
/// `pollInterval` as the fallback for file systems inotify does not cover
/// and for a watch that overflowed.
final class ServerWatcher: @unchecked Sendable {
    private let directory: URL
    private let pollInterval: TimeInterval
    private let onTick: @Sendable () -> Void
    private let lock = NSLock()
    private var running = false
    private var thread: Thread?
    private var stopPipe: [Int32] = [-1, -1]

    init(directory: URL, pollInterval: TimeInterval = 1, onTick: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.pollInterval = pollInterval
        self.onTick = onTick
    }

    func start() {
        lock.lock()
        defer { lock.unlock() }
        guard !running else { return }
        running = true
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 { stopPipe = fds }
        let thread = Thread { [weak self] in self?.loop() }
        thread.name = "reminders.server-watcher"
        self.thread = thread
        thread.start()
    }

    func stop() {
        lock.lock()
        running = false
        let writeEnd = stopPipe[1]
        lock.unlock()
        if writeEnd >= 0 {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }
    }

    private var isRunning: Bool { lock.withLock { running } }

    private func loop() {
        #if canImport(Glibc)
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        // The directory may not exist yet (the first round creates it) or
        // may be replaced; the watch follows the directory's inode, checked
        // on every wake-up.
        var watch: Int32 = -1
        var watchedInode: ino_t = 0
        func rewatchIfNeeded() {
            guard fd >= 0 else { return }
            var info = stat()
            guard stat(directory.path, &info) == 0 else { return }
            if watch >= 0, info.st_ino == watchedInode { return }
            if watch >= 0 { _ = inotify_rm_watch(fd, watch) }
            watch = inotify_add_watch(fd, directory.path, UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE))
            watchedInode = info.st_ino
        }
        defer {
            if fd >= 0 { close(fd) }
            for end in stopPipe where end >= 0 { close(end) }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while isRunning {
            rewatchIfNeeded()
            var fds = [pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0)]
            if fd >= 0 { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(pollInterval * 1000))
            if !isRunning { return }
            if ready > 0, fds.count > 1, fds[1].revents != 0 {
                // Drain the events; which file changed does not matter: the
                // head is read again either way (cheap), and compared.
                while read(fd, &buffer, buffer.count) > 0 {}
                // Coalesce a burst of renames into one tick.
                usleep(20_000)
                while read(fd, &buffer, buffer.count) > 0 {}
            }
            onTick()
        }
        #else
        while isRunning {
            Thread.sleep(forTimeInterval: pollInterval)
            onTick()
        }
        #endif
    }
}
