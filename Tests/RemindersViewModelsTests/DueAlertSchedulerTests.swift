import Foundation
import GRDB
import RemindersCore
import SyncEngine
import Testing
import TestSupport
@testable import DeviceRuntime
@testable import RemindersViewModels

/// A clock the test moves by hand, in UTC unless told otherwise.
final class HandClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    let timeZone: TimeZone

    init(_ text: String, timeZone: TimeZone = World.utc) {
        self.timeZone = timeZone
        current = AppClock.parseMoment(text, timeZone: timeZone) ?? Date()
    }

    var now: Date { lock.withLock { current } }

    func set(_ text: String) {
        let date = AppClock.parseMoment(text, timeZone: timeZone) ?? current
        lock.withLock { current = date }
    }

    var appClock: AppClock { AppClock(timeZone: timeZone) { [self] in now } }
}

/// One device whose clock the test moves: a database file that outlives
/// its schedulers (a restart is a new scheduler on the same file).
final class AlertWorld {
    let directory: URL
    let clock: HandClock
    let environment: AppEnvironment
    private var schedulers: [DueAlertScheduler] = []

    /// - Parameters:
    ///   - directory: the device's folder; a new one if nil. A second
    ///     world on the same folder plays a second process of the device.
    ///   - timeZone: the device's time zone (due times are wall-clock
    ///     times in it).
    init(now: String = "2026-03-01T10:00:00Z", directory: URL? = nil, timeZone: TimeZone = World.utc) throws {
        self.directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("alerts-\(UUID().uuidString)")
        clock = HandClock(now, timeZone: timeZone)
        let pool = try AppDatabase.open(path: self.directory.appendingPathComponent("reminders.sqlite").path)
        environment = AppEnvironment(store: RemindersStore(writer: pool, clock: clock.appClock), completionDelay: 0.1)
    }

    deinit {
        for scheduler in schedulers { scheduler.stop() }
        try? FileManager.default.removeItem(at: directory)
    }

    var store: RemindersStore { environment.store }

    func scheduler(_ settings: DueAlertSettings = DueAlertSettings()) -> DueAlertScheduler {
        let scheduler = DueAlertScheduler(environment: environment, settings: settings)
        schedulers.append(scheduler)
        scheduler.start()
        return scheduler
    }

    /// - Parameters:
    ///   - alertBefore: seconds before the due time it alerts; nil for at
    ///     the due time.
    ///   - repeatRule: an RRULE, for a repeating reminder.
    @discardableResult
    func reminder(_ title: String, due: String?, list: String = "Home", alertBefore: Int? = nil,
                  repeatRule: String? = nil) throws -> String {
        let listID = try environment.writer.read { db in
            try String.fetchOne(db, sql: "SELECT id FROM remindersLists WHERE title = ?", arguments: [list])
        } ?? store.createList(title: list).id
        return try store.createReminder(ReminderDraft(listID: listID, title: title, dueDate: due.flatMap(DueDate.init),
                                                      repeatRule: repeatRule, alertBefore: alertBefore)).id
    }

    func dueDate(of id: String) throws -> String? {
        try environment.writer.read { db in try Reminder.fetchOne(db, key: id)?.dueDate?.description }
    }

    /// Moves the clock and lets the scheduler look at it.
    func move(to moment: String, _ scheduler: DueAlertScheduler) {
        clock.set(moment)
        scheduler.checkNow()
    }
}

extension DueAlertScheduler {
    /// Titles of the alerts raised since the last call.
    func alertTitles() -> [String] {
        takeEvents().compactMap { event in
            if case .alert(let alert) = event { return alert.title }
            return nil
        }
    }
}

@Suite("Due alerts", .serialized)
struct DueAlertSchedulerTests {
    static func moment(_ text: String) -> Date? { AppClock.parseMoment(text, timeZone: World.utc) }

    @Test func anAlertFiresWhenItsDueMomentArrives() throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let id = try world.reminder("Pay rent", due: "2026-03-01T10:30")
        let alerts = world.scheduler()
        #expect(alerts.state.nextAlertAt == Self.moment("2026-03-01T10:30:00Z"))
        #expect(alerts.alertTitles().isEmpty)

        world.move(to: "2026-03-01T10:29:59Z", alerts)
        #expect(alerts.alertTitles().isEmpty)
        #expect(alerts.state.dueNow.isEmpty)

