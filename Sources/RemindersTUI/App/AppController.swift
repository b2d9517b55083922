import Foundation
import RemindersCore
import RemindersViewModels

/// The app without a terminal: screens, overlays, the toast and the status
/// bar, fed input events and asked for frames. `TerminalApp` connects it to
/// ncurses; tests drive it directly.
final class AppController {
    let environment: AppEnvironment
    let options: TUIOptions
    let keyMap: KeyMap
    let theme: Theme
    let covers = CoverCache()
    /// Called from any thread when a view model changed: wakes the main loop.
    let wake: @Sendable () -> Void
    /// The clock of toasts and animations (not of due dates: those use the
    /// environment's clock).
    let now: () -> Date

    private(set) var size: (width: Int, height: Int)
    private(set) var stack: [ScreenController] = []
    private(set) var overlays: [Overlay] = []
    private(set) var toast: Toast?
    /// What `u` takes back, latest last, and what ^R does again: each a
    /// change and the performer that applies it (the view model that made
    /// it, or the store).
    private var undoHistory: [UndoEntry] = []
    private var redoHistory: [UndoEntry] = []

    struct UndoEntry {
        var action: UndoAction
        var perform: (UndoAction) -> ActionResult
    }

    /// How many changes `u` can take back.
    static let undoDepth = 30
    let statusBar: StatusBarViewModel
    /// Due alerts, when the options turn them on (AlertToasts.swift).
    let dueAlerts: DueAlertScheduler?
    private(set) var shouldQuit = false
    /// Errors reported from other threads, shown on the next tick.
    private let mailbox = Mailbox()
    /// Conflict news from the sync queue, shown on the next tick (LiveSyncUI.swift).
    let syncNotices = Mailbox()
    /// The re-join of the server last announced (LiveSyncUI.swift).
    var announcedRejoin: Date?
    var announcedGoneShares: Date?
    /// Set by ^L: the terminal repaints everything.
    var wantsFullRepaint = false
    /// Set by ^Z: the terminal suspends the process.
    var wantsSuspend = false
    /// The first keys of a sequence (`g` of `g g`), waiting for the next.
    private(set) var pendingKeys: [Key] = []
    /// Text to edit in the user's editor once the terminal is handed over,
    /// and what to do with the outcome.
    private var pendingEdit: (text: String, finish: (ExternalEditOutcome) -> Void)?

    /// Smallest size the screens are laid out for.
    static let minimumSize = (width: 60, height: 20)

    init(environment: AppEnvironment, options: TUIOptions, colorMode: ColorMode, size: (width: Int, height: Int),
         keyMap: KeyMap? = nil, now: @escaping () -> Date = Date.init, wake: @escaping @Sendable () -> Void) {
        self.environment = environment
        self.options = options
        self.keyMap = keyMap ?? options.keyBindings.keyMap
        self.theme = Theme(mode: colorMode, colors: options.colors)
        self.size = size
        self.now = now
        self.wake = wake
        statusBar = StatusBarViewModel(environment: environment)
        statusBar.onChange = wake
        dueAlerts = options.dueAlerts.map { DueAlertScheduler(environment: environment, settings: $0) }
        dueAlerts?.onChange = wake
        let mailbox = self.mailbox
        environment.completions.onError = { message in
            mailbox.post(message)
            wake()
        }
        watchConflicts()
    }

    /// Opens the home screen.
    func start() {
        push(HomeScreen(environment: environment, previewing: size.width >= HomePreview.minimumWidth))
        if let offer = options.firstRun { present(FirstRunOverlay(offer: offer)) }
        dueAlerts?.start()
    }

    /// Stops every view model and completes reminders still "completing".
    func stop() {
        for screen in stack.reversed() { screen.stop() }
        stack.removeAll()
        statusBar.stop()
        dueAlerts?.stop()
        environment.completions.finishNow()
    }

    var top: ScreenController? { stack.last }

    // MARK: Navigation

    func push(_ screen: ScreenController) {
        // A toast is about the screen it was shown on ("Select one of My
        // Lists first", an error); one that offers undo carries on, as `u`
        // works on every screen, and so does news from elsewhere.
        if let toast, !toast.canUndo, !toast.isNews { self.toast = nil }
        stack.append(screen)
        screen.start(self)
    }

