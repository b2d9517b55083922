import DeviceRuntime
import Foundation
import GRDB
@testable import RemindersTUI
import RemindersCore
import RemindersViewModels
import SyncEngine
import Synchronization
import Testing

/// A sync layer that does nothing on its own: the status is set by the
/// test, and the offline switch and conflict news are recorded.
final class FakeSync: SyncStatusProvider, SyncControls {
    private struct State {
        var status: SyncStatus
        var observers: [@Sendable () -> Void] = []
        var handler: (@Sendable ([ConflictEntry]) -> Void)?
        var offlineCalls: [Bool] = []
    }

    private let state: Mutex<State>

    init(_ status: SyncStatus) {
        state = Mutex(State(status: status))
    }

    func set(_ change: (inout SyncStatus) -> Void) {
        let observers = state.withLock { state in
            change(&state.status)
            return state.observers
        }
        for observer in observers { observer() }
    }

    func currentStatus() -> SyncStatus { state.withLock { $0.status } }
    var syncControls: (any SyncControls)? { self }
    func observeStatus(_ onChange: @escaping @Sendable () -> Void) -> StatusSubscription {
        state.withLock { $0.observers.append(onChange) }
        return StatusSubscription(cancel: {})
    }

    var isOffline: Bool { state.withLock { $0.status.connection == .offline } }
    func setOffline(_ offline: Bool) {
        state.withLock { $0.offlineCalls.append(offline) }
        set { $0.connection = offline ? .offline : .online }
    }
    func syncNow() {}
    func onNewConflicts(_ handler: @escaping @Sendable ([ConflictEntry]) -> Void) { state.withLock { $0.handler = handler } }
    func dismissConflict(id: String) throws {}
    func restoreLosingValue(conflictID: String) throws -> Bool { false }

    /// Calls the app's conflict handler, as a sync round does.
    func announce(_ entries: [ConflictEntry]) {
        state.withLock { $0.handler }?(entries)
    }

    var recordedOfflineCalls: [Bool] { state.withLock { $0.offlineCalls } }
}

/// A device with the sync engine attached and a conflict log written by
/// hand with fixed times, so that screens render the same every run.
final class ConflictWorld {
    let directory: URL
    let session: DeviceSession
    let live: LiveSync
    let environment: AppEnvironment
    let app: AppController
    let milkID: String

    init(width: Int = 80, height: Int = 24) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tui-conflicts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        session = try DeviceSession(databasePath: directory.appendingPathComponent("me-laptop.sqlite").path,
                                    server: .directory(directory.appendingPathComponent("server")), userName: "me",
                                    deviceName: "laptop", clock: AppClock(pinned: pinnedNow, timeZone: TimeZone(identifier: "UTC")!))
        let listID = try session.store.createList(title: "Groceries").id
        // As the merges below left it: the title kept here, the priority (high) from the other device.
        milkID = try session.store.createReminder(ReminderDraft(listID: listID, title: "Buy milk", notes: "Oat, 2 cartons",
                                                                priority: .high)).id
        // Not started: no server; the conflict log's actions work on the database.
        live = LiveSync(engine: session.engine, server: .directory(directory.appendingPathComponent("server")))
        environment = AppEnvironment(store: session.store, userName: "me", deviceName: "laptop", syncStatus: live,
                                     completionDelay: 60)
        // 09:58:02 and 09:58:07 on the pinned day; resolved at 09:58:30 and 09:59:10.
        try Self.log(session, id: "c1", record: milkID, field: "title", ancestor: "Milk", local: "Buy milk", remote: "Oat milk",
                     localTime: 1_772_618_287_000, remoteTime: 1_772_618_282_000, winner: "local", resolvedAt: 1_772_618_310_000)
        try Self.log(session, id: "c2", record: milkID, field: "priority", ancestor: "0", local: "1", remote: "3",
                     localTime: 1_772_618_281_000, remoteTime: 1_772_618_286_000, winner: "remote", resolvedAt: 1_772_618_350_000)
        app = AppController(environment: environment, options: TUIOptions(), colorMode: .indexed256,
                            size: (width, height), now: { pinnedNow }, wake: {})
        app.start()
        settle()
    }

    deinit {
        app.stop()
        live.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    static func log(_ session: DeviceSession, id: String, record: String, field: String, ancestor: String?, local: String?,
                    remote: String?, localTime: Int64?, remoteTime: Int64?, winner: String, resolvedAt: Int64) throws {
        try session.writer.write { db in
            try db.execute(sql: """
                INSERT INTO sync_conflicts (id, recordType, recordName, field, ancestor, local, remote, localTime, remoteTime,
                                            winner, localDevice, remoteDevice, resolvedAt)
                VALUES (?, 'reminders', ?, ?, ?, ?, ?, ?, ?, ?, 'laptop', 'desktop', ?)
                """, arguments: [id, record, field, ancestor, local, remote, localTime, remoteTime, winner, resolvedAt])
        }
    }

    /// Waits until the sync status the screens show is final: Home asks the
    /// server for shares on the live sync's queue, and that round (like a
    /// dismiss) publishes the pending and conflict counts there; the status
    /// bar then takes them on its own queue.
    func settle() {
        live.drain()
        app.statusBar.queue.sync {}
        app.refresh()
    }

    func press(_ keys: Key...) {
        for key in keys {
            app.handle(.key(key))
            settle()
        }
    }

    var text: String {
        settle()
        return app.render().text
    }
}

