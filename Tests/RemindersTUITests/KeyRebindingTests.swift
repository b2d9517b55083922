import Foundation
import Testing
@testable import RemindersTUI
import RemindersCore
import RemindersViewModels

/// The config file's `[keys]`: the table the app, the help and the hints
/// read becomes the user's.
@Suite struct KeyRebindingTests {
    func bindings(_ rebindings: [KeyRebinding]) throws -> KeyBindings {
        try KeyBindings(rebinding: rebindings)
    }

    func refusal(_ rebindings: [KeyRebinding]) -> CustomizationError? {
        do {
            _ = try KeyBindings(rebinding: rebindings)
            return nil
        } catch {
            return error
        }
    }

    @Test func aReboundKeyActsAndShowsInTheHelpAndTheHints() throws {
        let keys = try bindings([KeyRebinding(context: "list", action: "toggle-completion", keys: ["ctrl-t", "enter"], line: 4),
                                 KeyRebinding(context: "list", action: "edit-reminder", keys: ["e"], line: 5)])
        let world = try TestWorld(width: 120, height: 30, options: TUIOptions(keyBindings: keys))
        world.openList("Work")
        // The old key does nothing now; the new one completes.
        world.press(.character(" "))
        #expect(world.app.toast == nil)
        world.press(.control("t"))
        #expect(world.app.toast?.message.hasPrefix("Completed") == true)
        // The status bar hints show the user's key.
        #expect(world.text.contains("^T done"))
        world.press(.character("?"))
        let help = world.text
        #expect(help.contains("^T Enter") && help.contains("Complete / uncomplete"), "\(help)")
        #expect(!help.contains("Space x"))
    }

    @Test func anActionWithoutAContextIsReboundWhereverItIsBound() throws {
        let keys = try bindings([KeyRebinding(context: nil, action: "down", keys: ["ctrl-n", "down"], line: 1)])
        let map = keys.keyMap
        for stack: [KeyContext] in [[.list, .navigation, .global], [.sortMenu], [.alerts], [.help], [.tagPicker, .textEntry]] {
            #expect(map.action(for: .control("n"), in: stack) == .down, "\(stack)")
            #expect(map.action(for: .character("j"), in: stack) == nil, "\(stack)")
        }
    }

    @Test func aContextsOwnEntryWinsOverOneForEveryContext() throws {
        let map = try bindings([KeyRebinding(context: "navigation", action: "down", keys: ["n"], line: 2),
                                KeyRebinding(context: nil, action: "down", keys: ["ctrl-n"], line: 9)]).keyMap
        #expect(map.action(for: .character("n"), in: [.navigation]) == .down)
        #expect(map.action(for: .control("n"), in: [.navigation]) == nil)
        #expect(map.action(for: .control("n"), in: [.help]) == .down)
    }

    @Test func anEmptyListUnbindsTheAction() throws {
        let map = try bindings([KeyRebinding(context: "global", action: "toggle-offline", keys: [], line: 1)]).keyMap
        #expect(map.action(for: .character("o"), in: [.global]) == nil)
        #expect(map.helpSections(for: [.global]).flatMap { $0.bindings.map(\.action) }.contains(.toggleOffline) == false)
    }

    @Test func aSequenceWaitsForItsSecondKey() throws {
        let keys = try bindings([KeyRebinding(context: "navigation", action: "top", keys: ["g g", "home"], line: 1)])
        let world = try TestWorld(width: 100, height: 30, options: TUIOptions(keyBindings: keys))
        world.openList("Work")
        world.press(.character("G"))
        world.press(.character("g"))
        #expect(world.app.pendingKeys == [.character("g")])
        #expect(world.screen.textLines().last?.contains("g …") == true)
        world.press(.character("g"))
        #expect(world.app.pendingKeys.isEmpty)
        // The first row is selected again: j then g g comes back to it.
        world.press(.character("j"), .character("g"), .character("g"))
        #expect(world.app.pendingKeys.isEmpty)
        let help = try #require(world.app.keyMap.helpSections(for: [.navigation]).first?.bindings.first { $0.action == .top })
        #expect(help.keyLabel == "g g, Home")
    }