        world.move(to: "2026-03-01T10:30:00Z", alerts)
        let events = alerts.takeEvents()
        guard case .alert(let alert)? = events.first, events.count == 1 else {
            Issue.record("expected one alert, got \(events)")
            return
        }
        #expect(alert.reminderID == id)
        #expect(alert.title == "Pay rent")
        #expect(alert.listTitle == "Home")
        #expect(alert.dueText == "2026-03-01 10:30")
        #expect(alerts.state.dueNow.map(\.title) == ["Pay rent"])
        #expect(alerts.state.nextAlertAt == nil)
    }

    @Test func eachDueMomentAlertsOncePerDeviceAcrossRestarts() throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        try world.reminder("Pay rent", due: "2026-03-01T10:30")
        let first = world.scheduler()
        world.move(to: "2026-03-01T10:30:00Z", first)
        #expect(first.alertTitles() == ["Pay rent"])
        world.move(to: "2026-03-01T10:45:00Z", first)
        first.refresh()
        #expect(first.alertTitles().isEmpty)
        first.stop()

        // The app restarts on the same device: no second alert, and the
        // reminder is still in Due now.
        let second = world.scheduler()
        #expect(second.alertTitles().isEmpty)
        #expect(second.state.dueNow.map(\.title) == ["Pay rent"])

        // The record is the device's own, in a table the sync engine does not sync.
        let tables = DeviceSession.syncedTables.map(\.name)
        #expect(!tables.contains(DueAlertLog.tableName))
        let count = try world.environment.writer.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM local_alertsShown")
        }
        #expect(count == 1)
    }

    @Test func anotherDeviceAlertsOnceToo() throws {
        // Two devices hold the same reminder (as after a sync): each alerts once.
        let laptop = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let desktop = try AlertWorld(now: "2026-03-01T10:00:00Z")
        for world in [laptop, desktop] { try world.reminder("Standup", due: "2026-03-01T10:15") }
        let onLaptop = laptop.scheduler()
        let onDesktop = desktop.scheduler()
        laptop.move(to: "2026-03-01T10:15:00Z", onLaptop)
        desktop.move(to: "2026-03-01T10:15:30Z", onDesktop)
        #expect(onLaptop.alertTitles() == ["Standup"])
        #expect(onDesktop.alertTitles() == ["Standup"])
    }

    @Test func aDateWithoutATimeAlertsAtNineByDefault() throws {
        let world = try AlertWorld(now: "2026-03-01T07:00:00Z")
        try world.reminder("Milk", due: "2026-03-01")
        let alerts = world.scheduler()
        #expect(alerts.state.nextAlertAt == Self.moment("2026-03-01T09:00:00Z"))
        world.move(to: "2026-03-01T08:59:59Z", alerts)
        #expect(alerts.alertTitles().isEmpty)
        world.move(to: "2026-03-01T09:00:00Z", alerts)
        #expect(alerts.alertTitles() == ["Milk"])
        // Due at 09:00 is not yet past due: that starts tomorrow.
        #expect(alerts.state.pastDueCount == 0)
        #expect(alerts.state.dueNow.first?.isPastDue == false)
    }

    @Test func theDefaultHourIsConfigurable() throws {
        let world = try AlertWorld(now: "2026-03-01T06:00:00Z")
        try world.reminder("Milk", due: "2026-03-01")
        let alerts = world.scheduler(DueAlertSettings(defaultHour: 7))
        #expect(alerts.state.nextAlertAt == Self.moment("2026-03-01T07:00:00Z"))
        world.move(to: "2026-03-01T07:00:00Z", alerts)
        #expect(alerts.alertTitles() == ["Milk"])
    }

    /// "Pay rent", due 10:30, has alerted; the clock stands at 10:31:10.
    private func alertedAtTenThirty() throws -> (AlertWorld, DueAlertScheduler, String) {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let id = try world.reminder("Pay rent", due: "2026-03-01T10:30")
        let alerts = world.scheduler()
        world.move(to: "2026-03-01T10:30:00Z", alerts)
        #expect(alerts.alertTitles() == ["Pay rent"])
        world.clock.set("2026-03-01T10:31:10Z")
        return (world, alerts, id)
    }

    @Test func aSnoozedReminderAlertsAgainAtItsNewTime() async throws {
        let (world, alerts, id) = try alertedAtTenThirty()
        let result = alerts.snooze(id: id, .tenMinutes)
        #expect(result.succeeded)
        #expect(result.message == "Snoozed “Pay rent” until 10:41")
        #expect(try world.dueDate(of: id) == "2026-03-01T10:41")
        let state = try await alerts.waitFor { $0.dueNow.isEmpty && $0.nextAlertAt != nil }
        #expect(state.nextAlertAt == Self.moment("2026-03-01T10:41:00Z"))

        world.move(to: "2026-03-01T10:40:59Z", alerts)
        #expect(alerts.alertTitles().isEmpty)
        world.move(to: "2026-03-01T10:41:00Z", alerts)
        #expect(alerts.alertTitles() == ["Pay rent"])
        #expect(alerts.state.dueNow.map(\.id) == [id])
    }

    /// A repeating reminder snoozed and then done is due at its own time
    /// the next day: a snooze moves this occurrence only.
    @Test func aSnoozeDoesNotMoveARepeatingRemindersTime() throws {
        let (world, alerts, id) = try alertedAtTenThirty()
        try world.store.updateReminder(id: id, ReminderChanges(repeatRule: .some("FREQ=DAILY")))
        #expect(alerts.snooze(id: id, .tenMinutes).succeeded)
        #expect(try world.dueDate(of: id) == "2026-03-01T10:41")
        try world.store.complete(id: id)
        #expect(try world.dueDate(of: id) == "2026-03-02T10:30")
    }

    /// Snoozed twice, the second undone: still this occurrence's time only.
    @Test func undoingASecondSnoozeKeepsTheSeriesTime() throws {
        let (world, alerts, id) = try alertedAtTenThirty()
        try world.store.updateReminder(id: id, ReminderChanges(repeatRule: .some("FREQ=DAILY")))
        #expect(alerts.snooze(id: id, .tenMinutes).succeeded)
        world.clock.set("2026-03-01T10:42:00Z")
        let second = alerts.snooze(id: id, .tenMinutes)
        #expect(try world.dueDate(of: id) == "2026-03-01T10:52")
        #expect(alerts.undo(try #require(second.undo)).succeeded)
        #expect(try world.dueDate(of: id) == "2026-03-01T10:41")
        try world.store.complete(id: id)
        #expect(try world.dueDate(of: id) == "2026-03-02T10:30")
    }

    @Test func undoingASnoozeSetsTheDueTimeBackAndTheAlertReturns() async throws {
        let (world, alerts, id) = try alertedAtTenThirty()
        let result = alerts.snooze(id: id, .oneHour)
        let undo = try #require(result.undo)
        #expect(undo == .restoreDueDate(id: id, DueDate("2026-03-01T10:30")))
        try await alerts.waitFor { $0.dueNow.isEmpty }

        let undone = alerts.undo(undo)
        #expect(undone.message == "“Pay rent” due 2026-03-01 10:30 again")
        #expect(try world.dueDate(of: id) == "2026-03-01T10:30")
        // Due and already alerted: back on Due now, with no second alert.
        let state = try await alerts.waitFor { !$0.dueNow.isEmpty }
        #expect(state.dueNow.map(\.id) == [id])
        #expect(alerts.alertTitles().isEmpty)

        // Without a due date before, the undo takes it away again.
        #expect(UndoAction.restoreDueDate(id: id, nil).doneMessage() == "No due date again")
    }

    /// At 00:30 "tomorrow morning" is the morning after the user sleeps:
    /// today's, and the toast says the time alone.
    @Test func tomorrowMorningInTheSmallHoursIsTodays() throws {
        let world = try AlertWorld(now: "2026-03-01T00:30:00Z")
        let id = try world.reminder("Pay rent", due: "2026-03-01T00:15")
        let alerts = world.scheduler()
        #expect(alerts.snoozedDueDate(.tomorrowMorning).description == "2026-03-01T09:00")
        #expect(alerts.snooze(id: id, .tomorrowMorning).message == "Snoozed “Pay rent” until 09:00")
        // From 04:00 on, the next morning.
        world.clock.set("2026-03-01T04:00:00Z")
        #expect(alerts.snoozedDueDate(.tomorrowMorning).description == "2026-03-02T09:00")
        // A morning hour set before the small hours end: past already, so tomorrow's.
        world.clock.set("2026-03-01T03:30:00Z")
        #expect(world.scheduler(DueAlertSettings(defaultHour: 3)).snoozedDueDate(.tomorrowMorning).description
                == "2026-03-02T03:00")
    }

    @Test func snoozeMovesTheDueTimeThroughTheStore() throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:40Z")
        let id = try world.reminder("Pay rent", due: "2026-03-01")
        let alerts = world.scheduler()
        #expect(alerts.snoozedDueDate(.tenMinutes).description == "2026-03-01T10:11")
        #expect(alerts.snoozedDueDate(.oneHour).description == "2026-03-01T11:01")
        #expect(alerts.snoozedDueDate(.tomorrowMorning).description == "2026-03-02T09:00")
        #expect(world.scheduler(DueAlertSettings(defaultHour: 8)).snoozedDueDate(.tomorrowMorning).description
                == "2026-03-02T08:00")

        let result = alerts.snooze(id: id, .tomorrowMorning)
        #expect(result.message == "Snoozed “Pay rent” until tomorrow 09:00")
        #expect(try world.dueDate(of: id) == "2026-03-02T09:00")
        #expect(alerts.snooze(id: "gone", .oneHour).errorMessage == "reminder gone no longer exists")
    }

    /// A daily series at 09:00 snoozed to tomorrow morning stands for
    /// tomorrow's occurrence too: the toast says so. One at 21:00 does not.
    @Test func aSnoozePastTheNextOccurrenceSaysItSkipsIt() throws {
        let world = try AlertWorld(now: "2026-03-01T09:05:00Z")
        let pills = try world.reminder("Pills", due: "2026-03-01T09:00", repeatRule: "FREQ=DAILY")
        let alerts = world.scheduler()
        #expect(alerts.snooze(id: pills, .tomorrowMorning).message
                == "Snoozed “Pills” until tomorrow 09:00, skipping Mon 2026-03-02 09:00")
        let evening = try world.reminder("Evening pills", due: "2026-03-01T21:00", repeatRule: "FREQ=DAILY")
        world.clock.set("2026-03-01T21:05:00Z")
        #expect(alerts.snooze(id: evening, .tomorrowMorning).message == "Snoozed “Evening pills” until tomorrow 09:00")
    }

    @Test func aSnoozeIsAnEditTheSyncEngineSends() throws {
        let world = DeviceWorld()
        let clock = HandClock("2026-03-01T10:30:00Z")
        let session = try world.device("laptop", user: "alice", clock: clock.appClock)
        let list = try session.store.createList(title: "Home")
        let id = try session.store.createReminder(ReminderDraft(
            listID: list.id, title: "Pay rent", dueDate: DueDate("2026-03-01T10:30"))).id
        try session.connect()
        try session.engine.sync()
        #expect(try session.engine.pendingCount() == 0)

        let environment = AppEnvironment(store: session.store)
        let alerts = DueAlertScheduler(environment: environment)
        alerts.start()
        defer { alerts.stop() }
        #expect(alerts.alertTitles() == ["Pay rent"])
        #expect(alerts.snooze(id: id, .oneHour).succeeded)
        #expect(try session.engine.pendingCount() == 1)
        try session.engine.sync()
        #expect(try session.engine.pendingCount() == 0)
    }

    @Test func alertsMissedWhileClosedAreRaisedOnStartIfRecent() throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        try world.reminder("Two hours ago", due: "2026-03-01T08:00")
        try world.reminder("Yesterday", due: "2026-02-28T09:00")
        try world.reminder("Last week", due: "2026-02-22")
        try world.reminder("Tonight", due: "2026-03-01T20:00")
        try world.reminder("Someday", due: nil)
        let alerts = world.scheduler()
        #expect(alerts.alertTitles() == ["Two hours ago"])
        // On start, everything past due is counted for the status bar.
        #expect(alerts.state.pastDueCount == 3)
        #expect(alerts.state.nextAlertAt == Self.moment("2026-03-01T20:00:00Z"))
    }

    @Test func thePastDueCountFollowsTheClockAndTheData() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let id = try world.reminder("Call", due: "2026-03-01T10:30")
        try world.reminder("Milk", due: "2026-03-01")
        let alerts = world.scheduler()
        #expect(alerts.state.pastDueCount == 0)
        world.move(to: "2026-03-01T10:31:00Z", alerts)
        #expect(alerts.state.pastDueCount == 1)
        world.move(to: "2026-03-02T00:00:00Z", alerts)
        #expect(alerts.state.pastDueCount == 2)
        try world.store.complete(id: id)
        try await alerts.waitFor { $0.pastDueCount == 1 }
    }

    @Test func completedRemindersDoNotAlertAndCompletingFromTheAlertLeavesDueNow() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let done = try world.reminder("Done already", due: "2026-03-01T10:30")
        try world.store.complete(id: done)
        let id = try world.reminder("Pay rent", due: "2026-03-01T10:30")
        let alerts = world.scheduler()
        world.move(to: "2026-03-01T10:30:00Z", alerts)
        #expect(alerts.alertTitles() == ["Pay rent"])

        // Every state, as it comes: the ticked one lasts a tenth of a
        // second, which a poll may miss while other tests hold the threads.
        let states = Recorder<DueAlertState>()
        alerts.onChange = { [weak alerts] in if let alerts { states.append(alerts.state) } }
        let result = alerts.complete(id: id)
        #expect(result.message == "Completed “Pay rent”")
        #expect(result.undo == .uncomplete(id: id))
        // …then completed, and gone.
        try await alerts.waitFor { $0.dueNow.isEmpty }
        // Ticked: it was still listed as completing, so the tick could be undone.
        let ticked = states.all.first { $0.dueNow.first?.isCompleting == true }
        #expect(ticked?.dueNow.map(\.id) == [id])
        #expect(alerts.complete(id: id).message == "“Pay rent” is already completed")
    }

    @Test func dismissingTakesAReminderOffDueNowOnly() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:30:00Z")
        let id = try world.reminder("Pay rent", due: "2026-03-01T10:30")
        let alerts = world.scheduler()
        #expect(alerts.state.dueNow.map(\.id) == [id])
        #expect(alerts.dismiss(id: id).succeeded)
        try await alerts.waitFor { $0.dueNow.isEmpty }
        #expect(alerts.alertTitles() == ["Pay rent"])
        #expect(try world.dueDate(of: id) == "2026-03-01T10:30")
        #expect(alerts.open(id: id) == id)
        #expect(alerts.open(id: "gone") == nil)
    }

    @Test func aReminderAddedOrMovedWhileRunningIsPlannedThroughTheObservation() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let alerts = world.scheduler()
        #expect(alerts.state.nextAlertAt == nil)
        let id = try world.reminder("Standup", due: "2026-03-01T11:00")
        try await alerts.waitFor { $0.nextAlertAt == Self.moment("2026-03-01T11:00:00Z") }
        // Moved into the last minutes (e.g. on another device): due now.
        try world.store.updateReminder(id: id, ReminderChanges(dueDate: .some(DueDate("2026-03-01T09:58"))))
        try await alerts.waitFor { $0.dueNow.map(\.id) == [id] }
        #expect(alerts.alertTitles() == ["Standup"])
    }

    @Test func theTimerFiresAtTheDueMomentByItself() async throws {
        // A clock that runs, from half a second before 10:30.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alerts-timer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let start = try #require(Self.moment("2026-03-01T10:29:59Z")).addingTimeInterval(0.5)
        let pool = try AppDatabase.open(path: directory.appendingPathComponent("reminders.sqlite").path)
        let environment = AppEnvironment(store: RemindersStore(writer: pool, clock: .running(from: start, timeZone: World.utc)))
        let list = try environment.store.createList(title: "Home")
        try environment.store.createReminder(ReminderDraft(listID: list.id, title: "Pay rent", dueDate: DueDate("2026-03-01T10:30")))
        let alerts = DueAlertScheduler(environment: environment)
        let woken = Counter()
        alerts.onChange = { woken.increment() }
        alerts.start()
        defer { alerts.stop() }
        #expect(alerts.state.dueNow.isEmpty)
        #expect(alerts.state.nextAlertAt == Self.moment("2026-03-01T10:30:00Z"))
        try await alerts.waitFor(timeout: 5) { !$0.dueNow.isEmpty }
        #expect(alerts.alertTitles() == ["Pay rent"])
        #expect(woken.value >= 1)
    }
}

