import RemindersCore
import RemindersViewModels

/// Picks existing tags for the reminder form, or creates the one typed.
final class TagPickerOverlay: Overlay {
    let viewModel: ReminderFormViewModel
    private(set) var filter = TextField()
    private var index = 0
    /// Run at each pick (tags of a read-only reminder, saved alone and at
    /// once, so that quitting loses none); nil in the form, which saves
    /// them with the rest.
    private let onChange: (() -> Void)?

    init(viewModel: ReminderFormViewModel, onChange: (() -> Void)? = nil) {
        self.viewModel = viewModel
        self.onChange = onChange
    }

    var contexts: [KeyContext] { [.tagPicker, .textEntry] }

    enum Row: Equatable {
        case tag(String)
        case create(String)
    }

    /// Matching tags (the reminder's own first), then "Create" for text
    /// that names no tag yet.
    var rows: [Row] {
        let typed = filter.text.trimmingCharacters(in: .whitespaces)
        let chosen = viewModel.tags
        var names = viewModel.tagSuggestions(for: typed)
        let needle = typed.hasPrefix("#") ? String(typed.dropFirst()) : typed
        let shownKeys = Set(names.map(TagKey.of))
        for tag in chosen.reversed() where !shownKeys.contains(TagKey.of(tag)) {
            if needle.isEmpty || tag.range(of: needle, options: .caseInsensitive) != nil { names.insert(tag, at: 0) }
        }
        var result = names.map { Row.tag($0) }
        let needleKey = TagKey.of(needle)
        if !needle.isEmpty, !names.contains(where: { TagKey.of($0) == needleKey }) {
            result.append(.create(needle))
        }
        return result
    }

    func handleText(_ key: Key, app: AppController) -> Bool {
        guard let character = key.typedCharacter else { return false }
        if character == " ", filter.isEmpty { return false }
        filter.insert(character)
        index = 0
        return true
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        let rows = self.rows
        switch action {
        case .down: index = min(max(0, rows.count - 1), index + 1)
        case .up: index = max(0, index - 1)
        case .toggleValue, .pick:
            guard index < rows.count else { return true }
            switch rows[index] {
            case .tag(let tag):
                viewModel.toggleTag(tag)
                onChange?()
            case .create(let text):
                if let error = viewModel.addTag(text) {
                    app.showError(error)
                } else {
                    filter = TextField()
                    index = 0
                    onChange?()
                }
            }
        case .dismiss:
            app.dismiss(self)
        default:
            if filter.apply(action) {
                index = 0
                return true
            }
            return false
        }
        return true
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let rows = self.rows
        let height = min(area.height, max(8, min(rows.count, 12) + 5))
        let inside = drawDialog(&buffer, area: area, width: 50, height: height, title: "Tags", theme: theme)
        buffer.draw("#", row: inside.row, column: inside.column, style: theme.onDialog(theme.tag))
        filter.draw(into: &buffer, row: inside.row, column: inside.column + 2, width: inside.width - 2,
                    style: theme.focusedField, focused: true, placeholder: "type to find or create a tag", placeholderStyle: theme.dim)
        let visible = inside.height - 3
        index = max(0, min(index, rows.count - 1))
        let top = max(0, index - visible + 1)
        for offset in 0..<max(0, visible) {
            let i = top + offset
            guard i < rows.count else { break }
            let row = inside.row + 2 + offset
            switch rows[i] {
            case .tag(let tag):
                let on = viewModel.hasTag(tag)
                buffer.draw([Span(on ? "[x] " : "[ ] ", theme.onDialog(on ? theme.success : theme.dim)),
                             Span("#" + tag, theme.onDialog(theme.tag))], row: row, column: inside.column, maxWidth: inside.width)
            case .create(let text):
                buffer.draw([Span("+ Create ", theme.onDialog(theme.accent)), Span("#" + text, theme.onDialog(theme.tag))],
                            row: row, column: inside.column, maxWidth: inside.width)
            }
            if i == index {
                theme.select(&buffer, Rect(row: row, column: inside.column - 1, width: inside.width + 2, height: 1))
            }
        }
        if rows.isEmpty {
            buffer.draw("No tags yet: type a name", row: inside.row + 2, column: inside.column, style: theme.onDialog(theme.dim))
        }
        buffer.draw("Enter pick/create · Space toggle · Esc done", row: inside.bottom - 1, column: inside.column,
                    maxWidth: inside.width, style: theme.onDialog(theme.dim))
    }
}
