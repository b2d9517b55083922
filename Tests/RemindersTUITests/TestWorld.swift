import Foundation
import GRDB
@testable import RemindersTUI
import RemindersCore
import RemindersViewModels
import Testing

/// A pinned moment: Wednesday 4 March 2026, 10:00 UTC.
let pinnedNow = Date(timeIntervalSince1970: 1_772_618_400)

/// An app on an in-memory database with the clock pinned, driven by keys
/// and read back as text, without a terminal.
final class TestWorld {
    let store: RemindersStore
    let environment: AppEnvironment
    private(set) var app: AppController
    var now: Date
    private let options: TUIOptions
    private let colorMode: ColorMode

    /// - Parameters:
    ///   - seeded: with the sample lists and reminders.
    ///   - data: fills the database instead of the sample data.
    ///   - completionClock: when ticked reminders become completed (real
    ///     time, a minute after the last tick, unless given).
    ///   - sharing: what screens learn of shares (none by default).
    init(width: Int = 80, height: Int = 24, seeded: Bool = true, colorMode: ColorMode = .indexed256,
         options: TUIOptions = TUIOptions(), data: ((RemindersStore) throws -> Void)? = nil,
         completionClock: any CompletionClock = DispatchCompletionClock(),
         sharing: any SharingInfoProvider = NoSharing()) throws {
        let queue = try AppDatabase.inMemory()
        let clock = AppClock(pinned: pinnedNow, timeZone: TimeZone(identifier: "UTC")!)
        store = RemindersStore(writer: queue, clock: clock)
        if let data {
            try data(store)
        } else if seeded {
            try SampleData.seed(store)
        }
        environment = AppEnvironment(store: store, userName: "me", deviceName: "laptop", sharing: sharing,
                                     completionDelay: 60, completionClock: completionClock)
        now = pinnedNow
        self.options = options
        self.colorMode = colorMode
        let box = NowBox()
        nowBox = box
        app = Self.makeApp(environment: environment, options: options, colorMode: colorMode, size: (width, height), nowBox: box)
    }

    private static func makeApp(environment: AppEnvironment, options: TUIOptions, colorMode: ColorMode,
                                size: (width: Int, height: Int), nowBox: NowBox) -> AppController {
        let app = AppController(environment: environment, options: options, colorMode: colorMode,
                                size: size, now: { nowBox.now }, wake: {})
        app.start()
        app.refresh()
        return app
    }

    /// Quits the app and opens it again on the same database, at the same
    /// size, as a user starting it anew.
    func restart() {
        app.stop()
        app = Self.makeApp(environment: environment, options: options, colorMode: colorMode, size: app.size, nowBox: nowBox)
    }

    private let nowBox: NowBox

    final class NowBox {
        var now = pinnedNow
    }

    /// Moves the toast and animation clock.
    func advance(_ seconds: TimeInterval) {
        nowBox.now = nowBox.now.addingTimeInterval(seconds)
        app.tick()
    }

    /// Sends keys, reading the view models after each so the next key sees
    /// what a user would see.
    func press(_ keys: Key...) {
        press(keys)
    }

    func press(_ keys: [Key]) {
        for key in keys {
            app.handle(.key(key))
            // An editor asked for runs here, with no terminal to hand over.
            app.runPendingEdit { $0() }
            app.refresh()
        }
    }

    /// Moves the selection `rows` items down (j).
    func moveDown(_ rows: Int) {
        press(Array(repeating: .character("j"), count: rows))
    }

    /// On Home, selects one of My Lists as a user would: from the top
    /// (g), down (j) to it.
    func selectList(_ title: String, sourceLocation: SourceLocation = #_sourceLocation) {
        app.refresh()
        guard let home = app.top as? HomeScreen,
              let item = home.viewModel.state.lists.first(where: { $0.list.title == title }),
              let row = HomeScreen.items(of: home.viewModel.state, invitations: home.invitations.state.invitations)
                  .firstIndex(of: .list(item.id)) else {
            Issue.record("Home shows no list “\(title)”", sourceLocation: sourceLocation)
            return
        }
        press(.character("g"))
        moveDown(row)
    }

    /// Opens one of My Lists from Home.
    func openList(_ title: String, sourceLocation: SourceLocation = #_sourceLocation) {
        selectList(title, sourceLocation: sourceLocation)
        press(.enter)
    }

    /// Types text, one key per character.
    func type(_ text: String) {
        for character in text {
            app.handle(.key(.character(character)))
        }
        app.refresh()
    }

    func resize(_ width: Int, _ height: Int) {
        app.handle(.resize(width: width, height: height))
    }

    var screen: CellBuffer {
        app.refresh()
        return app.render()
    }

    var text: String { screen.text }

    func lists() throws -> [RemindersList] {
        try store.writer.read { db in try RemindersList.order(Column("position")).fetchAll(db) }
    }

    func reminder(titled title: String) throws -> ReminderRow? {
        try store.writer.read { db in
            guard let id = try String.fetchOne(db, sql: "SELECT id FROM reminders WHERE title = ?", arguments: [title]) else { return nil }
            return try Queries.reminder(db, id: id, clock: store.clock)
        }
    }
}