    /// Leaves the top screen (and any box it had open); leaving Home quits.
    func pop() {
        guard let screen = stack.popLast() else { return }
        overlays.removeAll()
        screen.stop()
        if stack.isEmpty { shouldQuit = true }
    }

    /// Leaves screens until `screen` is on top.
    func pop(to screen: ScreenController) {
        while let last = stack.last, last !== screen, stack.count > 1 { pop() }
    }

    func present(_ overlay: Overlay) {
        overlays.append(overlay)
    }

    func dismiss(_ overlay: Overlay) {
        overlays.removeAll { $0 === overlay }
    }

    func quit() {
        shouldQuit = true
    }

    // MARK: Toasts and undo

    /// Shows what an action did. With `undo`, the change joins the undo
    /// history: `u` takes back the latest change, then the one before (up
    /// to `undoDepth`), and ^R does again what `u` took back. The toast
    /// says so while it shows.
    func show(_ result: ActionResult, undo perform: ((UndoAction) -> ActionResult)? = nil) {
        if let error = result.errorMessage {
            showError(error)
            return
        }
        if let undo = result.undo, let perform { remember(undo, perform: perform) }
        guard let message = result.message else { return }
        toast = Toast(message: message, isError: false, canUndo: result.undo != nil && perform != nil,
                      expires: now().addingTimeInterval(options.toastDuration))
    }

    /// Adds a change to the undo history (a form's save, which shows its
    /// own message); a new change forgets what could be redone.
    func remember(_ undo: UndoAction, perform: ((UndoAction) -> ActionResult)? = nil) {
        undoHistory.append(UndoEntry(action: undo, perform: perform ?? storeUndo()))
        if undoHistory.count > Self.undoDepth { undoHistory.removeFirst(undoHistory.count - Self.undoDepth) }
        redoHistory.removeAll()
    }

    func showMessage(_ message: String, duration: TimeInterval? = nil, isNews: Bool = false) {
        toast = Toast(message: message, isError: false, canUndo: false,
                      expires: now().addingTimeInterval(duration ?? options.toastDuration), isNews: isNews)
    }

    /// Takes away the error `message` showed, once it no longer holds.
    func withdrawError(_ message: String) {
        if toast?.isError == true, toast?.message == message { toast = nil }
    }

    func showError(_ message: String, isNews: Bool = false) {
        toast = Toast(message: message, isError: true, canUndo: false,
                      expires: now().addingTimeInterval(max(options.toastDuration, 6)), isNews: isNews)
    }

    /// Takes back the latest change of the history.
    func undo() {
        let redoKey = keyMap.key(for: .redo, in: [.global]).map { " · \($0) redo" } ?? ""
        step(from: &undoHistory, to: &redoHistory, verb: "undo", suffix: redoKey)
    }

    /// Does again the change `u` took back last.
    func redo() {
        step(from: &redoHistory, to: &undoHistory, verb: "redo", suffix: "")
    }

    /// Applies the latest entry of one history and files what takes it
    /// back in the other.
    private func step(from source: inout [UndoEntry], to target: inout [UndoEntry], verb: String, suffix: String) {
        guard let entry = source.popLast() else {
            showMessage("Nothing to \(verb)")
            return
        }
        let result = entry.perform(entry.action)
        if let error = result.errorMessage {
            showError("Could not \(verb): \(error)")
            return
        }
        // What an undo files takes back the undo: a redo.
        if let inverse = result.undo { target.append(UndoEntry(action: inverse, perform: storeUndo(redoing: verb == "undo"))) }
        if let id = entry.action.revealedReminderID { top?.reveal(reminderID: id) }
        showMessage((result.message ?? "Done") + suffix)
    }

    /// Undo for an action whose view model may be gone by the time the user
    /// presses `u`: goes through the store directly.
    func storeUndo(redoing: Bool = false) -> (UndoAction) -> ActionResult {
        let environment = self.environment
        return { action in action.perform(in: environment, redoing: redoing) }
    }

    // MARK: Time

    /// Expires the toast. Returns true when something changed on screen.
    @discardableResult
    func tick() -> Bool {
        var changed = closeGoneScreens()
        for message in mailbox.take() {
            showError(message, isNews: true)
            changed = true
        }
        if announceDueAlerts() { changed = true }
        if withdrawFirstRunOffer() { changed = true }
        if announceConflicts() { changed = true }
        if announceRejoin() { changed = true }
        if announceGoneShares() { changed = true }
        if let toast, toast.expires <= now() {
            self.toast = nil
            changed = true
        }
        return changed || isAnimating
    }

