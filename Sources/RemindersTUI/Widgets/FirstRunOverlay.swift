import RemindersViewModels

/// The first start of a new user: "Start empty" or "Add sample lists".
/// Shown only when the device found nothing of the user's anywhere, and
/// never again once answered.
final class FirstRunOverlay: Overlay {
    let offer: FirstRunOffer

    init(offer: FirstRunOffer) {
        self.offer = offer
    }

    var contexts: [KeyContext] { [.firstRun] }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .startEmpty: answer(addSampleData: false, app: app)
        case .addSampleData: answer(addSampleData: true, app: app)
        case .quit: return false
        default: break
        }
        // Every other key waits for an answer.
        return true
    }

    private func answer(addSampleData: Bool, app: AppController) {
        app.dismiss(self)
        do {
            switch try offer.answer(addSampleData) {
            case .startedEmpty:
                let key = app.keyMap.key(for: .newList, in: [.home]) ?? "a"
                app.showMessage("Starting empty: press \(key) to make your first list")
            case .added: app.showMessage("Added the sample lists")
            case .addedByAnotherDevice: app.showMessage("Another device of yours added the sample lists: they arrive by sync")
            }
        } catch {
            app.showError("Could not add the sample lists: \(error); nothing was added, and the next start asks again")
        }
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let lines = [
            "You have no lists yet, on this device or the server.",
            "",
            "Start with an empty app, or with three sample lists",
            "(Personal, Work, Groceries) to try things on.",
            "They sync to your other devices like any list.",
        ]
        let width = min(area.width - 2, 60)
        let inside = drawDialog(&buffer, area: area, width: width, height: lines.count + 4, title: "Welcome to Reminders",
                                theme: theme)
        for (offset, line) in lines.enumerated() {
            buffer.draw(line, row: inside.row + offset, column: inside.column, maxWidth: inside.width,
                        style: theme.onDialog(offset == 0 ? theme.title : theme.text))
        }
        let empty = " \(app.keyMap.key(for: .startEmpty, in: contexts) ?? "e") Start empty "
        let sample = " \(app.keyMap.key(for: .addSampleData, in: contexts) ?? "s") Add sample lists "
        let row = inside.row + lines.count + 1
        let sampleWidth = DisplayWidth.of(sample)
        let start = max(inside.column, inside.right - sampleWidth - DisplayWidth.of(empty) - 2)
        buffer.draw(empty, row: row, column: start, maxWidth: inside.width, style: theme.button)
        buffer.draw(sample, row: row, column: start + DisplayWidth.of(empty) + 2, maxWidth: max(0, inside.right - start),
                    style: theme.focusedButton)
    }
}
