import Foundation
import RemindersCore
import RemindersViewModels

/// The list form: title, color from the palette, cover image (a sample from
/// Assets, a PNG file, or none).
final class ListFormScreen: ViewModelScreen {
    enum Focus: CaseIterable {
        case title, color, cover, path
    }

    let viewModel: ListFormViewModel
    private(set) var focus: Focus = .title
    private var titleField: TextField
    private var pathField = TextField()
    private let initialFields: ListFields
    private let onSave: ((String) -> Void)?
    private var fieldRows: [Int: Focus] = [:]

    /// A new list.
    convenience init(environment: AppEnvironment, onSave: ((String) -> Void)?) {
        self.init(viewModel: ListFormViewModel(environment: environment), onSave: onSave)
    }

    /// Editing a list.
    convenience init(environment: AppEnvironment, listID: String, onSave: ((String) -> Void)?) throws {
        self.init(viewModel: try ListFormViewModel(environment: environment, listID: listID), onSave: onSave)
    }

    private init(viewModel: ListFormViewModel, onSave: ((String) -> Void)?) {
        self.viewModel = viewModel
        titleField = TextField(viewModel.fields.title)
        initialFields = viewModel.fields
        if case .file(let path) = viewModel.fields.coverSource { pathField = TextField(path) }
        self.onSave = onSave
    }

    var title: String { viewModel.state.isNew ? "New List" : "Edit List" }

    var contexts: [KeyContext] {
        switch focus {
        case .title, .path: [.textEntry, .form, .listForm]
        case .color: [.choice, .form, .listForm]
        case .cover: [.coverField, .form, .listForm]
        }
    }

    var hiddenActions: Set<Action> {
        viewModel.fields.coverPNG == nil ? [.removeCover] : []
    }

    /// The cover choices, in the order ←/→ go through them.
    var coverChoices: [CoverSource] {
        var choices: [CoverSource] = [.none]
        if initialFields.coverSource == .existing { choices.append(.existing) }
        choices += viewModel.state.sampleCovers.map { .sample($0) }
        choices.append(.file(pathField.text))
        return choices
    }

    private var isFileChoice: Bool {
        if case .file = viewModel.fields.coverSource { return true }
        return focus == .path || pendingFile
    }

    /// "file…" chosen but no file loaded yet.
    private var pendingFile = false

    private var visibleFocuses: [Focus] {
        isFileChoice ? [.title, .color, .cover, .path] : [.title, .color, .cover]
    }

    // MARK: Input

