import Foundation
import GRDB
import Testing
@testable import RemindersTUI
import RemindersCore
import RemindersViewModels

/// Key presses driving the real view models on an in-memory database, read
/// back from the rendered screen.
@Suite struct KeySequenceTests {
    @Test func addListAddReminderWithDueDateAndTagCompleteItAndFindIt() throws {
        let world = try TestWorld(seeded: false)
        #expect(world.text.contains("No lists yet: press a to add one"))

        // A list.
        world.press(.character("a"))
        #expect(world.text.contains("Reminders › New List"))
        world.type("Errands")
        world.press(.control("s"))
        #expect(try world.lists().map(\.title) == ["Errands"])
        #expect(world.text.contains("● Errands"))
        #expect(world.app.toast?.message == "Created “Errands”")

        // The new list is selected: Enter opens it, a adds a reminder.
        world.press(.enter)
        #expect(world.text.contains("No reminders: press a to add one"))
        world.press(.character("a"))
        world.type("Pick up parcel")
        world.press(.tab, .tab)
        world.type("2026-03-05")
        world.press(.tab)
        world.type("17:30")
        // Repeat, alert, priority, flag, list, tags.
        world.press(.tab, .tab, .tab, .tab, .tab, .tab)
        world.press(.character(" "))
        world.type("post")
        world.press(.enter, .escape)
        #expect(world.text.contains("#post"))
        world.press(.control("s"))

        let saved = try #require(try world.reminder(titled: "Pick up parcel"))
        #expect(saved.reminder.dueDate?.description == "2026-03-05T17:30")
        #expect(saved.tags == ["post"])
        var text = world.text
        #expect(text.contains("Pick up parcel"))
        #expect(text.contains("Tomorrow 17:30"))
        #expect(world.app.toast?.message == "Added “Pick up parcel”")

        // Complete it: "completing" first, with an undo.
        world.press(.character(" "))
        text = world.text
        #expect(text.contains("[✓] Pick up parcel  completing"))
        #expect(world.app.toast?.message == "Completed “Pick up parcel”")
        #expect(world.app.toast?.canUndo == true)
        #expect(text.contains("Completed “Pick up parcel” · u undo"))
        world.environment.completions.finishNow()
        text = world.text
        #expect(!text.contains("[ ] Pick up parcel"))
        #expect(!text.contains("[✓] Pick up parcel"))
        #expect(text.contains("Sort: Manual · 1 completed (hidden)"))

        // Search finds it among the completed ones.
        world.press(.character("/"))
        world.type("parcel")
        text = world.text
        #expect(text.contains("0 matches · 1 completed (hidden)"))
        world.press(.control("t"))
        text = world.text
        #expect(text.contains("1 match · 1 completed (shown)"))
        #expect(text.contains("[✓] Pick up parcel"))
        let row = try #require(world.screen.textLines().firstIndex { $0.contains("Pick up parcel") })
        #expect(world.screen.text(row: row) { $0 == world.app.theme.match } == "parcel")
    }

    @Test func deletingAReminderCanBeUndone() throws {
        let world = try TestWorld()
        world.openList("Work")
        #expect(world.text.contains("Prepare sprint demo"))
        world.press(.character("d"))
        #expect(!world.text.contains("[ ] !!! Prepare sprint demo"))
        #expect(world.text.contains("Deleted “Prepare sprint demo” · u undo"))
        world.press(.character("u"))
        #expect(world.text.contains("Prepare sprint demo"))
        #expect(try world.reminder(titled: "Prepare sprint demo")?.tags == ["work"])
        // The row it brings back is the one selected: the next key acts on it.
        #expect((world.app.top as? ListDetailScreen)?.selectedRow?.reminder.title == "Prepare sprint demo")
        #expect(world.app.toast?.message == "Restored “Prepare sprint demo” · ^R redo")
    }

    /// An undo of a change to a reminder deleted since (here with its
    /// list, or on another device) says so, not "reminder <id> not found".
    @Test func undoingAChangeToAReminderDeletedSinceSaysSo() throws {
        let world = try TestWorld()
        world.openList("Work")
        world.press(.character("f"))
        let id = try #require(try world.reminder(titled: "Prepare sprint demo")?.reminder.id)
        _ = try world.store.deleteReminder(id: id)
        world.press(.character("u"))
        #expect(world.app.toast?.message == "Could not undo: it was deleted since, here or on another device")
    }

