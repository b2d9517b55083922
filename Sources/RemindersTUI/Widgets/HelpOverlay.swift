/// The help: every key of the key table, the current screen's first,
/// filtered by what the user types.
final class HelpOverlay: Overlay {
    let screenContexts: [KeyContext]
    private(set) var filter = TextField()
    private var scrollTop = 0
    /// Lines the last frame showed: a page.
    private var pageHeight = 10

    init(contexts: [KeyContext]) {
        screenContexts = contexts
    }

    var contexts: [KeyContext] { [.help] }

    func handleText(_ key: Key, app: AppController) -> Bool {
        if key == .backspace {
            filter.apply(.deleteBackward)
            scrollTop = 0
            return true
        }
        guard let character = key.typedCharacter, character != "?" else { return false }
        filter.insert(character)
        scrollTop = 0
        return true
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .dismiss:
            if filter.isEmpty {
                app.dismiss(self)
            } else {
                filter = TextField()
                scrollTop = 0
            }
        case .down: scrollTop += 1
        case .up: scrollTop = max(0, scrollTop - 1)
        // A page less one line, so the last line read stays in view.
        case .pageDown: scrollTop += max(1, pageHeight - 1)
        case .pageUp: scrollTop = max(0, scrollTop - max(1, pageHeight - 1))
        default: return false
        }
        return true
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool {
        switch event.button {
        case .wheelDown: scrollTop += 3
        case .wheelUp: scrollTop = max(0, scrollTop - 3)
        case .left: break
        }
        return true
    }

    /// The help's lines: a pure function of the key table, the screen's
    /// contexts and the filter. A description longer than `width` leaves
    /// goes on under itself, so a narrow terminal reads it whole.
    static func lines(keyMap: KeyMap, screenContexts: [KeyContext], filter: String, theme: Theme,
                      width: Int = .max) -> [[Span]] {
        let others = KeyContext.allCases.filter { !screenContexts.contains($0) }
        let current = keyMap.helpSections(for: screenContexts, filter: filter)
        let rest = keyMap.helpSections(for: others, filter: filter)
        var lines: [[Span]] = []
        func add(_ sections: [(context: KeyContext, bindings: [KeyBinding])]) {
            for section in sections {
                lines.append([Span(section.context.title, theme.onDialog(theme.heading))])
                for binding in section.bindings {
                    let label = "  " + DisplayWidth.pad(binding.keyLabel, to: 16)
                    let room = width - DisplayWidth.of(label)
                    let parts = room >= 20 && DisplayWidth.of(binding.description) > room
                        ? DisplayWidth.wrap(binding.description, width: room, maxLines: 4) : [binding.description]
                    for (index, part) in parts.enumerated() {
                        lines.append([Span(index == 0 ? label : String(repeating: " ", count: DisplayWidth.of(label)),
                                           theme.onDialog(theme.accent)),
                                      Span(part, theme.onDialog(theme.text))])
                    }
                }
                lines.append([])
            }
        }
        add(current)
        if !rest.isEmpty {
            lines.append([Span("ON OTHER SCREENS", theme.onDialog(theme.dim))])
            lines.append([])
            add(rest)
        }
        if lines.isEmpty {
            lines.append([Span("No key matches “\(filter)”", theme.onDialog(theme.dim))])
        }
        return lines
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let inside = drawDialog(&buffer, area: area, width: min(80, area.width - 4), height: area.height,
                                title: "Keys", theme: theme)
        buffer.draw([Span("Filter: ", theme.onDialog(theme.label))], row: inside.row, column: inside.column)
        filter.draw(into: &buffer, row: inside.row, column: inside.column + 8, width: inside.width - 8,
                    style: theme.focusedField, focused: true, placeholder: "type to filter", placeholderStyle: theme.dim)
        let lines = Self.lines(keyMap: app.keyMap, screenContexts: screenContexts, filter: filter.text, theme: theme,
                               width: inside.width)
        let height = inside.height - 3
        pageHeight = height
        scrollTop = max(0, min(scrollTop, lines.count - height))
        for offset in 0..<max(0, height) {
            let index = scrollTop + offset
            guard index < lines.count else { break }
            buffer.draw(lines[index], row: inside.row + 2 + offset, column: inside.column, maxWidth: inside.width)
        }
        // Esc first clears a filter, so the footer says that while there is one.
        let escape = (app.keyMap.key(for: .dismiss, in: contexts) ?? "Esc") + (filter.isEmpty ? " close" : " clear the filter")
        let footer = lines.count > height
            ? "↑↓ scroll · \(escape) · \(min(lines.count, scrollTop + height))/\(lines.count)"
            : escape
        buffer.draw(footer, row: inside.bottom - 1, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.dim))
    }
}
