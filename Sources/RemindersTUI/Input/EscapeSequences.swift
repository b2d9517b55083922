/// Escape sequences that reach the app as single characters: ncurses
/// decodes a key only when the terminal description (TERM) names its
/// sequence, so with a mismatched TERM, Home arrives as Esc `[` `1` `~`.
/// Typed into a field that would be "1~"; backed out of a screen it would
/// be Esc. Here the common ones become their keys and every other one
/// (Alt+key, modified arrows, bracketed paste marks, focus reports) is
/// dropped whole: the app binds none of them.
enum EscapeSequences {
    /// The events with the sequences among them decoded or dropped.
    static func decode(_ events: [InputEvent]) -> [InputEvent] {
        var result: [InputEvent] = []
        var index = 0
        while index < events.count {
            guard events[index] == .key(.escape), index + 1 < events.count,
                  case .key(.character(let introducer)) = events[index + 1] else {
                result.append(events[index])
                index += 1
                continue
            }
            switch introducer {
            case "[":
                // CSI: parameter bytes 0x30-0x3F, intermediates 0x20-0x2F, one final byte 0x40-0x7E.
                var end = index + 2
                var body = ""
                while end < events.count, case .key(.character(let c)) = events[end],
                      let value = c.asciiValue, (0x20...0x3F).contains(value) {
                    body.append(c)
                    end += 1
                }
                if end < events.count, case .key(.character(let final)) = events[end],
                   let value = final.asciiValue, (0x40...0x7E).contains(value) {
                    if let key = csiKey(body, final) { result.append(.key(key)) }
                    index = end + 1
                } else {
                    // Cut short: drop what was read of it.
                    index = end
                }
            case "O":
                // SS3: one more character.
                if index + 2 < events.count, case .key(.character(let final)) = events[index + 2] {
                    if let key = ss3Key(final) { result.append(.key(key)) }
                    index += 3
                } else {
                    index += 2
                }
            default:
                // Alt+key: Esc at once followed by the key.
                index += 2
            }
        }
        return result
    }

    private static func csiKey(_ parameters: String, _ final: Character) -> Key? {
        switch (parameters, final) {
        case ("", "A"): .up
        case ("", "B"): .down
        case ("", "C"): .right
        case ("", "D"): .left
        case ("", "H"): .home
        case ("", "F"): .end
        case ("", "Z"): .backTab
        case ("1", "~"), ("7", "~"): .home
        case ("4", "~"), ("8", "~"): .end
        case ("3", "~"): .delete
        case ("5", "~"): .pageUp
        case ("6", "~"): .pageDown
        default: nil
        }
    }

    private static func ss3Key(_ final: Character) -> Key? {
        switch final {
        case "A": .up
        case "B": .down
        case "C": .right
        case "D": .left
        case "H": .home
        case "F": .end
        default: nil
        }
    }
}