    /// Closes screens whose subject was deleted meanwhile, and shows what
    /// screens have to say as toasts.
    @discardableResult
    func closeGoneScreens() -> Bool {
        var closed = false
        while stack.count > 1, let top, let message = top.goneMessage {
            pop()
            showMessage(message)
            closed = true
        }
        for screen in stack {
            guard let notice = screen.takeNotice() else { continue }
            if notice.isError { showError(notice.message) } else { showMessage(notice.message) }
            closed = true
        }
        return closed
    }

    var isAnimating: Bool { top?.isAnimating ?? false }

    /// The first-run question is for a user with nothing anywhere: when
    /// lists arrive while it is open (another device of theirs started at
    /// the same moment and added or made some), it goes, and says why.
    private func withdrawFirstRunOffer() -> Bool {
        guard let offer = overlays.first(where: { $0 is FirstRunOverlay }),
              let home = stack.first as? HomeScreen, !home.viewModel.state.lists.isEmpty else { return false }
        dismiss(offer)
        showMessage("Your lists arrived from another device: nothing to add", isNews: true)
        return true
    }

    /// When the main loop should wake up even without input.
    var nextDeadline: Date? {
        var deadline = toast?.expires
        // The re-join mark leaves the status bar on time, keys or not.
        if let shown = rejoinMarkExpires, shown > now() {
            deadline = deadline.map { min($0, shown) } ?? shown
        }
        if isAnimating {
            let frame = now().addingTimeInterval(0.1)
            deadline = deadline.map { min($0, frame) } ?? frame
        }
        return deadline
    }

    // MARK: Input

    /// The key contexts in force: the open overlay's or the screen's.
    var contexts: [KeyContext] {
        overlays.last?.contexts ?? top?.contexts ?? [.global]
    }

    func handle(_ event: InputEvent) {
        switch event {
        case .resize(let width, let height):
            size = (width, height)
        case .key(let key):
            handle(key)
        case .mouse(let mouse):
            guard options.mouse else { return }
            pendingKeys = []
            if let overlay = overlays.last {
                _ = overlay.handleMouse(mouse, app: self)
            } else if let top, mouse.row > 0, mouse.row < size.height - 1 {
                _ = top.handleMouse(mouse, app: self)
            }
        }
    }

    func handle(_ key: Key) {
        if isTooSmall {
            // Only leaving works while the terminal is too small to draw.
            switch keyMap.action(for: key, in: [.home, .global]) {
            case .quit: quit()
            case .suspend: wantsSuspend = true
            default: break
            }
            return
        }
        let contexts = self.contexts
        if !pendingKeys.isEmpty {
            let typed = pendingKeys + [key]
            pendingKeys = []
            switch keyMap.match(typed, in: contexts) {
            case .action(let action):
                perform(action)
                return
            case .prefix:
                pendingKeys = typed
                return
            case .none:
                // Not a sequence after all: the key counts on its own.
                break
            }
        }
        if let overlay = overlays.last {
            if overlay.handleText(key, app: self) { return }
        } else if let top {
            if top.handleText(key, app: self) { return }
        } else {
            return
        }
        switch keyMap.match([key], in: contexts) {
        case .action(let action): perform(action)
        case .prefix: pendingKeys = [key]
        case .none: break
        }
    }

    /// An action for the open overlay, else the top screen, else the app.
    private func perform(_ action: Action) {
        if let overlay = overlays.last {
            if overlay.perform(action, app: self) { return }
        } else if let top {
            if top.perform(action, app: self) { return }
        }
        performGlobal(action)
    }

    // MARK: The user's editor

    /// Asks for `text` to be edited in the user's editor: the main loop
    /// hands the terminal over, runs it, and calls `finish` with what came
    /// of it. Without an editor `finish` gets a failure at once.
    func editExternally(_ text: String, finish: @escaping (ExternalEditOutcome) -> Void) {
        guard options.editor != nil else {
            finish(.failed("no editor is set up"))
            return
        }
        pendingEdit = (text, finish)
    }

    /// Runs the editor asked for, if any, with the terminal handed over by
    /// `handOver` (the terminal's, or a test's that just calls its body).
    func runPendingEdit(handingOver handOver: (() -> Void) -> Void) {
        guard let edit = pendingEdit, let editor = options.editor else { return }
        pendingEdit = nil
        var outcome = ExternalEditOutcome.unchanged
        handOver { outcome = editor.edit(edit.text) }
        wantsFullRepaint = true
        edit.finish(outcome)
    }

