import CNcurses
import Foundation

/// Why the full-screen app could not take over the terminal.
public enum TerminalError: Error, CustomStringConvertible, Equatable {
    /// Standard input or output is not a terminal (a pipe, a file, a
    /// service without a TTY).
    case notATerminal
    /// The terminal could not be set up; the reason names what failed
    /// (TERM unset or unknown to ncurses, a pipe that could not be made).
    case cannotStart(String)

    /// One line for the user, naming what to do instead where there is
    /// something.
    public var description: String {
        switch self {
        case .notATerminal:
            "the full-screen app needs a terminal (stdin and stdout are not a TTY); use the subcommands instead, e.g. `reminders lists`"
        case .cannotStart(let reason):
            "cannot start the full-screen app: \(reason)"
        }
    }
}

/// ncurses behind the app: it starts and stops the terminal, flushes cell
/// buffers (only the cells that changed since the last frame) and decodes
/// keys and mouse events.
final class CursesTerminal {
    let colorMode: ColorMode
    private(set) var size: (width: Int, height: Int)
    private var previous: CellBuffer?
    private var pairs: [PairKey: Int32] = [:]
    private var nextPair: Int32 = 1
    private let maxPairs: Int32
    private var cursorVisible = false
    private var screen: OpaquePointer?
    private var isOpen = false

    private struct PairKey: Hashable {
        var foreground: Int32
        var background: Int32
    }

