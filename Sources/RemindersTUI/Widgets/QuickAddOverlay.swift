import RemindersCore
import RemindersViewModels

/// The one-line add of a list's screen: "Pay rent fri 9am #bills !! ^Home *"
/// with, under it as it is typed, what Enter will add. Enter adds and
/// empties the line for the next one; Esc closes.
final class QuickAddOverlay: TextFieldOverlay {
    let viewModel: QuickAddViewModel
    var field = TextField("")
    /// Unused: the view model's `problem` says why a line adds nothing.
    var error: String?
    /// What the last Enter added, until the next key.
    private var added: String?
    private let onAdd: (String) -> Void

    /// - Parameter onAdd: gets the new reminder's id, to select it.
    init(environment: AppEnvironment, context: ReminderFilter?, app: AppController, onAdd: @escaping (String) -> Void) {
        viewModel = QuickAddViewModel(environment: environment, context: context)
        self.onAdd = onAdd
        viewModel.start(waking: app.wake)
    }

    deinit {
        viewModel.stop()
    }

    var contexts: [KeyContext] { [.prompt, .textEntry] }

    func handleText(_ key: Key, app: AppController) -> Bool {
        guard type(key) else { return false }
        typed()
        return true
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .confirm:
            let result = viewModel.add()
            if let id = result.createdID {
                field = TextField("")
                added = result.message
                onAdd(id)
            }
        case .dismiss:
            app.dismiss(self)
        default:
            guard field.apply(action) else { return false }
            typed()
        }
        return true
    }

    private func typed() {
        added = nil
        viewModel.text = field.text
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let inside = drawDialog(&buffer, area: area, width: 72, height: 6, title: "Quick add", theme: theme)
        drawField(label: "Title, a date, every…, #tags, ! !! !!! (priority), ^List, * (flag)", inside: inside, theme: theme,
                  into: &buffer)
        let row = inside.row + 2
        let state = viewModel.state
        if let preview = state.preview {
            buffer.draw(spans(preview, theme: theme, clock: viewModel.environment.clock, width: inside.width), row: row,
                        column: inside.column, maxWidth: inside.width)
        } else if let problem = state.problem {
            buffer.draw("⚠ " + problem, row: row, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.danger))
        }
        // Narrow, the keys before the example: they are what a new user needs.
        let keys = added == nil ? "Enter add · Esc close" : "Enter adds another · Esc close"
        let lead = added.map { "✓ \($0)" } ?? "e.g. Pay rent fri 9am #bills !!"
        let whole = lead + " · " + keys
        let hint = DisplayWidth.of(whole) <= inside.width ? whole : added == nil ? keys : "✓ Added · " + keys
        buffer.draw(hint, row: row + 1, column: inside.column, maxWidth: inside.width, style: theme.onDialog(theme.dim))
    }

    /// "→ Pay rent · ● Home · Fri 27 Nov 09:00 · !! · #bills · ⚑"; a title
    /// too long for `width` is cut, so that the date and the rest show.
    private func spans(_ preview: QuickAddPreview, theme: Theme, clock: AppClock, width: Int) -> [Span] {
        var spans = details(preview, theme: theme, clock: clock)
        let rest = spans.dropFirst(2).reduce(0) { $0 + DisplayWidth.of($1.text) }
        // The title keeps a dozen columns whatever follows it.
        let room = max(12, width - DisplayWidth.of(spans[0].text) - rest)
        if DisplayWidth.of(preview.title) > room {
            spans[1].text = DisplayWidth.truncate(preview.title, to: room)
        }
        return spans
    }

    /// The preview's spans: the arrow, the title, then the rest.
    private func details(_ preview: QuickAddPreview, theme: Theme, clock: AppClock) -> [Span] {
        let separator = Span(" · ", theme.onDialog(theme.dim))
        var spans = [Span("→ ", theme.onDialog(theme.dim)), Span(preview.title, theme.onDialog(theme.text)),
                     separator, Span("● ", theme.onDialog(theme.listColor(preview.list.color))),
                     Span(preview.list.title, theme.onDialog(theme.text))]
        if let due = preview.due {
            let isPast = Queries.isPastDue(due, clock: clock)
            spans += [separator, Span(DueDateText.format(due, clock: clock) + (isPast ? " (past)" : ""),
                                      theme.onDialog(isPast ? theme.danger : theme.text))]
        }
        if preview.priority != .none { spans += [separator, Span(preview.priority.marks, theme.onDialog(theme.priority))] }
        if !preview.tags.isEmpty {
            spans += [separator, Span(preview.tags.map { "#" + $0 }.joined(separator: " "), theme.onDialog(theme.tag))]
        }
        if let rule = preview.repeatRule { spans += [separator, Span("↻ " + rule.description, theme.onDialog(theme.text))] }
        if preview.isFlagged { spans += [separator, Span("⚑", theme.onDialog(theme.flag))] }
        return spans
    }
}
