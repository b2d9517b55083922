import Testing
@testable import RemindersTUI

@Suite struct KeyMapTests {
    let keyMap = KeyMap.standard

    /// The contexts a screen or overlay listens to together.
    static let stacks: [[KeyContext]] = [
        [.home, .navigation, .global],
        [.list, .navigation, .global],
        [.tags, .navigation, .global],
        [.searchResults, .navigation, .global],
        [.search, .textEntry],
        [.textEntry, .form, .reminderForm],
        [.notes, .textEntry, .form, .reminderForm],
        [.choice, .form, .reminderOptions, .reminderForm],
        [.flag, .form, .reminderOptions, .reminderForm],
        [.tagField, .form, .reminderOptions, .reminderForm],
        [.coverField, .form, .listForm],
        [.tagPicker, .textEntry],
        [.sortMenu],
        [.confirm],
        [.prompt, .textEntry],
        [.help],
        [.conflicts, .navigation, .global],
        [.sharing, .navigation, .global],
        [.invitations, .home, .navigation, .global],
        [.alerts],
        [.firstRun],
        [.reminderPreview],
        [.subtaskChoice],
    ]

    @Test func noKeyIsBoundTwiceInOneContext() {
        for context in KeyContext.allCases {
            var seen: [KeySequence: Action] = [:]
            for binding in keyMap.bindings where binding.contexts.contains(context) {
                for key in binding.keys {
                    #expect(seen[key] == nil, "\(key) is bound to both \(seen[key].map { "\($0)" } ?? "") and \(binding.action) in \(context)")
                    seen[key] = binding.action
                }
            }
        }
    }

    @Test func everyContextAppearsInAScreen() {
        let used = Set(Self.stacks.flatMap { $0 })
        #expect(Set(KeyContext.allCases).subtracting(used).isEmpty)
    }

    @Test func theMostSpecificContextWins() {
        #expect(keyMap.action(for: .enter, in: [.list, .navigation, .global]) == .editReminder)
        #expect(keyMap.action(for: .enter, in: [.home, .navigation, .global]) == .open)
        #expect(keyMap.action(for: .character("q"), in: [.home, .navigation, .global]) == .quit)
        #expect(keyMap.action(for: .character("q"), in: [.list, .navigation, .global]) == .back)
        #expect(keyMap.action(for: .enter, in: [.notes, .textEntry, .form]) == .newline)
        #expect(keyMap.action(for: .enter, in: [.textEntry, .form]) == .save)
    }

    @Test func vimKeysAndArrowsMoveTheSameWay() {
        let list: [KeyContext] = [.list, .navigation, .global]
        #expect(keyMap.action(for: .character("j"), in: list) == keyMap.action(for: .down, in: list))
        #expect(keyMap.action(for: .character("k"), in: list) == keyMap.action(for: .up, in: list))
        #expect(keyMap.action(for: .character("g"), in: list) == .top)
        #expect(keyMap.action(for: .character("G"), in: list) == .bottom)
        #expect(keyMap.action(for: .character("h"), in: list) == .back)
    }

    @Test func textContextsLeavePrintableKeysToTheText() {
        // Keys that type must not be bound where text is typed.
        for stack in [[KeyContext.search, .textEntry], [.textEntry, .form, .reminderForm],
                      [.notes, .textEntry, .form, .reminderForm], [.prompt, .textEntry], [.tagPicker, .textEntry]] {
            for context in stack {
                for binding in keyMap.bindings where binding.contexts.contains(context) {
                    for key in binding.keys {
                        if case .character(let c)? = key.keys.first {
                            #expect(c == " " && context == .tagPicker, "\(key) bound in text context \(context)")
                        }
                    }
                }
            }
        }
    }

    @Test func helpListsEveryBindingOfTheScreen() {
        let contexts: [KeyContext] = [.list, .navigation, .global]
        let sections = keyMap.helpSections(for: contexts)
        let listed = Set(sections.flatMap { $0.bindings.map(\.action) })
        for binding in keyMap.bindings where !binding.contexts.isDisjoint(with: contexts) {
            #expect(listed.contains(binding.action))
        }
    }

