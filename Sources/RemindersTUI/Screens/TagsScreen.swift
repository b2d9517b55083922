import RemindersCore
import RemindersViewModels

/// Every tag with its count of open reminders: create, rename, delete, and
/// Enter opens the tag's reminders.
final class TagsScreen: ViewModelScreen {
    let viewModel: TagsViewModel
    private var selection = ListSelection(key: \TagSummary.id)
    private var scrollTop = 0
    private var hitRows: [Int: Int] = [:]

    init(environment: AppEnvironment) {
        viewModel = TagsViewModel(environment: environment)
    }

    var title: String { "Tags" }
    var contexts: [KeyContext] { [.tags, .navigation, .global] }

    var hiddenActions: Set<Action> {
        viewModel.state.tags.isEmpty ? [.renameTag, .deleteTag, .open] : []
    }

    var selected: TagSummary? { selection.item(in: viewModel.state.tags) }

    private func select(index: Int) {
        selection.select(index: index, in: viewModel.state.tags)
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        _ = selected
        switch action {
        case .down, .up, .pageDown, .pageUp, .top, .bottom:
            selection.navigate(action, page: max(1, app.size.height - 6), in: viewModel.state.tags)
        case .open:
            guard let tag = selected else { return true }
            app.push(ListDetailScreen(environment: viewModel.environment, filter: .tag(tag.title)))
        case .newTag:
            let viewModel = self.viewModel
            app.present(namePrompt(title: "New tag", label: "Name (without #)") { viewModel.create($0) })
        case .renameTag:
            guard let tag = selected else { return true }
            let viewModel = self.viewModel
            app.present(namePrompt(title: "Rename #\(tag.title)", label: "New name (an existing tag merges)",
                                   text: tag.title) { viewModel.rename(tag.title, to: $0) })
        case .deleteTag:
            guard let tag = selected else { return true }
            let viewModel = self.viewModel
            let uses = tag.openCount == 0 ? "" : (tag.openCount == 1 ? " from 1 open reminder" : " from \(tag.openCount) open reminders")
            let undo = app.keyMap.key(for: .undo, in: [.global]).map { " (\($0) undoes)" } ?? ""
            app.present(ConfirmOverlay(title: "Delete tag", question: "Delete #\(tag.title)\(uses)?",
                                       detail: "Only the tag goes\(undo).", confirmLabel: "Delete") { app in
                app.show(viewModel.delete(tag.title), undo: app.storeUndo())
            })
        default:
            return false
        }
        return true
    }

    /// Asks for a tag's name; `act` creates or renames. The prompt stays
    /// open with the error when `act` refuses, and the tag it made is
    /// selected.
    private func namePrompt(title: String, label: String, text: String = "",
                            _ act: @escaping (String) -> ActionResult) -> PromptOverlay {
        PromptOverlay(title: title, label: label, text: text) { [weak self] text, app in
            let result = act(text)
            if let error = result.errorMessage { return error }
            if let made = result.createdID { self?.selection.key = TagKey.of(made) }
            app.show(result, undo: app.storeUndo())
            return nil
        }
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool {
        switch event.button {
        case .wheelUp: select(index: selection.index - 3)
        case .wheelDown: select(index: selection.index + 3)
        case .left:
            guard let index = hitRows[event.row] else { return false }
            let opens = selection.clickOpens(index: index, isDoubleClick: event.isDoubleClick)
            select(index: index)
            if opens { return perform(.open, app: app) }
        }
        return true
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let state = viewModel.state
        let current = selected
        hitRows = [:]
        let width = max(20, min(area.width - 4, 80))
        buffer.draw("TAGS", row: area.row + 1, column: area.column + 2, style: theme.heading)
        let count = state.tags.count
        let summary = count == 1 ? "1 tag" : "\(count) tags"
        buffer.draw(summary, row: area.row + 1, column: area.column + 2 + width - DisplayWidth.of(summary), style: theme.dim)
        let listTop = area.row + 3
        let height = area.bottom - listTop
        if state.tags.isEmpty {
            let empty = app.keyMap.key(for: .newTag, in: [.tags]).map { "No tags yet: press \($0) to create one" } ?? "No tags yet"
            buffer.draw(state.isLoaded ? empty : "Loading…",
                        row: listTop, column: area.column + 2, style: theme.dim)
            return
        }
        let index = state.tags.firstIndex { $0.id == current?.id } ?? 0
        scrollTop = Scrolling.top(current: scrollTop, selectedStart: index, selectedEnd: index + 1, viewport: height, total: count)
        for offset in 0..<height {
            let i = scrollTop + offset
            guard i < count else { break }
            let tag = state.tags[i]
            let row = listTop + offset
            let open = tag.openCount == 0 ? "no open reminders" : (tag.openCount == 1 ? "1 open" : "\(tag.openCount) open")
            let openWidth = DisplayWidth.of(open)
            buffer.draw([Span("# ", theme.tag), Span(tag.title)], row: row, column: area.column + 2, maxWidth: width - openWidth - 2)
            buffer.draw(open, row: row, column: area.column + 2 + width - openWidth, style: theme.dim)
            hitRows[row] = i
            if i == index {
                theme.select(&buffer, Rect(row: row, column: area.column + 1, width: width + 2, height: 1))
            }
        }
        if let error = state.errorMessage {
            buffer.draw("⚠ " + error, row: area.bottom - 1, column: area.column + 2, maxWidth: area.width - 4, style: theme.danger)
        }
    }
}
