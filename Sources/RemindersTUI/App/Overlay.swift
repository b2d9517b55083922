/// A box over the screen (help, a confirmation, a menu, a picker) that
/// takes the keys while it is open.
protocol Overlay: AnyObject {
    var contexts: [KeyContext] { get }
    /// Offers a key before the key table (text typed into a filter).
    func handleText(_ key: Key, app: AppController) -> Bool
    /// Returns false to leave the action to the app (e.g. quit).
    func perform(_ action: Action, app: AppController) -> Bool
    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool
    func render(into buffer: inout CellBuffer, area: Rect, app: AppController)
}

extension Overlay {
    func handleText(_ key: Key, app: AppController) -> Bool { false }
    func handleMouse(_ event: MouseEvent, app: AppController) -> Bool { true }
}