    private func performGlobal(_ action: Action) {
        switch action {
        case .quit:
            quit()
        case .suspend:
            wantsSuspend = true
        case .back:
            if stack.count > 1 {
                pop()
            } else {
                escapeOnHome()
            }
        case .help:
            present(HelpOverlay(contexts: top?.contexts ?? [.global]))
        case .search:
            if !(top is SearchScreen) { push(SearchScreen(environment: environment)) }
        case .openTags:
            if !(top is TagsScreen) { push(TagsScreen(environment: environment)) }
        case .openConflicts:
            if !(top is ConflictsScreen) { push(ConflictsScreen(environment: environment)) }
        case .toggleOffline:
            toggleOffline()
        case .openAlerts:
            openDueAlerts()
        case .undo:
            undo()
        case .redo:
            redo()
        case .redraw:
            wantsFullRepaint = true
        default:
            break
        }
    }

    /// Escape on Home does not quit (too easy to hit by accident); this
    /// tells the user how to.
    func escapeOnHome() {
        showMessage(keyMap.key(for: .quit, in: [.home]).map { "Press \($0) to quit" } ?? "Escape does not quit from here")
    }

    // MARK: Tests and first frame

    /// Reads every open view model's state now.
    func refresh() {
        for screen in stack { screen.refresh() }
        statusBar.refresh()
        dueAlerts?.refresh()
    }

    // MARK: Drawing

    var isTooSmall: Bool {
        size.width < Self.minimumSize.width || size.height < Self.minimumSize.height
    }

    func render() -> CellBuffer {
        closeGoneScreens()
        var buffer = CellBuffer(width: size.width, height: size.height)
        if isTooSmall {
            drawTooSmall(into: &buffer)
            return buffer
        }
        // While the server fails, a line above the status bar says so; a
        // toast takes the lines above that, so it covers neither a row nor
        // a box's border.
        let errorLine = serverErrorLine
        let toastLines = self.toastLines
        let content = Rect(row: 1, column: 0, width: size.width,
                           height: max(1, size.height - (errorLine == nil ? 2 : 3) - toastLines.count))
        top?.render(into: &buffer, area: content, app: self)
        if let errorLine { drawServerError(errorLine, into: &buffer, row: size.height - 2) }
        let screenCursor = buffer.cursor
        drawTopBar(into: &buffer)
        if !overlays.isEmpty {
            buffer.cursor = nil
            for overlay in overlays {
                overlay.render(into: &buffer, area: content, app: self)
            }
        } else {
            buffer.cursor = screenCursor
        }
        drawToast(toastLines, into: &buffer, below: content)
        drawStatusBar(into: &buffer)
        return buffer
    }

    private func drawTooSmall(into buffer: inout CellBuffer) {
        let lines = [
            "Please enlarge the terminal",
            "to at least \(Self.minimumSize.width)x\(Self.minimumSize.height)",
            "(now \(size.width)x\(size.height))",
        ]
        // One line when it fits, as the message reads best whole.
        let whole = "Please enlarge the terminal to at least \(Self.minimumSize.width)x\(Self.minimumSize.height) (now \(size.width)x\(size.height))"
        let chosen = DisplayWidth.of(whole) <= size.width ? [whole] : lines
        let top = max(0, (size.height - chosen.count) / 2)
        for (offset, line) in chosen.enumerated() {
            let width = DisplayWidth.of(line)
            buffer.draw(line, row: top + offset, column: max(0, (size.width - width) / 2), style: theme.title)
        }
    }

    private func drawTopBar(into buffer: inout CellBuffer) {
        let bar = Rect(row: 0, column: 0, width: size.width, height: 1)
        buffer.fill(bar, style: theme.topBar)
        var spans = [Span(" Reminders", theme.topBar.with(.bold))]
        for screen in stack.dropFirst() {
            spans.append(Span(" › ", theme.topBar))
            spans.append(Span(screen.title, theme.topBar))
        }
        let right = keyMap.key(for: .help, in: [.global]).map { "\($0) help " } ?? ""
        let rightWidth = DisplayWidth.of(right)
        buffer.draw(spans, row: 0, column: 0, maxWidth: size.width - rightWidth - 1)
        buffer.draw(right, row: 0, column: size.width - rightWidth, style: theme.topBar)
    }

