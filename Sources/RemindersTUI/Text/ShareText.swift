import RemindersViewModels

/// A list's sharing in words, for the screens that show it.
enum ShareText {
    /// "Shared with bob, carol (invited)", "Shared by alice · read-only".
    static func line(_ status: ListShareStatus) -> String {
        switch status {
        case .sharedWith(let people):
            "Shared with " + people.map { $0.isInvited ? "\($0.name) (invited)" : $0.name }.joined(separator: ", ")
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
