import Foundation
import RemindersViewModels

/// The conflict log: every conflict the merge resolved, newest first, and
/// for the selected one a side-by-side table of the field's ancestor, this
/// device's and the other device's values with their times and devices,
/// who won and why. Keys keep the other value (a new edit that syncs) or
/// dismiss the entry.
final class ConflictsScreen: ViewModelScreen {
    let viewModel: ConflictsViewModel
    private var selection = ListSelection(key: \ConflictItem.id)
    private var scrollTop = 0
    private var hitRows: [Int: Int] = [:]

    init(environment: AppEnvironment) {
        viewModel = ConflictsViewModel(environment: environment)
    }

    var title: String { "Conflicts" }
    var contexts: [KeyContext] { [.conflicts, .navigation, .global] }

    var hiddenActions: Set<Action> {
        var hidden: Set<Action> = [.open]
        let state = viewModel.state
        if !state.isAvailable || state.items.isEmpty { return hidden.union([.keepOtherValue, .dismissConflict, .dismissAllConflicts]) }
        if selected.map({ $0.canKeepOther || $0.putBackValues != nil }) != true || selected?.isDismissed == true {
            hidden.insert(.keepOtherValue)
        }
        if selected?.isDismissed != false { hidden.insert(.dismissConflict) }
        if state.newCount == 0 { hidden.insert(.dismissAllConflicts) }
        return hidden
    }

    /// The selected entry, kept by id while the log grows above it.
    var selected: ConflictItem? { selection.item(in: viewModel.state.items) }

    private func select(index: Int) {
        selection.select(index: index, in: viewModel.state.items)
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        _ = selected
        switch action {
        case .down, .up, .pageDown, .pageUp, .top, .bottom:
            selection.navigate(action, page: 5, in: viewModel.state.items)
        case .keepOtherValue:
            guard let item = selected else { return true }
            // A reminder a delete took comes back whole.
            app.show(item.putBackValues != nil ? viewModel.restoreLost(id: item.id) : viewModel.keepOtherValue(id: item.id))
        case .dismissConflict:
            guard let item = selected, !item.isDismissed else { return true }
            let result = viewModel.dismiss(id: item.id)
            app.show(result)
            // On to the next entry still to look at.
            if result.errorMessage == nil {
                let items = viewModel.state.items
                if let next = items[selection.index...].dropFirst().firstIndex(where: { !$0.isDismissed }) {
                    select(index: next)
                }
            }
        case .dismissAllConflicts:
            app.show(viewModel.dismissAll())
        case .open:
            return true
        default:
            return false
        }
        return true
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool {
        switch event.button {
        case .wheelUp: select(index: selection.index - 1)
        case .wheelDown: select(index: selection.index + 1)
        case .left:
            guard let index = hitRows[event.row] else { return false }
            select(index: index)
        }
        return true
    }

    // MARK: Drawing

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let state = viewModel.state
        hitRows = [:]
        let left = area.column + 2
        let width = max(20, min(area.width - 4, 110))
        buffer.draw("CONFLICTS", row: area.row + 1, column: left, style: theme.heading)
        guard state.isAvailable || !state.isLoaded else {
            drawUnavailable(into: &buffer, area: area, app: app)
            return
        }
        let count = state.items.count
        var summary = count == 1 ? "1 in the log" : "\(count) in the log"
        if state.newCount > 0 { summary = "\(state.newCount) new · " + summary }
        buffer.draw(summary, row: area.row + 1, column: left + width - DisplayWidth.of(summary), style: theme.dim)
        let listTop = area.row + 3
        guard let current = selected else {
            let lines = state.isLoaded ? [
                "No conflicts.",
                "",
                "When two devices change the same field before they sync, the later edit",
                "wins and the other value is kept here, so that you can bring it back.",
            ] : ["Loading…"]
            for (offset, line) in lines.enumerated() {
                buffer.draw(line, row: listTop + offset, column: left, maxWidth: width, style: offset == 0 ? theme.text : theme.dim)
            }
            return
        }

        // The list takes what the detail leaves, at least three rows.
        let detailHeight = 13
        let listHeight = min(count, max(3, area.bottom - listTop - detailHeight - 1))
        let selectedIndex = selection.index
        scrollTop = Scrolling.top(current: scrollTop, selectedStart: selectedIndex, selectedEnd: selectedIndex + 1,
                                  viewport: listHeight, total: count)
        let visible = state.items[scrollTop..<min(count, scrollTop + listHeight)]
        let timeWidth = (visible.map { DisplayWidth.of(Self.listTime($0.resolvedAt, app: app)) }.max() ?? 8) + 2
        for offset in 0..<listHeight {
            let index = scrollTop + offset
            guard index < count else { break }
            let row = listTop + offset
            drawRow(state.items[index], into: &buffer, row: row, column: left, width: width, timeWidth: timeWidth, app: app)
            hitRows[row] = index
            if index == selectedIndex {
                theme.select(&buffer, Rect(row: row, column: left - 1, width: width + 2, height: 1))
            }
        }
        let detailTop = listTop + listHeight
        buffer.draw(String(repeating: "─", count: width), row: detailTop, column: left, style: theme.border)
        if count > listHeight {
            let more = " \(selectedIndex + 1)/\(count) "
            buffer.draw(more, row: detailTop, column: left + width - DisplayWidth.of(more) - 2, style: theme.dim)
        }
        drawDetail(current, into: &buffer, top: detailTop + 1, bottom: area.bottom, column: left, width: width, app: app)
        if let error = state.errorMessage {
            buffer.draw("⚠ " + error, row: area.bottom - 1, column: left, maxWidth: width, style: theme.danger)
        }
    }