@Suite struct LiveSyncScreenTests {
    /// A server error's line loses the middle of its path before the
    /// words after it: at 120 columns the repair still shows.
    @Test func aServerErrorLineShortensItsPathFirst() {
        let line = "⚠ Cannot sync · 2 edits wait here · server directory /home/ada/.local/share/reminders/server is gone (edits wait; 'reminders sync' makes a new one)"
        let fitted = AppController.fitting(line, width: 119, home: "/home/ada")
        #expect(fitted.reduce(0) { $0 + TextArea.width(of: $1) } <= 119, "\(fitted)")
        #expect(fitted.hasSuffix("is gone (edits wait; 'reminders sync' makes a new one)"), "\(fitted)")
        #expect(fitted.contains("~/") && fitted.contains("…/server"), "\(fitted)")
        #expect(AppController.fitting("short /a/b/c line", width: 80) == "short /a/b/c line")
    }

    @Test func conflictsScreenAt80x24() throws {
        let world = try ConflictWorld()
        world.press(.character("C"))
        expectSnapshot(world.text, #"""
         Reminders › Conflicts                                                   ? help

          CONFLICTS                                               2 new · 2 in the log

          ● 09:59:10  Reminder “Buy milk” · Priority                       desktop won
          ● 09:58:30  Reminder “Buy milk” · Title                      this device won
          ────────────────────────────────────────────────────────────────────────────
          Reminder “Buy milk” in “Groceries” · Priority

                   Ancestor              This device           Other device ✓ kept
          Value    none                  low                   high
          Edited   —                     4 Mar 09:58:01        4 Mar 09:58:06
          Device   —                     laptop                desktop

          ✓ Kept desktop's value: the other device's edit is the later one.
          r puts back this device's low (a new edit that syncs)







         r put back  d dismiss  q back     me@laptop · online · 2 pending · 2 conflicts
        """#)
    }

    /// At 60 by 20 the detail keeps its mark, times and the key's line
    /// whole: "✓" alone, the time without its day when it is today's, the
    /// line wrapped.
    @Test func theDetailFitsSixtyColumns() throws {
        let world = try ConflictWorld(width: 60, height: 20)
        try ConflictWorld.log(world.session, id: "c3", record: world.milkID, field: "notes", ancestor: "Oat",
                              local: "Oat, 2 cartons", remote: "Oat, 2 litres", localTime: 1_772_618_399_250,
                              remoteTime: 1_772_618_399_100, winner: "local", resolvedAt: 1_772_618_399_500)
        world.press(.character("C"))
        let lines = world.text.components(separatedBy: "\n")
        #expect(lines.contains { $0.contains("Ancestor       This device ✓  Other device") }, "\(lines)")
        #expect(lines.contains { $0.contains("Edited   —              09:59:59.250   09:59:59.100") }, "\(lines)")
        #expect(lines.contains { $0.hasSuffix("r puts back the other device's “Oat, 2 litres” (a new") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("  edit that syncs)") }, "\(lines)")
        #expect(!lines.contains { $0.contains("…") && !$0.contains("Reminder “") }, "\(lines)")
    }

    /// A whole record's entry has no ancestor to show: its two sides take
    /// the width, so the text it kept reads at 60 columns, and whole when
    /// there is height.
    @Test func aWholeRecordsKeptTextTakesTheWidth() throws {
        let kept = #"[["title","Bob's offline add for the party"],["notes","bring the big bowl and two spoons"],["status","completed"]]"#
        for (width, height) in [(60, 20), (80, 30)] {
            let world = try ConflictWorld(width: width, height: height)
            try ConflictWorld.log(world.session, id: "c9", record: world.milkID, field: "*", ancestor: nil, local: kept,
                                  remote: "deleted", localTime: 1_772_618_399_250, remoteTime: nil, winner: "delete",
                                  resolvedAt: 1_772_618_399_900)
            world.press(.character("C"))
            let text = world.text
            #expect(!text.contains("Ancestor"), "\(text)")
            #expect(text.contains("Title “Bob's offline") && text.contains("wins over a concurrent"), "\(text)")
            if height == 30 {
                #expect(text.contains("big bowl and two spoons”,") && text.contains("Status completed"), "\(text)")
            }
        }
    }

    /// A field changed since its merge says what it is now.
    @Test func anEntryWhoseValueChangedSinceSaysWhatItIsNow() throws {
        let world = try ConflictWorld()
        try world.session.store.updateReminder(id: world.milkID, ReminderChanges(priority: .low))
        world.press(.character("C"))
        #expect(world.text.contains("Priority") && world.text.contains("Now: low"), "\(world.text)")
        world.press(.character("j"))
        #expect(!world.text.contains("Now:"), "\(world.text)")
    }

    @Test func keepingTheOtherValueRestoresItAndDimsTheEntry() throws {
        let world = try ConflictWorld()
        world.press(.character("C"), .character("j"))
        #expect(world.text.contains("Reminder “Buy milk” in “Groceries” · Title"))
        world.press(.character("r"))
        #expect(world.app.toast?.message == "Title of Reminder “Buy milk” is “Oat milk” again; syncing")
        let title = try world.session.writer.read { db in
            try String.fetchOne(db, sql: "SELECT title FROM reminders WHERE id = ?", arguments: [world.milkID])
        }
        #expect(title == "Oat milk")
        let text = world.text
        #expect(text.contains("Dismissed."))
        #expect(text.contains("1 new · 2 in the log"))
        // The restored value is a pending edit, waiting for the server.
        #expect(try world.session.engine.pendingCount() >= 1)
    }

    @Test func dismissMovesOnAndTheBadgeFollows() throws {
        let world = try ConflictWorld()
        world.live.refreshStatus()
        world.live.drain()
        world.app.statusBar.refresh()
        #expect(world.text.components(separatedBy: "\n")[23].contains("2 conflicts"))
        world.press(.character("C"), .character("d"))
        #expect(world.app.toast?.message == "Dismissed")
        #expect(world.text.contains("1 new · 2 in the log"))
        world.press(.character("D"))
        world.live.drain()
        world.app.statusBar.refresh()
        let lines = world.text.components(separatedBy: "\n")
        #expect(lines[2].contains("2 in the log"))
        #expect(!lines[23].contains("conflict"))
        // Nothing left to act on: the keys leave the hints.
        #expect(!lines[23].contains("dismiss"))
    }

    @Test func editsWithinOneSecondShowTheirMilliseconds() throws {
        let world = try ConflictWorld()
        try ConflictWorld.log(world.session, id: "c3", record: world.milkID, field: "notes", ancestor: "Oat, 2 cartons",
                              local: "Oat", remote: "", localTime: 1_772_618_399_250, remoteTime: 1_772_618_399_100,
                              winner: "local", resolvedAt: 1_772_618_399_500)
        world.press(.character("C"))
        let text = world.text
        #expect(text.contains("Reminder “Buy milk” in “Groceries” · Notes"))
        #expect(text.contains("4 Mar 09:59:59.250"))
        #expect(text.contains("4 Mar 09:59:59.100"))
        #expect(text.contains("Value    Oat, 2 cartons        Oat                   empty"))
        #expect(text.contains("r puts back the other device's empty"))
    }

    @Test func conflictsWithoutSyncSayWhy() throws {
        let world = try TestWorld()
        world.press(.character("C"))
        #expect(world.text.contains("Conflicts: available once sync is on."))
        world.press(.character("o"))
        #expect(world.app.toast?.message == "Sync is not set up on this device")
    }

    /// A list someone shared that a round took from this device (deleted
    /// by its owner, or no longer shared) is said once, not only gone from
    /// Home without a word.
    @Test func listsSharedWithYouThatWentAreSaidOnce() throws {
        let sync = FakeSync(SyncStatus(connection: .online))
        let environment = try seededEnvironment(sync: sync)
        let app = makeApp(environment: environment, width: 120, height: 30)
        _ = app.render()
        let sentence = GoneShareWords.sentence([GoneShare(owner: "alice", name: "Trip")])
        #expect(sentence == "alice's list “Trip” is gone from this device: it was deleted, or is no longer shared with you.")
        sync.set { $0.goneShares = GoneShareNotice(sentence: sentence, at: pinnedNow) }
        app.statusBar.queue.sync {}
        app.refresh()
        #expect(app.tick())
        #expect(app.toast?.message == sentence)
        // Said once: the next tick has nothing new to say.
        #expect(!app.announceGoneShares())
        #expect(GoneShareWords.sentence([GoneShare(owner: "alice", name: "Trip"), GoneShare(owner: "alice", name: "Food")])
                == "alice's lists “Trip” and “Food” are gone from this device: they were deleted, or are no longer shared with you.")
    }

    @Test func theStatusBarShowsSyncStateBadgeAndLastSync() throws {
        let lastSync = pinnedNow.addingTimeInterval(-18 * 60)
        let sync = FakeSync(SyncStatus(connection: .online, pendingCount: 2, lastSync: lastSync, conflictsCount: 1))
        let environment = try seededEnvironment(sync: sync)
        let app = makeApp(environment: environment)
        var lines = app.render().textLines()
        #expect(lines[23].hasSuffix("me@laptop · synced 09:42 · 2 pending · 1 conflict"))
        // The badge stands out.
        let badge = app.render().text(row: 23) { $0.background == .indexed(214) }
        #expect(badge == "1 conflict")

        sync.set { $0.connection = .syncing }
        app.statusBar.queue.sync {}
        app.refresh()
        #expect(app.render().textLines()[23].hasSuffix("me@laptop · syncing… · 2 pending · 1 conflict"))

        sync.set { $0.connection = .offline }
        app.statusBar.queue.sync {}
        app.refresh()
        lines = app.render().textLines()
        // The time goes first when space is short.
        #expect(lines[23].hasSuffix("me@laptop · offline · 2 pending · 1 conflict"))
        app.handle(.resize(width: 120, height: 30))
        lines = app.render().textLines()
        #expect(lines[29].hasSuffix("me@laptop · offline · last sync 09:42 · 2 pending · 1 conflict"))
    }

    /// At 60 columns the conflicts badge stays whole and so do the first
    /// two keys: the time goes, then a state that asks nothing ("synced"),
    /// then the pending count; a state that asks something (offline) stays.
    @Test func aNarrowStatusBarKeepsTheConflictsBadgeWhole() throws {
        let lastSync = pinnedNow.addingTimeInterval(-18 * 60)
        let sync = FakeSync(SyncStatus(connection: .online, pendingCount: 12, lastSync: lastSync, conflictsCount: 3))
        let environment = try seededEnvironment(sync: sync)
        let app = makeApp(environment: environment, width: 60, height: 20)
        var lines = app.render().textLines()
        #expect(lines[19].hasPrefix(" n quick add  q quit "), "\(lines[19])")
        #expect(lines[19].hasSuffix("me@laptop · 3 conflicts"), "\(lines[19])")
        #expect(app.render().text(row: 19) { $0.background == .indexed(214) } == "3 conflicts")

        sync.set { $0.connection = .offline }
        app.statusBar.queue.sync {}
        app.refresh()
        lines = app.render().textLines()
        #expect(lines[19].hasSuffix("me@laptop · offline · 3 conflicts"), "\(lines[19])")

        // The screen's first two keys keep their room: in the form, save.
        app.handle(.key(.character("a")))
        lines = app.render().textLines()
        #expect(lines[19].hasPrefix(" Tab next  ^S save "), "\(lines[19])")
        #expect(lines[19].hasSuffix("· offline · 3 conflicts"), "\(lines[19])")
        app.handle(.key(.escape))

        // Where everything fits, nothing is dropped.
        sync.set { $0.connection = .online }
        app.statusBar.queue.sync {}
        app.handle(.resize(width: 100, height: 20))
        lines = app.render().textLines()
        #expect(lines[19].hasSuffix("me@laptop · synced 09:42 · 12 pending · 3 conflicts"), "\(lines[19])")
    }

    @Test func theOfflineKeySwitchesWithoutWaiting() throws {
        let sync = FakeSync(SyncStatus(connection: .online, pendingCount: 0))
        let environment = try seededEnvironment(sync: sync)
        let app = makeApp(environment: environment)
        app.handle(.key(.character("o")))
        AppController.syncControlQueue.sync {}
        #expect(sync.recordedOfflineCalls == [true])
        #expect(app.toast?.message == "Offline: edits stay on this device · o back online")
        app.statusBar.queue.sync {}
        app.refresh()
        #expect(app.render().textLines()[23].hasSuffix("me@laptop · offline"))
        sync.set { $0.pendingCount = 3 }
        app.statusBar.queue.sync {}
        app.refresh()
        app.handle(.key(.character("o")))
        AppController.syncControlQueue.sync {}
        #expect(sync.recordedOfflineCalls == [true, false])
        #expect(app.toast?.message == "Online: sending 3 pending edits")
        // The switch is listed in the help, from the key table.
        app.handle(.key(.character("?")))
        for character in "offline" { app.handle(.key(.character(character))) }
        #expect(app.render().text.contains("o               Take this device offline / back online"))
    }

    @Test func aFailingServerShowsALineAndTheAppKeepsWorking() throws {
        let sync = FakeSync(SyncStatus(connection: .online, pendingCount: 1,
                                       errorMessage: "server /tmp/s: server.sqlite is not a server store"))
        let environment = try seededEnvironment(sync: sync)
        let app = makeApp(environment: environment)
        let lines = app.render().textLines()
        #expect(lines[22].hasPrefix(" ⚠ Cannot sync · 1 edit waits here · server /tmp/s: server.sqlite is not a serv…"))
        #expect(lines[23].hasSuffix("me@laptop · server error · 1 pending"))
        // Screens still work, a row shorter.
        app.handle(.key(.character("j")))
        app.handle(.key(.enter))
        app.statusBar.queue.sync {}
        app.refresh()
        #expect(app.render().text.contains("Today"))
        // Offline by choice is not an error.
        sync.set { $0.connection = .offline }
        app.statusBar.queue.sync {}
        app.refresh()
        #expect(!app.render().text.contains("Cannot sync"))
    }

    /// A cover the server could not give is no server error: the line
    /// names it, the status bar says synced.
    @Test func aCoverNotDownloadedTakesTheLineAboveTheStatusBar() throws {
        let sync = FakeSync(SyncStatus(connection: .online, lastSync: pinnedNow,
                                       unavailableCover: "Cover of “Garden” lost on the server: clear and set it again where it shows · the server's asset file is missing"))
        let environment = try seededEnvironment(sync: sync)
        let app = makeApp(environment: environment)
        let lines = app.render().textLines()
        #expect(lines[22].hasPrefix(" ⚠ Cover of “Garden” lost on the server: clear and set it again where it shows …"), "\(lines[22])")
        #expect(lines[23].hasSuffix("me@laptop · synced 10:00"), "\(lines[23])")
        sync.set { $0.unavailableCover = nil }
        app.statusBar.queue.sync {}
        app.refresh()
        #expect(!app.render().text.contains("not downloaded"))
    }

    @Test func newConflictsAreAnnouncedInAToast() throws {
        let world = try ConflictWorld()
        let entries = try world.live.engine.conflicts()
        // As a sync round does, on another thread.
        let sync = FakeSync(SyncStatus(connection: .online))
        let environment = AppEnvironment(store: world.session.store, userName: "me", deviceName: "laptop", syncStatus: sync)
        let app = makeApp(environment: environment)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            sync.announce(Array(entries.prefix(1)))
            done.signal()
        }
        done.wait()
        app.tick()
        #expect(app.toast?.message == "Conflict on “Buy milk” (Priority): the other device's edit won · C review")
        sync.announce(entries)
        app.tick()
        #expect(app.toast?.message == "2 conflicts resolved · C review")
    }
}
