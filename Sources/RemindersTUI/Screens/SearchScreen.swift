import Foundation
import RemindersCore
import RemindersViewModels

/// Search as you type, matches highlighted; the results take the same keys
/// as a list.
final class SearchScreen: ViewModelScreen {
    let viewModel: SearchViewModel
    private(set) var query = TextField()
    private(set) var focusOnResults = false
    private var selection = ListSelection(key: \SearchHit.id)
    private var scrollTop = 0
    private var hitRows: [Int: Int] = [:]

    init(environment: AppEnvironment) {
        viewModel = SearchViewModel(environment: environment)
    }

    var environment: AppEnvironment { viewModel.environment }
    var title: String { "Search" }

    var contexts: [KeyContext] {
        focusOnResults ? [.searchResults, .navigation, .global] : [.search, .textEntry]
    }

    var hiddenActions: Set<Action> {
        let hidden: Set<Action> = [.open]
        return viewModel.state.hits.isEmpty
            ? hidden.union([.focusResults, .toggleCompletion, .toggleFlag, .deleteReminder, .editReminder]) : hidden
    }

    var isAnimating: Bool {
        viewModel.state.hits.contains { $0.row.reminder.status == .completing }
    }

    var selectedHit: SearchHit? { selection.item(in: viewModel.state.hits) }

    // MARK: Input

    func handleText(_ key: Key, app: AppController) -> Bool {
        guard !focusOnResults, let character = key.typedCharacter else { return false }
        query.insert(character)
        queryChanged()
        return true
    }