    @Test func helpFiltersByKeyAndDescription() {
        let sections = keyMap.helpSections(for: [.list, .navigation, .global], filter: "sort")
        #expect(sections.flatMap { $0.bindings.map(\.action) } == [.sortMenu])
        let byKey = keyMap.helpSections(for: [.list], filter: "Space")
        #expect(byKey.flatMap { $0.bindings.map(\.action) } == [.toggleCompletion])
    }

    @Test func hintsComeFromTheSameTable() {
        let hints = keyMap.hints(for: [.list, .navigation, .global])
        // Quick add first, on a list as on Home: the key a new user most needs.
        #expect(hints.prefix(2).map(\.keys) == ["n", "a"])
        #expect(hints.prefix(2).map(\.label) == ["quick add", "new"])
        #expect(keyMap.hints(for: [.home, .navigation, .global]).prefix(2).map(\.label) == ["quick add", "quit"])
        #expect(hints.contains { $0.keys == "Space" && $0.label == "done" })
        let hidden = keyMap.hints(for: [.list, .navigation, .global], hiding: [.newReminder])
        #expect(!hidden.contains { $0.label == "new" })
    }
}

@Suite struct KeyDecodingTests {
    @Test func controlCodesBecomeTheirKeys() {
        #expect(CursesTerminal.decodeCharacter(13) == .enter)
        #expect(CursesTerminal.decodeCharacter(10) == .enter)
        #expect(CursesTerminal.decodeCharacter(9) == .tab)
        #expect(CursesTerminal.decodeCharacter(27) == .escape)
        #expect(CursesTerminal.decodeCharacter(127) == .backspace)
        #expect(CursesTerminal.decodeCharacter(8) == .backspace)
        #expect(CursesTerminal.decodeCharacter(19) == .control("s"))
        #expect(CursesTerminal.decodeCharacter(0x6A) == .character("j"))
        #expect(CursesTerminal.decodeCharacter(0x6771) == .character("東"))
    }

    @Test func unprintableCharactersAreDropped() {
        #expect(CursesTerminal.decodeCharacter(0) == nil)
        #expect(CursesTerminal.decodeCharacter(0x9B) == nil)
        #expect(CursesTerminal.decodeCharacter(0x202E) == nil)
    }

    @Test func altKeysAreDroppedWhole() {
        let events: [InputEvent] = [.key(.escape), .key(.character("d")), .key(.character("j")), .key(.escape)]
        #expect(EscapeSequences.decode(events) == [.key(.character("j")), .key(.escape)])
    }

    /// With a TERM that does not name them, keys arrive as their escape
    /// sequences: known ones become the key, unknown ones are dropped, and
    /// none is typed into a field as "1~".
    @Test func escapeSequencesNcursesDidNotKnowAreDecodedOrDropped() {
        func keys(_ text: String) -> [InputEvent] {
            text.map { $0 == "\u{1b}" ? .key(.escape) : .key(.character($0)) }
        }
        #expect(EscapeSequences.decode(keys("a\u{1b}[1~b")) == [.key(.character("a")), .key(.home), .key(.character("b"))])
        #expect(EscapeSequences.decode(keys("\u{1b}[4~\u{1b}[3~\u{1b}OH\u{1b}[Z")) == [.key(.end), .key(.delete), .key(.home), .key(.backTab)])
        // Unknown: a modified arrow, a paste mark, a focus report, an F-key of another terminal.
        #expect(EscapeSequences.decode(keys("\u{1b}[1;5Cx\u{1b}[200~\u{1b}[I\u{1b}[25~y")) == [.key(.character("x")), .key(.character("y"))])
        // A sequence cut short is dropped; Esc alone stays Esc.
        #expect(EscapeSequences.decode(keys("\u{1b}[12")) == [])
        #expect(EscapeSequences.decode(keys("\u{1b}")) == [.key(.escape)])
    }
}