    private func drawStatusBar(into buffer: inout CellBuffer) {
        let row = size.height - 1
        buffer.fill(Rect(row: row, column: 0, width: size.width, height: 1), style: theme.statusBar)
        let state = statusBar.state
        let hints = statusHints()
        // The screen's first two keys (save, next; quit, new) keep their
        // room: the sync state gives way first, as far as it goes, then the
        // count past due, then who this is.
        let firstHints = 1 + hints.prefix(2).reduce(0) { $0 + DisplayWidth.of($1.keys) + DisplayWidth.of($1.label) + 3 }
        let whos = [(pastDueLabel.map { $0 + " · " } ?? "") + "\(state.identity) · ", "\(state.identity) · ", ""]
        var rightSpans: [Span] = []
        var rightWidth = 0
        for who in whos {
            let room = min(size.width * 2 / 3, size.width - firstHints - 1) - DisplayWidth.of(who) - 2
            rightSpans = [Span(" " + who, theme.statusBar)] + syncSpans(state.sync, maxWidth: room) + [Span(" ", theme.statusBar)]
            rightWidth = min(rightSpans.reduce(0) { $0 + DisplayWidth.of($1.text) }, size.width * 2 / 3)
            if rightWidth + firstHints + 1 <= size.width { break }
        }
        buffer.draw(rightSpans, row: row, column: size.width - rightWidth, maxWidth: rightWidth)
        var spans: [Span] = [Span(" ", theme.statusBar)]
        for hint in hints {
            spans.append(Span(hint.keys, theme.statusKey))
            spans.append(Span(" " + hint.label + "  ", theme.statusBar))
        }
        // Hints that do not fit are dropped whole rather than cut.
        let available = size.width - rightWidth - 1
        var fitted: [Span] = []
        var used = 0
        var index = 0
        while index < spans.count {
            let pair = index == 0 ? [spans[0]] : Array(spans[index..<min(index + 2, spans.count)])
            let width = pair.reduce(0) { $0 + DisplayWidth.of($1.text) }
            if used + width > available { break }
            fitted += pair
            used += width
            index += index == 0 ? 1 : 2
        }
        buffer.draw(fitted, row: row, column: 0, maxWidth: available)
    }

    /// The status bar's key hints, in their order.
    private func statusHints() -> [(keys: String, label: String)] {
        let hidden = overlays.isEmpty ? (top?.hiddenActions ?? []) : []
        var hints = keyMap.hints(for: contexts, hiding: hidden.union([.help]))
        if toast?.canUndo == true, let undo = keyMap.key(for: .undo, in: contexts) {
            hints.insert((undo, "undo"), at: 0)
        }
        if !pendingKeys.isEmpty {
            // The start of a sequence typed: the rest of it is awaited.
            hints.insert((KeySequence(pendingKeys).description + " …", ""), at: 0)
        }
        return hints
    }

    /// The toast's text as it is drawn: one line, or two when it is wider
    /// than the terminal (rather than losing its end), three on a terminal
    /// narrower than 100 columns, where a server's or a share's message
    /// would otherwise lose its end; none without a toast.
    private var toastLines: [String] {
        guard let toast else { return [] }
        var text = " " + toast.message + " "
        if toast.canUndo, let undo = keyMap.key(for: .undo, in: [.global]) {
            text += "· \(undo) undo "
        }
        return DisplayWidth.of(text) <= size.width - 2
            ? [text] : DisplayWidth.wrap(text, width: size.width - 4, maxLines: size.width < 100 ? 3 : 2).map { " " + $0 + " " }
    }

    /// Draws the toast on its own lines under the content, to the right.
    private func drawToast(_ lines: [String], into buffer: inout CellBuffer, below content: Rect) {
        guard let toast, !lines.isEmpty else { return }
        let width = min(lines.map(DisplayWidth.of).max() ?? 0, size.width - 2)
        let column = size.width - width - 1
        let style = toast.isError ? theme.toastError : theme.toast
        for (index, line) in lines.enumerated() {
            let row = content.bottom + index
            buffer.fill(Rect(row: row, column: column, width: width, height: 1), style: style)
            buffer.draw(line, row: row, column: column, maxWidth: width, style: style)
        }
    }
}
