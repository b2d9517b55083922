/// Keys as a person writes them in the config file: `j`, `G`, `space`,
/// `enter`, `ctrl-d` (also `^D`, `C-d`, `ctrl+d`), `shift-tab`, `f5`, and
/// sequences of them separated by blanks (`g g`, `ctrl-x ctrl-e`).
enum KeyNames {
    /// Why a key name was refused.
    struct Unknown: Error {
        var message: String
    }

    /// The sequence a string names.
    static func sequence(_ text: String) throws(Unknown) -> KeySequence {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard !words.isEmpty else { throw Unknown(message: "an empty key") }
        var keys: [Key] = []
        for word in words {
            keys.append(try key(String(word)))
        }
        return KeySequence(keys)
    }

    /// The key one word names.
    static func key(_ word: String) throws(Unknown) -> Key {
        if word.count == 1, let character = word.first {
            return .character(character)
        }
        let lower = word.lowercased()
        if let named = names[lower] { return named }
        for prefix in ["ctrl-", "ctrl+", "control-", "c-", "^"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            guard rest.count == 1, let letter = rest.first, letter.isASCII, letter.isLetter || letter == "[" else {
                throw Unknown(message: "“\(word)”: ctrl goes with a letter (ctrl-d, ^D)")
            }
            // The terminal sends these as the keys they stand for.
            switch letter {
            case "i": return .tab
            case "j", "m": return .enter
            case "h": return .backspace
            case "[": return .escape
            default: return .control(letter)
            }
        }
        if lower.hasPrefix("f"), let number = Int(lower.dropFirst()), (1...24).contains(number) {
            return .function(number)
        }
        throw Unknown(message: "“\(word)” is not a key name (a character, space, enter, esc, tab, shift-tab, backspace, delete, up, down, left, right, home, end, pageup, pagedown, f1-f24, ctrl-LETTER or ^LETTER)")
    }

    private static let names: [String: Key] = [
        "space": .character(" "), "spc": .character(" "),
        "enter": .enter, "return": .enter, "ret": .enter,
        "esc": .escape, "escape": .escape,
        "tab": .tab, "shift-tab": .backTab, "s-tab": .backTab, "backtab": .backTab,
        "backspace": .backspace, "bksp": .backspace, "bs": .backspace,
        "delete": .delete, "del": .delete,
        "up": .up, "down": .down, "left": .left, "right": .right,
        "↑": .up, "↓": .down, "←": .left, "→": .right,
        "home": .home, "end": .end,
        "pageup": .pageUp, "page-up": .pageUp, "pgup": .pageUp,
        "pagedown": .pageDown, "page-down": .pageDown, "pgdn": .pageDown,
    ]

    /// How the config file writes a key, so that what `reminders config
    /// --keys` prints reads back as the same key.
    static func name(of key: Key) -> String {
        switch key {
        case .character(" "): "space"
        case .character(let c): String(c)
        case .control(let c): "ctrl-\(c)"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .home: "home"
        case .end: "end"
        case .pageUp: "pageup"
        case .pageDown: "pagedown"
        case .enter: "enter"
        case .escape: "esc"
        case .tab: "tab"
        case .backTab: "shift-tab"
        case .backspace: "backspace"
        case .delete: "delete"
        case .function(let n): "f\(n)"
        }
    }

    static func name(of sequence: KeySequence) -> String {
        sequence.keys.map(name(of:)).joined(separator: " ")
    }
}
