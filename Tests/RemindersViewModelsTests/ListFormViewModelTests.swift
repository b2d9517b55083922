import Foundation
import RemindersCore
import Testing
@testable import RemindersViewModels

@Suite struct ListFormViewModelTests {
    @Test func newListWithASampleCover() async throws {
        let world = try World()
        let form = ListFormViewModel(environment: world.environment)
        #expect(form.state.isNew)
        #expect(form.color == RemindersStore.palette[0])
        #expect(form.state.sampleCovers == SampleCovers.names)
        form.title = "Trips"
        form.cycleColor()
        #expect(form.color == RemindersStore.palette[1])
        #expect(form.chooseSampleCover("ocean") == nil)
        #expect(form.fields.coverSource == .sample("ocean"))
        let id = try #require(form.save().savedID)

        let detail = ListDetailViewModel(environment: world.environment, filter: .list(id))
        let state = try await detail.waitFor { $0.isLoaded }
        #expect(state.title == "Trips")
        #expect(state.color == RemindersStore.palette[1])
        #expect(state.coverPNG == SampleCovers.png(named: "ocean"))

        // The next new list gets the next unused color.
        #expect(ListFormViewModel(environment: world.environment).color == RemindersStore.palette[0])
    }

    /// "~/my ocean.png" is read from $HOME, as a shell would, not from the
    /// password file's home.
    /// Renamed in the form while another device recoloured it: both stay.
    @Test func aChangeMadeElsewhereWhileTheFormIsOpenStays() throws {
        let world = try World()
        let id = try world.list("Home")
        let form = try ListFormViewModel(environment: world.environment, listID: id)
        form.title = "Home and garden"
        try world.environment.store.updateList(id: id, color: "#5cc15a")
        #expect(form.save() == .saved(id: id))
        let list = try #require(try world.environment.writer.read { db in try Queries.list(db, id: id) })
        #expect(list.title == "Home and garden")
        #expect(list.color == "#5cc15a")
        // A cover set elsewhere while a form that read none is open stays.
        let again = try ListFormViewModel(environment: world.environment, listID: id)
        try world.environment.store.setCover(listID: id, png: try #require(SampleCovers.png(named: SampleCovers.names[0])))
        again.title = "Garden"
        #expect(again.save() == .saved(id: id))
        #expect(try world.environment.writer.read { db in try Queries.cover(db, listID: id) } != nil)
    }

    @Test func aTildeIsTheHomeVariable() {
        let environment = ["HOME": "/srv/people/ana"]
        #expect(ListFormViewModel.expandingHome("~/my ocean.png", environment: environment) == "/srv/people/ana/my ocean.png")
        #expect(ListFormViewModel.expandingHome("~", environment: environment) == "/srv/people/ana")
        #expect(ListFormViewModel.expandingHome("~ana/x.png", environment: environment) == "~ana/x.png")
        #expect(ListFormViewModel.expandingHome("/tmp/x.png", environment: environment) == "/tmp/x.png")
    }

    @Test func badCoverPathsAreExplained() throws {
        let world = try World()
        let form = ListFormViewModel(environment: world.environment)
        let missing = world.directory.appendingPathComponent("nope.png").path
        #expect(form.chooseCoverFile(path: missing) == "cover image \(missing) does not exist")
        #expect(form.state.fieldErrors[.cover] == "cover image \(missing) does not exist")

        let text = world.directory.appendingPathComponent("notes.png")
        try Data("hello".utf8).write(to: text)
        #expect(form.chooseCoverFile(path: text.path) == "cover image \(text.path): not a PNG or JPEG image")
        #expect(form.chooseSampleCover("moon") == "no sample cover named 'moon' (there are sunrise, forest, ocean)")
        #expect(form.fields.coverSource == .none)

        let good = world.directory.appendingPathComponent("good.png")
        try #require(SampleCovers.png(named: "sunrise")).write(to: good)
        #expect(form.chooseCoverFile(path: good.path) == nil)
        #expect(form.state.fieldErrors[.cover] == nil)
        #expect(form.fields.coverSource == .file(good.path))
    }

    @Test func editingKeepsOrRemovesTheCover() throws {
        let world = try World()
        let id = try world.list("Garden", color: "#5cc15a")
        try world.store.setCover(listID: id, png: SampleCovers.png(named: "forest"))

        let form = try ListFormViewModel(environment: world.environment, listID: id)
        #expect(form.fields.coverSource == .existing)
        #expect(form.fields.coverPNG == SampleCovers.png(named: "forest"))
        form.title = "Yard"
        #expect(form.save() == .saved(id: id))
        let cover = try world.environment.writer.read { db in try Queries.cover(db, listID: id) }
        #expect(cover == SampleCovers.png(named: "forest"))

        let again = try ListFormViewModel(environment: world.environment, listID: id)
        again.removeCover()
        #expect(again.save() == .saved(id: id))
        let lists = try world.environment.writer.read { db in try Queries.lists(db) }
        #expect(lists.map(\.list.title) == ["Yard"])
        #expect(lists.map(\.hasCover) == [false])
    }

    @Test func validationErrors() throws {
        let world = try World()
        let form = ListFormViewModel(environment: world.environment)
        form.color = "crimson"
        #expect(form.save() == .invalid([.title: "list title must not be empty",
                                         .color: "color 'crimson' is not one of blue, red, orange, yellow, green, purple, brown, gray, nor of the form #RRGGBB or #RGB"]))
        #expect(try world.environment.writer.read { db in try RemindersList.fetchCount(db) } == 0)
        #expect(throws: CoreError.notFound("list nope not found")) {
            try ListFormViewModel(environment: world.environment, listID: "nope")
        }
    }
}

@Suite struct StatusBarViewModelTests {
    final class FakeSync: SyncStatusProvider, @unchecked Sendable {
        private let lock = NSLock()
        private var status = SyncStatus(connection: .online)
        private var observers: [@Sendable () -> Void] = []

        func currentStatus() -> SyncStatus { lock.lock(); defer { lock.unlock() }; return status }

        func observeStatus(_ onChange: @escaping @Sendable () -> Void) -> StatusSubscription {
            lock.lock()
            observers.append(onChange)
            lock.unlock()
            return StatusSubscription(cancel: {})
        }

        func set(_ new: SyncStatus) {
            lock.lock()
            status = new
            let observers = self.observers
            lock.unlock()
            observers.forEach { $0() }
        }
    }

    @Test func showsIdentityAndFollowsTheProvider() async throws {
        let sync = FakeSync()
        let world = try World(syncStatus: sync)
        let bar = StatusBarViewModel(environment: world.environment)
        #expect(bar.state.identity == "alice@laptop")
        #expect(bar.state.syncSummary == "online")
        sync.set(SyncStatus(connection: .offline, pendingCount: 3, conflictsCount: 1))
        let state = try await bar.waitFor { $0.sync.connection == .offline }
        #expect(state.syncSummary == "offline · 3 pending · 1 conflict")
        let synced = SyncStatus(connection: .online, lastSync: AppClock.parseMoment("2026-03-01T10:42:00Z"))
        #expect(synced.summary(timeZone: World.utc) == "synced 10:42")
        #expect(SyncStatus.localOnly.summary() == "local only")
    }

    @Test func aMissingDirectoryWatchSaysPolling() {
        let status = SyncStatus(connection: .online, pendingCount: 1,
                                watchUnavailableReason: "cannot watch /srv: inotify_init1: Too many open files; polling instead")
        #expect(status.summary() == "online · 1 pending · polling")
        var offline = status
        offline.connection = .offline
        #expect(offline.summary() == "offline · 1 pending")
    }
}
