import Foundation
import GRDB
import Testing
@testable import RemindersTUI
import RemindersCore
import RemindersViewModels

/// A sharing layer stand-in: every list is shared by alice, read-only.
struct ReadOnlySharing: SharingInfoProvider {
    func shareStatus(_ db: Database, listID: String) throws -> ListShareStatus? { .sharedBy(owner: "alice", isReadOnly: true) }
    func isReadOnly(_ db: Database, listID: String) throws -> Bool { true }
}

/// A sync layer stand-in with a fixed status.
struct FixedSyncStatus: SyncStatusProvider {
    var status: SyncStatus
    func currentStatus() -> SyncStatus { status }
    func observeStatus(_ onChange: @escaping @Sendable () -> Void) -> StatusSubscription { StatusSubscription(cancel: {}) }
}

func makeApp(environment: AppEnvironment, width: Int = 80, height: Int = 24, colorMode: ColorMode = .indexed256) -> AppController {
    let app = AppController(environment: environment, options: TUIOptions(), colorMode: colorMode,
                            size: (width, height), now: { pinnedNow }, wake: {})
    app.start()
    app.refresh()
    return app
}

func seededEnvironment(sharing: any SharingInfoProvider = NoSharing(),
                       sync: any SyncStatusProvider = LocalOnlySyncStatus()) throws -> AppEnvironment {
    let queue = try AppDatabase.inMemory()
    let store = RemindersStore(writer: queue, clock: AppClock(pinned: pinnedNow, timeZone: TimeZone(identifier: "UTC")!))
    try SampleData.seed(store)
    return AppEnvironment(store: store, userName: "me", deviceName: "laptop", syncStatus: sync, sharing: sharing,
                          completionDelay: 60)
}

@Suite struct ScreenBehaviourTests {
    @Test func noColorDrawsAttributesOnly() throws {
        let world = try TestWorld(colorMode: .monochrome)
        world.openList("Work")
        let screen = world.screen
        #expect(screen.cells.allSatisfy { $0.style.foreground == .default && $0.style.background == .default })
        // The selection still shows, reversed.
        let row = try #require(screen.textLines().firstIndex { $0.contains("Prepare sprint demo") })
        #expect(screen[row, 10].style.attributes.contains(.reverse))
        // The cover becomes a placeholder band.
        #expect(screen.textLines()[1].contains("cover image: needs a 256-color terminal"))
    }

    /// A long message (a server's, a share's) is read whole at 60 and 80
    /// columns: the toast takes as many as three lines there.
    @Test func aLongToastIsReadWholeOnANarrowTerminal() throws {
        let message = "cannot reach the server at https://reminders.example.org:8443: the connection timed out; "
            + "edits stay here and go once it answers"
        for width in [60, 80] {
            let world = try TestWorld(width: width, height: 20)
            world.app.showError(message)
            let text = world.screen.textLines().joined(separator: " ")
                .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            #expect(text.contains("edits stay here and go once it answers"), "\(width): \(text)")
        }
    }

    @Test func theSelectionAndPastDueAreColored() throws {
        let world = try TestWorld()
        world.press(.enter)
        let screen = world.screen
        let lines = screen.textLines()
        let passport = try #require(lines.firstIndex { $0.contains("Renew passport") })
        #expect(screen.text(row: passport) { $0.foreground == world.app.theme.danger.foreground }.contains("Mon 2 Mar"))
        // Today starts by due date: the past-due passport first, selected.
        #expect(screen[passport, 5].style.background == .indexed(24))
        let other = try #require(lines.firstIndex { $0.contains("Call mom") })
        #expect(screen[other, 5].style.background != .indexed(24))
    }

    @Test func listTitlesAreDrawnInTheListColor() throws {
        let world = try TestWorld()
        world.openList("Work")
        let screen = world.screen
        let row = try #require(screen.textLines().firstIndex { $0.hasPrefix("  Work") })
        #expect(screen[row, 2].style.foreground == .rgb(0xe8, 0x52, 0x4a))
        #expect(screen[row, 2].style.attributes.contains(.bold))
    }

