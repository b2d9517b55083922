import Foundation

/// A message at the bottom of the screen for a few seconds, with an undo
/// when the action can be taken back.
struct Toast: Equatable {
    var message: String
    var isError: Bool
    var canUndo: Bool
    var expires: Date
    /// News from elsewhere (a due alert, conflicts, sync going offline),
    /// not about the screen it appeared on: it stays when a screen opens.
    var isNews = false
}
