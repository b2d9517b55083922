/// One entry of the config file's `[keys]` tables: the keys an action takes
/// from now on, in one context (`[keys.list]`) or, without one, in every
/// context whose table binds the action.
public struct KeyRebinding: Sendable, Hashable {
    /// A context's name as the config file writes it ("list",
    /// "search-results"); nil for every context that binds the action.
    public var context: String?
    /// The action's name as the config file writes it ("toggle-completion").
    public var action: String
    /// Key names ("x", "space", "ctrl-d", "g g"); empty unbinds the action.
    public var keys: [String]
    /// The entry's line in the file, for errors.
    public var line: Int?

    public init(context: String?, action: String, keys: [String], line: Int?) {
        self.context = context
        self.action = action
        self.keys = keys
        self.line = line
    }
}

/// Why the config file's keys or colours were refused: the line they are
/// on (when known) and what is wrong, in words for the user.
public struct CustomizationError: Error, CustomStringConvertible, Equatable {
    public var line: Int?
    public var message: String

    public init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { message }
}

/// The key table the app runs with: the standard one, or the standard one
/// with the user's rebindings. Input, the help overlay and the status bar
/// hints all read it, so they show the user's own keys.
public struct KeyBindings: Sendable {
    let keyMap: KeyMap

    init(keyMap: KeyMap) {
        self.keyMap = keyMap
    }

    public static let standard = KeyBindings(keyMap: .standard)

    /// The standard table with `rebindings` applied: entries without a
    /// context first, so a context's own table wins over them.
    /// - Throws: `CustomizationError` for an unknown action, context or key
    ///   name, a letter where text is typed, or two actions on one key (or
    ///   a key that also starts a sequence) in one context.
    public init(rebinding rebindings: [KeyRebinding]) throws(CustomizationError) {
        var rebinder = Rebinder(keyMap: .standard)
        for rebinding in rebindings where rebinding.context == nil {
            try rebinder.apply(rebinding)
        }
        for rebinding in rebindings where rebinding.context != nil {
            try rebinder.apply(rebinding)
        }
        try rebinder.checkClashes()
        keyMap = rebinder.keyMap
    }

    /// One row of the table as the config file names it.
    public struct Row: Sendable, Hashable {
        public var context: String
        public var action: String
        public var keys: [String]
        public var description: String
    }

    /// Every binding, context by context in the help's order, with names
    /// the config file takes: what `reminders config --keys` prints.
    ///
    /// An action with two bindings in one context (quit: ctrl-c and q on the
    /// first start) is one row with all their keys: a TOML table takes a
    /// name once, and an entry sets all of the action's keys there.
    public var rows: [Row] {
        KeyContext.allCases.flatMap { context in
            var rows: [Row] = []
            for binding in keyMap.bindings where binding.contexts.contains(context) {
                let keys = binding.keys.map(KeyNames.name(of:))
                if let index = rows.firstIndex(where: { $0.action == binding.action.configName }) {
                    rows[index].keys += keys.filter { !rows[index].keys.contains($0) }
                } else {
                    rows.append(Row(context: context.configName, action: binding.action.configName, keys: keys,
                                    description: binding.description))
                }
            }
            return rows
        }
    }
}

extension KeyContext {
    /// The name of the context's table in the config file, `[keys.search-results]`.
    var configName: String { ConfigNames.kebab(rawValue) }

    /// Contexts where printable keys type text before the key table sees them.
    var typesText: Bool {
        switch self {
        case .search, .textEntry, .notes, .prompt, .tagPicker: true
        default: false
        }
    }
}

extension Action {
    /// The action's name in the config file, `toggle-completion`.
    var configName: String { ConfigNames.kebab(rawValue) }
}

