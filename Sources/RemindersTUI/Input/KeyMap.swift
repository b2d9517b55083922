/// Where a key binding applies. A screen (and the field or overlay that has
/// the focus) names the contexts it listens to, most specific first.
enum KeyContext: String, CaseIterable, Hashable, Sendable {
    case global
    case navigation
    case home
    case list
    case tags
    case search
    case searchResults
    case form
    case reminderForm
    /// The reminder form's fields that take no typing (priority, flag,
    /// list, tags), where a letter can be a key.
    case reminderOptions
    case listForm
    case textEntry
    case notes
    case choice
    case flag
    case tagField
    case coverField
    case tagPicker
    case sortMenu
    case confirm
    case prompt
    case help
    case conflicts
    case sharing
    case invitations
    case alerts
    case firstRun
    case reminderPreview
    /// The question a parent's tick asks: its open subtasks too?
    case subtaskChoice

    /// The heading of the context's section in the help overlay.
    var title: String {
        switch self {
        case .global: "Everywhere"
        case .navigation: "Moving around"
        case .home: "Home"
        case .list: "List"
        case .tags: "Tags"
        case .search: "Search box"
        case .searchResults: "Search results"
        case .form: "Forms"
        case .reminderForm: "Reminder form"
        case .reminderOptions: "Reminder form, outside text fields"
        case .listForm: "List form"
        case .textEntry: "Editing text"
        case .notes: "Notes"
        case .choice: "Choices (priority, list, color)"
        case .flag: "Flag"
        case .tagField: "Tags field"
        case .coverField: "Cover image"
        case .tagPicker: "Tag picker"
        case .sortMenu: "Sort menu"
        case .confirm: "Confirmation"
        case .prompt: "Prompt"
        case .help: "Help"
        case .conflicts: "Conflicts"
        case .sharing: "Sharing"
        case .invitations: "Invitations (Home)"
        case .alerts: "Due alerts"
        case .firstRun: "First start"
        case .reminderPreview: "Reminder of a read-only list"
        case .subtaskChoice: "Completing a reminder with open subtasks"
        }
    }
}

/// Everything a key can do.
enum Action: String, CaseIterable, Hashable, Sendable {
    // Everywhere
    case help, back, quit, suspend, search, openTags, openConflicts, undo, redo, redraw
    // Moving around
    case up, down, top, bottom, pageUp, pageDown, open
    // Home
    case newList, editList, deleteList, moveListUp, moveListDown, openSharing
    // List
    case newReminder, quickAdd, editReminder, toggleCompletion, toggleFlag, deleteReminder
    case moveReminderUp, moveReminderDown, sortMenu, toggleShowCompleted, cyclePriority
    case clearCompleted, toggleSubtasks, indentReminder, outdentReminder
    // Tags
    case newTag, renameTag, deleteTag
    // Search
    case focusResults, focusQuery, clearQuery
    // Forms
    case nextField, previousField, save, cancel, editNotesInEditor
    // Text
    case cursorLeft, cursorRight, lineStart, lineEnd, deleteBackward, deleteForward
    case deleteToStart, deleteToEnd, deleteWord, newline, lineUp, lineDown
    // Fields
    case nextChoice, previousChoice, toggleValue, openPicker, removeLast, removeCover
    // Pickers, menus, dialogs
    case pick, confirm, dismiss, sortManual, sortDue, sortPriority, sortTitle
    // Sync
    case toggleOffline, keepOtherValue, dismissConflict, dismissAllConflicts
    // Due alerts
    case openAlerts, completeDue, snoozeTenMinutes, snoozeHour, snoozeTomorrow, dismissAlert
    // Sharing
    case inviteParticipant, toggleSharePermission, removeParticipant, stopSharing, leaveShare, acceptInvitation, declineInvitation
    // First start
    case startEmpty, addSampleData
    // A parent's tick
    case completeWithSubtasks, completeAlone
}

/// Keys pressed one after another for one action: one key (`j`), or a
/// sequence such as `g g` or `^X ^E`.
struct KeySequence: Hashable, Sendable, CustomStringConvertible {
    var keys: [Key]

    init(_ keys: [Key]) {
        self.keys = keys
    }