    @Test func theCoverIsDrawnWithHalfBlocksIn256Colors() throws {
        let world = try TestWorld()
        world.openList("Work")
        let screen = world.screen
        for row in 1...4 {
            for column in 0..<80 {
                let cell = screen[row, column]
                #expect(cell.text == "▀")
                guard case .indexed(let fg) = cell.style.foreground, case .indexed(let bg) = cell.style.background else {
                    Issue.record("cover cell \(row),\(column) is not in indexed colors")
                    return
                }
                #expect(fg >= 16 && bg >= 16)
            }
        }
    }

    @Test func controlCharactersFromTheDataNeverReachTheScreen() throws {
        let world = try TestWorld()
        // As a peer's sync could write them, past the store's validation.
        try world.store.writer.write { db in
            try db.execute(sql: "INSERT INTO remindersLists (id, title, position) VALUES ('evil', ?, 9)",
                           arguments: ["Evil\u{1B}[2J\u{1B}]0;owned\u{07}"])
            try db.execute(sql: "INSERT INTO reminders (remindersListID, title, notes) VALUES ('evil', ?, ?)",
                           arguments: ["Pay \u{9B}31m\u{202E}gnp.exe", "line\u{1B}[1A one\nsecond"])
        }
        let screen = world.screen
        #expect(!screen.cells.contains { cell in
            cell.text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value) }
        })
        #expect(screen.text.contains("Evil[2J]0;owned"))
        for _ in 0..<8 { world.press(.character("j")) }
        world.press(.enter)
        let text = world.text
        #expect(text.contains("Pay 31mgnp.exe"))
        #expect(text.contains("line[1A one"))
    }

    @Test func wideTitlesKeepTheColumnsAligned() throws {
        let world = try TestWorld()
        let list = try world.store.createList(title: "旅行")
        for (title, due) in [("東京タワー 🗼", "2026-03-05"), ("Café crème", "2026-03-06"), ("e\u{301}te\u{301}", "2026-03-07")] {
            try world.store.createReminder(ReminderDraft(listID: list.id, title: title, dueDate: DueDate(due), tags: ["trip"]))
        }
        world.openList("旅行")
        let screen = world.screen
        let rows = screen.textLines().indices.filter { screen.textLines()[$0].contains("#trip") }
        #expect(rows.count == 3)
        // "#trip" starts at the same column in every row.
        let columns = rows.map { row in (0..<screen.width).first { screen[row, $0].text == "#" } }
        #expect(Set(columns).count == 1)
        #expect(screen.textLines().contains { $0.contains("東京タワー 🗼") })
        #expect(screen.textLines().contains { $0.contains("旅行") })
    }

    @Test func sharedListsShowTheirSharingLineAndRefuseEdits() throws {
        let environment = try seededEnvironment(sharing: ReadOnlySharing())
        let app = makeApp(environment: environment)
        var text = app.render().text
        #expect(text.contains("● Work  Shared by alice · read-only"))
        for _ in 0..<6 { app.handle(.key(.character("j"))) }
        app.handle(.key(.enter))
        app.refresh()
        text = app.render().text
        #expect(text.contains("Shared by alice · read-only"))
        #expect(!text.contains("(read-only)"))
        // Editing keys are left out of the status bar and refused.
        #expect(!text.contains("a new"))
        app.handle(.key(.character("d")))
        app.refresh()
        #expect(app.toast?.message == "read-only: shared by alice")
        #expect(try environment.writer.read { db in try Reminder.fetchCount(db) } == 13)
        // Enter opens the reminder to read: its notes, nothing to change.
        app.handle(.key(.enter))
        text = app.render().text
        #expect(app.overlays.last is ReminderPreviewOverlay)
        #expect(text.contains("Reminder (read-only)"))
        #expect(text.contains("Prepare sprint demo"))
        #expect(text.contains("Show sync between two terminals"))
        #expect(text.contains("Work · shared by alice, read-only"))
        app.handle(.key(.character("x")))
        #expect(try environment.writer.read { db in try Reminder.filter(Column("status") != "incomplete").fetchCount(db) } == 1)
        app.handle(.key(.escape))
        #expect(app.overlays.isEmpty)
    }

    /// On a list shared read-only the reminder opens to read, and `#` picks
    /// this user's own tags on it: saved as the picker closes (the store
    /// guards the reminder's fields, not its tags), and shown at once.
    @Test func yourOwnTagsGoOnAReminderOfAReadOnlyList() throws {
        let queue = try AppDatabase.inMemory()
        let store = RemindersStore(writer: queue, clock: AppClock(pinned: pinnedNow, timeZone: TimeZone(identifier: "UTC")!),
                                   writeGuard: { _, _ in throw CoreError.readOnly("read-only: shared by alice") })
        try SampleData.seed(RemindersStore(writer: queue, clock: store.clock))
        let environment = AppEnvironment(store: store, userName: "me", deviceName: "laptop", syncStatus: LocalOnlySyncStatus(),
                                         sharing: ReadOnlySharing(), completionDelay: 60)
        let app = makeApp(environment: environment)
        for _ in 0..<6 { app.handle(.key(.character("j"))) }
        app.handle(.key(.enter))
        app.refresh()
        app.handle(.key(.enter))
        #expect(app.render().text.contains("# your tags"))
        app.handle(.key(.character("#")))
        #expect(app.overlays.last is TagPickerOverlay)
        for character in "mine" { app.handle(.key(.character(character))) }
        app.handle(.key(.enter))
        app.handle(.key(.escape))
        #expect(app.overlays.last is ReminderPreviewOverlay)
        let text = app.render().text
        #expect(text.contains("#mine"), "\(text)")
        let tagged = try queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT reminders.title FROM reminders JOIN remindersTags ON remindersTags.reminderID = reminders.id
                JOIN tags ON tags.id = remindersTags.tagID WHERE tags.title = 'mine'
                """)
        }
        #expect(tagged == ["Prepare sprint demo"])
        #expect(app.toast == nil)
    }

    /// A list shared with this user that leaves the device (the owner
    /// deleted it, or stopped sharing it) is not said to be deleted.
    @Test func aSharedListThatLeavesSaysItIsNoLongerShared() throws {
        let environment = try seededEnvironment(sharing: ReadOnlySharing())
        let app = makeApp(environment: environment)
        for _ in 0..<6 { app.handle(.key(.character("j"))) }
        app.handle(.key(.enter))
        app.refresh()
        let id = try #require(try environment.writer.read { db in try RemindersList.filter(Column("title") == "Work").fetchOne(db) }?.id)
        #expect(app.render().text.contains("Shared by alice"))
        _ = try environment.store.deleteList(id: id)
        app.refresh()
        _ = app.render()
        #expect(app.toast?.message == "“Work” is no longer shared with you (alice deleted it or stopped sharing it)")
    }

    /// A list this user shares: its delete ends the share, so it is asked
    /// about as final, and no undo is offered.
    @Test func deletingASharedListSaysItCannotBeUndone() throws {
        struct SharedWithBob: SharingInfoProvider {
            func shareStatus(_ db: Database, listID: String) throws -> ListShareStatus? {
                .sharedWith([SharedPerson(name: "bob", isInvited: false)])
            }
            func isReadOnly(_ db: Database, listID: String) throws -> Bool { false }
        }
        let environment = try seededEnvironment(sharing: SharedWithBob())
        let app = makeApp(environment: environment)
        for _ in 0..<5 { app.handle(.key(.character("j"))) }
        app.handle(.key(.character("d")))
        app.refresh()
        #expect(app.render().text.contains("It is shared: this cannot be undone."))
        app.handle(.key(.character("y")))
        app.refresh()
        #expect(app.toast?.message == "Deleted “Personal”")
        #expect(app.toast?.canUndo == false)
        #expect(!app.render().text.contains("u undo"))
    }

    /// Long names of the people a list is shared with give way: the
    /// list's title stays whole at the head of the list, and on the
    /// Sharing screen a name too long for its column ends in "…" before
    /// the permission column, at 60 and 160 columns.
    @Test func longSharedWithNamesGiveWayToTheTitleAndTheirColumns() throws {
        struct SharedWithMany: SharingInfoProvider {
            static let names = ["maximilian.alexander.von.und.zu.schwarzenberg-hohenlohe@ex.org",
                                "Ñandú-Çelik-Øster-Ågren-Jørgensen-Þórðarson", "bob"]
            func shareStatus(_ db: Database, listID: String) throws -> ListShareStatus? {
                .sharedWith(Self.names.map { SharedPerson(name: $0, isInvited: true) })
            }
            func isReadOnly(_ db: Database, listID: String) throws -> Bool { false }
            func people(_ db: Database, listID: String) throws -> (owner: String?, participants: [ListParticipant]) {
                (nil, Self.names.map { ListParticipant(userName: $0, permission: .readWrite, status: .pending) })
            }
        }
        for width in [60, 160] {
            let world = try TestWorld(width: width, height: 24, sharing: SharedWithMany())
            world.openList("Groceries")
            let header = try #require(world.screen.textLines().first { $0.contains("reminders") })
            #expect(header.contains("Groceries"), "\(width): \(header)")
            world.press(.character("S"))
            let lines = world.screen.textLines()
            for name in SharedWithMany.names {
                let line = try #require(lines.first { $0.contains(String(name.prefix(8))) }, "\(width): \(lines)")
                // The name (whole, or cut with "…") stands apart from its permission.
                #expect(line.contains(name + " ") || line.contains("… "), "\(width): \(line)")
                #expect(line.contains(" read-write"), "\(width): \(line)")
            }
            if width == 160 {
                #expect(lines.contains { $0.contains(SharedWithMany.names[0] + " ") }, "the longest name is whole at 160 columns")
            }
        }
    }

    @Test func theStatusBarShowsWhoWhereAndTheSyncState() throws {
        let environment = try seededEnvironment(sync: FixedSyncStatus(status: SyncStatus(
            connection: .offline, pendingCount: 3, conflictsCount: 2)))
        let app = makeApp(environment: environment)
        let lines = app.render().textLines()
        #expect(lines[23].hasSuffix("me@laptop · offline · 3 pending · 2 conflicts"))
        app.handle(.key(.character("C")))
        #expect(app.render().text.contains("CONFLICTS"))
    }

    @Test func wideHomePreviewsTheSelectedList() throws {
        let world = try TestWorld(width: 120, height: 40)
        #expect(world.text.contains("│  Today"))
        for _ in 0..<6 { world.press(.character("j")) }
        let text = world.text
        #expect(text.contains("Work                                                     4 reminders"))
        #expect(text.contains("Prepare sprint demo"))
        #expect(!text.contains("Call mom"))
        // Narrow terminals have no room for it.
        world.resize(80, 24)
        #expect(!world.text.contains("Prepare sprint demo"))
    }

    @Test func theTagPickerFindsAnExistingTagUnderAnySpelling() throws {
        let world = try TestWorld(seeded: false)
        let list = try world.store.createList(title: "Home")
        try world.store.createTag("Café")
        let form = ReminderFormViewModel(environment: world.environment, context: .list(list.id))
        form.refresh()
        let picker = TagPickerOverlay(viewModel: form)
        for character in "CAFE\u{301}" {
            _ = picker.handleText(.character(character), app: world.app)
        }
        #expect(picker.rows == [.tag("Café")])
        _ = picker.perform(.pick, app: world.app)
        #expect(form.tags == ["Café"])
    }

    @Test func everyScreenFitsAt80x24AndAt120x40() throws {
        for (width, height) in [(80, 24), (120, 40)] {
            let world = try TestWorld(width: width, height: height)
            let sequences: [[Key]] = [
                [], [.enter], [.character("G"), .enter], [.character("a")], [.enter, .character("a")],
                [.character("t")], [.character("/")], [.character("?")], [.character("C")],
                [.character("j"), .character("j"), .character("j"), .character("j"), .character("j"), .character("e")],
            ]
            for keys in sequences {
                while world.app.stack.count > 1 { world.app.pop() }
                for overlay in world.app.overlays { world.app.dismiss(overlay) }
                for key in keys { world.press(key) }
                let screen = world.screen
                #expect(screen.width == width && screen.height == height)
                #expect(screen.textLines().allSatisfy { DisplayWidth.of($0) <= width })
                // The status bar is always there.
                #expect(screen.textLines()[height - 1].hasSuffix("me@laptop · local only"))
            }
        }
    }
}

@Suite struct TerminalAppTests {
    @Test func theFirstFrameRendersWithoutATerminal() throws {
        let environment = try seededEnvironment()
        let lines = TerminalApp(environment: environment).renderFirstFrame()
        #expect(lines.count == 24)
        #expect(lines[3].contains("Today"))
        #expect(lines[23].hasSuffix("me@laptop · local only"))
    }
}
