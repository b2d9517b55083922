import CNcurses
import Foundation
import RemindersCore

#if canImport(Glibc)
import Glibc
#endif

/// Reminders as aligned rows for people:
///
///     3f2a9c1e  [ ]  !!!  Renew passport      2026-02-27 past due  #errands  ⚑
///
/// the id's first 8 characters (enough to name it in another command), the
/// box ([ ] open, [~] completing, [x] completed), priority marks, title,
/// due date, list (for smart lists), tags and the flag.
enum ReminderTable {
    /// A title in a one-line message (`quoted`) or the lists' table.
    static let maxTitleColumns = 60
    static let maxSnippetColumns = 72

    /// `grouped`: the rows are a list's, each subtask right under its
    /// parent, so a subtask is indented; elsewhere it names its parent.
    static func render(_ rows: [ReminderRow], showList: Bool, snippets: [String]? = nil, grouped: Bool = false) -> String {
        var table = TextTable([.left, .left, .left, .left, .left, .left, .left, .left, .left, .left])
        let shown = Set(rows.map(\.id))
        for (index, row) in rows.enumerated() {
            let reminder = row.reminder
            var due = reminder.dueDate.map(format) ?? ""
            if row.isPastDue { due += " past due" }
            // Whole: on a terminal, `render` cuts what the width cannot
            // hold (a fixed cap cut titles on wide terminals too, and in
            // piped output).
            var title = TerminalText.clean(reminder.title)
            // What a title cut to the terminal's width keeps: where a
            // subtask belongs, and how far along a parent is.
            var end = ""
            if let parentID = reminder.parentID, grouped, shown.contains(parentID) {
                title = "  ↳ " + title
            } else if let parent = row.parentTitle {
                end += " (in " + TerminalText.truncate(TerminalText.clean(parent), to: 24) + ")"
            }
            if row.subtasks > 0 { end += " [\(row.subtasks - row.openSubtasks)/\(row.subtasks)]" }
            title += end
            table.add([
                String(reminder.id.prefix(8)),
                box(reminder.status),
                reminder.priority.marks,
                title,
                due,
                // A column of its own, so that it lines up under dates
                // with and without a time.
                reminder.repeatRule != nil ? "↻" : "",
                showList ? TerminalText.truncate(TerminalText.clean(row.listTitle), to: 24) : "",
                row.tags.map { "#" + $0 }.joined(separator: " "),
                reminder.isFlagged ? "⚑" : "",
                snippets.map { highlight($0[index]) } ?? "",
            ], cleaned: snippets == nil ? [] : [9], keepingEnd: end.isEmpty ? [:] : [3: end])
        }
        // On a terminal, titles too long for the rows are cut to fit, so
        // rows do not wrap mid-word; piped, every title goes out whole, the
        // columns after it aligned for titles up to 60 columns. Not with
        // snippets, which end the rows and wrap as they must.
        let hasSnippets = snippets?.contains { !$0.isEmpty } ?? false
        let width = hasSnippets ? nil : terminalColumns()
        return table.render(width: width, shrinking: 3, aligningUpTo: width == nil ? [3: maxTitleColumns] : [:])
    }

    /// The width of the terminal stdout is, or nil when it is not one.
    static func terminalColumns() -> Int? {
        guard isatty(STDOUT_FILENO) == 1 else { return nil }
        var rows: Int32 = 0
        var columns: Int32 = 0
        guard reminders_terminal_size(&rows, &columns) == 0 else { return nil }
        return Int(columns)
    }

    static func box(_ status: ReminderStatus) -> String {
        switch status {
        case .incomplete: "[ ]"
        case .completing: "[~]"
        case .completed: "[x]"
        }
    }

    /// "2026-03-01" or "2026-03-01 14:30".
    static func format(_ due: DueDate) -> String {
        due.description.replacingOccurrences(of: "T", with: " ")
    }

    /// "Fri 2026-11-27 09:00": with the weekday, so that a user sees that
    /// "fri" was read as the Friday they meant.
    static func formatWithWeekday(_ due: DueDate) -> String {
        due.withWeekday
    }

    /// A snippet made terminal-safe, its matches in bold when stdout is a
    /// colour terminal, otherwise with the markers simply dropped.
    static func highlight(_ snippet: String) -> String {
        let useStyle = Style.enabled
        var result = ""
        var segment = ""
        func flush() {
            result += TerminalText.clean(segment)
            segment = ""
        }
        for character in TerminalText.truncate(snippet, to: maxSnippetColumns) {
            if character == Queries.matchStart {
                flush()
                if useStyle { result += Style.boldOn }
            } else if character == Queries.matchEnd {
                flush()
                if useStyle { result += Style.boldOff }
            } else {
                segment.append(character)
            }
        }
        flush()
        // A snippet cut inside a match still switches bold off.
        if useStyle, result.contains(Style.boldOn) { result += Style.boldOff }
        return result
    }
}

/// Whether human output may use terminal styles: only on a terminal, and not
/// when NO_COLOR is set or TERM is dumb.
enum Style {
    static let boldOn = "\u{1B}[1m"
    static let boldOff = "\u{1B}[22m"

    static var enabled: Bool {
        let environment = ProcessInfo.processInfo.environment
        if environment["NO_COLOR"].map({ !$0.isEmpty }) ?? false { return false }
        if environment["TERM"] == "dumb" { return false }
        return isatty(STDOUT_FILENO) == 1
    }
}
