import RemindersCore
import RemindersViewModels

/// What can be selected on the home screen.
enum HomeItem: Hashable {
    case smart(SmartList)
    case list(String)
    case tag(String)
    /// An incoming share invitation, by share id.
    case invitation(String)
}

/// Home: smart lists with counts, My Lists, tags in use.
final class HomeScreen: ScreenController {
    let viewModel: HomeViewModel
    /// Incoming share invitations, shown above the smart lists when any.
    let invitations: InvitationsViewModel
    private(set) var selection: HomeItem = .smart(.today) {
        didSet { selectionIsChosen = true }
    }
    /// Whether anything chose the selection since the start: until then,
    /// an invitation that shows is selected, so that Enter, which its
    /// heading says accepts, does (it opened Today).
    private var selectionIsChosen = false
    private var scrollTop = 0
    /// Where each item was drawn, for the mouse.
    private var hitRows: [Int: HomeItem] = [:]
    /// The selected item's reminders beside the lists on wide terminals.
    private var preview: HomePreview?

    /// `previewing`: the terminal is wide enough for the preview. Its first
    /// read then starts with Home's own, rather than after Home's first
    /// value, when the first frame is drawn.
    init(environment: AppEnvironment, previewing: Bool = false) {
        viewModel = HomeViewModel(environment: environment)
        invitations = InvitationsViewModel(environment: environment)
        if previewing { preview = HomePreview(item: selection, environment: environment) }
    }

    var title: String { "Home" }
    var contexts: [KeyContext] {
        if case .invitation = selection { return [.invitations, .home, .navigation, .global] }
        return [.home, .navigation, .global]
    }

    var hiddenActions: Set<Action> {
        if case .invitation = selection {
            return [.back, .open, .editList, .deleteList, .moveListUp, .moveListDown, .openSharing]
        }
        guard case .list(let id) = selection,
              let item = viewModel.state.lists.first(where: { $0.id == id }) else {
            return [.back, .editList, .deleteList, .moveListUp, .moveListDown, .openSharing]
        }
        return item.isReadOnly ? [.back, .editList] : [.back]
    }

    var isAnimating: Bool {
        preview?.viewModel.state.rows.contains { $0.reminder.status == .completing } ?? false
    }

    func start(_ app: AppController) {
        viewModel.start(waking: app.wake)
        invitations.start(waking: app.wake)
        invitations.refreshShares()
        preview?.start(waking: app.wake)
    }

    func stop() {
        viewModel.stop()
        invitations.stop()
        preview?.viewModel.stop()
        preview = nil
    }

    /// "Accepted alice’s list": a toast, gone after a while.
    func takeNotice() -> (message: String, isError: Bool)? {
        invitations.takeMessage().map { ($0.text, $0.isError) }
    }

    func refresh() {
        viewModel.refresh()
        invitations.refresh()
        preview?.viewModel.refresh()
    }

    /// Every selectable item, in screen order.
    static func items(of state: HomeState, invitations: [Invitation] = []) -> [HomeItem] {
        invitations.map { .invitation($0.id) } + state.smartLists.map { .smart($0.kind) } + state.lists.map { .list($0.id) } + state.tags.map { .tag($0.title) }
    }

    func select(_ item: HomeItem) {
        selection = item
    }

    /// A new list to select once its row is read (it arrives after the
    /// form that made it has closed); moving gives it up.
    private var awaitedSelection: HomeItem?

    private func move(by offset: Int) {
        awaitedSelection = nil
        let items = Self.items(of: viewModel.state, invitations: invitations.state.invitations)
        guard !items.isEmpty else { return }
        let index = items.firstIndex(of: selection) ?? 0
        selection = items[max(0, min(items.count - 1, index + offset))]
    }