    /// `u` is a history, not a toast's offer: it takes back the latest
    /// change, then the one before, after other toasts and after its own
    /// has gone, priority changes included; ^R does again what it took back.
    @Test func undoIsAHistoryAndCtrlRRedoes() throws {
        let world = try TestWorld()
        world.openList("Work")
        world.press(.character("d"))
        #expect(world.text.contains("· u undo"))
        world.press(.character("s"), .enter)
        #expect(world.app.toast?.message.hasPrefix("Sorted by") == true)
        world.press(.character("j"))
        let screen = try #require(world.app.top as? ListDetailScreen)
        let selected = try #require(screen.selectedRow?.reminder)
        world.press(.character("f"))
        #expect(try world.reminder(titled: selected.title)?.reminder.isFlagged == !selected.isFlagged)
        world.press(.character("p"))
        let cycled = Priority(rawValue: (selected.priority.rawValue + 1) % 4) ?? .none
        #expect(try world.reminder(titled: selected.title)?.reminder.priority == cycled)
        world.advance(60)
        #expect(world.app.toast == nil)

        world.press(.character("u"))
        #expect(world.app.toast?.message.hasSuffix(" again · ^R redo") == true)
        #expect(try world.reminder(titled: selected.title)?.reminder.priority == selected.priority)
        world.press(.character("u"))
        #expect(try world.reminder(titled: selected.title)?.reminder.isFlagged == selected.isFlagged)
        world.press(.character("u"))
        #expect(try world.reminder(titled: "Prepare sprint demo")?.tags == ["work"])
        world.press(.character("u"))
        #expect(world.app.toast?.message == "Nothing to undo")

        // ^R does again, in order: the delete, then the flag.
        world.press(.control("r"))
        #expect(try world.reminder(titled: "Prepare sprint demo") == nil)
        world.press(.control("r"))
        #expect(try world.reminder(titled: selected.title)?.reminder.isFlagged == !selected.isFlagged)
        // A new change forgets what could be redone.
        world.press(.character("f"))
        world.press(.control("r"))
        #expect(world.app.toast?.message == "Nothing to redo")
    }

    /// A reminder edited in the form is put back as the form found it by `u`.
    @Test func anEditInTheFormCanBeUndone() throws {
        let world = try TestWorld()
        world.openList("Work")
        world.press(.character("e"))
        world.press(.control("u"))
        world.type("Demo the sync")
        world.press(.control("s"))
        #expect(try world.reminder(titled: "Demo the sync") != nil)
        world.press(.character("u"))
        #expect(try world.reminder(titled: "Demo the sync") == nil)
        #expect(try world.reminder(titled: "Prepare sprint demo")?.reminder.notes == "Show sync between two terminals")
        #expect(world.app.toast?.message == "Put back “Prepare sprint demo” as it was · ^R redo")
        // The redo's toast says the edit was made again, not put back.
        world.press(.control("r"))
        #expect(try world.reminder(titled: "Demo the sync") != nil)
        #expect(world.app.toast?.message == "Edited “Demo the sync” again")
    }

    /// An edit that moves the reminder to another list says where.
    @Test func anEditThatMovesAReminderSaysWhere() throws {
        let world = try TestWorld()
        world.openList("Work")
        world.press(.character("e"))
        for _ in ReminderField.allCases.prefix(while: { $0 != .list }) { world.press(.tab) }
        world.press(.right)
        world.press(.control("s"))
        let moved = try #require(try world.reminder(titled: "Prepare sprint demo")?.reminder.remindersListID)
        let list = try #require(try world.lists().first { $0.id == moved })
        #expect(list.title != "Work")
        #expect(world.app.toast?.message == "Saved “Prepare sprint demo” · moved to \(list.title)")
    }

    @Test func undoStillWorksAfterLeavingTheScreen() throws {
        let world = try TestWorld()
        world.openList("Work")
        world.press(.character("f"))
        #expect(try world.reminder(titled: "Prepare sprint demo")?.reminder.isFlagged == false)
        world.press(.character("q"))
        world.press(.character("u"))
        #expect(try world.reminder(titled: "Prepare sprint demo")?.reminder.isFlagged == true)
    }

