import RemindersViewModels

/// The places of screens that come with later work (sync conflicts,
/// sharing): reachable with their keys, and honest about what they show.
final class PlaceholderScreen: ScreenController {
    let title: String
    let context: KeyContext
    let lines: [String]

    init(title: String, context: KeyContext, lines: [String]) {
        self.title = title
        self.context = context
        self.lines = lines
    }

    static func conflicts(status: SyncStatus) -> PlaceholderScreen {
        let lines: [String]
        if status.connection == .localOnly {
            lines = ["Conflicts: available once sync is on.",
                     "",
                     "When two devices change the same reminder, the losing values will be",
                     "listed here so that you can restore them."]
        } else {
            let count = status.conflictsCount
            lines = [count == 1 ? "1 conflict is logged." : "\(count) conflicts are logged.",
                     "",
                     "This screen is not built yet; `reminders conflicts` lists them."]
        }
        return PlaceholderScreen(title: "Conflicts", context: .conflicts, lines: lines)
    }

    static func sharing(listTitle: String) -> PlaceholderScreen {
        PlaceholderScreen(title: "Sharing", context: .sharing, lines: [
            "Sharing “\(listTitle)”: available once sharing is on.",
            "",
            "You will be able to invite people here, read-only or read-write,",
            "and see who accepted.",
        ])
    }

    var contexts: [KeyContext] { [context, .global] }

    func start(_ app: AppController) {}
    func stop() {}
    func refresh() {}

    func perform(_ action: Action, app: AppController) -> Bool { false }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let top = area.row + max(1, (area.height - lines.count) / 3)
        for (offset, line) in lines.enumerated() {
            buffer.draw(line, row: top + offset, column: area.column + 4, maxWidth: area.width - 8,
                        style: offset == 0 ? app.theme.title : app.theme.dim)
        }
    }
}
