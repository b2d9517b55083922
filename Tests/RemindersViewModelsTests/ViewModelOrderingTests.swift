import Foundation
import GRDB
import RemindersCore
import Testing
@testable import RemindersViewModels

/// A list's title, observed by a view model whose first fetch can be held
/// after it has read, standing for an observation that a loaded machine
/// delays while the user acts.
private struct TitleState: ViewState {
    var title: String?
    var errorMessage: String?
}

// Unchecked: a test double whose counters are guarded by its lock.
private final class HeldTitleViewModel: ViewModel, @unchecked Sendable {
    let core: ViewModelCore<TitleState>
    let firstFetchRead = DispatchSemaphore(value: 0)
    let releaseFirstFetch = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var fetches = 0
    private var seen: [String?] = []

    init(environment: AppEnvironment, listID: String) {
        core = ViewModelCore(environment: environment, initial: TitleState(), label: "held-title")
        onChange = { [weak self] in self?.record() }
        observe({ [weak self] db in
            let title = try String.fetchOne(db, sql: "SELECT title FROM remindersLists WHERE id = ?", arguments: [listID])
            self?.holdIfFirst()
            return title
        }, apply: { state, title in state.title = title })
    }

    /// Every title the state has shown, in order.
    var titlesSeen: [String?] { lock.withLock { seen } }

    private func record() {
        let title = state.title
        lock.withLock { if seen.last != title { seen.append(title) } }
    }

    private func holdIfFirst() {
        let isFirst = lock.withLock { () -> Bool in
            fetches += 1
            return fetches == 1
        }
        guard isFirst else { return }
        firstFetchRead.signal()
        _ = releaseFirstFetch.wait(timeout: .now() + 10)
    }
}

@Suite struct ViewModelOrderingTests {
    /// Fails without the refresh epoch: the held first value, read before the
    /// rename, arrived after the refresh and showed the old title again.
    @Test func aValueReadBeforeARefreshNeverTakesTheStateBack() async throws {
        let world = try World()
        let listID = try world.list("Before")
        let model = HeldTitleViewModel(environment: world.environment, listID: listID)
        #expect(model.firstFetchRead.wait(timeout: .now() + 10) == .success)

        try world.store.updateList(id: listID, title: "After")
        model.refresh()
        #expect(model.state.title == "After")
        model.releaseFirstFetch.signal()

        // Let the held value and the observation's own reaction to the rename
        // arrive, then look at everything the state went through.
        try await Task.sleep(nanoseconds: 300_000_000)
        model.queue.sync {}
        #expect(model.state.title == "After")
        #expect(model.titlesSeen == ["After"])
        #expect(model.core.staleValuesReadAgain == 1)
        model.stop()
    }

    /// The usual case, a screen refreshed as it opens with no write in
    /// between: the held first value equals what the refresh read, and is
    /// not read a third time.
    @Test func aValueEqualToTheRefreshedStateIsNotReadAgain() async throws {
        let world = try World()
        let listID = try world.list("Same")
        let model = HeldTitleViewModel(environment: world.environment, listID: listID)
        #expect(model.firstFetchRead.wait(timeout: .now() + 10) == .success)
        model.refresh()
        model.releaseFirstFetch.signal()
        try await Task.sleep(nanoseconds: 300_000_000)
        model.queue.sync {}
        #expect(model.state.title == "Same")
        #expect(model.core.staleValuesReadAgain == 0)
        model.stop()
    }
}