    @Test func deletingAListAsksFirstAndCancelIsTheDefault() throws {
        let world = try TestWorld()
        world.selectList("Personal")
        world.press(.character("d"))
        #expect(world.text.contains("Delete “Personal” and its 4 reminders?"))
        world.press(.enter)
        #expect(try world.lists().map(\.title) == ["Personal", "Work", "Groceries"])
        world.press(.character("d"), .character("y"))
        #expect(try world.lists().map(\.title) == ["Work", "Groceries"])
        #expect(world.app.toast?.message == "Deleted “Personal”")
        // The selection moved to the next list.
        world.press(.enter)
        #expect(world.text.contains("Reminders › Work"))
    }

    @Test func deletingAListCanBeUndone() throws {
        let world = try TestWorld()
        let before = try world.store.writer.read { db in try ExportDump.read(db, owner: { _ in "me" }) }
        world.selectList("Personal")
        world.press(.character("d"))
        #expect(world.text.contains("u undoes it afterwards."))
        world.press(.character("y"))
        #expect(world.text.contains("Deleted “Personal” · u undo"))
        #expect(try world.lists().map(\.title) == ["Work", "Groceries"])
        world.press(.character("u"))
        #expect(world.app.toast?.message == "Restored “Personal” · ^R redo")
        #expect(try world.lists().map(\.title) == ["Personal", "Work", "Groceries"])
        #expect(try world.store.writer.read { db in try ExportDump.read(db, owner: { _ in "me" }) } == before)
        #expect(world.text.contains("● Personal"))
    }

    @Test func listsMoveWithShiftJAndK() throws {
        let world = try TestWorld()
        world.selectList("Personal")
        world.press(.character("J"))
        #expect(try world.lists().map(\.title) == ["Work", "Personal", "Groceries"])
        world.press(.character("K"))
        #expect(try world.lists().map(\.title) == ["Personal", "Work", "Groceries"])
    }

    @Test func escapeOnHomeExplainsHowToQuitAndQQuits() throws {
        let world = try TestWorld()
        world.press(.escape)
        #expect(!world.app.shouldQuit)
        #expect(world.app.toast?.message == "Press q to quit")
        world.press(.character("q"))
        #expect(world.app.shouldQuit)
    }

    @Test func qAndEscapeBackOutOfScreens() throws {
        let world = try TestWorld()
        world.press(.enter)
        #expect(world.text.contains("Reminders › Today"))
        world.press(.character("q"))
        #expect(world.text.contains("SMART LISTS"))
        world.press(.character("t"), .escape)
        #expect(world.text.contains("SMART LISTS"))
        #expect(!world.app.shouldQuit)
    }

    @Test func aBadDueDateIsRefusedWithTheReason() throws {
        let world = try TestWorld()
        world.press(.enter, .character("a"))
        world.type("Pay rent")
        world.press(.tab, .tab)
        // New reminders in Today start with today's date.
        #expect(world.text.contains("date 2026-03-04"))
        world.press(.control("u"))
        world.type("2026-02-30")
        world.press(.control("s"))
        let text = world.text
        #expect(text.contains("2026-02-30: February 2026 has 28 days"))
        #expect(try world.reminder(titled: "Pay rent") == nil)
        // The form stays, focused on the date.
        #expect((world.app.top as? ReminderFormScreen)?.focus == .dueDate)
        world.press(.control("u"))
        world.type("2026-03-10")
        world.press(.enter)
        #expect(try world.reminder(titled: "Pay rent")?.reminder.dueDate?.description == "2026-03-10")
    }

    /// A save refused for an empty title says so; typing a title makes the
    /// line untrue, and it goes at once rather than after its six seconds.
    @Test func theSaveErrorGoesOnceTheFieldIsFixed() throws {
        let world = try TestWorld()
        world.press(.enter, .character("a"))
        world.press(.control("s"))
        #expect(world.app.toast?.isError == true, "\(String(describing: world.app.toast))")
        world.type("P")
        #expect(world.app.toast == nil)
    }

