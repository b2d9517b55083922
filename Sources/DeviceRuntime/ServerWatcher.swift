import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Notices when the server's head moves: an inotify watch on the server
/// directory (the `HEAD` file is replaced by rename), with a poll every
/// `pollInterval` as the fallback for file systems inotify does not cover
/// and for a watch that overflowed. The watch follows the directory: while
/// it is missing, its parent is watched for it to appear, and a directory
/// deleted and made again is watched again.
///
/// The watch costs a thread and an inotify instance, of which a user gets
/// few (`fs.inotify.max_user_instances`, often 128, shared by all of the
/// user's processes). `stop()`, or dropping the watcher, gives both back
/// before it returns. When the watch cannot be set up, `onUnavailable` says
/// why, so the fallback to polling is never silent.
final class ServerWatcher: Sendable {
    private let directory: URL
    private let pollInterval: TimeInterval
    private let onUnavailable: @Sendable (String?) -> Void
    private let onTick: @Sendable () -> Void
    private let loop = Mutex<WatchLoop?>(nil)

    /// - Parameters:
    ///   - onUnavailable: called with the reason when the watch cannot be
    ///     set up (only the poll is left), and with nil when it works again.
    ///   - onTick: called on the watcher's thread after every change notice
    ///     and every poll period.
    init(directory: URL, pollInterval: TimeInterval = 1,
         onUnavailable: @escaping @Sendable (String?) -> Void = { _ in },
         onTick: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.pollInterval = pollInterval
        self.onUnavailable = onUnavailable
        self.onTick = onTick
    }

    deinit {
        stop()
    }

    func start() {
        let loop = self.loop.withLock { current -> WatchLoop? in
            guard current == nil else { return nil }
            let loop = WatchLoop(directory: directory, pollInterval: pollInterval, onUnavailable: onUnavailable,
                                 onTick: onTick)
            current = loop
            return loop
        }
        guard let loop else { return }
        if let reason = loop.setupFailure { onUnavailable(reason) }
        // The thread holds the loop only: not this watcher, nor its owner.
        let thread = Thread { loop.run() }
        thread.name = "reminders.server-watcher"
        thread.start()
    }

    /// The directory was just created or replaced (the first round makes
    /// it): sets the watch now rather than at the next poll, then ticks.
    func rewatch() {
        loop.withLock { $0 }?.wake()
    }

    /// Ends the thread and closes the inotify instance. Idempotent.
    func stop() {
        let loop = self.loop.withLock { current -> WatchLoop? in
            defer { current = nil }
            return current
        }
        loop?.stop()
    }
}

/// What the watcher's thread runs, with everything it needs and no
/// reference back to the `ServerWatcher`.
private final class WatchLoop: Sendable {
    private let directory: URL
    private let pollInterval: TimeInterval
    private let onUnavailable: @Sendable (String?) -> Void
    private let onTick: @Sendable () -> Void
    /// -1 when the instance could not be had: the loop only polls.
    private let inotify: Int32
    /// Why `inotify` is -1.
    let setupFailure: String?
    /// `wake()` and `stop()` write to the pipe to end a wait at once.
    private let wakeRead: Int32
    private let finished = DispatchSemaphore(value: 0)
    private let control: Mutex<Control>

    /// What `stop()` and `wake()` change from other threads.
    private struct Control {
        /// -1 once stopped.
        var wakeWrite: Int32
        var stopped = false
        /// The loop's thread, once it runs.
        var thread: pthread_t?
    }