    @Test func aKeyThatEndsNoSequenceCountsOnItsOwn() throws {
        let keys = try bindings([KeyRebinding(context: "navigation", action: "top", keys: ["g g"], line: 1)])
        let world = try TestWorld(options: TUIOptions(keyBindings: keys))
        world.press(.character("g"), .character("/"))
        #expect(world.app.top is SearchScreen)
    }

    @Test func ctrlKeysAreWrittenEveryUsualWay() throws {
        for name in ["ctrl-d", "^D", "C-d", "ctrl+D", "Ctrl-d"] {
            #expect(try KeyNames.key(name) == .control("d"), "\(name)")
        }
        #expect(try KeyNames.key("ctrl-i") == .tab)
        #expect(try KeyNames.key("ctrl-m") == .enter)
        #expect(try KeyNames.key("space") == .character(" "))
        #expect(try KeyNames.key("shift-tab") == .backTab)
        #expect(try KeyNames.key("f5") == .function(5))
        #expect(try KeyNames.key("G") == .character("G"))
        #expect(try KeyNames.sequence("ctrl-x ctrl-e") == KeySequence([.control("x"), .control("e")]))
    }

    @Test func theStandardEditorKeysAreASequenceAndE() {
        let map = KeyMap.standard
        #expect(map.match([.control("x")], in: [.notes, .textEntry, .form, .reminderForm]) == .prefix)
        #expect(map.match([.control("x"), .control("e")], in: [.notes, .textEntry, .form, .reminderForm]) == .action(.editNotesInEditor))
        #expect(map.action(for: .character("E"), in: [.choice, .form, .reminderOptions, .reminderForm]) == .editNotesInEditor)
    }

    @Test func unknownNamesAreRefusedWithTheirLine() {
        #expect(refusal([KeyRebinding(context: "list", action: "frobnicate", keys: ["x"], line: 7)])
            == CustomizationError(line: 7, message: "[keys.list] names no action “frobnicate” (`reminders config --keys` lists them)"))
        #expect(refusal([KeyRebinding(context: "lists", action: "new-reminder", keys: ["x"], line: 3)])?.line == 3)
        #expect(refusal([KeyRebinding(context: "lists", action: "new-reminder", keys: ["x"], line: 3)])?.message
            .hasPrefix("[keys.lists] is not a key context") == true)
        #expect(refusal([KeyRebinding(context: "list", action: "new-list", keys: ["x"], line: 2)])?.message
            == "new-list is not an action of [keys.list] (it is one of [keys.home])")
        #expect(refusal([KeyRebinding(context: "list", action: "sort-menu", keys: ["ctrl-1"], line: 5)])
            == CustomizationError(line: 5, message: "[keys.list] sort-menu: “ctrl-1”: ctrl goes with a letter (ctrl-d, ^D)"))
        #expect(refusal([KeyRebinding(context: nil, action: "help", keys: ["hyper-x"], line: 1)])?.message
            .contains("“hyper-x” is not a key name") == true)
    }

    @Test func twoActionsOnOneKeyAreAClashNamingBoth() {
        #expect(refusal([KeyRebinding(context: "list", action: "new-reminder", keys: ["x"], line: 4)])
            == CustomizationError(line: 4, message: "key “x” is bound twice in [keys.list]: to new-reminder (line 4) and to toggle-completion (its standard key: give it other keys in [keys.list])"))
        // Both from the file: the later line is the one named first.
        let both = refusal([KeyRebinding(context: "list", action: "new-reminder", keys: ["w"], line: 4),
                            KeyRebinding(context: "list", action: "sort-menu", keys: ["w"], line: 9)])
        #expect(both?.line == 9)
        #expect(both?.message.contains("new-reminder (line 4)") == true)
        #expect(both?.message.contains("sort-menu (line 9)") == true)
    }

    @Test func aKeyThatAlsoStartsASequenceIsAClash() {
        let error = refusal([KeyRebinding(context: "navigation", action: "bottom", keys: ["g g"], line: 6)])
        #expect(error == CustomizationError(line: 6, message: "in [keys.navigation], “g” for top (its standard key: give it other keys in [keys.navigation]) is also the start of “g g” for bottom (line 6): one key cannot be both"))
    }

    @Test func aLetterWhereTextIsTypedIsRefused() {
        let error = refusal([KeyRebinding(context: nil, action: "down", keys: ["n"], line: 3)])
        #expect(error?.line == 3)
        #expect(error?.message.contains("“n” would type text in") == true)
        // The standard Space of the tag picker stays allowed.
        #expect(refusal([KeyRebinding(context: "tag-picker", action: "toggle-value", keys: ["space", "ctrl-t"], line: 1)]) == nil)
    }
}

