/// A key press, decoded from ncurses (or made up by a test).
enum Key: Hashable, Sendable, CustomStringConvertible {
    case character(Character)
    /// Control plus a letter, e.g. `.control("s")` for ^S.
    case control(Character)
    case up, down, left, right
    case home, end, pageUp, pageDown
    case enter, escape, tab, backTab, backspace, delete
    case function(Int)

    /// How the key is written in the help overlay and the status bar.
    var description: String {
        switch self {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .control(let c): "^" + String(c).uppercased()
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .backspace: "Bksp"
        case .delete: "Del"
        case .function(let n): "F\(n)"
        }
    }

    /// The printable character this key types into a text field, if any.
    var typedCharacter: Character? {
        if case .character(let c) = self { return c }
        return nil
    }
}

enum MouseButton: Hashable, Sendable {
    case left, wheelUp, wheelDown
}

/// A mouse event at a screen cell.
struct MouseEvent: Hashable, Sendable {
    var button: MouseButton
    var row: Int
    var column: Int
    var isDoubleClick: Bool

    init(button: MouseButton, row: Int, column: Int, isDoubleClick: Bool = false) {
        self.button = button
        self.row = row
        self.column = column
        self.isDoubleClick = isDoubleClick
    }
}

/// Everything the main loop feeds the app.
enum InputEvent: Hashable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    /// Text pasted or typed faster than keys are handled arrives as keys;
    /// this is for a terminal resize.
    case resize(width: Int, height: Int)
}
