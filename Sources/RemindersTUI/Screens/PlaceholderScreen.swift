import RemindersViewModels

/// The place of a screen that comes with later work: reachable with its
/// key, and honest about what it shows.
final class PlaceholderScreen: ScreenController {
    let title: String
    let context: KeyContext
    let lines: [String]

    init(title: String, context: KeyContext, lines: [String]) {
        self.title = title
        self.context = context
        self.lines = lines
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
