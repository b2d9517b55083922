import RemindersViewModels

/// What a screen needs of a view model to follow it: every `ViewModel`
/// offers it.
protocol ScreenViewModel: AnyObject {
    var onChange: (@Sendable () -> Void)? { get set }
    func refresh()
    func stop()
}

extension ViewModel: ScreenViewModel {}

extension ScreenViewModel {
    /// Calls `wake` after every change from now on, and reads the state now
    /// so that the first frame shows it.
    func start(waking wake: @escaping @Sendable () -> Void) {
        onChange = wake
        refresh()
    }
}

/// A screen that shows one view model: it starts, stops and refreshes with
/// the screen, and its changes wake the app.
protocol ViewModelScreen: ScreenController {
    associatedtype Model: ScreenViewModel
    var viewModel: Model { get }
}

extension ViewModelScreen {
    func start(_ app: AppController) { viewModel.start(waking: app.wake) }
    func stop() { viewModel.stop() }
    func refresh() { viewModel.refresh() }
}