    func handleText(_ key: Key, app: AppController) -> Bool {
        guard let character = key.typedCharacter else { return false }
        switch focus {
        case .title:
            titleField.insert(character)
            viewModel.title = titleField.text
        case .path:
            pathField.insert(character)
        default:
            return false
        }
        return true
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .nextField, .previousField:
            let focuses = visibleFocuses
            let index = focuses.firstIndex(of: focus) ?? 0
            focus = focuses[max(0, min(focuses.count - 1, index + (action == .nextField ? 1 : -1)))]
        case .save:
            if focus == .path {
                loadFile(app)
            } else if focus == .cover, pendingFile {
                // "file…" is chosen but no file read yet: Enter goes to
                // the path, rather than saving with the cover as it was.
                focus = .path
                app.showMessage("Type the image's path (PNG or JPEG), then Enter reads it")
            } else {
                save(app)
            }
        case .cancel: cancel(app)
        case .nextChoice, .previousChoice:
            let step = action == .nextChoice ? 1 : -1
            if focus == .color {
                viewModel.cycleColor(by: step)
            } else if focus == .cover {
                cycleCover(by: step, app: app)
            }
        case .removeCover:
            viewModel.removeCover()
            pendingFile = false
            app.showMessage("Cover removed")
        default:
            switch focus {
            case .title:
                guard titleField.apply(action) else { return false }
                viewModel.title = titleField.text
            case .path:
                return pathField.apply(action)
            default:
                return false
            }
        }
        return true
    }

    private func cycleCover(by step: Int, app: AppController) {
        let choices = coverChoices
        let current: Int
        if pendingFile {
            current = choices.count - 1
        } else {
            current = choices.firstIndex { choice in
                switch (choice, viewModel.fields.coverSource) {
                case (.file, .file): true
                default: choice == viewModel.fields.coverSource
                }
            } ?? 0
        }
        let next = choices[(current + step + choices.count) % choices.count]
        pendingFile = false
        switch next {
        case .none:
            viewModel.removeCover()
        case .existing:
            var fields = viewModel.fields
            fields.coverSource = .existing
            fields.coverPNG = initialFields.coverPNG
            viewModel.fields = fields
        case .sample(let name):
            if let error = viewModel.chooseSampleCover(name) { app.showError(error) }
        case .file:
            pendingFile = true
        }
    }

    private func loadFile(_ app: AppController) {
        if let error = viewModel.chooseCoverFile(path: pathField.text) {
            app.showError(error)
        } else {
            pendingFile = false
            app.showMessage("Cover loaded")
            focus = .cover
        }
    }

    func save(_ app: AppController) {
        if pendingFile, !pathField.isEmpty {
            if let error = viewModel.chooseCoverFile(path: pathField.text) {
                focus = .path
                app.showError(error)
                return
            }
            pendingFile = false
        }
        let isNew = viewModel.state.isNew
        let result = viewModel.save()
        app.end(result, titled: viewModel.title, isNew: isNew, createdVerb: "Created", onSave: onSave) { errors in
            if errors[.title] != nil { focus = .title } else if errors[.cover] != nil { focus = .cover }
            app.showError(errors.values.sorted().first ?? "Please fix the fields in red")
        }
        if case .saved = result, viewModel.titleIsSharedWithAnotherList() {
            let title = viewModel.title.trimmingCharacters(in: .whitespaces)
            app.showMessage("\(isNew ? "Created" : "Saved") “\(title)”: another list has this title too")
        }
    }

    private func cancel(_ app: AppController) {
        app.leave(self, changed: viewModel.fields != initialFields, discarding: "this list")
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool {
        guard event.button == .left, let field = fieldRows[event.row] else { return false }
        focus = field
        return true
    }

    // MARK: Drawing

    static let colorNames = Dictionary(uniqueKeysWithValues: zip(RemindersStore.palette, RemindersStore.paletteNames))

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let state = viewModel.state
        let fields = state.fields
        var layout = FormLayout(area: area, maxFieldWidth: 70, focus: focus, theme: theme)
        defer { fieldRows = layout.fieldRows }

        layout.textField("Title", titleField, .title, placeholder: "List name", error: state.fieldErrors[.title], into: &buffer)

        layout.label("Color", .color, into: &buffer)
        var column = layout.fieldColumn
        for color in state.palette {
            let selected = color == fields.color.lowercased()
            let swatch = selected ? "[●]" : " ● "
            var style = theme.listColor(color, selected ? [.bold] : [])
            if !theme.mode.hasColor, selected { style = Style(attributes: [.reverse, .bold]) }
            column += buffer.draw(swatch, row: layout.row, column: column, style: style)
        }
        let name = Self.colorNames[fields.color.lowercased()] ?? fields.color
        buffer.draw("  " + name, row: layout.row, column: column, style: theme.dim)
        layout.row += 1
        layout.note(state.fieldErrors[.color], into: &buffer)
        layout.row += 1

        layout.label("Cover", .cover, into: &buffer)
        var spans: [Span] = []
        let choices = coverChoices
        for choice in choices {
            let chosen: Bool
            switch (choice, fields.coverSource) {
            case (.file, _) where pendingFile: chosen = true
            case (_, _) where pendingFile: chosen = false
            case (.file, .file): chosen = true
            default: chosen = choice == fields.coverSource
            }
            let text: String
            if case .file = choice { text = "file…" } else { text = choice.label }
            spans.append(Span(chosen ? "[\(text)]" : " \(text) ", chosen ? (focus == .cover ? theme.focusedButton : theme.title) : theme.dim))
            spans.append(Span(" "))
        }
        buffer.draw(spans, row: layout.row, column: layout.fieldColumn, maxWidth: layout.fieldWidth)
        layout.row += 1
        let remove = app.keyMap.key(for: .removeCover, in: [.coverField]).map { " · \($0) remove" } ?? ""
        layout.note(state.fieldErrors[.cover], hint: focus == .cover ? "←/→ choose" + remove : "", into: &buffer)
        layout.row += 1

        if isFileChoice {
            layout.textField("File", pathField, .path, placeholder: "~/photo.jpg or a PNG (Enter reads it)", error: nil, into: &buffer)
        }

        // Preview of the chosen cover.
        if let png = fields.coverPNG {
            let height = max(2, min(6, area.bottom - layout.row - 2))
            let width = min(layout.fieldWidth, height * 4 * 2)
            let rect = Rect(row: layout.row, column: layout.fieldColumn, width: width, height: height)
            if theme.mode.canDrawImages,
               let cells = app.covers.cells(listID: "preview:" + (state.listID ?? "new"), png: png,
                                            columns: rect.width, rows: rect.height, mode: theme.mode) {
                for (offset, line) in cells.enumerated() {
                    for (x, cell) in line.enumerated() {
                        buffer.setGlyph(Glyph(text: cell.text, width: 1), row: rect.row + offset, column: rect.column + x, style: cell.style)
                    }
                }
            } else {
                buffer.draw("(cover chosen; the preview needs a 256-color terminal)", row: layout.row, column: layout.fieldColumn,
                            maxWidth: layout.fieldWidth, style: theme.dim)
            }
            layout.row += height + 1
        }

        layout.saveError(state.saveError, row: min(layout.row, area.bottom - 1), into: &buffer)
    }
}
