import Foundation
import RemindersCore
import RemindersViewModels

/// A list, a smart list or a tag's reminders: cover and title, then the rows.
final class ListDetailScreen: ViewModelScreen {
    let viewModel: ListDetailViewModel
    private var selection = ListSelection(key: \ReminderRow.id)
    private var scrollTop = 0
    private var hitRows: [Int: Int] = [:]
    private var wantsBottom = false
    /// Rows read at first; the window grows as the user scrolls, so a list
    /// of 10,000 reminders opens as fast as one of ten.
    static let initialLimit = 300

    init(environment: AppEnvironment, filter: ReminderFilter) {
        viewModel = ListDetailViewModel(environment: environment, filter: filter, limit: Self.initialLimit)
    }

    var environment: AppEnvironment { viewModel.environment }

    var title: String {
        let state = viewModel.state
        return state.title.isEmpty ? "List" : state.title
    }

    var contexts: [KeyContext] { [.list, .navigation, .global] }

    var hiddenActions: Set<Action> {
        let state = viewModel.state
        // Enter edits here; "open" would say the same twice. On a list
        // shared read-only, Enter opens the reminder to read.
        var hidden: Set<Action> = state.isReadOnly ? [] : [.open]
        if state.isReadOnly {
            hidden.formUnion([.newReminder, .quickAdd, .editReminder, .toggleCompletion, .toggleFlag, .deleteReminder,
                              .moveReminderUp, .moveReminderDown, .cyclePriority, .clearCompleted, .editList,
                              .indentReminder, .outdentReminder])
        }
        if !state.groupsSubtasks { hidden.formUnion([.toggleSubtasks, .indentReminder, .outdentReminder]) }
        if state.rows.isEmpty {
            hidden.formUnion([.editReminder, .toggleCompletion, .toggleFlag, .deleteReminder, .open])
        }
        if !state.canReorder { hidden.formUnion([.moveReminderUp, .moveReminderDown]) }
        if state.listID == nil { hidden.insert(.editList) }
        return hidden
    }

    /// The list was deleted (here or on another device), or, shared with
    /// this user, is no longer: this device cannot tell the owner's delete
    /// from the end of the share.
    var goneMessage: String? {
        let state = viewModel.state
        guard !state.exists else { return nil }
        if case .sharedBy(let owner, _)? = state.share {
            return "“\(state.title)” is no longer shared with you (\(owner) deleted it or stopped sharing it)"
        }
        return "“\(state.title)” was deleted"
    }

    var isAnimating: Bool {
        viewModel.state.rows.contains { $0.reminder.status == .completing }
    }

    // MARK: Selection

    /// The selected row, following the reminder by id when rows change and
    /// staying at its place when the reminder left the list.
    var selectedRow: ReminderRow? { selection.item(in: viewModel.state.rows) }

    func select(index: Int) {
        selection.select(index: index, in: viewModel.state.rows)
        growWindowIfNeeded()
    }

    func reveal(reminderID: String) { select(id: reminderID) }

    /// Selects a reminder by id. A new reminder's row is read here, at
    /// once, rather than when the observation delivers it: a key pressed
    /// right after the form closed (`e`, space) is meant for the new
    /// reminder. A reminder this list does not show stays awaited.
    func select(id: String) {
        selection.await(key: id)
        if !viewModel.state.rows.contains(where: { $0.id == id }) { viewModel.refresh() }
        _ = selectedRow
    }

    private func move(by offset: Int) {
        selection.move(by: offset, in: viewModel.state.rows)
        growWindowIfNeeded()
    }

    /// Asks for more rows when the selection nears the end of those read.
    private func growWindowIfNeeded() {
        let state = viewModel.state
        guard let limit = state.limit, state.rows.count >= limit, selection.index > limit - 100 else { return }
        viewModel.setLimit(limit * 2)
    }

    // MARK: Actions