@Suite("Notify command", .serialized)
struct NotifyCommandTests {
    @Test func splitsLikeAShellWithoutExpanding() throws {
        #expect(try NotifyCommand.split("notify-send -u critical") == ["notify-send", "-u", "critical"])
        #expect(try NotifyCommand.split(#"a 'b c' "d \"e\" \q" f\ g $HOME ~ *"#)
                == ["a", "b c", #"d "e" \q"#, "f g", "$HOME", "~", "*"])
        #expect(try NotifyCommand.split("  x  ''  ") == ["x", ""])
        #expect(try NotifyCommand.split("say 'it''s'") == ["say", "its"])
        for bad in ["", "   ", "a 'b", #"a "b"#, "a \\"] {
            #expect(throws: CoreError.self) { try NotifyCommand.split(bad) }
        }
    }

    /// A script that writes each of its arguments, NUL-terminated, to `out`.
    static func recorder(in directory: URL, out: URL) throws -> URL {
        let script = directory.appendingPathComponent("record-args")
        try Data("""
            #!/bin/sh
            printf '%s\\0' "$@" > '\(out.path)'
            """.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return script
    }

    static func arguments(in file: URL) throws -> [String] {
        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        return text.split(separator: "\0", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func aHostileTitleArrivesAsOneArgumentAndRunsNothing() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let out = world.directory.appendingPathComponent("argv")
        let canary = world.directory.appendingPathComponent("pwned")
        let script = try Self.recorder(in: world.directory, out: out)
        let hostile = #""; rm -rf / #$(reboot) `touch \#(canary.path)`; touch \#(canary.path) && echo '"#
        try world.reminder(hostile, due: "2026-03-01T10:30")
        let alerts = world.scheduler(DueAlertSettings(notifier: NotifyRunner(words: [script.path, "--urgency", "critical"])))
        world.move(to: "2026-03-01T10:30:00Z", alerts)
        alerts.waitForNotifyCommands()
        #expect(try Self.arguments(in: out) == ["--urgency", "critical", hostile, "2026-03-01 10:30"])
        #expect(!FileManager.default.fileExists(atPath: canary.path))
        #expect(alerts.takeEvents().filter { if case .notifyFailed = $0 { true } else { false } }.isEmpty)
    }

    @Test func aBareCommandNameIsLookedUpOnPath() throws {
        let world = try AlertWorld(now: "2026-03-01T09:00:00Z")
        let out = world.directory.appendingPathComponent("argv")
        let script = try Self.recorder(in: world.directory, out: out)
        let environment = ["PATH": world.directory.path]
        #expect(NotifyCommand.resolve("record-args", environment: environment) == script)
        #expect(NotifyCommand.resolve("no-such-command", environment: environment) == nil)
    }

    @Test func aMissingCommandIsReportedOnce() throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        try world.reminder("First", due: "2026-03-01T10:30")
        try world.reminder("Second", due: "2026-03-01T10:45")
        let alerts = world.scheduler(DueAlertSettings(notifier: NotifyRunner(words: ["/no/such/notify-send", "-u", "low"])))
        world.move(to: "2026-03-01T10:30:00Z", alerts)
        world.move(to: "2026-03-01T10:45:00Z", alerts)
        alerts.waitForNotifyCommands()
        let events = alerts.takeEvents()
        let failures = events.compactMap { event -> String? in
            if case .notifyFailed(let message) = event { return message }
            return nil
        }
        #expect(failures == ["notify command '/no/such/notify-send' was not found; later failures are not reported"])
        #expect(events.count == 3)
    }

    @Test func aFailingCommandIsReportedOnce() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let script = world.directory.appendingPathComponent("fail")
        try Data("#!/bin/sh\nexit 3\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try world.reminder("First", due: "2026-03-01T10:30")
        try world.reminder("Second", due: "2026-03-01T10:45")
        let alerts = world.scheduler(DueAlertSettings(notifier: NotifyRunner(words: [script.path])))
        world.move(to: "2026-03-01T10:30:00Z", alerts)
        alerts.waitForNotifyCommands()
        world.move(to: "2026-03-01T10:45:00Z", alerts)
        alerts.waitForNotifyCommands()
        let failures = alerts.takeEvents().compactMap { event -> String? in
            if case .notifyFailed(let message) = event { return message }
            return nil
        }
        #expect(failures == ["notify command '\(script.path)' failed with exit status 3; later failures are not reported"])
    }

    @Test func aHungCommandIsStoppedAndReported() throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let script = world.directory.appendingPathComponent("hang")
        try Data("#!/bin/sh\nexec sleep 30\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try world.reminder("First", due: "2026-03-01T10:30")
        let alerts = world.scheduler(DueAlertSettings(notifier: NotifyRunner(words: [script.path], timeout: 0.3)))
        world.move(to: "2026-03-01T10:30:00Z", alerts)
        alerts.waitForNotifyCommands(timeout: 5)
        let failures = alerts.takeEvents().compactMap { event -> String? in
            if case .notifyFailed(let message) = event { return message }
            return nil
        }
        #expect(failures == ["notify command '\(script.path)' did not finish within 0.3 seconds; later failures are not reported"])
    }
}
