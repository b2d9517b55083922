import Foundation

/// A screen on the navigation stack: it owns its view model and its UI
/// state (selection, scroll, focus) and draws itself as a function of both.
protocol ScreenController: AnyObject {
    /// The screen's name in the top bar's path ("Work", "New Reminder").
    var title: String { get }
    /// Key contexts, most specific first (they depend on the focus).
    var contexts: [KeyContext] { get }
    /// Actions to leave out of the status bar (e.g. editing a read-only list).
    var hiddenActions: Set<Action> { get }
    /// Whether something on screen moves (a "completing" row): the main
    /// loop then wakes up a few times a second.
    var isAnimating: Bool { get }
    /// Set when what the screen shows no longer exists (deleted on another
    /// device): the app closes it and shows this message.
    var goneMessage: String? { get }

    /// A one-time message for the toast (the outcome of a request that
    /// finished in the background), taken by the app.
    func takeNotice() -> (message: String, isError: Bool)?

    /// Connects the view models to the app's wake-up and starts them.
    func start(_ app: AppController)
    /// Stops the view models.
    func stop()
    /// Reads the view models' state now (first frame, tests).
    func refresh()

    /// Offers a key before the key table: text fields take typed characters.
    func handleText(_ key: Key, app: AppController) -> Bool
    /// Performs an action of the key table; false when it is not the screen's.
    func perform(_ action: Action, app: AppController) -> Bool
    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool
    func render(into buffer: inout CellBuffer, area: Rect, app: AppController)
    /// Selects a reminder an undo brought back or changed, where the screen
    /// lists it (or will, once its rows are read again).
    func reveal(reminderID: String)
}

extension ScreenController {
    var hiddenActions: Set<Action> { [] }
    var isAnimating: Bool { false }
    var goneMessage: String? { nil }
    func takeNotice() -> (message: String, isError: Bool)? { nil }
    func handleText(_ key: Key, app: AppController) -> Bool { false }
    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool { false }
    func reveal(reminderID: String) {}
}