    private var selectedListID: String? {
        if case .list(let id) = selection { return id }
        return nil
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        if case .invitation(let id) = selection, [.acceptInvitation, .declineInvitation, .open].contains(action) {
            guard let invitation = invitations.state.invitations.first(where: { $0.id == id }) else { return true }
            if action == .declineInvitation {
                invitations.decline(invitation)
            } else {
                invitations.accept(invitation)
            }
            app.showMessage(action == .declineInvitation ? "Declining…" : "Accepting…")
            return true
        }
        let items = Self.items(of: viewModel.state, invitations: invitations.state.invitations)
        switch action {
        case .down: move(by: 1)
        case .up: move(by: -1)
        case .pageDown: move(by: max(1, app.size.height / 2))
        case .pageUp: move(by: -max(1, app.size.height / 2))
        case .top: if let first = items.first { selection = first; awaitedSelection = nil }
        case .bottom: if let last = items.last { selection = last; awaitedSelection = nil }
        case .open: open(selection, app: app)
        case .back: app.escapeOnHome()
        case .newList:
            app.push(ListFormScreen(environment: viewModel.environment) { [weak self] id in
                self?.selection = .list(id)
                self?.awaitedSelection = .list(id)
            })
        case .editList:
            guard let id = selectedListID else { return notAList(app) }
            guard !(viewModel.state.lists.first { $0.id == id }?.isReadOnly ?? false) else {
                app.showError(ShareText.readOnlyToast(viewModel.state.lists.first { $0.id == id }?.share))
                return true
            }
            do {
                app.push(try ListFormScreen(environment: viewModel.environment, listID: id, onSave: nil))
            } catch {
                app.showError("\(error)")
            }
        case .deleteList:
            guard let id = selectedListID else { return notAList(app) }
            guard let summary = viewModel.deletionSummary(listID: id) else { return true }
            if let refusal = summary.refusal {
                // Another user's list: not asked, as the store would refuse.
                let way = app.keyMap.key(for: .openSharing, in: [.home]).flatMap { sharing in
                    app.keyMap.key(for: .leaveShare, in: [.sharing]).map { " (\(sharing), then \($0), leaves it)" }
                }
                app.show(.failed(refusal + (way ?? "")))
                return true
            }
            let viewModel = self.viewModel
            app.present(ConfirmOverlay(
                title: "Delete list", question: summary.question,
                detail: summary.consequence, confirmLabel: "Delete"
            ) { [weak self] app in
                guard let self else { return }
                let items = Self.items(of: viewModel.state, invitations: invitations.state.invitations)
                let index = items.firstIndex(of: .list(id)) ?? 0
                let result = viewModel.deleteList(id: id)
                app.show(result, undo: app.storeUndo())
                if result.succeeded, index + 1 < items.count {
                    self.selection = items[index + 1]
                } else if result.succeeded, index > 0 {
                    self.selection = items[index - 1]
                }
            })
        case .moveListUp, .moveListDown:
            guard let id = selectedListID else { return notAList(app) }
            let result = viewModel.moveList(id: id, by: action == .moveListUp ? -1 : 1)
            app.show(result)
        case .quickAdd:
            // Into what is selected, as from inside it: a list, a smart
            // list's date or flag, a tag (else the default list).
            let context: ReminderFilter? = switch selection {
            case .smart(let smart): smart.filter
            case .list(let id): .list(id)
            case .tag(let title): .tag(title)
            case .invitation: nil
            }
            app.present(QuickAddOverlay(environment: viewModel.environment, context: context, app: app) { _ in })
        case .openSharing:
            guard let id = selectedListID else { return notAList(app) }
            guard let item = viewModel.state.lists.first(where: { $0.id == id }) else { return true }
            app.push(SharingScreen(environment: viewModel.environment, listID: item.id))
        default:
            return false
        }
        return true
    }

    private func notAList(_ app: AppController) -> Bool {
        app.showMessage("Select one of My Lists first")
        return true
    }

    private func open(_ item: HomeItem, app: AppController) {
        let environment = viewModel.environment
        switch item {
        case .smart(let smart):
            app.push(ListDetailScreen(environment: environment, filter: smart.filter))
        case .list(let id):
            app.push(ListDetailScreen(environment: environment, filter: .list(id)))
        case .tag(let title):
            app.push(ListDetailScreen(environment: environment, filter: .tag(title)))
        case .invitation:
            break
        }
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool {
        switch event.button {
        case .wheelUp: move(by: -3)
        case .wheelDown: move(by: 3)
        case .left:
            guard let item = hitRows[event.row] else { return false }
            if item == selection || event.isDoubleClick {
                open(item, app: app)
            } else {
                selection = item
            }
        }
        return true
    }

    // MARK: Drawing

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let state = viewModel.state
        let items = Self.items(of: state, invitations: invitations.state.invitations)
        if !selectionIsChosen, let first = invitations.state.invitations.first {
            selection = .invitation(first.id)
        }
        if items.contains(selection) {
            if awaitedSelection == selection { awaitedSelection = nil }
        } else if awaitedSelection != selection, let first = items.first {
            selection = first
        }
        let invitationState = invitations.state
        var wide = area.width >= HomePreview.minimumWidth
        if case .invitation = selection { wide = false }
        let listsWidth = wide ? HomePreview.listsWidth : area.width
        if wide {
            if preview?.item != selection {
                let next = HomePreview(item: selection, environment: viewModel.environment)
                next.start(waking: app.wake)
                preview = next
            }
            let previewArea = Rect(row: area.row, column: area.column + listsWidth + 2, width: area.width - listsWidth - 4,
                                   height: area.height)
            buffer.fill(Rect(row: area.row + 1, column: area.column + listsWidth, width: 1, height: area.height - 2),
                        style: app.theme.border, character: "│")
            preview?.render(into: &buffer, area: previewArea, app: app)
        } else {
            preview = nil
        }
        let layout = Self.layout(state: state, width: listsWidth, theme: app.theme, dueNow: app.dueNowSection,
                                 invitations: invitationState.invitations, keyMap: app.keyMap)
        let selectedLines = layout.lines.indices.filter { layout.lines[$0].item == selection }
        scrollTop = Scrolling.top(current: scrollTop, selectedStart: selectedLines.first ?? 0,
                                  selectedEnd: (selectedLines.last ?? 0) + 1, viewport: area.height, total: layout.lines.count)
        hitRows = [:]
        for offset in 0..<area.height {
            let index = scrollTop + offset
            guard index < layout.lines.count else { break }
            let line = layout.lines[index]
            let row = area.row + offset
            let rightWidth = line.right.map { $0.reduce(0) { $0 + DisplayWidth.of($1.text) } } ?? 0
            buffer.draw(line.spans, row: row, column: area.column + layout.margin,
                        maxWidth: rightWidth > 0 ? layout.width - rightWidth - 2 : layout.width)
            if let right = line.right {
                buffer.draw(right, row: row, column: area.column + layout.margin + layout.width - rightWidth)
            }
            if let item = line.item {
                hitRows[row] = item
                if item == selection {
                    app.theme.select(&buffer, Rect(row: row, column: area.column + layout.margin - 1, width: layout.width + 2, height: 1))
                }
            }
        }
        if let error = state.errorMessage {
            buffer.draw("⚠ " + error, row: area.bottom - 1, column: area.column + 2, maxWidth: area.width - 4, style: app.theme.danger)
        } else if !state.isLoaded {
            buffer.draw("Loading…", row: area.row, column: area.column + 2, style: app.theme.dim)
        }
    }