    init(directory: URL, pollInterval: TimeInterval, onUnavailable: @escaping @Sendable (String?) -> Void,
         onTick: @escaping @Sendable () -> Void) {
        self.directory = directory
        self.pollInterval = pollInterval
        self.onUnavailable = onUnavailable
        self.onTick = onTick
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            // Not inherited by processes the app starts (notify commands);
            // a wake-up never blocks, one pending byte is enough.
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        } else {
            ends = [-1, -1]
        }
        wakeRead = ends[0]
        control = Mutex(Control(wakeWrite: ends[1]))
        #if canImport(Glibc)
        inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        setupFailure = inotify >= 0 ? nil
            : "cannot watch \(directory.path): inotify_init1: \(String(cString: strerror(errno))); polling instead"
        #else
        inotify = -1
        setupFailure = nil
        #endif
    }

    private var isStopped: Bool { control.withLock { $0.stopped } }

    /// Asks the loop to end and, unless called from the loop's own thread
    /// (an owner released during a tick), waits until it has closed its
    /// descriptors.
    func stop() {
        let onLoopThread = control.withLock { control -> Bool in
            control.stopped = true
            if control.wakeWrite >= 0 {
                var byte: UInt8 = 1
                _ = write(control.wakeWrite, &byte, 1)
                close(control.wakeWrite)
                control.wakeWrite = -1
            }
            return control.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
        if !onLoopThread { finished.wait() }
    }

    /// Ends the current wait: the loop checks the directory and ticks.
    func wake() {
        control.withLock { control in
            guard !control.stopped, control.wakeWrite >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(control.wakeWrite, &byte, 1)
        }
    }

    func run() {
        control.withLock { $0.thread = pthread_self() }
        defer {
            if inotify >= 0 { close(inotify) }
            if wakeRead >= 0 { close(wakeRead) }
            finished.signal()
        }
        #if canImport(Glibc)
        // `start()` reported a failed setup already.
        var reported = setupFailure
        func report(_ reason: String?) {
            guard reason != reported else { return }
            reported = reason
            onUnavailable(reason)
        }
        // The directory may not exist yet (the first round, or another
        // device, creates it), or may be deleted and made again, even with
        // the same inode number. The kernel says when a watch ends
        // (IN_IGNORED); while the directory is missing, its parent is
        // watched for it to appear.
        var watch: Int32 = -1
        var watchedInode: ino_t = 0
        var parentWatch: Int32 = -1
        let parentPath = directory.deletingLastPathComponent().path
        func rewatchIfNeeded() {
            guard inotify >= 0 else { return }
            var info = stat()
            guard stat(directory.path, &info) == 0 else {
                if watch >= 0 { _ = inotify_rm_watch(inotify, watch); watch = -1 }
                if parentWatch < 0 {
                    parentWatch = inotify_add_watch(inotify, parentPath, UInt32(IN_CREATE | IN_MOVED_TO | IN_ONLYDIR))
                }
                // Made between the two calls: its event came before the
                // parent's watch, so it is watched now.
                guard parentWatch >= 0, stat(directory.path, &info) == 0 else { return }
                rewatchIfNeeded()
                return
            }
            if parentWatch >= 0 { _ = inotify_rm_watch(inotify, parentWatch); parentWatch = -1 }
            if watch >= 0, info.st_ino == watchedInode { return }
            if watch >= 0 { _ = inotify_rm_watch(inotify, watch) }
            watch = inotify_add_watch(inotify, directory.path,
                                      UInt32(IN_MOVED_TO | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE_SELF | IN_MOVE_SELF))
            watchedInode = info.st_ino
            report(watch >= 0 ? nil
                   : "cannot watch \(directory.path): inotify_add_watch: \(String(cString: strerror(errno))); polling instead")
        }
        /// Reads every pending event. Which file changed does not matter:
        /// the head is read again either way (cheap), and compared. What
        /// matters is whether the directory's own watch ended.
        func drainEvents(into buffer: inout [UInt8]) {
            while true {
                let count = read(inotify, &buffer, buffer.count)
                guard count > 0 else { return }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let (wd, mask, length) = buffer.withUnsafeBytes { bytes in
                        (bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                         bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                         bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    }
                    if mask & UInt32(IN_Q_OVERFLOW) != 0, watch >= 0 {
                        // Events were lost, perhaps the one that ended the
                        // watch: set it again.
                        _ = inotify_rm_watch(inotify, watch)
                        watch = -1
                    }
                    if wd == watch, mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        // Moved away, its watch would follow it: dropped.
                        if mask & UInt32(IN_IGNORED) == 0 { _ = inotify_rm_watch(inotify, watch) }
                        watch = -1
                    }
                    if wd == parentWatch, mask & UInt32(IN_IGNORED) != 0 { parentWatch = -1 }
                    offset += MemoryLayout<inotify_event>.size + Int(length)
                }
            }
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !isStopped {
            rewatchIfNeeded()
            var fds = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if inotify >= 0 { fds.append(pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(pollInterval * 1000))
            if isStopped { return }
            if ready > 0, fds[0].revents != 0 {
                _ = read(wakeRead, &buffer, buffer.count)
                rewatchIfNeeded()
            }
            if ready > 0, fds.count > 1, fds[1].revents != 0 {
                // A tick at once: events of a burst that arrive during it
                // wake the next poll and make one more tick, which reads the
                // head as it is then (a tick before the head moved reads
                // nothing new and costs one small read).
                drainEvents(into: &buffer)
                // A directory that just appeared, or came back, is watched
                // before the tick reads it, so no change falls between.
                rewatchIfNeeded()
            }
            onTick()
        }
        #else
        while !isStopped {
            Thread.sleep(forTimeInterval: pollInterval)
            onTick()
        }
        #endif
    }
}