    func perform(_ action: Action, app: AppController) -> Bool {
        let state = viewModel.state
        let editing: Set<Action> = [.newReminder, .quickAdd, .toggleCompletion, .toggleFlag, .deleteReminder, .moveReminderUp,
                                    .moveReminderDown, .cyclePriority, .clearCompleted, .editList, .indentReminder,
                                    .outdentReminder]
        if state.isReadOnly, editing.contains(action) {
            app.showError(ShareText.readOnlyToast(state.share))
            return true
        }
        switch action {
        case .down, .up, .pageDown, .pageUp, .top:
            selection.navigate(action, page: max(1, visibleRows(app) - 1), in: viewModel.state.rows)
            growWindowIfNeeded()
        case .bottom:
            if state.limit != nil, state.rows.count < state.totalCount {
                wantsBottom = true
                viewModel.setLimit(nil)
            }
            select(index: state.rows.count - 1)
        case .open, .editReminder:
            guard let row = selectedRow else { return true }
            if state.isReadOnly {
                // Read, not edit: the notes are worth reading all the same.
                var owner: String?
                if case .sharedBy(let name, _)? = state.share { owner = name }
                app.present(ReminderPreviewOverlay(row: row, sharedBy: owner))
                return true
            }
            do {
                // What the form started from, for `u` once it is saved.
                let before = try UndoAction.fields(of: row.id, in: environment.store)
                let store = environment.store
                app.push(try ReminderFormScreen(environment: environment, reminderID: row.id) { [weak app] id in
                    // Only what the save changed goes back.
                    guard let after = try? UndoAction.fields(of: id, in: store) else { return }
                    app?.remember(.restoreFields(id: id, UndoAction.restoring(before, after: after), expecting: after))
                })
            } catch {
                app.showError("\(error)")
            }
        case .newReminder:
            app.push(ReminderFormScreen(environment: environment, context: state.filter) { [weak self, weak app] id in
                self?.select(id: id)
                app?.remember(.deleteReminder(id: id))
            })
        case .quickAdd:
            app.present(QuickAddOverlay(environment: environment, context: state.filter, app: app) { [weak self] id in
                self?.select(id: id)
            })
        case .toggleCompletion where (selectedRow?.openSubtasks ?? 0) > 0 && selectedRow?.reminder.status == .incomplete:
            guard let row = selectedRow else { return true }
            let viewModel = self.viewModel
            app.present(SubtaskChoiceOverlay(title: row.reminder.title, openSubtasks: row.openSubtasks) { subtasks, app in
                app.show(viewModel.toggleCompletion(id: row.id, subtasks: subtasks), undo: viewModel.undoPerformer(app))
            })
        case .toggleCompletion, .toggleFlag, .deleteReminder:
            guard let row = selectedRow else { return true }
            viewModel.perform(action, onReminder: row.id, app: app)
        case .toggleSubtasks:
            guard state.groupsSubtasks, let row = selectedRow else { return true }
            // On a subtask, its parent folds (the selection goes up to it).
            let parentID = row.reminder.parentID.flatMap { id in state.rows.contains { $0.id == id } ? id : nil }
            let target = parentID ?? row.id
            guard parentID != nil || row.subtasks > 0 else {
                app.showMessage("“\(TextSanitizer.line(row.reminder.title))” has no subtasks to fold")
                return true
            }
            viewModel.toggleCollapsed(id: target)
            if parentID != nil { select(id: target) }
        case .indentReminder, .outdentReminder:
            guard state.groupsSubtasks, let row = selectedRow else { return true }
            let result = action == .indentReminder ? viewModel.indent(id: row.id) : viewModel.outdent(id: row.id)
            app.show(result, undo: viewModel.undoPerformer(app))
        case .cyclePriority:
            guard let row = selectedRow else { return true }
            let next = Priority(rawValue: (row.reminder.priority.rawValue + 1) % 4) ?? .none
            // The list view model has no priority action; the store's
            // update is the same one the form uses.
            do {
                try environment.store.updateReminder(id: row.id, ReminderChanges(priority: next))
                app.show(ActionResult(message: next == .none ? "Priority: none" : "Priority: \(next.name) \(next.marks)",
                                      undo: .setPriority(id: row.id, row.reminder.priority)),
                         undo: app.storeUndo())
            } catch {
                app.showError((error as? CoreError)?.description ?? "\(error)")
            }
        case .moveReminderUp, .moveReminderDown:
            guard let row = selectedRow else { return true }
            guard state.canReorder else {
                let hint = state.listID == nil
                    ? "Reminders can be moved inside their own list"
                    : "Sort manually to move reminders (s, then m)"
                app.showError(hint)
                return true
            }
            app.show(viewModel.move(id: row.id, by: action == .moveReminderUp ? -1 : 1))
        case .sortMenu:
            let viewModel = self.viewModel
            app.present(SortMenuOverlay(current: state.sort) { sort in
                viewModel.setSort(sort)
            })
        case .toggleShowCompleted:
            guard state.filter != .completed else {
                app.showMessage("Completed always shows completed reminders")
                return true
            }
            viewModel.toggleShowCompleted(app: app)
        case .clearCompleted:
            guard state.completedCount > 0 else {
                app.showMessage("No completed reminders to clear")
                return true
            }
            let viewModel = self.viewModel
            let scope = state.listID == nil ? "everywhere" : "in “\(state.title)”"
            let count = state.completedCount
            app.present(ConfirmOverlay.clearCompleted(
                count == 1 ? "Delete 1 completed reminder \(scope)?" : "Delete \(count) completed reminders \(scope)?",
                detail: "This cannot be undone."
            ) { app in
                app.show(viewModel.clearCompleted(.all))
            })
        case .editList:
            guard let id = state.listID else { return false }
            do {
                app.push(try ListFormScreen(environment: environment, listID: id, onSave: nil))
            } catch {
                app.showError("\(error)")
            }
        case .openSharing:
            guard let listID = state.listID else {
                app.showMessage("Only lists can be shared")
                return true
            }
            app.push(SharingScreen(environment: environment, listID: listID))
        default:
            return false
        }
        return true
    }