    private func drawUnavailable(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let lines = ["Conflicts: available once sync is on.",
                     "",
                     "When two devices change the same reminder, the losing values will be",
                     "listed here so that you can restore them."]
        for (offset, line) in lines.enumerated() {
            buffer.draw(line, row: area.row + 3 + offset, column: area.column + 2, maxWidth: area.width - 4,
                        style: offset == 0 ? app.theme.title : app.theme.dim)
        }
    }

    /// " ● 10:42:13  Reminder “Buy milk” · Title              this device won"
    private func drawRow(_ item: ConflictItem, into buffer: inout CellBuffer, row: Int, column: Int, width: Int,
                         timeWidth: Int, app: AppController) {
        let theme = app.theme
        let base = item.isDismissed ? theme.dim : theme.text
        let outcome = Self.outcome(item)
        let outcomeWidth = DisplayWidth.of(outcome)
        let time = Self.listTime(item.resolvedAt, app: app)
        // A long title is cut so that the field's name still shows.
        let field = " · " + item.fieldName
        let room = width - outcomeWidth - 2 - 2 - timeWidth - DisplayWidth.of(field)
        buffer.draw([
            Span(item.isDismissed ? "  " : "● ", item.isDismissed ? theme.dim : theme.warning),
            Span(DisplayWidth.pad(time, to: timeWidth), theme.dim),
            Span(DisplayWidth.truncate(item.subject, to: max(12, room)), base),
            Span(field, theme.dim),
        ], row: row, column: column, maxWidth: width - outcomeWidth - 2)
        buffer.draw(outcome, row: row, column: column + width - outcomeWidth,
                    style: item.winner == .delete ? theme.danger : theme.dim)
    }