    /// "g g", how help and hints write it.
    var description: String { keys.map(\.description).joined(separator: " ") }

    /// Whether `typed` is the start of this sequence, shorter than it.
    func extends(_ typed: [Key]) -> Bool {
        keys.count > typed.count && Array(keys.prefix(typed.count)) == typed
    }
}

/// One row of the key table.
struct KeyBinding: Hashable, Sendable {
    /// Each is a way to do the action: one key, or a sequence of keys.
    var keys: [KeySequence]
    var contexts: Set<KeyContext>
    var action: Action
    /// The help overlay's line.
    var description: String
    /// The status bar's short label, nil to leave the binding out of it.
    var hint: String?

    /// A row whose keys are single keys.
    init(_ keys: [Key], _ contexts: Set<KeyContext>, _ action: Action, _ description: String, hint: String? = nil) {
        self.init(sequences: keys.map { KeySequence([$0]) }, contexts, action, description, hint: hint)
    }

    init(sequences: [KeySequence], _ contexts: Set<KeyContext>, _ action: Action, _ description: String, hint: String? = nil) {
        self.keys = sequences
        self.contexts = contexts
        self.action = action
        self.description = description
        self.hint = hint
    }

    /// "j ↓", how the keys are written in help and hints; with a sequence
    /// among them, commas keep "g g, Home" readable.
    var keyLabel: String {
        keys.contains { $0.keys.count > 1 }
            ? keys.map(\.description).joined(separator: ", ")
            : keys.map(\.description).joined(separator: " ")
    }
}

/// What keys typed so far mean in the contexts of a screen.
enum KeyMatch: Equatable {
    /// They are a binding: do the action.
    case action(Action)
    /// They start a longer sequence: wait for the next key.
    case prefix
    /// Nothing.
    case none
}

/// The one key table: input, the help overlay and the status bar hints all
/// read it, so they cannot disagree.
struct KeyMap: Sendable {
    var bindings: [KeyBinding]

    init(bindings: [KeyBinding]) {
        self.bindings = bindings
    }

    /// The action of `key` in the first of `contexts` that binds it.
    func action(for key: Key, in contexts: [KeyContext]) -> Action? {
        if case .action(let action) = match([key], in: contexts) { return action }
        return nil
    }

    /// What the keys typed so far mean: the first of `contexts` that binds
    /// them, or has a longer sequence that starts with them, decides.
    func match(_ typed: [Key], in contexts: [KeyContext]) -> KeyMatch {
        let sequence = KeySequence(typed)
        for context in contexts {
            let here = bindings.filter { $0.contexts.contains(context) }
            if let binding = here.first(where: { $0.keys.contains(sequence) }) {
                return .action(binding.action)
            }
            if here.contains(where: { $0.keys.contains { $0.extends(typed) } }) {
                return .prefix
            }
        }
        return .none
    }

    /// The binding of an action in the given contexts (for hints such as
    /// "u undo" in a toast).
    func binding(for action: Action, in contexts: [KeyContext]) -> KeyBinding? {
        for context in contexts {
            if let binding = bindings.first(where: { $0.contexts.contains(context) && $0.action == action }) {
                return binding
            }
        }
        return nil
    }

    /// The first key of an action in the given contexts, as help writes it
    /// ("o", "Enter"), for text that names it ("Press q to quit"); nil
    /// when none of the contexts binds it.
    func key(for action: Action, in contexts: [KeyContext]) -> String? {
        binding(for: action, in: contexts)?.keys.first?.description
    }

    /// Status bar hints for the contexts, most specific first, each binding
    /// once; `hidden` leaves out actions the screen cannot do right now.
    func hints(for contexts: [KeyContext], hiding hidden: Set<Action> = []) -> [(keys: String, label: String)] {
        var seen: Set<Action> = []
        var taken: Set<KeySequence> = []
        var result: [(String, String)] = []
        for context in contexts {
            for binding in bindings where binding.contexts.contains(context) {
                // A key a more specific context took does the other thing here.
                let free = binding.keys.filter { !taken.contains($0) }
                taken.formUnion(binding.keys)
                guard let hint = binding.hint, let key = free.first, !hidden.contains(binding.action),
                      !seen.contains(binding.action) else { continue }
                seen.insert(binding.action)
                result.append((key.description, hint))
            }
        }
        return result
    }

