import Foundation
import RemindersViewModels

/// How the list and reminder forms end: a save that went through closes the
/// form and says what it did; leaving with changes asks first.
extension AppController {
    /// Saved: closes the form, shows “Added “Milk”” for a new record (with
    /// the form's verb) or “Saved “Milk”” for an edit, and hands on the id.
    /// Invalid: `invalid` points at the fields. Failed: shows why.
    /// `movedTo`: the list an edit moved the record to, said after it.
    func end<Field>(_ save: FormSaveResult<Field>, titled title: String, isNew: Bool, createdVerb: String,
                    movedTo: String? = nil, onSave: ((String) -> Void)?, invalid: ([Field: String]) -> Void) {
        switch save {
        case .saved(let id):
            let name = title.trimmingCharacters(in: .whitespaces)
            pop()
            let moved = movedTo.map { " · moved to \($0)" } ?? ""
            showMessage(isNew ? "\(createdVerb) “\(name)”" : "Saved “\(name)”\(moved)")
            onSave?(id)
        case .invalid(let errors):
            invalid(errors)
        case .failed(let message):
            showError(message)
        }
    }

    /// Leaves `form`; with changes, only once the user agrees to drop them.
    func leave(_ form: ScreenController, changed: Bool, discarding what: String) {
        guard changed else {
            pop()
            return
        }
        present(ConfirmOverlay.discardChanges(to: what, leaving: form))
    }
}