    private func drawDetail(_ item: ConflictItem, into buffer: inout CellBuffer, top: Int, bottom: Int, column: Int,
                            width: Int, app: AppController) {
        let theme = app.theme
        var row = top
        // The field's name always shows: the list's name goes first, then
        // the title is cut.
        let field = " · " + item.fieldName
        let list = item.listTitle.map { " in “\($0)”" } ?? ""
        let fits = DisplayWidth.of(item.subject) + DisplayWidth.of(list) + DisplayWidth.of(field) <= width
        let subjectRoom = width - DisplayWidth.of(field) - (fits ? DisplayWidth.of(list) : 0)
        var heading = [Span(DisplayWidth.truncate(item.subject, to: max(12, subjectRoom)), theme.title)]
        if fits, !list.isEmpty { heading.append(Span(list, theme.dim)) }
        heading.append(Span(field, theme.accent))
        buffer.draw(heading, row: row, column: column, maxWidth: width)
        row += 2

        // The table: a label column, then ancestor, this device, other
        // device. A whole record has no ancestor to show: its two sides
        // take the room, and a line more, for the text they kept.
        let labelWidth = 9
        let whole = item.entry.field == "*"
        let shown = whole ? [1, 2] : [0, 1, 2]
        let columnWidth = max(8, (width - labelWidth) / shown.count)
        var columns = [Int](repeating: column + labelWidth, count: 3)
        for (slot, index) in shown.enumerated() { columns[index] = column + labelWidth + slot * columnWidth }
        let headers = item.entry.cause != nil
            ? ["Ancestor", item.isRefusedDelete ? "Your delete" : "Your edit", "On the server"]
            : ["Ancestor", item.isAboutThisDevice ? "This device" : item.thisSide, item.isAboutThisDevice ? "Other device" : (item.otherDevice.device ?? "Other device")]
        let winning = item.winner == .thisDevice ? 1 : (item.winner == .otherDevice ? 2 : -1)
        for (index, header) in headers.enumerated() where shown.contains(index) {
            // Narrow, the mark says "kept" alone.
            let marked = header + " ✓ kept"
            let text = index != winning ? header : DisplayWidth.of(marked) < columnWidth ? marked : header + " ✓"
            buffer.draw(text, row: row, column: columns[index], maxWidth: columnWidth - 1,
                        style: index == winning ? theme.success.with(.bold) : theme.heading)
        }
        row += 1
        let sides: [ConflictSide?] = [nil, item.thisDevice, item.otherDevice]
        let values: [String] = [item.ancestor.map(Self.shown) ?? (item.entry.field == "*" ? "—" : "none"),
                                Self.shown(item.thisDevice.value), Self.shown(item.otherDevice.value)]
        // Below the values: the times, the devices, a gap and two lines of verdict.
        let valueRoom = whole ? max(3, min(5, bottom - row - 5)) : 3
        let wrapped = values.map { DisplayWidth.wrap($0, width: columnWidth - 1, maxLines: valueRoom) }
        let valueLines = shown.map { wrapped[$0].count }.max() ?? 1
        buffer.draw("Value", row: row, column: column, style: theme.label)
        for (index, lines) in wrapped.enumerated() where shown.contains(index) {
            for (offset, line) in lines.enumerated() {
                let style = index == winning ? theme.text.with(.bold) : (index == 0 ? theme.dim : theme.text)
                buffer.draw(line, row: row + offset, column: columns[index], maxWidth: columnWidth - 1, style: style)
            }
        }
        row += valueLines
        buffer.draw("Edited", row: row, column: column, style: theme.label)
        buffer.draw("Device", row: row + 1, column: column, style: theme.label)
        // Edits within one second show their milliseconds, so that the later one shows.
        // Narrow, the day goes when it is today's, then the seconds.
        let times = [item.thisDevice.time, item.otherDevice.time].compactMap { $0 }.map { Self.detailTime($0, app: app) }
        let precise = times.count == 2 && times[0] == times[1]
        for (index, side) in sides.enumerated() where shown.contains(index) {
            let time = side?.time.map { Self.detailTime($0, app: app, milliseconds: precise, width: columnWidth - 1) } ?? "—"
            buffer.draw(time, row: row, column: columns[index], maxWidth: columnWidth - 1, style: theme.dim)
            buffer.draw(side?.device ?? "—", row: row + 1, column: columns[index], maxWidth: columnWidth - 1, style: theme.dim)
        }
        row += 3

        let verdict: String
        switch item.winner {
        case _ where item.isRefusedDelete: verdict = "✗ Delete not taken, it is back"
        case _ where item.entry.cause != nil: verdict = "✗ Not saved"
        case .thisDevice: verdict = "✓ Kept \(item.thisSide)'s value"
        case .otherDevice: verdict = "✓ Kept \(item.otherDevice.device.map { $0 + "'s" } ?? "the other device's") value"
        case .delete: verdict = "✗ Deleted"
        }
        let why = DisplayWidth.wrap(verdict + ": " + item.reason + ".", width: width, maxLines: 2)
        for (offset, line) in why.enumerated() where row < bottom {
            if offset == 0, line.hasPrefix(verdict) {
                buffer.draw([Span(verdict, item.winner == .delete ? theme.danger : theme.success),
                             Span(String(line.dropFirst(verdict.count)))], row: row, column: column, maxWidth: width)
            } else {
                buffer.draw(line, row: row, column: column, maxWidth: width)
            }
            row += 1
        }
        if let now = item.now, row < bottom {
            // Changed since the merge, by an edit or by the app's rules.
            buffer.draw([Span("Now: ", theme.dim), Span(Self.shown(now))], row: row, column: column, maxWidth: width)
            row += 1
        }
        guard row < bottom else { return }
        if item.isDismissed {
            buffer.draw("Dismissed.", row: row, column: column, maxWidth: width, style: theme.dim)
        } else if let key = app.keyMap.key(for: .keepOtherValue, in: contexts),
                  let what = item.lostReminderValues != nil
                    ? "the reminder, in \(item.listTitle.map { "“\($0)”" } ?? "the default list") (a new reminder that syncs)"
                    : item.refusedReminderValues != nil
                    ? "a copy of the reminder in one of your lists (the default one)" : Self.losingValue(item) {
            let lines = DisplayWidth.wrap("\(key) puts back \(what)", width: width, maxLines: max(1, bottom - row))
            for (offset, line) in lines.enumerated() {
                let spans = offset == 0 && line.hasPrefix(key)
                    ? [Span(key, theme.accent), Span(String(line.dropFirst(key.count)), theme.dim)] : [Span(line, theme.dim)]
                buffer.draw(spans, row: row + offset, column: column, maxWidth: width)
            }
        }
    }

