import RemindersCore

/// The sort menu of a list.
final class SortMenuOverlay: Overlay {
    private(set) var index: Int
    let onPick: (RemindersCore.SortOrder) -> Void
    static let orders: [(RemindersCore.SortOrder, Action)] = [(.manual, .sortManual), (.due, .sortDue), (.priority, .sortPriority), (.title, .sortTitle)]

    init(current: RemindersCore.SortOrder, onPick: @escaping (RemindersCore.SortOrder) -> Void) {
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

    private func choose(_ order: RemindersCore.SortOrder, app: AppController) {
        app.dismiss(self)
        onPick(order)
        app.showMessage("Sorted by \(order.label.lowercased())")
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let inside = drawDialog(&buffer, area: area, width: 30, height: Self.orders.count + 2, title: "Sort by", theme: theme)
        for (offset, (order, action)) in Self.orders.enumerated() {
            let key = app.keyMap.key(for: action, in: contexts) ?? ""
            let row = inside.row + offset
            buffer.draw((offset == index ? "▸ " : "  ") + order.label, row: row, column: inside.column, style: theme.onDialog(theme.text))
            buffer.draw(key, row: row, column: inside.right - DisplayWidth.of(key), style: theme.onDialog(theme.dim))
            if offset == index {
                theme.select(&buffer, Rect(row: row, column: inside.column - 1, width: inside.width + 2, height: 1))
            }
        }
    }
}