    private func visibleRows(_ app: AppController) -> Int {
        max(1, (app.size.height - 2 - headerHeight(app: app, height: app.size.height - 2)) / 2)
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool {
        switch event.button {
        case .wheelUp: move(by: -3)
        case .wheelDown: move(by: 3)
        case .left:
            guard let index = hitRows[event.row] else { return false }
            let opens = selection.clickOpens(index: index, isDoubleClick: event.isDoubleClick)
            select(index: index)
            if opens { return perform(.open, app: app) }
        }
        return true
    }

    // MARK: Drawing

    func coverRows(app: AppController, height: Int) -> Int {
        guard viewModel.state.coverPNG != nil else { return 0 }
        return app.theme.mode.canDrawImages ? max(3, min(8, height / 5)) : 1
    }

    func headerHeight(app: AppController, height: Int) -> Int {
        coverRows(app: app, height: height) + 3
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let state = viewModel.state
        let theme = app.theme
        if wantsBottom, state.limit == nil, !state.rows.isEmpty {
            wantsBottom = false
            select(index: state.rows.count - 1)
        }
        var row = area.row
        // Cover
        let coverHeight = coverRows(app: app, height: area.height)
        if coverHeight > 0, let png = state.coverPNG {
            drawCover(png: png, listID: state.listID ?? "", into: &buffer,
                      rect: Rect(row: row, column: area.column, width: area.width, height: coverHeight), state: state, app: app)
            row += coverHeight
        }
        // Title line
        let titleStyle = theme.listColor(state.color, [.bold])
        var right: [Span] = []
        let count = state.headingCount
        let countText = count == 1 ? "1 reminder" : "\(count) reminders"
        if let share = state.share {
            // Who it is shared with gives way to the title (a third of the
            // width, or all of it if shorter): cut, or left out on a narrow
            // screen.
            let titleRoom = min(DisplayWidth.of(state.title), max(12, area.width / 3))
            let room = area.width - 6 - titleRoom - DisplayWidth.of(countText) - 2
            if room >= 8 { right.append(Span(DisplayWidth.truncate(ShareText.line(share), to: room) + "  ", theme.dim)) }
        }
        right.append(Span(countText, theme.dim))
        let rightWidth = right.reduce(0) { $0 + DisplayWidth.of($1.text) }
        buffer.draw(state.title, row: row, column: area.column + 2, maxWidth: area.width - rightWidth - 6, style: titleStyle)
        buffer.draw(right, row: row, column: area.right - rightWidth - 2)
        row += 1
        // Sort and completed line
        var info = [Span("Sort: ", theme.dim), Span(state.sort.label, theme.label)]
        if state.filter != .completed, state.completedCount > 0 {
            info.append(Span(completedSummary(count: state.completedCount, shown: state.showCompleted), theme.dim))
        }
        buffer.draw(info, row: row, column: area.column + 2, maxWidth: area.width - 4)
        row += 1
        buffer.fill(Rect(row: row, column: area.column + 1, width: area.width - 2, height: 1), style: theme.border, character: "─")
        row += 1
        // Rows
        let rowsArea = Rect(row: row, column: area.column, width: area.width, height: area.bottom - row)
        drawRows(state: state, into: &buffer, area: rowsArea, app: app)
    }

    private func drawCover(png: Data, listID: String, into buffer: inout CellBuffer, rect: Rect,
                           state: ListDetailState, app: AppController) {
        let theme = app.theme
        if theme.mode.canDrawImages,
           let cells = app.covers.cells(listID: listID, png: png, columns: rect.width, rows: rect.height, mode: theme.mode) {
            for (offset, line) in cells.enumerated() where offset < rect.height {
                for (column, cell) in line.enumerated() where column < rect.width {
                    buffer.setGlyph(Glyph(text: cell.text, width: 1), row: rect.row + offset, column: rect.column + column, style: cell.style)
                }
            }
            return
        }
        // Few colors: a band in the list's color says "there is a cover".
        buffer.fill(rect, style: theme.listColor(state.color), character: "░")
        let label = " cover image: needs a 256-color terminal "
        let width = DisplayWidth.of(label)
        if width < rect.width {
            buffer.draw(label, row: rect.row, column: rect.column + (rect.width - width) / 2, style: theme.dim)
        }
    }

    private func drawRows(state: ListDetailState, into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        hitRows = [:]
        guard !state.rows.isEmpty else {
            let message: String
            if !state.isLoaded {
                message = "Loading…"
            } else if let error = state.errorMessage {
                message = "⚠ " + error
            } else if state.filter == .completed {
                message = "No completed reminders"
            } else if state.isReadOnly {
                message = "No reminders"
            } else {
                let key = app.keyMap.key(for: .newReminder, in: [.list])
                message = state.completedCount > 0 && !state.showCompleted
                    ? "All done!" + (key.map { " Press \($0) to add a reminder" } ?? "")
                    : "No reminders" + (key.map { ": press \($0) to add one" } ?? "")
            }
            let width = DisplayWidth.of(message)
            buffer.draw(message, row: area.row + 1, column: area.column + max(2, (area.width - width) / 2),
                        style: state.errorMessage != nil ? theme.danger : theme.dim)
            return
        }
        let selected = selectedRow
        let showList = state.listID == nil
        let clock = environment.clock
        let spinner = Self.spinnerFrame(app.now())
        let columns = Self.columns(for: state.rows, width: area.width, clock: clock)
        let shownIDs = state.groupsSubtasks ? Set(state.readRows.map(\.id)) : []
        let gutter = state.groupsSubtasks && state.readRows.contains { $0.subtasks > 0 }
        // Heights of every row (cheap), lines only of the rows on screen.
        var starts: [Int] = []
        starts.reserveCapacity(state.rows.count)
        var total = 0
        for row in state.rows {
            starts.append(total)
            total += Self.rowHeight(row, showList: showList)
        }
        let selectedIndex = state.rows.firstIndex { $0.id == selected?.id } ?? 0
        scrollTop = Scrolling.top(current: scrollTop, selectedStart: starts[selectedIndex],
                                  selectedEnd: starts[selectedIndex] + Self.rowHeight(state.rows[selectedIndex], showList: showList),
                                  viewport: area.height, total: total)
        var index = Self.firstRow(endingAfter: scrollTop, starts: starts, total: total)
        while index < state.rows.count, starts[index] - scrollTop < area.height {
            let lines = Self.rowLines(state.rows[index], width: area.width, showList: showList, clock: clock, theme: theme,
                                      spinner: spinner, columns: columns,
                                      nesting: Self.nesting(state.rows[index], in: state, shown: shownIDs, gutter: gutter))
            for (offset, rowLine) in lines.enumerated() {
                let screenRow = area.row + starts[index] + offset - scrollTop
                guard screenRow >= area.row, screenRow < area.bottom else { continue }
                rowLine.draw(into: &buffer, row: screenRow, in: area)
                hitRows[screenRow] = index
                if index == selectedIndex {
                    theme.select(&buffer, Rect(row: screenRow, column: area.column, width: area.width, height: 1))
                }
            }
            index += 1
        }
        // More rows than read (a window on a huge list): say so at the end.
        if state.rows.count < state.totalCount, area.row + total - scrollTop < area.bottom {
            buffer.draw("… \(state.totalCount - state.rows.count) more", row: area.row + total - scrollTop,
                        column: area.column + 2, style: theme.dim)
        }
        growWindowIfNeeded()
    }

    /// How a row sits among its neighbours: under its parent (indented),
    /// a parent (folded or not), or on its own.
    /// A list with parents in it keeps a gutter for their fold marks, so
    /// every row's checkbox lines up.
    enum Nesting: Equatable {
        case none(gutter: Bool)
        case subtask
        case parent(folded: Bool)
    }

    static func nesting(_ row: ReminderRow, in state: ListDetailState, shown: Set<String>, gutter: Bool) -> Nesting {
        guard state.groupsSubtasks else { return .none(gutter: false) }
        if let parentID = row.reminder.parentID, shown.contains(parentID) { return .subtask }
        if row.subtasks > 0 { return .parent(folded: state.collapsed.contains(row.id)) }
        return .none(gutter: gutter)
    }

    /// Lines a row takes: two when it shows its list or notes.
    static func rowHeight(_ row: ReminderRow, showList: Bool) -> Int {
        showList || !TextSanitizer.firstLine(row.reminder.notes).isEmpty ? 2 : 1
    }

    /// The first row whose lines reach below `line` (binary search).
    static func firstRow(endingAfter line: Int, starts: [Int], total: Int) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            let end = middle + 1 < starts.count ? starts[middle + 1] : total
            if end > line { high = middle } else { low = middle + 1 }
        }
        return low
    }

    struct RowLine {
        var left: [Span]
        var right: [Span]

        /// Draws the line across `area`: the right part ends one column in
        /// from the edge, and the left part stops two columns short of it.
        func draw(into buffer: inout CellBuffer, row: Int, in area: Rect) {
            let rightWidth = right.reduce(0) { $0 + DisplayWidth.of($1.text) }
            buffer.draw(left, row: row, column: area.column + 1,
                        maxWidth: area.width - 2 - (rightWidth > 0 ? rightWidth + 2 : 0))
            if rightWidth > 0 {
                buffer.draw(right, row: row, column: area.right - 1 - rightWidth)
            }
        }
    }

    static let spinnerFrames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    static func spinnerFrame(_ now: Date) -> String {
        let tenths = Int((now.timeIntervalSinceReferenceDate * 10).rounded(.down))
        return spinnerFrames[((tenths % spinnerFrames.count) + spinnerFrames.count) % spinnerFrames.count]
    }

    /// Widths of the right-hand columns (due date, tags), shared by every
    /// row so that they line up like a table.
    struct Columns: Equatable {
        var due: Int
        var tags: Int
        var flag: Bool
        /// A column for the repeat mark (↻) after the due date.
        var repeats = false

        static let none = Columns(due: 0, tags: 0, flag: false)

        /// The width of the right-hand block as `rowLines` lays it out.
        var rightWidth: Int {
            var width = due + (repeats ? 2 : 0)
            if tags > 0 { width += (width > 0 ? 2 : 0) + tags }
            if flag { width += (width > 0 ? 1 : 0) + 1 }
            return width
        }
    }

    static func dueText(_ row: ReminderRow, clock: AppClock) -> String? {
        row.reminder.dueDate.map { DueDateText.format($0, clock: clock) }
    }

    static func tagsText(_ row: ReminderRow, limit: Int) -> String? {
        guard !row.tags.isEmpty else { return nil }
        return DisplayWidth.truncate(TextSanitizer.line(row.tags.map { "#" + $0 }.joined(separator: " ")), to: limit)
    }

    static func tagsLimit(width: Int) -> Int { max(8, width / 4) }

    /// The columns for a set of rows at a width. Past a few hundred rows the
    /// widths are fixed instead of measured. The titles keep at least half
    /// the width: on a narrow terminal the tags give way first (cut with
    /// "…", or left out below `minimumTags` columns).
    static func columns(for rows: [ReminderRow], width: Int, clock: AppClock) -> Columns {
        let limit = tagsLimit(width: width)
        var columns: Columns
        if rows.count > 500 {
            columns = Columns(due: 15, tags: limit, flag: true, repeats: true)
        } else {
            columns = Columns.none
            for row in rows {
                if let due = dueText(row, clock: clock) { columns.due = max(columns.due, DisplayWidth.of(due)) }
                if let tags = tagsText(row, limit: limit) { columns.tags = max(columns.tags, DisplayWidth.of(tags)) }
                if row.reminder.isFlagged { columns.flag = true }
                if row.reminder.repeatRule != nil, row.reminder.status != .completed { columns.repeats = true }
            }
        }
        let over = columns.rightWidth - (width - width / 2 - 2)
        if over > 0, columns.tags > 0 {
            columns.tags = columns.tags - over >= minimumTags ? columns.tags - over : 0
        }
        return columns
    }

    /// The narrowest tag column worth showing: "#health" with room for "…".
    static let minimumTags = 6

    /// One reminder as one or two lines: checkbox, priority, title, and on
    /// the right due date, tags and flag in their columns; below, the list
    /// (in smart lists) and the first line of the notes.
    static func rowLines(_ row: ReminderRow, width: Int, showList: Bool, clock: AppClock, theme: Theme,
                         spinner: String, columns: Columns? = nil, nesting: Nesting = .none(gutter: false)) -> [RowLine] {
        let columns = columns ?? Self.columns(for: [row], width: width, clock: clock)
        let reminder = row.reminder
        var left: [Span] = []
        switch nesting {
        case .subtask: left.append(Span("    "))
        case .parent(let folded): left.append(Span(folded ? "▸ " : "▾ ", theme.dim))
        case .none(let gutter): if gutter { left.append(Span("  ")) }
        }
        switch reminder.status {
        case .incomplete:
            left.append(Span("[ ] ", theme.dim))
        case .completing:
            left.append(Span("[✓] ", theme.success.with(.bold)))
        case .completed:
            left.append(Span("[✓] ", theme.dim))
        }
        if reminder.priority != .none {
            left.append(Span(reminder.priority.marks + " ", theme.priority))
        }
        let titleStyle: Style = reminder.status == .completed ? theme.dim : (reminder.status == .completing ? theme.dim.with(.italic) : theme.text)
        left.append(Span(reminder.title, titleStyle))
        if row.subtasks > 0 {
            left.append(Span(row.openSubtasks == 0 ? "  all done" : "  \(row.openSubtasks) open", theme.dim))
        }
        // Apart from its parent (a smart list, or its parent hidden): say whose.
        if let parent = row.parentTitle, nesting != .subtask, !showList {
            left.append(Span("  ‹ " + parent, theme.dim))
        }
        if reminder.status == .completing {
            left.append(Span("  completing " + spinner, theme.success))
        }

        var right: [Span] = []
        if columns.due > 0 {
            let due = dueText(row, clock: clock) ?? ""
            right.append(Span(DisplayWidth.pad(due, to: columns.due), row.isPastDue ? theme.danger : theme.dim))
        }
        if columns.repeats {
            right.append(Span(reminder.repeatRule != nil && reminder.status != .completed ? " ↻" : "  ", theme.dim))
        }
        if columns.tags > 0 {
            if !right.isEmpty { right.append(Span("  ")) }
            right.append(Span(DisplayWidth.pad(tagsText(row, limit: columns.tags) ?? "", to: columns.tags), theme.tag))
        }
        if columns.flag {
            if !right.isEmpty { right.append(Span(" ")) }
            right.append(Span(reminder.isFlagged ? "⚑" : " ", theme.flag))
        }
        var lines = [RowLine(left: left, right: right)]

        var detail: [Span] = []
        if showList {
            detail.append(Span("● ", theme.listColor(row.listColor)))
            detail.append(Span(row.listTitle, theme.dim))
            if let parent = row.parentTitle { detail.append(Span(" › " + parent, theme.dim)) }
        }
        let notes = TextSanitizer.firstLine(reminder.notes)
        if !notes.isEmpty {
            if !detail.isEmpty { detail.append(Span(" · ", theme.dim)) }
            detail.append(Span(notes, theme.dim))
        }
        if !detail.isEmpty {
            let indent: String
            switch nesting {
            case .subtask: indent = "        "
            case .parent: indent = "      "
            case .none(let gutter): indent = gutter ? "      " : "    "
            }
            lines.append(RowLine(left: [Span(indent)] + detail, right: []))
        }
        return lines
    }
}
