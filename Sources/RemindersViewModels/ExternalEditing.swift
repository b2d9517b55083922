/// What came of editing text in the user's editor.
public enum ExternalEditOutcome: Equatable, Sendable {
    /// The editor exited with status 0 and the text is different.
    case edited(String)
    /// The editor exited with status 0 and the text is the same (an
    /// editor's final new line does not count).
    case unchanged
    /// The editor could not be started, or did not exit with status 0: the
    /// text stays as it was. The message says why, for the user.
    case failed(String)
}

/// Edits text in a program the user chose, which has the terminal until it
/// exits: DeviceRuntime's `ExternalEditor` runs `$EDITOR`. A full-screen
/// caller gives the terminal up before and takes it back after.
public protocol ExternalEditing: Sendable {
    /// Blocks until the editor exits.
    func edit(_ text: String) -> ExternalEditOutcome
}
