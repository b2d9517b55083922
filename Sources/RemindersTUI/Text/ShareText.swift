import RemindersViewModels

/// A list's sharing in words, for the screens that show it.
enum ShareText {
    /// "Shared with bob (read-only), carol (invited)", "Shared by alice ·
    /// read-only": the owner sees what each person may do, as they do.
    static func line(_ status: ListShareStatus) -> String {
        switch status {
        case .sharedWith(let people):
            "Shared with " + people.map { person in
                let notes = (person.isInvited ? ["invited"] : []) + (person.isReadOnly ? ["read-only"] : [])
                return notes.isEmpty ? person.name : "\(person.name) (\(notes.joined(separator: ", ")))"
            }.joined(separator: ", ")
        case .sharedBy(let owner, let isReadOnly):
            "Shared by \(owner)" + (isReadOnly ? " · read-only" : "")
        }
    }

    /// "read-only: shared by alice", the toast of an edit key on a list
    /// shared with this user read-only.
    static func readOnlyToast(_ status: ListShareStatus?) -> String {
        guard case .sharedBy(let owner, _)? = status else { return "read-only: shared with you read-only" }
        return "read-only: shared by \(owner)"
    }
}