    /// A toast is about its screen: a hint on Home does not follow the user
    /// into the screen they open next; one that offers undo does.
    @Test func aHintStaysOnItsScreen() throws {
        let world = try TestWorld()
        world.app.showMessage("Select one of My Lists first")
        world.press(.character("/"))
        #expect(world.app.toast == nil)
        world.press(.escape)
        world.openList("Work")
        world.press(.character("d"))
        world.press(.character("/"))
        #expect(world.app.toast?.canUndo == true)
        // News from elsewhere (conflicts, a due alert) stays too.
        world.press(.escape)
        world.app.showMessage("2 conflicts resolved · C review", isNews: true)
        world.press(.character("/"))
        #expect(world.app.toast?.message == "2 conflicts resolved · C review")
    }

    @Test func cancellingAnEditedFormAsksBeforeDiscarding() throws {
        let world = try TestWorld()
        world.press(.enter, .character("a"))
        world.press(.escape)
        #expect(world.text.contains("Reminders › Today"))
        world.press(.character("a"))
        world.type("Half typed")
        world.press(.escape)
        #expect(world.text.contains("Discard the changes to this reminder?"))
        world.press(.character("n"))
        #expect(world.text.contains("Half typed"))
        world.press(.escape, .character("y"))
        #expect(world.text.contains("Reminders › Today"))
        #expect(try world.reminder(titled: "Half typed") == nil)
    }

    /// `e` pressed the moment a new reminder's form closes edits the new
    /// reminder, not the one selected before it. Here the list's observed
    /// rows are held back (its queue is busy) while both keys arrive, as
    /// they may be in a fast terminal.
    @Test func aKeyRightAfterAddingActsOnTheNewReminder() throws {
        let world = try TestWorld()
        world.openList("Groceries")
        let list = try #require(world.app.top as? ListDetailScreen)
        world.press(.character("a"))
        world.type("Zebra crossing")
        // After typing, whose refresh would wait the sleep out.
        list.viewModel.queue.async { Thread.sleep(forTimeInterval: 0.3) }
        world.app.handle(.key(.control("s")))
        world.app.handle(.key(.character("e")))
        let form = try #require(world.app.top as? ReminderFormScreen)
        #expect(form.viewModel.state.fields.title == "Zebra crossing")
        #expect(!form.viewModel.state.isNew)
    }

    @Test func editingAReminderChangesItsFields() throws {
        let world = try TestWorld()
        world.openList("Groceries")
        // Groceries: Milk is first.
        world.press(.enter)
        #expect(world.text.contains("Reminders › Groceries › Edit Reminder"))
        world.press(.control("u"))
        world.type("Oat milk")
        world.press(.tab, .tab, .tab, .tab, .tab, .tab)  // notes, date, time, repeat, alert, priority
        world.press(.right, .right, .right)  // high
        world.press(.tab, .character(" "))   // flag
        world.press(.enter)
        let milk = try #require(try world.reminder(titled: "Oat milk"))
        #expect(milk.reminder.priority == .high)
        #expect(milk.reminder.isFlagged)
        #expect(world.text.contains("[ ] !!! Oat milk"))
    }

    @Test func notesTakeSeveralLines() throws {
        let world = try TestWorld()
        world.press(.enter, .character("a"))
        world.type("Plan trip")
        world.press(.tab)
        world.type("Book hotel")
        world.press(.enter)
        world.type("Rent a car")
        world.press(.up)
        world.press(.end)
        world.type("s")
        world.press(.control("s"))
        #expect(try world.reminder(titled: "Plan trip")?.reminder.notes == "Book hotels\nRent a car")
    }

    @Test func aListGetsAColorAndACoverAndLosesItWithOneKey() throws {
        let world = try TestWorld(seeded: false)
        world.press(.character("a"))
        world.type("Garden")
        world.press(.tab, .right, .right)      // color: two steps along the palette
        world.press(.tab, .right, .right)      // cover: none -> sunrise -> forest
        #expect(world.text.contains("[forest]"))
        world.press(.control("s"))
        let list = try #require(try world.lists().first)
        #expect(list.title == "Garden")
        #expect(list.color == RemindersStore.palette[2])
        #expect(try world.store.writer.read { db in try Queries.cover(db, listID: list.id) } == SampleCovers.png(named: "forest"))

        // Edit: x removes the cover.
        world.selectList("Garden")
        world.press(.character("e"))
        #expect(world.text.contains("[current]"))
        world.press(.tab, .tab, .character("x"))
        #expect(world.text.contains("[none]"))
        world.press(.control("s"))
        #expect(try world.store.writer.read { db in try Queries.cover(db, listID: list.id) } == nil)
    }