    /// Help sections for the contexts (in that order), with the bindings
    /// whose keys or description contain `filter` (case-insensitive).
    func helpSections(for contexts: [KeyContext], filter: String = "") -> [(context: KeyContext, bindings: [KeyBinding])] {
        let needle = filter.lowercased()
        var result: [(KeyContext, [KeyBinding])] = []
        var seen: Set<KeyContext> = []
        for context in contexts where !seen.contains(context) {
            seen.insert(context)
            let matching = bindings.filter { binding in
                binding.contexts.contains(context) && (needle.isEmpty
                    || binding.description.lowercased().contains(needle)
                    || binding.keyLabel.lowercased().contains(needle)
                    || binding.action.rawValue.lowercased().contains(needle))
            }
            if !matching.isEmpty { result.append((context, matching)) }
        }
        return result
    }

    /// The app's key table.
    static let standard = KeyMap(bindings: [
        // Everywhere (screens without a text field)
        KeyBinding([.character("?")], [.global], .help, "Show this help (type to filter)", hint: "help"),
        KeyBinding([.character("q"), .escape], [.global], .back, "Back (quit from Home)", hint: "back"),
        KeyBinding([.control("c")], [.global, .form, .search, .help, .tagPicker, .prompt, .confirm, .sortMenu, .firstRun,
                                      .reminderPreview], .quit,
                   "Quit"),
        KeyBinding([.control("z")], [.global, .form, .search, .help, .tagPicker, .prompt, .confirm, .sortMenu], .suspend,
                   "Suspend (fg brings it back)"),
        KeyBinding([.character("/")], [.global], .search, "Search reminders", hint: "search"),
        KeyBinding([.character("t")], [.global], .openTags, "Tags"),
        KeyBinding([.character("C")], [.global], .openConflicts, "Sync conflicts: what the merge resolved, and why"),
        KeyBinding([.character("o")], [.global], .toggleOffline, "Take this device offline / back online (edits wait while offline)"),
        KeyBinding([.character("u")], [.global, .searchResults, .alerts], .undo,
                   "Undo: delete, completion, flag, priority, snooze, edit"),
        KeyBinding([.control("r")], [.global, .searchResults, .alerts], .redo, "Redo what undo took back (up to 30 back)"),
        KeyBinding([.control("l")], [.global, .form, .search], .redraw, "Redraw the screen"),
        KeyBinding([.character("!")], [.global], .openAlerts, "Due alerts: complete, open or snooze what is due"),

        // Moving around
        KeyBinding([.character("j"), .down], [.navigation, .sortMenu], .down, "Down"),
        KeyBinding([.character("k"), .up], [.navigation, .sortMenu], .up, "Up"),
        KeyBinding([.character("g"), .home], [.navigation], .top, "First item"),
        KeyBinding([.character("G"), .end], [.navigation], .bottom, "Last item"),
        KeyBinding([.control("d"), .pageDown], [.navigation], .pageDown, "Page down"),
        KeyBinding([.control("u"), .pageUp], [.navigation], .pageUp, "Page up"),
        KeyBinding([.enter, .character("l"), .right], [.navigation], .open, "Open", hint: "open"),
        KeyBinding([.character("h"), .left], [.navigation], .back, "Back"),

        // Home (and List, for quick add: first, the key a new user most needs)
        KeyBinding([.character("n")], [.list, .home], .quickAdd, "Quick add in one line: Pay rent fri 9am #bills !! ^List *",
                   hint: "quick add"),
        KeyBinding([.character("q")], [.home], .quit, "Quit", hint: "quit"),
        KeyBinding([.character("a")], [.home], .newList, "New list", hint: "new list"),
        KeyBinding([.character("e")], [.home], .editList, "Edit the selected list", hint: "edit"),
        KeyBinding([.character("d"), .delete], [.home], .deleteList, "Delete the selected list (asks first)", hint: "delete"),
        KeyBinding([.character("K")], [.home], .moveListUp, "Move the selected list up"),
        KeyBinding([.character("J")], [.home], .moveListDown, "Move the selected list down", hint: "move"),
        KeyBinding([.character("S")], [.home, .list], .openSharing, "Sharing of the list"),

        // List
        KeyBinding([.character("a")], [.list], .newReminder, "New reminder", hint: "new"),
        KeyBinding([.character("e"), .enter], [.list], .editReminder, "Edit the selected reminder", hint: "edit"),
        KeyBinding([.character(" "), .character("x")], [.list, .searchResults], .toggleCompletion,
                   "Complete / uncomplete", hint: "done"),
        KeyBinding([.character("f")], [.list, .searchResults], .toggleFlag, "Flag / unflag", hint: "flag"),
        KeyBinding([.character("p")], [.list], .cyclePriority, "Cycle priority (none, !, !!, !!!)"),
        KeyBinding([.character("d"), .delete], [.list, .searchResults], .deleteReminder, "Delete the reminder (undo with u)",
                   hint: "delete"),
        KeyBinding([.character("K")], [.list], .moveReminderUp, "Move the reminder up (manual order)"),
        KeyBinding([.character("J")], [.list], .moveReminderDown, "Move the reminder down (manual order)"),
        KeyBinding([.character("s")], [.list], .sortMenu, "Sort by…", hint: "sort"),
        KeyBinding([.character("c")], [.list, .searchResults], .toggleShowCompleted, "Show / hide completed",
                   hint: "completed"),
        KeyBinding([.character("X")], [.list, .searchResults], .clearCompleted, "Clear (delete) completed reminders"),
        KeyBinding([.character("E")], [.list], .editList, "Edit this list"),
        KeyBinding([.character("z")], [.list], .toggleSubtasks, "Fold / unfold the reminder's subtasks"),
        KeyBinding([.character(">")], [.list], .indentReminder, "Make it a subtask of the reminder above"),
        KeyBinding([.character("<")], [.list], .outdentReminder, "Make a subtask a top-level reminder again"),

        // Tags
        KeyBinding([.character("a")], [.tags], .newTag, "New tag", hint: "new"),
        KeyBinding([.character("r"), .character("e")], [.tags], .renameTag, "Rename the tag", hint: "rename"),
        KeyBinding([.character("d"), .delete], [.tags], .deleteTag, "Delete the tag (asks first)", hint: "delete"),

        // Search
        KeyBinding([.down, .tab, .enter], [.search], .focusResults, "Go to the results", hint: "results"),
        KeyBinding([.escape], [.search], .back, "Back", hint: "back"),
        KeyBinding([.control("t")], [.search], .toggleShowCompleted, "Show / hide completed", hint: "completed"),
        KeyBinding([.control("x")], [.search], .clearCompleted, "Clear (delete) completed matches"),
        KeyBinding([.control("u")], [.search], .clearQuery, "Clear the search text"),
        KeyBinding([.character("/"), .tab], [.searchResults], .focusQuery, "Back to the search box", hint: "edit search"),
        KeyBinding([.character("e"), .enter], [.searchResults], .editReminder, "Edit the reminder", hint: "edit"),

        // Forms
        KeyBinding([.tab, .down], [.form], .nextField, "Next field", hint: "next"),
        KeyBinding([.backTab, .up], [.form], .previousField, "Previous field"),
        KeyBinding([.control("s"), .enter], [.form], .save, "Save", hint: "save"),
        KeyBinding([.escape], [.form], .cancel, "Cancel", hint: "cancel"),
        // ^X ^E as in bash and zsh; E where no text is typed.
        KeyBinding(sequences: [KeySequence([.control("x"), .control("e")])], [.reminderForm], .editNotesInEditor,
                   "Edit the notes in $EDITOR (else $VISUAL, else vi)", hint: "editor"),
        KeyBinding([.character("E")], [.reminderOptions], .editNotesInEditor, "Edit the notes in $EDITOR", hint: "editor"),

        // Editing text
        KeyBinding([.left, .control("b")], [.textEntry], .cursorLeft, "Cursor left"),
        KeyBinding([.right, .control("f")], [.textEntry], .cursorRight, "Cursor right"),
        KeyBinding([.home, .control("a")], [.textEntry], .lineStart, "Start of line"),
        KeyBinding([.end, .control("e")], [.textEntry], .lineEnd, "End of line"),
        KeyBinding([.backspace], [.textEntry], .deleteBackward, "Delete the character before the cursor"),
        KeyBinding([.delete, .control("d")], [.textEntry], .deleteForward, "Delete the character under the cursor"),
        KeyBinding([.control("u")], [.textEntry], .deleteToStart, "Delete to the start of the line"),
        KeyBinding([.control("k")], [.textEntry], .deleteToEnd, "Delete to the end of the line"),
        KeyBinding([.control("w")], [.textEntry], .deleteWord, "Delete the word before the cursor"),
        KeyBinding([.enter], [.notes], .newline, "New line in the notes"),
        KeyBinding([.up], [.notes], .lineUp, "Line up (past the top: previous field)"),
        KeyBinding([.down], [.notes], .lineDown, "Line down (past the end: next field)"),

        // Fields
        KeyBinding([.right, .character("l"), .character(" ")], [.choice], .nextChoice, "Next choice", hint: "change"),
        KeyBinding([.left, .character("h")], [.choice], .previousChoice, "Previous choice"),
        KeyBinding([.character(" ")], [.flag], .toggleValue, "Flag / unflag", hint: "toggle"),
        KeyBinding([.character(" "), .character("+")], [.tagField], .openPicker, "Pick or create tags", hint: "pick tags"),
        KeyBinding([.backspace], [.tagField], .removeLast, "Remove the last tag"),
        KeyBinding([.right, .character("l"), .character(" ")], [.coverField], .nextChoice, "Next cover", hint: "change"),
        KeyBinding([.left, .character("h")], [.coverField], .previousChoice, "Previous cover"),
        KeyBinding([.character("x"), .delete, .backspace], [.coverField], .removeCover, "Remove the cover", hint: "remove"),

        // Tag picker
        KeyBinding([.down, .control("n")], [.tagPicker], .down, "Down"),
        KeyBinding([.up, .control("p")], [.tagPicker], .up, "Up"),
        KeyBinding([.character(" ")], [.tagPicker], .toggleValue, "Pick / unpick the tag (when the filter is empty)"),
        KeyBinding([.enter], [.tagPicker], .pick, "Pick the tag, or create the one typed", hint: "pick"),
        KeyBinding([.escape], [.tagPicker], .dismiss, "Done", hint: "done"),

        // Sort menu
        KeyBinding([.enter], [.sortMenu], .pick, "Sort by the selected order", hint: "choose"),
        KeyBinding([.character("m")], [.sortMenu], .sortManual, "Manual order"),
        KeyBinding([.character("d")], [.sortMenu], .sortDue, "Due date"),
        KeyBinding([.character("p")], [.sortMenu], .sortPriority, "Priority"),
        KeyBinding([.character("t")], [.sortMenu], .sortTitle, "Title"),
        KeyBinding([.escape, .character("q")], [.sortMenu], .dismiss, "Close", hint: "close"),

        // Dialogs
        KeyBinding([.character("y")], [.confirm], .confirm, "Yes, do it", hint: "yes"),
        KeyBinding([.character("n"), .escape], [.confirm], .dismiss, "No, cancel", hint: "no"),
        KeyBinding([.enter], [.confirm], .pick, "The highlighted button"),
        KeyBinding([.left, .right, .tab, .character("h"), .character("l")], [.confirm], .nextChoice, "Switch buttons"),
        KeyBinding([.enter], [.prompt], .confirm, "OK", hint: "ok"),
        KeyBinding([.escape], [.prompt], .dismiss, "Cancel", hint: "cancel"),

        // Due alerts (the box that `!` opens)
        KeyBinding([.character("j"), .down], [.alerts], .down, "Down"),
        KeyBinding([.character("k"), .up], [.alerts], .up, "Up"),
        KeyBinding([.character("x"), .character(" ")], [.alerts], .completeDue, "Complete the reminder", hint: "done"),
        KeyBinding([.character("o"), .enter], [.alerts], .open, "Open the reminder", hint: "open"),
        KeyBinding([.character("s")], [.alerts], .snoozeTenMinutes, "Snooze 10 minutes", hint: "+10m"),
        KeyBinding([.character("h")], [.alerts], .snoozeHour, "Snooze 1 hour", hint: "+1h"),
        KeyBinding([.character("t")], [.alerts], .snoozeTomorrow, "Snooze until tomorrow morning", hint: "tomorrow"),
        KeyBinding([.character("d")], [.alerts], .dismissAlert, "Take it off Due now (the reminder stays)", hint: "dismiss"),
        KeyBinding([.escape, .character("q"), .character("!")], [.alerts], .dismiss, "Close", hint: "close"),
        KeyBinding([.control("c")], [.alerts], .quit, "Quit"),

        // Conflicts
        KeyBinding([.character("r")], [.conflicts], .keepOtherValue,
                   "Put back the value that lost, or a reminder a delete took (a new edit that syncs)", hint: "put back"),
        KeyBinding([.character("d"), .delete], [.conflicts], .dismissConflict, "Dismiss the entry (it stays in the log, dimmed)",
                   hint: "dismiss"),
        KeyBinding([.character("D")], [.conflicts], .dismissAllConflicts, "Dismiss every entry"),

        // Sharing
        KeyBinding([.character("i"), .character("a")], [.sharing], .inviteParticipant,
                   "Invite someone (user name; Tab picks read-only or read-write)", hint: "invite"),
        KeyBinding([.character("p")], [.sharing], .toggleSharePermission, "Switch the participant read-only / read-write",
                   hint: "permission"),
        KeyBinding([.character("d"), .delete], [.sharing], .removeParticipant, "Remove the participant", hint: "remove"),
        KeyBinding([.character("X")], [.sharing], .stopSharing, "Stop sharing the list (asks first)", hint: "stop sharing"),
        KeyBinding([.character("L")], [.sharing], .leaveShare, "Leave a list someone shared with you (asks first)", hint: "leave"),
        KeyBinding([.enter, .character("a")], [.invitations], .acceptInvitation, "Accept the invitation", hint: "accept"),
        KeyBinding([.character("d"), .delete], [.invitations], .declineInvitation, "Decline the invitation", hint: "decline"),

        // First start (a new user with nothing anywhere)
        KeyBinding([.character("e"), .escape], [.firstRun], .startEmpty, "Start with no lists", hint: "start empty"),
        KeyBinding([.character("s"), .enter], [.firstRun], .addSampleData, "Add the sample lists", hint: "add samples"),
        KeyBinding([.character("q")], [.firstRun], .quit, "Quit without choosing (the next start asks again)", hint: "quit"),

        // Ticking a reminder that has open subtasks
        KeyBinding([.character("y"), .character("a")], [.subtaskChoice], .completeWithSubtasks, "Complete its open subtasks too",
                   hint: "all"),
        KeyBinding([.character("n"), .character("o")], [.subtaskChoice], .completeAlone, "Complete only the reminder",
                   hint: "only this"),
        KeyBinding([.escape, .character("q")], [.subtaskChoice], .dismiss, "Cancel: complete nothing", hint: "cancel"),
        KeyBinding([.control("c")], [.subtaskChoice], .quit, "Quit"),

        // A reminder of a read-only list, to read
        KeyBinding([.escape, .character("q"), .enter], [.reminderPreview], .dismiss, "Close", hint: "close"),
        KeyBinding([.character("j"), .down], [.reminderPreview], .down, "Scroll down"),
        KeyBinding([.character("k"), .up], [.reminderPreview], .up, "Scroll up"),
        KeyBinding([.character("#"), .character("+")], [.reminderPreview], .openPicker,
                   "Your tags on it: pick or create (they are yours alone)", hint: "tags"),

        // Help
        KeyBinding([.escape, .character("?")], [.help], .dismiss, "Close the help (Esc clears the filter first)", hint: "close"),
        KeyBinding([.down], [.help], .down, "Scroll down"),
        KeyBinding([.up], [.help], .up, "Scroll up"),
        KeyBinding([.pageDown, .control("d")], [.help], .pageDown, "Page down"),
        KeyBinding([.pageUp, .control("u")], [.help], .pageUp, "Page up"),
    ])
}
