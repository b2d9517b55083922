import RemindersCore
import RemindersViewModels

/// On a wide terminal, Home shows the selected list's first reminders next
/// to the lists, so browsing needs no Enter.
final class HomePreview {
    let item: HomeItem
    let viewModel: ListDetailViewModel

    /// Wide enough for the lists and a useful preview beside them.
    static let minimumWidth = 110
    /// The lists' column when the preview shows.
    static let listsWidth = 46

    /// Starts reading the item's reminders; `start(waking:)` waits for
    /// them.
    init(item: HomeItem, environment: AppEnvironment) {
        self.item = item
        let filter: ReminderFilter
        switch item {
        case .smart(let smart): filter = smart.filter
        case .list(let id): filter = .list(id)
        case .tag(let title): filter = .tag(title)
        case .invitation(let id): filter = .list(id)
        }
        viewModel = ListDetailViewModel(environment: environment, filter: filter, limit: 100)
    }

    /// Waits for the first read and wakes the app on every change after.
    func start(waking wake: @escaping @Sendable () -> Void) {
        viewModel.start(waking: wake)
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let state = viewModel.state
        var row = area.row + 1
        let coverRows = state.coverPNG != nil && theme.mode.canDrawImages ? 3 : 0
        if coverRows > 0, let png = state.coverPNG,
           let cells = app.covers.cells(listID: "home:" + (state.listID ?? ""), png: png, columns: area.width, rows: coverRows,
                                        mode: theme.mode) {
            for (offset, line) in cells.enumerated() {
                for (column, cell) in line.enumerated() {
                    buffer.setGlyph(Glyph(text: cell.text, width: 1), row: row + offset, column: area.column + column, style: cell.style)
                }
            }
            row += coverRows + 1
        }
        // As the list's own heading counts.
        let count = state.headingCount
        let countText = count == 1 ? "1 reminder" : "\(count) reminders"
        let countWidth = DisplayWidth.of(countText)
        buffer.draw(state.title, row: row, column: area.column + 1, maxWidth: area.width - countWidth - 3,
                    style: theme.listColor(state.color, [.bold]))
        buffer.draw(countText, row: row, column: area.right - countWidth - 1, style: theme.dim)
        row += 1
        if let share = state.share {
            buffer.draw(ShareText.line(share), row: row, column: area.column + 1, maxWidth: area.width - 2, style: theme.dim)
            row += 1
        }
        row += 1
        if state.rows.isEmpty {
            let message = state.isLoaded ? (state.filter == .completed ? "No completed reminders" : "No reminders") : "Loading…"
            buffer.draw(message, row: row, column: area.column + 1, style: theme.dim)
            return
        }
        let clock = viewModel.environment.clock
        let showList = state.listID == nil
        // Measured over the rows that can show (each takes a line or more,
        // and the last line is kept for "… N more"): the preview does not
        // scroll, and the rest are read for nothing.
        let columns = ListDetailScreen.columns(for: Array(state.rows.prefix(max(0, area.bottom - row - 1))), width: area.width, clock: clock)
        let spinner = ListDetailScreen.spinnerFrame(app.now())
        let opens = app.keyMap.key(for: .open, in: [.navigation]).map { " · \($0) opens the list" } ?? ""
        for (index, reminder) in state.rows.enumerated() {
            let lines = ListDetailScreen.rowLines(reminder, width: area.width, showList: showList, clock: clock, theme: theme,
                                                  spinner: spinner, columns: columns)
            guard row + lines.count < area.bottom else {
                let more = state.totalCount - index
                buffer.draw("… \(more) more" + opens, row: row, column: area.column + 1, style: theme.dim)
                return
            }
            for line in lines {
                let rightWidth = line.right.reduce(0) { $0 + DisplayWidth.of($1.text) }
                buffer.draw(line.left, row: row, column: area.column, maxWidth: area.width - (rightWidth > 0 ? rightWidth + 2 : 0))
                if rightWidth > 0 { buffer.draw(line.right, row: row, column: area.right - rightWidth) }
                row += 1
            }
        }
    }
}
