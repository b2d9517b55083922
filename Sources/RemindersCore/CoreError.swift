import Foundation

/// Errors of the reminders data layer. Each carries a message meant for the
/// user: one line naming what was wrong.
public enum CoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Bad input: an empty title, a bad date or color, an unreadable image.
    case invalidInput(String)
    /// No list, reminder or tag matches the given name or id.
    case notFound(String)
    /// More than one list or reminder matches.
    case ambiguous(String)
    /// The user may only read this list (a read-only share), or this
    /// process may only read the database file.
    case readOnly(String)
    /// The database file is damaged, not a database, or unusable.
    case database(String)

    public var description: String {
        switch self {
        case .invalidInput(let m), .notFound(let m), .ambiguous(let m), .readOnly(let m), .database(let m): m
        }
    }

    /// The command-line exit code for this error (see ARCHITECTURE.md).
    public var exitCode: Int32 {
        switch self {
        case .invalidInput, .notFound, .ambiguous: 2
        case .readOnly: 3
        case .database: 1
        }
    }
}
