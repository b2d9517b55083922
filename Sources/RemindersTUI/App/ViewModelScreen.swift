import RemindersViewModels

extension ViewModel {
    /// Calls `wake` after every change from now on, and has the state read
    /// when it returns, so that the first frame shows it: the value the
    /// observation is reading already, else (none running, or slower than a
    /// second) a read of its own.
    func start(waking wake: @escaping @Sendable () -> Void) {
        onChange = wake
        if !core.awaitObservedValue(timeout: 1) { refresh() }
    }
}

/// A screen that shows one view model: it starts, stops and refreshes with
/// the screen, and its changes wake the app.
protocol ViewModelScreen: ScreenController {
    associatedtype Model: ViewModel
    var viewModel: Model { get }
}

extension ViewModelScreen {
    func start(_ app: AppController) { viewModel.start(waking: app.wake) }
    func stop() { viewModel.stop() }
    func refresh() { viewModel.refresh() }
}
