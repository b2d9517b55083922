import Foundation
import TestSupport
@testable import DeviceRuntime
@testable import RemindersViewModels

/// Thrown by `waitFor` when a state does not arrive in time.
struct ViewModelTimeout: Error, CustomStringConvertible {
    var description: String
}

extension ViewModel {
    /// Waits until `predicate` holds for the state, checking every 5 ms, and
    /// returns that state.
    @discardableResult
    func waitFor(timeout: TimeInterval = 5, _ predicate: @escaping @Sendable (State) -> Bool) async throws -> State {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let state = self.state
            if predicate(state) { return state }
            if Date() >= deadline {
                throw ViewModelTimeout(description: "state did not match within \(timeout) s; last state: \(state)")
            }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}

extension DueAlertScheduler {
    /// Waits until every notify command started so far finished.
    func waitForNotifyCommands(timeout: TimeInterval = 10) {
        guard let notifier = settings.notifier as? NotifyRunner else { return }
        _ = try? eventually(timeout: timeout, "the notify commands to finish") { notifier.isIdle }
    }
}