    @Test func aCoverCanComeFromAFile() throws {
        let world = try TestWorld(seeded: false)
        let png = try #require(SampleCovers.png(named: "ocean"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cover-\(UUID().uuidString).png").path
        try png.write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        world.press(.character("a"))
        world.type("Sea")
        world.press(.tab, .tab, .left)          // cover: none -> file…
        world.press(.tab)
        world.type("/no/such/file.png")
        world.press(.enter)
        #expect(world.text.contains("cover image /no/such/file.png does not exist"))
        world.press(.control("u"))
        world.type(path)
        world.press(.enter)                     // loads the file
        #expect(world.app.toast?.message == "Cover loaded")
        world.press(.control("s"))
        let list = try #require(try world.lists().first)
        #expect(try world.store.writer.read { db in try Queries.cover(db, listID: list.id) } == png)
    }

    @Test func sortMenuReordersTheList() throws {
        let world = try TestWorld()
        world.openList("Work")
        world.press(.character("s"))
        #expect(world.text.contains("Sort by"))
        world.press(.character("t"))
        let text = world.text
        #expect(text.contains("Sort: Title"))
        let titles = world.screen.textLines().filter { $0.hasPrefix(" [ ]") }
        #expect(titles.map { $0.contains("Expense receipts") } == [true, false, false, false])
        // Moving needs the manual order.
        world.press(.character("J"))
        #expect(world.app.toast?.message == "Sort manually to move reminders (s, then m)")
    }

    @Test func remindersMoveWithinTheirList() throws {
        let world = try TestWorld()
        world.openList("Work")
        world.press(.character("J"))
        let order = try world.store.writer.read { db in
            try String.fetchAll(db, sql: """
                SELECT reminders.title FROM reminders JOIN remindersLists ON remindersLists.id = remindersListID
                WHERE remindersLists.title = 'Work' ORDER BY reminders.position
                """)
        }
        #expect(order.prefix(2) == ["Review pull requests", "Prepare sprint demo"])
        // The moved reminder stays selected.
        world.press(.character("f"))
        #expect(try world.reminder(titled: "Prepare sprint demo")?.reminder.isFlagged == false)
    }

    @Test func priorityCyclesWithP() throws {
        let world = try TestWorld()
        world.openList("Personal")
        world.press(.character("p"))
        #expect(try world.reminder(titled: "Call mom")?.reminder.priority == .low)
        #expect(world.text.contains("[ ] ! Call mom"))
    }

    @Test func tagsAreCreatedRenamedAndDeleted() throws {
        let world = try TestWorld()
        world.press(.character("t"), .character("a"))
        world.type("someday")
        world.press(.enter)
        #expect(world.text.contains("# someday"))
        #expect(world.app.toast?.message == "Created #someday")
        // The new tag is selected: rename it.
        world.press(.character("r"), .control("u"))
        world.type("later")
        world.press(.enter)
        #expect(world.text.contains("# later"))
        #expect(!world.text.contains("# someday"))
        world.press(.character("d"))
        #expect(world.text.contains("Delete #later?"))
        #expect(world.text.contains("Only the tag goes (u undoes)."))
        world.press(.character("y"))
        #expect(!world.text.contains("# later"))
        // u takes the delete back, then the rename: not an older change.
        world.press(.character("u"))
        #expect(world.text.contains("# later"))
        world.press(.character("u"))
        #expect(world.text.contains("# someday"))
        #expect(world.app.toast?.message.hasPrefix("#later is #someday again") == true, "\(String(describing: world.app.toast))")
    }

    @Test func aBadTagNameKeepsThePromptOpen() throws {
        let world = try TestWorld()
        world.press(.character("t"), .character("a"))
        world.type("a,b")
        world.press(.enter)
        #expect(world.text.contains("tag must not contain commas or control characters"))
        #expect(world.app.overlays.count == 1)
    }

    @Test func enterOnATagOpensItsReminders() throws {
        let world = try TestWorld()
        world.press(.character("t"), .character("G"), .character("k"), .enter)
        let text = world.text
        #expect(text.contains("Reminders › Tags › #work"))
        #expect(text.contains("Prepare sprint demo"))
        #expect(text.contains("Review pull requests"))
        #expect(!text.contains("Call mom"))
    }

