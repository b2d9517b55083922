import Foundation
import RemindersViewModels

/// Invite prompt: a user name, and Tab to switch read-only / read-write.
final class InviteOverlay: TextFieldOverlay {
    var field = TextField("")
    var permission: SharingPermission = .readWrite
    let onSubmit: (String, SharingPermission) -> Void
    var error: String?

    init(onSubmit: @escaping (String, SharingPermission) -> Void) {
        self.onSubmit = onSubmit
    }

    var contexts: [KeyContext] { [.prompt, .textEntry] }

    func handleText(_ key: Key, app: AppController) -> Bool {
        if key == .tab || key == .backTab {
            permission = permission == .readOnly ? .readWrite : .readOnly
            return true
        }
        return type(key)
    }

    func perform(_ action: Action, app: AppController) -> Bool {
        switch action {
        case .confirm:
            let name = field.text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else {
                error = "Type the user name to invite"
                return true
            }
            app.dismiss(self)
            onSubmit(name, permission)
        case .dismiss:
            app.dismiss(self)
        default:
            if field.apply(action) { return true }
            return false
        }
        return true
    }

    func render(into buffer: inout CellBuffer, area: Rect, app: AppController) {
        let theme = app.theme
        let inside = drawDialog(&buffer, area: area, width: 56, height: 7, title: "Invite", theme: theme)
        drawField(label: "User name", inside: inside, theme: theme, into: &buffer)
        buffer.draw("Permission: \(permission.rawValue)  (Tab switches)", row: inside.row + 2, column: inside.column,
                    maxWidth: inside.width, style: theme.onDialog(theme.text))
        drawNote(hint: "Enter invite · Esc cancel", row: inside.row + 3, inside: inside, theme: theme, into: &buffer)
    }
}