    // MARK: Text

    /// "this device's “Oat milk” (a new edit that syncs)", when the entry's
    /// losing value can be put back.
    static func losingValue(_ item: ConflictItem) -> String? {
        guard item.canKeepOther, let losing = item.losingSide else { return nil }
        let whose = item.winner == .thisDevice ? "the other device's" : "this device's"
        let value = ConflictText.isWorded(field: item.entry.field, table: item.entry.recordType)
            ? shown(losing.value) : ConflictText.quoted(losing.value)
        return "\(whose) \(value) (a new edit that syncs)"
    }

    /// "this device won", "laptop won", "deleted".
    static func outcome(_ item: ConflictItem) -> String {
        if item.entry.cause != nil { return "refused" }
        return switch item.winner {
        case .thisDevice: "\(item.thisSide) won"
        case .otherDevice: "\(item.otherDevice.device ?? "other device") won"
        case .delete: "deleted"
        }
    }

    /// A value as the table shows it: "empty" for empty text, "none" for no value.
    static func shown(_ value: String?) -> String {
        guard let value else { return "none" }
        return value.isEmpty ? "empty" : value
    }

    /// "10:42:13" today (by the app's clock), "3 Mar 10:42" before.
    static func listTime(_ date: Date, app: AppController) -> String {
        let timeZone = app.environment.clock.timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let format = calendar.isDate(date, inSameDayAs: app.now()) ? "HH:mm:ss" : "d MMM HH:mm"
        return formatted(date, format, timeZone)
    }

    /// "4 Mar 10:42:13", or "4 Mar 10:42:13.250"; in fewer than `width`
    /// columns, without the day when it is today's, then without seconds.
    static func detailTime(_ date: Date, app: AppController, milliseconds: Bool = false, width: Int = .max) -> String {
        let timeZone = app.environment.clock.timeZone
        let seconds = milliseconds ? "HH:mm:ss.SSS" : "HH:mm:ss"
        let full = formatted(date, "d MMM " + seconds, timeZone)
        guard DisplayWidth.of(full) > width else { return full }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return formatted(date, calendar.isDate(date, inSameDayAs: app.now()) ? seconds : "d MMM HH:mm", timeZone)
    }

    private static func formatted(_ date: Date, _ format: String, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}