    @Test func searchResultsTakeListKeys() throws {
        let world = try TestWorld()
        world.press(.character("/"))
        world.type("milk")
        world.press(.down)
        world.press(.character("f"))
        #expect(try world.reminder(titled: "Milk")?.reminder.isFlagged == true)
        world.press(.character("/"))
        world.type("x")
        #expect((world.app.top as? SearchScreen)?.query.text == "milkx")
    }

    @Test func aListDeletedElsewhereClosesItsScreen() throws {
        let world = try TestWorld()
        world.openList("Personal")
        #expect(world.text.contains("Reminders › Personal"))
        let id = try #require(try world.lists().first?.id)
        try world.store.deleteList(id: id)
        let text = world.text
        #expect(text.contains("SMART LISTS"))
        #expect(world.app.toast?.message == "“Personal” was deleted")
    }

    @Test func conflictsAndSharingHaveTheirPlaces() throws {
        let world = try TestWorld()
        world.press(.character("C"))
        #expect(world.text.contains("Conflicts: available once sync is on."))
        world.press(.character("q"))
        world.selectList("Personal")
        world.press(.character("S"))
        #expect(world.text.contains("Sharing “Personal”"))
        #expect(world.text.contains("Not shared with anyone: press i to invite someone"))
    }

    @Test func helpIsFilteredByTypingAndEscapeClearsTheFilterFirst() throws {
        let world = try TestWorld()
        world.press(.character("?"))
        #expect(world.text.contains("New list"))
        world.type("tag")
        var text = world.text
        #expect(text.contains("Filter: tag"))
        #expect(!text.contains("New list"))
        #expect(text.contains("New tag"))
        world.press(.escape)
        text = world.text
        #expect(text.contains("New list"))
        world.press(.escape)
        #expect(world.app.overlays.isEmpty)
    }

    /// A page of the help is what it shows, less the line kept in view.
    @Test func helpPagesByWhatItShows() throws {
        let world = try TestWorld(width: 80, height: 24)
        world.press(.character("?"))
        func shown() throws -> (Int, Int) {
            let footer = try #require(world.screen.textLines().first { $0.contains("↑↓ scroll") })
            let numbers = try #require(footer.split(separator: "·").last?.split(separator: "/").compactMap {
                Int($0.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "│"))))
            })
            return (numbers[0], numbers[1])
        }
        let (first, total) = try shown()
        world.press(.pageDown)
        let (second, _) = try shown()
        #expect(second == min(total, first + first - 1), "\(first) then \(second) of \(total)")
    }

    @Test func toastsExpire() throws {
        let world = try TestWorld()
        world.press(.escape)
        #expect(world.text.contains("Press q to quit"))
        world.advance(6)
        #expect(!world.text.contains("Press q to quit"))
    }

    @Test func aTooSmallTerminalSaysSoAndRecovers() throws {
        let world = try TestWorld()
        world.resize(50, 16)
        #expect(world.text.contains("Please enlarge the terminal"))
        #expect(world.text.contains("(now 50x16)"))
        world.press(.character("a"))
        world.resize(80, 24)
        #expect(world.text.contains("SMART LISTS"))
        #expect(!(world.app.top is ListFormScreen))
    }
}

@Suite struct MouseTests {
    @Test func clickSelectsAndASecondClickOpens() throws {
        let world = try TestWorld()
        let lines = world.screen.textLines()
        let row = try #require(lines.firstIndex { $0.contains("● Work") })
        world.app.handle(.mouse(MouseEvent(button: .left, row: row, column: 10)))
        #expect((world.app.top as? HomeScreen)?.selection == .list(try world.lists()[1].id))
        world.app.handle(.mouse(MouseEvent(button: .left, row: row, column: 10)))
        #expect(world.text.contains("Reminders › Work"))
    }

    @Test func wheelMovesTheSelection() throws {
        let world = try TestWorld()
        world.app.handle(.mouse(MouseEvent(button: .wheelDown, row: 5, column: 10)))
        #expect((world.app.top as? HomeScreen)?.selection == .smart(.flagged))
    }

    @Test func theMouseCanBeTurnedOff() throws {
        let world = try TestWorld(options: TUIOptions(mouse: false))
        world.app.handle(.mouse(MouseEvent(button: .wheelDown, row: 5, column: 10)))
        #expect((world.app.top as? HomeScreen)?.selection == .smart(.today))
    }
}