    struct Line {
        var spans: [Span]
        var right: [Span]?
        var item: HomeItem?
    }

    struct Layout {
        var lines: [Line]
        var margin: Int
        var width: Int
    }

    static func symbol(_ smart: SmartList) -> String {
        switch smart {
        case .today: "◉"
        case .scheduled: "◷"
        case .all: "☰"
        case .flagged: "⚑"
        case .completed: "✓"
        }
    }

    /// The screen as lines: a pure function of the state and the width.
    static func layout(state: HomeState, width: Int, theme: Theme, dueNow: DueNowSection? = nil,
                       invitations: [Invitation] = [], keyMap: KeyMap = .standard) -> Layout {
        let margin = 2
        let contentWidth = max(20, min(width - 2 * margin, 72))
        var lines: [Line] = [Line(spans: [])]
        lines += dueNow?.lines(theme: theme) ?? []
        if !invitations.isEmpty {
            let answers = [(Action.acceptInvitation, "accept"), (.declineInvitation, "decline")].compactMap { action, word in
                keyMap.key(for: action, in: [.invitations]).map { "\($0) \(word)" }
            }.joined(separator: " · ")
            // The keys once, on the heading: on each row they left a
            // narrow pane no room for the list's name.
            lines.append(Line(spans: [Span("INVITATIONS", theme.heading)], right: [Span(answers, theme.dim)]))
            for invitation in invitations {
                lines.append(Line(spans: [Span("✉ ", theme.accent), Span(invitation.line)], item: .invitation(invitation.id)))
            }
            lines.append(Line(spans: []))
        }
        lines.append(Line(spans: [Span("SMART LISTS", theme.heading)]))
        for smart in state.smartLists {
            var right = [Span(String(smart.count), theme.text.with(.bold))]
            if smart.kind == .today, state.pastDueCount > 0 {
                right.insert(Span("\(state.pastDueCount) past due  ", theme.danger), at: 0)
            }
            lines.append(Line(
                spans: [Span(symbol(smart.kind) + " ", theme.listColor(smart.kind.color, [.bold])), Span(smart.kind.title)],
                right: right, item: .smart(smart.kind)))
        }
        lines.append(Line(spans: []))
        lines.append(Line(spans: [Span("MY LISTS", theme.heading)]))
        if state.lists.isEmpty, state.isLoaded {
            let empty = keyMap.key(for: .newList, in: [.home]).map { "No lists yet: press \($0) to add one" } ?? "No lists yet"
            lines.append(Line(spans: [Span(empty, theme.dim)]))
        }
        for item in state.lists {
            var spans = [Span("● ", theme.listColor(item.list.color)), Span(item.list.title)]
            if let share = item.share {
                spans.append(Span("  " + ShareText.line(share), theme.dim))
            }
            lines.append(Line(spans: spans, right: [Span(String(item.summary.openCount), theme.text.with(.bold))],
                              item: .list(item.id)))
        }
        if !state.tags.isEmpty {
            lines.append(Line(spans: []))
            lines.append(Line(spans: [Span("TAGS", theme.heading)]))
            for tag in state.tags {
                lines.append(Line(spans: [Span("# ", theme.tag), Span(tag.title)],
                                  right: [Span(String(tag.openCount), theme.dim)], item: .tag(tag.title)))
            }
        }
        return Layout(lines: lines, margin: margin, width: contentWidth)
    }
}
