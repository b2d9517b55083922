import RemindersCore

/// Draws a framed box centered in `area` and returns its inside.
func drawDialog(_ buffer: inout CellBuffer, area: Rect, width: Int, height: Int, title: String, theme: Theme) -> Rect {
    let width = min(width, area.width - 2)
    let height = min(height, area.height)
    let rect = Rect(row: area.row + max(0, (area.height - height) / 2), column: area.column + max(0, (area.width - width) / 2),
                    width: width, height: height)
    buffer.fill(rect, style: theme.dialog)
    var frameStyle = theme.border
    frameStyle.background = theme.dialog.background
    var titleStyle = theme.title
    titleStyle.background = theme.dialog.background
    buffer.frame(rect, style: frameStyle, title: title, titleStyle: titleStyle)
    return Rect(row: rect.row + 1, column: rect.column + 2, width: rect.width - 4, height: rect.height - 2)
}

extension Theme {
    /// A style drawn on a dialog's background.
    func onDialog(_ style: Style) -> Style {
        var copy = style
        if copy.background == .default { copy.background = dialog.background }
        return copy
    }
}

/// "Delete “Work” and its 12 reminders?" with Delete / Cancel; Cancel is
/// highlighted first, so Enter alone never deletes.
final class ConfirmOverlay: Overlay {
    let title: String
    let question: String
    let detail: String?
    let confirmLabel: String
    let onConfirm: (AppController) -> Void
    private(set) var confirmFocused = false

    init(title: String, question: String, detail: String? = nil, confirmLabel: String,
         onConfirm: @escaping (AppController) -> Void) {
        self.title = title
        self.question = question
        self.detail = detail
        self.confirmLabel = confirmLabel
        self.onConfirm = onConfirm
    }

    var contexts: [KeyContext] { [.confirm] }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .confirm:
            app.dismiss(self)
            onConfirm(app)
        case .dismiss:
            app.dismiss(self)
        case .nextChoice:
            confirmFocused.toggle()
        case .pick:
            app.dismiss(self)
            if confirmFocused { onConfirm(app) }
        default:
            return false
        }
        return true
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool { true }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let width = max(44, min(area.width - 4, DisplayWidth.of(question) + 6))
        let inside = drawDialog(&buffer, area: area, width: width, height: detail == nil ? 6 : 7, title: title, theme: theme)
        var row = inside.row
        buffer.draw(question, row: row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.title))
        row += 1
        if let detail {
            buffer.draw(detail, row: row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.dim))
            row += 1
        }
        row += 1
        let yes = " y \(confirmLabel) "
        let no = " n Cancel "
        let noWidth = DisplayWidth.of(no)
        let yesWidth = DisplayWidth.of(yes)
        let start = inside.right - noWidth - yesWidth - 2
        buffer.draw(yes, row: row, column: start, style: confirmFocused ? theme.focusedButton : theme.button)
        buffer.draw(no, row: row, column: start + yesWidth + 2, style: confirmFocused ? theme.button : theme.focusedButton)
    }
}

/// A one-line question with a text field: a new tag's name, a new name.
final class PromptOverlay: Overlay {
    let title: String
    let label: String
    var field: TextField
    var error: String?
    /// Returns an error message to keep the prompt open, nil to close it.
    let onSubmit: (String, AppController) -> String?

    init(title: String, label: String, text: String = "", onSubmit: @escaping (String, AppController) -> String?) {
        self.title = title
        self.label = label
        field = TextField(text)
        self.onSubmit = onSubmit
    }

    var contexts: [KeyContext] { [.prompt, .textEntry] }

    func handleText(_ key: Key, app: AppController) -> Bool {
        guard let character = key.typedCharacter else { return false }
        field.insert(character)
        error = nil
        return true
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .confirm:
            if let message = onSubmit(field.text, app) {
                error = message
            } else {
                app.dismiss(self)
            }
        case .dismiss:
            app.dismiss(self)
        default:
            if field.apply(action) {
                error = nil
                return true
            }
            return false
        }
        return true
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let inside = drawDialog(&buffer, area: area, width: 56, height: 6, title: title, theme: theme)
        buffer.draw(label, row: inside.row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.label))
        field.draw(into: &buffer, row: inside.row + 1, column: inside.column, width: inside.width, style: theme.focusedField, focused: true)
        if let error {
            buffer.draw(error, row: inside.row + 2, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.danger))
        } else {
            buffer.draw("Enter OK · Esc cancel", row: inside.row + 2, column: inside.column, maxWidth: inside.width,
                        style: theme.onDialog(theme.dim))
        }
    }
}

/// The sort menu of a list.
final class SortMenuOverlay: Overlay {
    private(set) var index: Int
    let onPick: (SortOrder) -> Void
    static let orders: [(SortOrder, Action)] = [(.manual, .sortManual), (.due, .sortDue), (.priority, .sortPriority), (.title, .sortTitle)]

    init(current: SortOrder, onPick: @escaping (SortOrder) -> Void) {
        index = Self.orders.firstIndex { $0.0 == current } ?? 0
        self.onPick = onPick
    }

    var contexts: [KeyContext] { [.sortMenu] }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .down: index = min(Self.orders.count - 1, index + 1)
        case .up: index = max(0, index - 1)
        case .pick: choose(Self.orders[index].0, app: app)
        case .dismiss: app.dismiss(self)
        default:
            guard let order = Self.orders.first(where: { $0.1 == action }) else { return false }
            choose(order.0, app: app)
        }
        return true
    }

    private func choose(_ order: SortOrder, app: AppController) {
        app.dismiss(self)
        onPick(order)
        app.showMessage("Sorted by \(order.label.lowercased())")
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let inside = drawDialog(&buffer, area: area, width: 30, height: Self.orders.count + 2, title: "Sort by", theme: theme)
        for (offset, (order, action)) in Self.orders.enumerated() {
            let key = app.keyMap.binding(for: action, in: contexts)?.keys.first?.description ?? ""
            let row = inside.row + offset
            buffer.draw((offset == index ? "▸ " : "  ") + order.label, row: row, column: inside.column, style: theme.onDialog(theme.text))
            buffer.draw(key, row: row, column: inside.right - DisplayWidth.of(key), style: theme.onDialog(theme.dim))
            if offset == index {
                theme.select(&buffer, Rect(row: row, column: inside.column - 1, width: inside.width + 2, height: 1))
            }
        }
    }
}