/// The config file's `[colors]`.
@Suite struct ThemeColorsTests {
    @Test func aRoleTakesTheUsersColours() throws {
        let colors = try ThemeColors([ColorSetting(role: "accent", foreground: "#5fafff"),
                                      ColorSetting(role: "status-bar", foreground: "250", background: "blue")])
        let theme = Theme(mode: .indexed256, colors: colors)
        #expect(theme.accent.foreground == .rgb(0x5f, 0xaf, 0xff))
        #expect(theme.accent.attributes == [.bold])
        #expect(theme.statusBar == Style(foreground: .indexed(250), background: .indexed(4)))
        #expect(theme.tag == Theme(mode: .indexed256).tag)
    }

    @Test func withSixteenColoursTheFallbackIsDrawn() throws {
        let colors = try ThemeColors([ColorSetting(role: "accent", foreground: "#5fafff"),
                                      ColorSetting(role: "accent", foreground: "bright-cyan", isFallback: true),
                                      ColorSetting(role: "tag", foreground: "#ff0000")])
        #expect(Theme(mode: .basic(16), colors: colors).accent.foreground == .indexed(14))
        #expect(Theme(mode: .indexed256, colors: colors).accent.foreground == .rgb(0x5f, 0xaf, 0xff))
        // Without a fallback, the colour is mapped to the nearest basic one when drawn.
        #expect(XtermPalette.resolve(Theme(mode: .basic(16), colors: colors).tag.foreground, mode: .basic(16)) == .indexed(9))
        // NO_COLOR: no colours at all.
        #expect(Theme(mode: .monochrome, colors: colors).accent.foreground == .default)
    }

    @Test func theSelectionBarTakesTheUsersBackground() throws {
        let colors = try ThemeColors([ColorSetting(role: "selection", foreground: nil, background: "22")])
        let world = try TestWorld(options: TUIOptions(colors: colors))
        let screen = world.screen
        let selected = (0..<screen.height).flatMap { row in (0..<screen.width).map { screen[row, $0] } }
            .filter { $0.style.background == .indexed(22) }
        #expect(!selected.isEmpty)
        #expect(!(0..<screen.height).contains { row in (0..<screen.width).contains { screen[row, $0].style.background == .indexed(24) } })
    }

    @Test func mistakesNameTheirLine() {
        func refusal(_ setting: ColorSetting) -> CustomizationError? {
            do {
                _ = try ThemeColors([setting])
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal(ColorSetting(role: "accnt", foreground: "red", line: 3))?.line == 3)
        #expect(refusal(ColorSetting(role: "accnt", foreground: "red", line: 3))?.message.hasPrefix("[colors] names no role “accnt”") == true)
        #expect(refusal(ColorSetting(role: "accent", foreground: "pink", line: 4))
            == CustomizationError(line: 4, message: "[colors] accent: “pink” is not a colour (#rrggbb, 0-255, a name such as red or bright-blue, or default)"))
        #expect(refusal(ColorSetting(role: "accent", foreground: "300", line: 4)) != nil)
        #expect(refusal(ColorSetting(role: "accent", foreground: "#5fafff", isFallback: true, line: 8))?.message
            .contains("is not one of the 16 basic colours") == true)
        #expect(refusal(ColorSetting(role: "accent", foreground: "200", isFallback: true, line: 8))?.line == 8)
    }
}