    private func queryChanged() {
        viewModel.setQuery(query.text)
        selection.reset()
        scrollTop = 0
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .focusResults:
            if viewModel.state.hits.isEmpty {
                app.showMessage(query.isEmpty ? "Type what to look for" : "No matches")
            } else {
                focusOnResults = true
                _ = selectedHit
            }
        case .focusQuery:
            focusOnResults = false
        case .clearQuery:
            query = TextField()
            queryChanged()
        case .up where selection.index == 0:
            focusOnResults = false
        case .down, .up, .pageDown, .pageUp, .top, .bottom:
            selection.navigate(action, page: max(1, app.size.height / 2 - 3), in: viewModel.state.hits)
        case .open, .editReminder:
            guard let hit = selectedHit else { return true }
            guard !environment.isReadOnly(listID: hit.row.reminder.remindersListID) else {
                app.present(ReminderPreviewOverlay(row: hit.row, sharedBy: nil))
                return true
            }
            do {
                app.push(try ReminderFormScreen(environment: environment, reminderID: hit.id))
            } catch {
                app.showError("\(error)")
            }
        case .toggleCompletion, .toggleFlag, .deleteReminder:
            guard let hit = selectedHit else { return true }
            viewModel.perform(action, onReminder: hit.id, app: app)
        case .toggleShowCompleted:
            viewModel.toggleShowCompleted(app: app)
        case .clearCompleted:
            let count = viewModel.state.completedCount
            guard count > 0 else {
                app.showMessage("No completed matches to clear")
                return true
            }
            let viewModel = self.viewModel
            app.present(ConfirmOverlay.clearCompleted(
                count == 1 ? "Delete the completed reminder that matches?" : "Delete the \(count) completed reminders that match?",
                detail: "u undoes it."
            ) { app in
                app.show(viewModel.clearCompleted(), undo: viewModel.undoPerformer(app))
            })
        case .back:
            if focusOnResults {
                focusOnResults = false
            } else {
                app.pop()
            }
        default:
            return focusOnResults ? false : editQuery(action)
        }
        return true
    }

    private func editQuery(_ action: Action) -> Bool {
        guard query.apply(action) else { return false }
        queryChanged()
        return true
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool {
        switch event.button {
        case .wheelUp: selection.move(by: -3, in: viewModel.state.hits)
        case .wheelDown: selection.move(by: 3, in: viewModel.state.hits)
        case .left:
            if event.row == 2 {
                focusOnResults = false
                return true
            }
            guard let index = hitRows[event.row] else { return false }
            focusOnResults = true
            let opens = selection.clickOpens(index: index, isDoubleClick: event.isDoubleClick)
            selection.select(index: index, in: viewModel.state.hits)
            if opens { return perform(.open, app: app) }
        }
        return true
    }

    // MARK: Drawing

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let state = viewModel.state
        hitRows = [:]
        var row = area.row + 1
        buffer.draw("Search", row: row, column: area.column + 2, style: focusOnResults ? theme.label : theme.focusedLabel)
        query.draw(into: &buffer, row: row, column: area.column + 10, width: max(10, min(area.width - 12, 80)),
                   style: focusOnResults ? theme.field : theme.focusedField, focused: !focusOnResults,
                   placeholder: "titles, notes and #tags", placeholderStyle: theme.dim)
        row += 1
        var info: [Span] = []
        if !state.query.trimmingCharacters(in: .whitespaces).isEmpty {
            let count = state.hits.count
            let countText = count >= viewModel.limit ? "\(count)+ matches" : (count == 1 ? "1 match" : "\(count) matches")
            info.append(Span(countText, theme.dim))
            if state.completedCount > 0 {
                info.append(Span(completedSummary(count: state.completedCount, shown: state.showCompleted), theme.dim))
                let labels = [Action.toggleShowCompleted, .clearCompleted].compactMap { action -> String? in
                    guard let key = app.keyMap.key(for: action, in: contexts) else { return nil }
                    return "\(key) \(action == .clearCompleted ? "clear" : (state.showCompleted ? "hide" : "show"))"
                }
                info.append(Span("  " + labels.joined(separator: " · "), theme.dim))
            }
            if state.isSearching { info.append(Span("  searching…", theme.dim)) }
        }
        buffer.draw(info, row: row, column: area.column + 10, maxWidth: area.width - 12)
        row += 1
        buffer.fill(Rect(row: row, column: area.column + 1, width: area.width - 2, height: 1), style: theme.border, character: "─")
        row += 1
        let list = Rect(row: row, column: area.column, width: area.width, height: area.bottom - row)
        if state.query.trimmingCharacters(in: .whitespaces).isEmpty {
            buffer.draw("Type to search titles, notes and tags; ↓ or Tab goes to the results.", row: list.row + 1,
                        column: area.column + 4, maxWidth: area.width - 8, style: theme.dim)
            return
        }
        if let error = state.errorMessage {
            buffer.draw("⚠ " + error, row: list.row + 1, column: area.column + 4, maxWidth: area.width - 8, style: theme.danger)
            return
        }
        if state.hits.isEmpty {
            let text = state.isSearching ? "Searching…" : "No reminders match “\(state.query)”"
            buffer.draw(text, row: list.row + 1, column: area.column + 4, maxWidth: area.width - 8, style: theme.dim)
            return
        }
        let selected = selectedHit
        let clock = environment.clock
        let spinner = ListDetailScreen.spinnerFrame(app.now())
        let columns = ListDetailScreen.columns(for: state.hits.map(\.row), width: list.width, clock: clock)
        let laidOut = state.hits.map {
            Self.hitLines($0, query: state.resultsQuery, width: list.width, clock: clock, theme: theme, spinner: spinner, columns: columns)
        }
        var starts: [Int] = []
        var total = 0
        for lines in laidOut {
            starts.append(total)
            total += lines.count
        }
        let selectedIndex = state.hits.firstIndex { $0.id == selected?.id } ?? 0
        scrollTop = Scrolling.top(current: scrollTop, selectedStart: starts[selectedIndex],
                                  selectedEnd: starts[selectedIndex] + laidOut[selectedIndex].count,
                                  viewport: list.height, total: total)
        for (index, lines) in laidOut.enumerated() {
            for (offset, line) in lines.enumerated() {
                let screenRow = list.row + starts[index] + offset - scrollTop
                guard screenRow >= list.row, screenRow < list.bottom else { continue }
                line.draw(into: &buffer, row: screenRow, in: list)
                hitRows[screenRow] = index
                if index == selectedIndex, focusOnResults {
                    theme.select(&buffer, Rect(row: screenRow, column: list.column, width: list.width, height: 1))
                } else if index == selectedIndex {
                    buffer.draw("›", row: screenRow, column: list.column, style: theme.accent)
                }
            }
        }
    }

    /// A hit as a list row, with the matching text highlighted: in the title
    /// when the title matches, otherwise in a second line with the snippet.
    static func hitLines(_ hit: SearchHit, query: String, width: Int, clock: AppClock, theme: Theme,
                         spinner: String, columns: ListDetailScreen.Columns) -> [ListDetailScreen.RowLine] {
        var lines = ListDetailScreen.rowLines(hit.row, width: width, showList: true, clock: clock, theme: theme,
                                              spinner: spinner, columns: columns)
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        let titleMatches = !trimmed.isEmpty
            && hit.row.reminder.title.range(of: trimmed, options: [.caseInsensitive, .diacriticInsensitive]) != nil
        if titleMatches, let titleIndex = lines[0].left.lastIndex(where: { $0.text == hit.row.reminder.title }) {
            let style = lines[0].left[titleIndex].style
            lines[0].left.replaceSubrange(titleIndex...titleIndex,
                                          with: CellBuffer.markedSpans(hit.snippet, style: style, highlight: theme.match))
        } else {
            let snippet = [Span("    ")] + CellBuffer.markedSpans(hit.snippet, style: theme.dim, highlight: theme.match)
            let listSpans = [Span("    ● ", theme.listColor(hit.row.listColor)), Span(hit.row.listTitle + " · ", theme.dim)]
            if lines.count > 1 {
                lines[1] = ListDetailScreen.RowLine(left: listSpans + Array(snippet.dropFirst()), right: [])
            } else {
                lines.append(ListDetailScreen.RowLine(left: snippet, right: []))
            }
        }
        return lines
    }
}