    init(mouse: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw TerminalError.notATerminal }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else {
            throw TerminalError.cannotStart("TERM is not set (or is \"dumb\")")
        }
        // A UTF-8 locale makes ncurses and wcwidth handle wide characters;
        // without one (LANG unset) fall back to C.UTF-8 rather than draw
        // every accent as "?".
        if reminders_setlocale_from_environment() == 0 {
            _ = reminders_force_utf8_ctype()
        }
        if environment["ESCDELAY"] == nil {
            set_escdelay(25)
        }
        guard let screen = newterm(nil, StandardStreams.output, StandardStreams.input) else {
            throw TerminalError.cannotStart("ncurses does not know the terminal type \"\(term)\"")
        }
        self.screen = screen
        _ = set_term(screen)
        isOpen = true
        raw()
        noecho()
        nonl()
        keypad(reminders_stdscr(), true)
        nodelay(reminders_stdscr(), true)
        curs_set(0)
        var mode = ColorMode.monochrome
        if has_colors() {
            let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            if !noColor {
                start_color()
                use_default_colors()
                let direct = reminders_tigetflag("RGB") > 0 || reminders_tigetflag("Tc") > 0
                mode = ColorMode.detect(colors: Int(reminders_colors()), hasColors: true,
                                        hasDirectFlag: direct, environment: environment)
            }
        }
        colorMode = mode
        maxPairs = mode == .monochrome ? 0 : reminders_color_pairs()
        if mouse {
            reminders_enable_mouse()
        }
        var rows: Int32 = 0, columns: Int32 = 0
        reminders_getmaxyx(reminders_stdscr(), &rows, &columns)
        size = (Int(columns), Int(rows))
    }

    deinit {
        shutdown()
    }

    /// Gives the terminal back as it was. Safe to call twice.
    func shutdown() {
        guard isOpen else { return }
        isOpen = false
        curs_set(1)
        endwin()
        if let screen { delscreen(screen) }
        screen = nil
    }

    /// Leaves curses mode while `body` runs (^Z stops the process; an
    /// editor takes the terminal), then comes back and repaints all: the
    /// terminal is as the shell had it meanwhile (endwin restores its
    /// modes, and the next refresh puts curses' back).
    func handOver(_ body: () -> Void) {
        endwin()
        body()
        refresh()
        invalidate()
    }

    /// Forgets what is on the screen, so the next frame repaints it all.
    func invalidate() {
        previous = nil
        clearok(reminders_stdscr(), true)
    }

    /// The resize, if the terminal's size changed since ncurses last looked:
    /// tells ncurses, and returns the event for the app. The main loop asks
    /// after every wake-up (SIGWINCH only wakes it; see
    /// `TerminationSignals`). ncurses then also queues a KEY_RESIZE, read
    /// as a second resize to the same size, which changes nothing.
    func resizeIfChanged() -> InputEvent? {
        var rows: Int32 = 0, columns: Int32 = 0
        guard isOpen, reminders_terminal_size(&rows, &columns) == 0,
              Int(columns) != size.width || Int(rows) != size.height else { return nil }
        _ = resizeterm(rows, columns)
        updateSize()
        return .resize(width: size.width, height: size.height)
    }

    /// Re-reads the terminal size after a resize.
    func updateSize() {
        var rows: Int32 = 0, columns: Int32 = 0
        reminders_getmaxyx(reminders_stdscr(), &rows, &columns)
        size = (Int(columns), Int(rows))
        previous = nil
    }

    // MARK: Output

    /// Draws a frame: writes the cells that differ from the previous frame
    /// and lets ncurses send the difference to the terminal.
    func present(_ buffer: CellBuffer) {
        guard isOpen else { return }
        if previous?.width != buffer.width || previous?.height != buffer.height {
            previous = nil
            erase()
        }
        let rows = min(buffer.height, size.height)
        let columns = min(buffer.width, size.width)
        for row in 0..<rows {
            var column = 0
            while column < columns {
                let cell = buffer[row, column]
                if let previous, previous[row, column] == cell {
                    column += 1
                    continue
                }
                if cell.isContinuation {
                    // Its wide glyph starts one cell left and is unchanged
                    // only if this cell is; redraw the glyph.
                    if column > 0, buffer[row, column - 1].width == 2 {
                        put(buffer[row, column - 1], row: row, column: column - 1)
                    }
                    column += 1
                    continue
                }
                put(cell, row: row, column: column)
                column += cell.width == 2 ? 2 : 1
            }
        }
        if let cursor = buffer.cursor, cursor.row < rows, cursor.column < columns {
            if !cursorVisible { curs_set(1); cursorVisible = true }
            move(Int32(cursor.row), Int32(cursor.column))
        } else if cursorVisible {
            curs_set(0)
            cursorVisible = false
        }
        refresh()
        previous = buffer
    }

    private func put(_ cell: Cell, row: Int, column: Int) {
        var characters = Array(cell.text.unicodeScalars.prefix(Int(reminders_ccharw_max()) - 1).map { wchar_t(bitPattern: $0.value) })
        if characters.isEmpty { characters = [wchar_t(32)] }
        characters.append(0)
        let attributes = attributes(of: cell.style)
        let pair = pair(for: cell.style)
        characters.withUnsafeBufferPointer { pointer in
            _ = reminders_put_cell(Int32(row), Int32(column), pointer.baseAddress, attributes, pair)
        }
    }

    private func attributes(of style: Style) -> UInt32 {
        var result = reminders_a_normal()
        if style.attributes.contains(.bold) { result |= reminders_a_bold() }
        if style.attributes.contains(.dim) { result |= reminders_a_dim() }
        if style.attributes.contains(.underline) { result |= reminders_a_underline() }
        if style.attributes.contains(.reverse) { result |= reminders_a_reverse() }
        if style.attributes.contains(.italic) { result |= reminders_a_italic() }
        return result
    }

    /// The color pair for a style's colors, defined on first use. When the
    /// terminal's pairs run out, they are all forgotten and the screen is
    /// repainted with fresh ones (rare: a full-screen cover uses a few
    /// hundred).
    private func pair(for style: Style) -> Int32 {
        guard colorMode != .monochrome else { return 0 }
        let key = PairKey(foreground: number(of: style.foreground), background: number(of: style.background))
        if key.foreground == -1, key.background == -1 { return 0 }
        if let known = pairs[key] { return known }
        if nextPair >= maxPairs {
            pairs.removeAll()
            nextPair = 1
            previous = nil
        }
        let pair = nextPair
        nextPair += 1
        _ = reminders_init_pair(pair, key.foreground, key.background)
        pairs[key] = pair
        return pair
    }

    /// The ncurses color number: -1 for the default, an index, or (direct
    /// color) the RGB value itself.
    private func number(of color: TermColor) -> Int32 {
        let resolved = XtermPalette.resolve(color, mode: colorMode)
        switch resolved {
        case .default:
            return -1
        case .indexed(let index):
            if colorMode == .direct, index >= 8 {
                let rgb = XtermPalette.rgb(ofIndex: index)
                return Int32(max(8, rgb.r << 16 | rgb.g << 8 | rgb.b))
            }
            return Int32(index)
        case .rgb(let r, let g, let b):
            return Int32(max(8, Int(r) << 16 | Int(g) << 8 | Int(b)))
        }
    }

    // MARK: Input

    /// Every key and mouse event waiting, without blocking.
    func readEvents() -> [InputEvent] {
        var events: [InputEvent] = []
        while events.count < 512 {
            var code: UInt32 = 0
            let status = reminders_get_wch(&code)
            if status == ERR { break }
            if status == reminders_key_code_yes() {
                if let event = decodeFunctionKey(Int32(bitPattern: code)) { events.append(event) }
            } else if let key = Self.decodeCharacter(code) {
                events.append(.key(key))
            }
        }
        return EscapeSequences.decode(events)
    }

    /// A character from `get_wch` as a key: control codes become their
    /// keys, other non-printable ones are dropped.
    static func decodeCharacter(_ code: UInt32) -> Key? {
        switch code {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26:
            return .control(Character(Unicode.Scalar(UInt8(code) + 96)))
        case 0...31, 0x80...0x9F:
            return nil
        default:
            guard let scalar = Unicode.Scalar(code),
                  TextSanitizer.classify(scalar, keepingMatchMarkers: false) == .keep else { return nil }
            return .character(Character(scalar))
        }
    }

    private func decodeFunctionKey(_ code: Int32) -> InputEvent? {
        switch code {
        case reminders_key_up(), reminders_key_sr(): return .key(.up)
        case reminders_key_down(), reminders_key_sf(): return .key(.down)
        case reminders_key_left(): return .key(.left)
        case reminders_key_right(): return .key(.right)
        case reminders_key_home(): return .key(.home)
        case reminders_key_end(): return .key(.end)
        case reminders_key_npage(): return .key(.pageDown)
        case reminders_key_ppage(): return .key(.pageUp)
        case reminders_key_backspace(): return .key(.backspace)
        case reminders_key_dc(): return .key(.delete)
        case reminders_key_enter(): return .key(.enter)
        case reminders_key_btab(): return .key(.backTab)
        case reminders_key_resize():
            updateSize()
            return .resize(width: size.width, height: size.height)
        case reminders_key_mouse():
            return decodeMouse()
        default:
            for n in 1...12 where code == reminders_key_f(Int32(n)) {
                return .key(.function(n))
            }
            return nil
        }
    }

    private func decodeMouse() -> InputEvent? {
        var row: Int32 = 0, column: Int32 = 0
        var buttons: UInt = 0
        guard reminders_get_mouse(&row, &column, &buttons) == OK else { return nil }
        let button: MouseButton
        var double = false
        if buttons & reminders_button4_pressed() != 0 {
            button = .wheelUp
        } else if reminders_button5_pressed() != 0, buttons & reminders_button5_pressed() != 0 {
            button = .wheelDown
        } else if buttons & reminders_button1_double_clicked() != 0 {
            button = .left
            double = true
        } else if buttons & (reminders_button1_pressed() | reminders_button1_clicked()) != 0 {
            button = .left
        } else {
            return nil
        }
        return .mouse(MouseEvent(button: button, row: Int(row), column: Int(column), isDoubleClick: double))
    }
}
