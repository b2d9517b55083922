import CNcurses
import Foundation
import RemindersViewModels

/// How the full-screen app behaves, as the command line sets it.
public struct TUIOptions: Sendable {
    /// Mouse wheel scrolls and clicks select. Off, the terminal keeps its
    /// own mouse handling (selecting text to copy).
    var mouse: Bool
    /// How long a toast ("Deleted “Milk” · u undo") stays.
    var toastDuration: TimeInterval
    /// Due alerts (toasts, Due now on Home, the past-due count, the
    /// notify command); nil leaves them off.
    var dueAlerts: DueAlertSettings?
    /// The first start's "Start empty / Add sample lists", shown over Home
    /// when set.
    var firstRun: FirstRunOffer?
    /// The keys, as the config file set them.
    var keyBindings: KeyBindings
    /// The colours, as the config file set them.
    var colors: ThemeColors
    /// Edits notes in the user's editor (`E` in the reminder form); nil
    /// leaves that key saying it is not available.
    var editor: (any ExternalEditing)?

    /// - Parameters:
    ///   - mouse: whether the app takes the mouse (wheel scrolls, clicks
    ///     select); off leaves it to the terminal, for selecting text to copy.
    ///   - toastDuration: seconds a message at the bottom stays, and with
    ///     it the chance to undo what it reports.
    ///   - dueAlerts: when and how reminders falling due are announced; nil
    ///     turns due alerts off.
    ///   - firstRun: a new user's first start: the question to ask over
    ///     Home; nil asks nothing.
    ///   - keyBindings: the key table, the user's keys in it.
    ///   - colors: the user's colours, role by role.
    ///   - editor: runs the user's editor on a reminder's notes.
    public init(mouse: Bool = true, toastDuration: TimeInterval = 5, dueAlerts: DueAlertSettings? = nil,
                firstRun: FirstRunOffer? = nil, keyBindings: KeyBindings = .standard, colors: ThemeColors = .standard,
                editor: (any ExternalEditing)? = nil) {
        self.keyBindings = keyBindings
        self.colors = colors
        self.editor = editor
        self.mouse = mouse
        self.toastDuration = toastDuration
        self.dueAlerts = dueAlerts
        self.firstRun = firstRun
    }
}

/// The full-screen terminal app. `run()` takes over the terminal until the
/// user quits, and gives it back as it was (also on SIGTERM and SIGHUP).
///
/// The app only shows and edits what `environment` holds: the caller opens
/// the device, starts sync and finishes it after `run()` returns.
public final class TerminalApp {
    let environment: AppEnvironment
    let options: TUIOptions

    /// - Parameters:
    ///   - environment: the device's store, identity, sync status and
    ///     sharing, which every screen reads.
    ///   - options: the command line's choices.
    public init(environment: AppEnvironment, options: TUIOptions = TUIOptions()) {
        self.environment = environment
        self.options = options
    }

    /// How many connections for reading to open while the device opens
    /// (`DeviceSession(readersToWarm:)`). One: it reads the schema on the
    /// other core while the engine attaches. More were no faster on two
    /// cores (alternated, 0 to 4: within a millisecond of each other, the
    /// start being bound by the processors, not by waiting), and each one
    /// costs a parse of the schema.
    public static let readersToWarm = 1

    /// Starts the app without a terminal and renders its first frame, as
    /// text lines: what `run()` does before the first key, for the
    /// benchmark (time to first frame) and for quick looks from scripts.
    ///
    /// Below 80x24 the frame asks for a larger terminal instead of drawing
    /// the screens. The screens' view models are started and stopped again.
    public func renderFirstFrame(width: Int = 80, height: Int = 24) -> [String] {
        let app = AppController(environment: environment, options: options, colorMode: .indexed256,
                                size: (width, height), wake: {})
        app.start()
        defer { app.stop() }
        return app.render().textLines()
    }

    /// Runs the app until the user quits or the process is asked to end.
    ///
    /// Reminders still "completing" are completed before it returns.
    /// - Throws: `TerminalError` when stdin and stdout are not a terminal
    ///   or ncurses cannot start on it; the terminal is left untouched then.
    public func run() throws {
        try Self.requireTerminal()
        let pipe = try WakePipe()
        let terminal = try CursesTerminal(mouse: options.mouse)
        defer { terminal.shutdown() }
        TerminationSignals.install(wakeDescriptor: pipe.writeDescriptor)
        defer { TerminationSignals.restore() }

        let app = AppController(environment: environment, options: options, colorMode: terminal.colorMode,
                                size: terminal.size, wake: pipe.wake)
        app.start()
        defer { app.stop() }
        // Resized while starting (a split right after the start): no signal
        // is owed for it any more.
        if let resize = terminal.resizeIfChanged() { app.handle(resize) }
        terminal.present(app.render())

        while !app.shouldQuit, !TerminationSignals.received {
            var descriptors = [
                pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
                pollfd(fd: pipe.readDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            let timeout: Int32 = app.nextDeadline.map { deadline in
                Int32(clamping: max(0, Int((deadline.timeIntervalSinceNow * 1000).rounded(.up))))
            } ?? -1
            _ = poll(&descriptors, 2, timeout)
            if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { break }
            pipe.drain()
            if let resize = terminal.resizeIfChanged() { app.handle(resize) }
            for event in terminal.readEvents() {
                app.handle(event)
                if app.shouldQuit { break }
            }
            app.runPendingEdit(handingOver: terminal.handOver)
            app.tick()
            if app.wantsSuspend {
                app.wantsSuspend = false
                terminal.handOver { _ = kill(getpid(), SIGSTOP) }
            }
            // The terminal may have changed size while it was handed over.
            if let resize = terminal.resizeIfChanged() { app.handle(resize) }
            if app.wantsFullRepaint {
                app.wantsFullRepaint = false
                terminal.invalidate()
            }
            terminal.present(app.render())
        }
    }
}

extension TerminalApp {
    /// Throws `TerminalError.notATerminal` unless stdin and stdout are a
    /// terminal: checked before a command opens anything, so a refused
    /// start changes nothing.
    public static func requireTerminal() throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalError.notATerminal }
    }
}

/// The self-pipe that view-model observations (on their own queues) write
/// to, so the main loop, asleep in `poll()`, wakes up and redraws.
final class WakePipe: Sendable {
    let readDescriptor: Int32
    let writeDescriptor: Int32

    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw TerminalError.cannotStart("cannot create a pipe: \(String(cString: strerror(errno)))") }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    /// Safe from any thread; a full pipe already means "wake up". The
    /// closure keeps the pipe open: a view model that calls it late (after
    /// the app stopped) must never write to a descriptor number the process
    /// has since reused for a file.
    var wake: @Sendable () -> Void {
        { [self] in
            var byte: UInt8 = 1
            _ = write(writeDescriptor, &byte, 1)
        }
    }

    func drain() {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(readDescriptor, &bytes, bytes.count) > 0 {}
    }
}

/// SIGTERM and SIGHUP end the loop cleanly (the terminal is restored and
/// reminders still "completing" are completed) instead of killing the
/// process mid-frame; SIGWINCH wakes the loop to read the new size. The
/// handler is C (`CNcurses`), where it can be kept to what a handler may do.
enum TerminationSignals {
    static var received: Bool { reminders_termination_was_requested() != 0 }

    static func install(wakeDescriptor: Int32) {
        reminders_install_signal_handlers(wakeDescriptor)
    }

    static func restore() {
        reminders_restore_signal_handlers()
    }
}