/// `E` / ^X ^E in the reminder form: the notes in the user's editor.
@Suite struct NotesEditorTests {
    final class FakeEditor: ExternalEditing, @unchecked Sendable {
        // Tests call it from one thread only.
        let outcome: ExternalEditOutcome
        var seen: [String] = []

        init(_ outcome: ExternalEditOutcome) {
            self.outcome = outcome
        }

        func edit(_ text: String) -> ExternalEditOutcome {
            seen.append(text)
            return outcome
        }
    }

    func openMilk(_ world: TestWorld) {
        world.openList("Groceries")
        world.press(.character("e"))
    }

    @Test func theNotesComeBackFromTheEditorAndSaveWithTheForm() throws {
        let editor = FakeEditor(.edited("2 liters\nsemi-skimmed"))
        let world = try TestWorld(width: 100, height: 30, options: TUIOptions(editor: editor))
        openMilk(world)
        let title = try #require((world.app.top as? ReminderFormScreen)?.viewModel.title)
        world.press(.tab)
        world.press(.control("x"), .control("e"))
        #expect(editor.seen.count == 1)
        #expect(world.text.contains("semi-skimmed"))
        #expect(world.app.toast?.message == "Notes edited in the editor; Save keeps them")
        world.press(.control("s"))
        #expect(try world.reminder(titled: title)?.reminder.notes == "2 liters\nsemi-skimmed")
    }

    @Test func EOnAFieldWithoutTextOpensTheEditorToo() throws {
        let editor = FakeEditor(.edited("from E"))
        let world = try TestWorld(width: 100, height: 30, options: TUIOptions(editor: editor))
        openMilk(world)
        world.press(.tab, .tab, .tab, .tab, .tab, .tab)
        #expect((world.app.top as? ReminderFormScreen)?.focus == .priority)
        world.press(.character("E"))
        #expect((world.app.top as? ReminderFormScreen)?.viewModel.notes == "from E")
        #expect(world.text.contains("E editor"))
    }

    @Test func aFailedEditorChangesNothing() throws {
        let editor = FakeEditor(.failed("editor 'false' exited with status 1"))
        let world = try TestWorld(width: 100, height: 30, options: TUIOptions(editor: editor))
        openMilk(world)
        let before = (world.app.top as? ReminderFormScreen)?.viewModel.notes
        world.press(.control("x"), .control("e"))
        #expect((world.app.top as? ReminderFormScreen)?.viewModel.notes == before)
        #expect(world.app.toast?.message == "editor 'false' exited with status 1; notes unchanged")
        #expect(world.app.toast?.isError == true)
    }

    @Test func theHelpOfTheFormNamesTheEditorKeys() throws {
        let world = try TestWorld(width: 100, height: 40, options: TUIOptions(editor: FakeEditor(.unchanged)))
        openMilk(world)
        let lines = HelpOverlay.lines(keyMap: world.app.keyMap, screenContexts: world.app.contexts, filter: "editor",
                                      theme: world.app.theme).map { $0.map(\.text).joined() }
        #expect(lines.contains { $0.contains("^X ^E") && $0.contains("Edit the notes in $EDITOR") }, "\(lines)")
    }
}

/// `default-list`: where a new reminder goes when the screen names no list.
@Suite struct DefaultListTests {
    @Test func aNewReminderFromTodayGoesToTheDefaultList() throws {
        let queue = try AppDatabase.inMemory()
        let store = RemindersStore(writer: queue, clock: AppClock(pinned: pinnedNow, timeZone: TimeZone(identifier: "UTC")!))
        try SampleData.seed(store)
        let environment = AppEnvironment(store: store, defaultList: "groceries")
        let form = ReminderFormViewModel(environment: environment, context: .today)
        let lists = form.state.lists
        #expect(lists.first { $0.id == form.listID }?.title == "Groceries")
        let plain = ReminderFormViewModel(environment: AppEnvironment(store: store), context: .today)
        #expect(plain.listID == lists.first?.id)
    }
}
