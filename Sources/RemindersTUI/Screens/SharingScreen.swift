import RemindersViewModels

/// The sharing of one list: its participants with permission and status,
/// and (for the owner) invite, change permission, remove, stop sharing.
/// Requests run in the background; their outcome shows on the last line.
final class SharingScreen: ViewModelScreen {
    let viewModel: SharingViewModel
    private(set) var selectedIndex = 0
    private var hitRows: [Int: Int] = [:]

    init(environment: AppEnvironment, listID: String) {
        viewModel = SharingViewModel(environment: environment, listID: listID)
    }

    var title: String { "Sharing" }
    var contexts: [KeyContext] { [.sharing, .navigation, .global] }

    var hiddenActions: Set<Action> {
        let state = viewModel.state
        var hidden: Set<Action> = [.open]
        if !state.isOwner { return hidden.union([.inviteParticipant, .toggleSharePermission, .removeParticipant, .stopSharing]) }
        hidden.insert(.leaveShare)
        if state.participants.isEmpty { hidden.formUnion([.toggleSharePermission, .removeParticipant, .stopSharing]) }
        return hidden
    }

    func start(_ app: AppController) {
        viewModel.start(waking: app.wake)
        viewModel.refreshShares()
    }

    var selected: ListParticipant? {
        let people = viewModel.state.participants
        guard !people.isEmpty else { return nil }
        selectedIndex = max(0, min(selectedIndex, people.count - 1))
        return people[selectedIndex]
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        let state = viewModel.state
        let owning: Set<Action> = [.inviteParticipant, .toggleSharePermission, .removeParticipant, .stopSharing]
        if owning.contains(action), !state.isOwner {
            app.showError("Only the owner, \(state.ownerName), can change the sharing of this list")
            return true
        }
        switch action {
        case .down: selectedIndex += 1
        case .up: selectedIndex = max(0, selectedIndex - 1)
        case .top: selectedIndex = 0
        case .bottom: selectedIndex = max(0, state.participants.count - 1)
        case .inviteParticipant:
            let viewModel = self.viewModel
            app.present(InviteOverlay { name, permission in
                viewModel.invite(name, permission: permission)
            })
        case .toggleSharePermission:
            guard let person = selected else { return true }
            viewModel.setPermission(person.userName, person.permission == .readOnly ? .readWrite : .readOnly)
        case .removeParticipant:
            // Asks first, as stopping sharing does: there is no undo, and
            // one who accepted loses the list and what they had not synced.
            guard let person = selected else { return true }
            let viewModel = self.viewModel
            let accepted = person.status == .accepted
            app.present(ConfirmOverlay(
                title: "Remove \(person.userName)",
                question: accepted ? "Remove \(person.userName) from “\(state.listTitle)”?"
                                   : "Withdraw the invitation of \(person.userName) to “\(state.listTitle)”?",
                detail: accepted ? "They lose their copy of the list, and edits they have not synced." : nil,
                confirmLabel: accepted ? "Remove" : "Withdraw"
            ) { _ in viewModel.remove(person.userName) })
        case .leaveShare:
            guard !state.isOwner else {
                let stop = app.keyMap.key(for: .stopSharing, in: contexts) ?? "X"
                app.showError("You own “\(state.listTitle)”: \(stop) stops sharing it")
                return true
            }
            let viewModel = self.viewModel
            app.present(ConfirmOverlay(
                title: "Leave list", question: "Leave “\(state.listTitle)”?",
                detail: "It goes from your devices; \(state.ownerName) keeps it.", confirmLabel: "Leave"
            ) { app in
                viewModel.leave()
                // The list goes with the next sync: back to Home.
                app.pop()
            })
        case .stopSharing:
            guard !state.participants.isEmpty else { return true }
            let viewModel = self.viewModel
            app.present(ConfirmOverlay(
                title: "Stop sharing", question: "Stop sharing “\(state.listTitle)” with everyone?",
                detail: "They lose their copy of the list.", confirmLabel: "Stop sharing"
            ) { _ in viewModel.stopSharing() })
        default:
            return false
        }
        _ = selected
        return true
    }

    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool {
        guard event.button == .left, let index = hitRows[event.row] else { return false }
        selectedIndex = index
        return true
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let state = viewModel.state
        let column = area.column + 2
        let width = max(10, area.width - 4)
        var row = area.row + 1
        buffer.draw("Sharing “\(state.listTitle)”", row: row, column: column, maxWidth: width, style: theme.title)
        row += 1
        let leave = app.keyMap.key(for: .leaveShare, in: [.sharing]).map { "; \($0) leaves it" } ?? ""
        let owner = state.isOwner ? "You own this list." : "Owned by \(state.ownerName): only they can change its sharing\(leave)."
        buffer.draw(owner, row: row, column: column, maxWidth: width, style: theme.dim)
        row += 2
        hitRows = [:]
        if state.participants.isEmpty {
            let line = state.isOwner ? "Not shared with anyone: press i to invite someone" : "No participants"
            buffer.draw(line, row: row, column: column, maxWidth: width, style: theme.dim)
        } else {
            // As wide as the longest name, as far as the room beside the
            // permission and status columns goes; a name longer ends in "…".
            let longest = state.participants.map { DisplayWidth.of($0.userName) }.max() ?? 0
            let nameWidth = max(12, min(max(24, width - 26), longest) + 2)
            buffer.draw("PARTICIPANT".padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "PERMISSION   STATUS",
                        row: row, column: column, maxWidth: width, style: theme.heading)
            row += 1
            _ = selected
            for (index, person) in state.participants.enumerated() where row < area.bottom - 2 {
                let name = DisplayWidth.pad(DisplayWidth.truncate(person.userName, to: nameWidth - 2), to: nameWidth)
                let permission = person.permission.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)
                let status = person.status == .pending ? "invited" : person.status.rawValue
                buffer.draw([Span(name), Span(permission), Span(status, person.status == .accepted ? theme.success : theme.dim)],
                            row: row, column: column, maxWidth: width)
                if index == selectedIndex {
                    theme.select(&buffer, Rect(row: row, column: column - 1, width: width + 2, height: 1))
                }
                hitRows[row] = index
                row += 1
            }
        }
        if let error = state.errorMessage {
            buffer.draw("⚠ " + error, row: area.bottom - 1, column: column, maxWidth: width, style: theme.danger)
        } else if let message = state.message {
            buffer.draw((state.messageIsError ? "⚠ " : "") + message, row: area.bottom - 1, column: column, maxWidth: width,
                        style: state.messageIsError ? theme.danger : theme.dim)
        }
    }
}