enum ConfigNames {
    /// "toggleCompletion" as "toggle-completion".
    static func kebab(_ camel: String) -> String {
        var result = ""
        for character in camel {
            if character.isUppercase {
                result += "-" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// Applies rebindings to a key table one by one, remembering which rows
/// the user set (and on which line) for the clash check.
private struct Rebinder {
    var keyMap: KeyMap
    /// Context and action pairs the user set, with the entry's line.
    var userSet: [Pair: Int?] = [:]

    struct Pair: Hashable {
        var context: KeyContext
        var action: Action
    }

    init(keyMap: KeyMap) {
        self.keyMap = keyMap
    }

    func place(_ rebinding: KeyRebinding) -> String {
        rebinding.context.map { "[keys.\($0)]" } ?? "[keys]"
    }

    mutating func apply(_ rebinding: KeyRebinding) throws(CustomizationError) {
        let line = rebinding.line
        guard let action = Action.allCases.first(where: { $0.configName == rebinding.action }) else {
            throw CustomizationError(line: line, message: "\(place(rebinding)) names no action “\(rebinding.action)” (`reminders config --keys` lists them)")
        }
        let bound = KeyContext.allCases.filter { context in
            keyMap.bindings.contains { $0.action == action && $0.contexts.contains(context) }
        }
        let contexts: [KeyContext]
        if let name = rebinding.context {
            guard let context = KeyContext.allCases.first(where: { $0.configName == name }) else {
                throw CustomizationError(line: line, message: "[keys.\(name)] is not a key context (contexts: \(KeyContext.allCases.map(\.configName).joined(separator: ", ")))")
            }
            guard bound.contains(context) else {
                throw CustomizationError(line: line, message: "\(rebinding.action) is not an action of [keys.\(name)] (it is one of \(bound.map { "[keys.\($0.configName)]" }.joined(separator: ", ")))")
            }
            contexts = [context]
        } else {
            contexts = bound
        }
        var sequences: [KeySequence] = []
        for name in rebinding.keys {
            do {
                let sequence = try KeyNames.sequence(name)
                if !sequences.contains(sequence) { sequences.append(sequence) }
            } catch {
                throw CustomizationError(line: line, message: "\(place(rebinding)) \(rebinding.action): \(error.message)")
            }
        }
        for context in contexts {
            try rebind(action, in: context, to: sequences, rebinding: rebinding)
        }
    }

    private mutating func rebind(_ action: Action, in context: KeyContext, to sequences: [KeySequence],
                                 rebinding: KeyRebinding) throws(CustomizationError) {
        guard let index = keyMap.bindings.firstIndex(where: { $0.action == action && $0.contexts.contains(context) }) else { return }
        let original = keyMap.bindings[index]
        let standard = KeyMap.standard.bindings.filter { $0.action == action && $0.contexts.contains(context) }.flatMap(\.keys)
        if context.typesText, let typing = sequences.first(where: { sequence in
            if case .character = sequence.keys.first { return !standard.contains(sequence) }
            return false
        }) {
            throw CustomizationError(line: rebinding.line, message: "\(place(rebinding)) \(rebinding.action): “\(KeyNames.name(of: typing))” would type text in \(context.title) ([keys.\(context.configName)]); give \(rebinding.action) keys there that do not type (ctrl-LETTER, arrows, enter)")
        }
        // The row keeps its other contexts; this context gets a row of its
        // own, in the same place, so the help keeps its order.
        var bindings = keyMap.bindings
        for other in bindings.indices where bindings[other].action == action {
            bindings[other].contexts.remove(context)
        }
        if !sequences.isEmpty {
            bindings.insert(KeyBinding(sequences: sequences, [context], action, original.description, hint: original.hint), at: index)
        }
        keyMap.bindings = bindings.filter { !$0.contexts.isEmpty }
        userSet[Pair(context: context, action: action)] = rebinding.line
    }

    /// Two actions on one key in one context, or a key that is also the
    /// start of a sequence there, where the user set at least one of them.
    func checkClashes() throws(CustomizationError) {
        for context in KeyContext.allCases {
            let keys = keyMap.bindings.filter { $0.contexts.contains(context) }
                .flatMap { binding in binding.keys.map { (sequence: $0, action: binding.action) } }
            for (i, first) in keys.enumerated() {
                for second in keys[(i + 1)...] {
                    let same = first.sequence == second.sequence
                    let starts = first.sequence.extends(second.sequence.keys) || second.sequence.extends(first.sequence.keys)
                    guard (same && first.action != second.action) || starts else { continue }
                    let firstLine = userSet[Pair(context: context, action: first.action)]
                    let secondLine = userSet[Pair(context: context, action: second.action)]
                    guard firstLine != nil || secondLine != nil else { continue }
                    func who(_ entry: (sequence: KeySequence, action: Action), _ line: Int??) -> String {
                        switch line {
                        case .some(.some(let line)): "\(entry.action.configName) (line \(line))"
                        case .some(.none): entry.action.configName
                        case .none: "\(entry.action.configName) (its standard key: give it other keys in [keys.\(context.configName)])"
                        }
                    }
                    let line = [firstLine ?? nil, secondLine ?? nil].compactMap { $0 }.max()
                    let message: String
                    if same {
                        message = "key “\(KeyNames.name(of: first.sequence))” is bound twice in [keys.\(context.configName)]: to \(who(first, firstLine)) and to \(who(second, secondLine))"
                    } else {
                        let (short, long) = first.sequence.keys.count < second.sequence.keys.count ? (first, second) : (second, first)
                        let (shortLine, longLine) = first.sequence.keys.count < second.sequence.keys.count ? (firstLine, secondLine) : (secondLine, firstLine)
                        message = "in [keys.\(context.configName)], “\(KeyNames.name(of: short.sequence))” for \(who(short, shortLine)) is also the start of “\(KeyNames.name(of: long.sequence))” for \(who(long, longLine)): one key cannot be both"
                    }
                    throw CustomizationError(line: line, message: message)
                }
            }
        }
    }
}
