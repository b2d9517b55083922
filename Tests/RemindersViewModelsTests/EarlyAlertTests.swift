import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport
import DeviceRuntime
@testable import RemindersViewModels

/// Alerts before the due time (`alertBefore`): when they come, once per
/// device, snoozed, across a change to or from summer time, and claimed
/// once when two processes of one device (the app and the watcher) run.
@Suite("Early alerts", .serialized)
struct EarlyAlertTests {
    static let paris = TimeZone(identifier: "Europe/Paris") ?? World.utc

    static func moment(_ text: String) -> Date? { AppClock.parseMoment(text, timeZone: World.utc) }

    @Test func anEarlyAlertFiresAtTheDueTimeLessItsLeadAndNotBefore() throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let id = try world.reminder("Standup", due: "2026-03-01T10:30", alertBefore: 15 * 60)
        let alerts = world.scheduler()
        #expect(alerts.state.nextAlertAt == Self.moment("2026-03-01T10:15:00Z"))

        world.move(to: "2026-03-01T10:14:59Z", alerts)
        #expect(alerts.takeEvents().isEmpty)
        #expect(alerts.state.dueNow.isEmpty)

        world.move(to: "2026-03-01T10:15:00Z", alerts)
        let events = alerts.takeEvents()
        guard case .alert(let alert)? = events.first, events.count == 1 else {
            Issue.record("expected one alert, got \(events)")
            return
        }
        #expect(alert.reminderID == id)
        #expect(alert.alertAt == Self.moment("2026-03-01T10:15:00Z"))
        #expect(alert.dueAt == Self.moment("2026-03-01T10:30:00Z"))
        #expect(alert.lead == 15 * 60)
        #expect(alert.dueText == "2026-03-01 10:30")
        #expect(!alert.isPastDue)
        #expect(alerts.state.dueNow.map(\.id) == [id])
        #expect(alerts.state.nextAlertAt == nil)

        // The due time itself brings no second alert.
        world.move(to: "2026-03-01T10:30:00Z", alerts)
        world.move(to: "2026-03-01T10:31:00Z", alerts)
        #expect(alerts.alertTitles().isEmpty)
        #expect(alerts.state.dueNow.first?.isPastDue == true)
    }

    @Test func anEarlyAlertComesOncePerDeviceAcrossRestarts() throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        try world.reminder("Standup", due: "2026-03-01T10:30", alertBefore: 15 * 60)
        let first = world.scheduler()
        world.move(to: "2026-03-01T10:20:00Z", first)
        #expect(first.alertTitles() == ["Standup"])
        first.stop()

        let second = world.scheduler()
        #expect(second.alertTitles().isEmpty)
        #expect(second.state.dueNow.map(\.title) == ["Standup"])
        world.move(to: "2026-03-01T10:30:00Z", second)
        #expect(second.alertTitles().isEmpty)
    }

    @Test func anEarlyAlertMissedLongAgoStillComesBeforeTheDueTime() throws {
        // A day's lead, the app closed since: at 20:00 the alert of 09:00
        // is older than the catch-up window, but the reminder is due
        // tomorrow, so it still alerts; one whose due time passed too
        // long ago only counts as past due.
        let world = try AlertWorld(now: "2026-03-01T20:00:00Z")
        try world.reminder("Passport", due: "2026-03-02T09:00", alertBefore: 24 * 3600)
        try world.reminder("Old", due: "2026-02-27T09:00", alertBefore: 24 * 3600)
        let alerts = world.scheduler(DueAlertSettings(catchUp: 3600))
        #expect(alerts.alertTitles() == ["Passport"])
        #expect(alerts.state.pastDueCount == 1)
    }

    @Test func aDateWithoutATimeAndOneDayBeforeAlertsAtTheDueHourTheDayBefore() throws {
        let world = try AlertWorld(now: "2026-03-01T08:00:00Z")
        try world.reminder("Bins out", due: "2026-03-02", alertBefore: 24 * 3600)
        let alerts = world.scheduler()
        #expect(alerts.state.nextAlertAt == Self.moment("2026-03-01T09:00:00Z"))
        world.move(to: "2026-03-01T08:59:59Z", alerts)
        #expect(alerts.alertTitles().isEmpty)
        world.move(to: "2026-03-01T09:00:00Z", alerts)
        #expect(alerts.alertTitles() == ["Bins out"])
        #expect(alerts.state.dueNow.first?.dueAt == Self.moment("2026-03-02T09:00:00Z"))

        // The due hour moves both: at 07:00 the day before.
        let early = try AlertWorld(now: "2026-03-01T06:00:00Z")
        try early.reminder("Bins out", due: "2026-03-02", alertBefore: 24 * 3600)
        #expect(early.scheduler(DueAlertSettings(defaultHour: 7)).state.nextAlertAt == Self.moment("2026-03-01T07:00:00Z"))
    }

    @Test func oneHourBeforeTheNightClocksGoForwardIsAnHourOfElapsedTime() throws {
        // Paris, 2026-03-29: 02:00 CET becomes 03:00 CEST. 03:30 CEST is
        // 01:30 UTC; an hour before is 00:30 UTC, 01:30 on the wall.
        let world = try AlertWorld(now: "2026-03-28T23:00:00Z", timeZone: Self.paris)
        try world.reminder("Early train", due: "2026-03-29T03:30", alertBefore: 3600)
        let alerts = world.scheduler()
        #expect(alerts.state.nextAlertAt == Self.moment("2026-03-29T00:30:00Z"))
        world.move(to: "2026-03-29T00:29:59Z", alerts)
        #expect(alerts.alertTitles().isEmpty)
        world.move(to: "2026-03-29T00:30:00Z", alerts)
        #expect(alerts.alertTitles() == ["Early train"])
        #expect(alerts.state.dueNow.first?.dueAt == Self.moment("2026-03-29T01:30:00Z"))
    }

    @Test func oneDayBeforeAcrossAChangeOfClocksIsTheSameWallClockTimeTheDayBefore() throws {
        // Due 09:00 CEST the morning after clocks went forward: the alert
        // is at 09:00 CET the day before, 23 hours earlier.
        let spring = try AlertWorld(now: "2026-03-28T06:00:00Z", timeZone: Self.paris)
        try spring.reminder("Brunch", due: "2026-03-29T09:00", alertBefore: 24 * 3600)
        let springAlerts = spring.scheduler()
        #expect(springAlerts.state.nextAlertAt == Self.moment("2026-03-28T08:00:00Z"))
        spring.move(to: "2026-03-28T07:59:59Z", springAlerts)
        #expect(springAlerts.alertTitles().isEmpty)
        spring.move(to: "2026-03-28T08:00:00Z", springAlerts)
        #expect(springAlerts.alertTitles() == ["Brunch"])

        // Due 09:00 CET the morning after clocks went back: 09:00 CEST the
        // day before, 25 hours earlier.
        let autumn = try AlertWorld(now: "2026-10-24T05:00:00Z", timeZone: Self.paris)
        try autumn.reminder("Brunch", due: "2026-10-25T09:00", alertBefore: 24 * 3600)
        let autumnAlerts = autumn.scheduler()
        #expect(autumnAlerts.state.nextAlertAt == Self.moment("2026-10-24T07:00:00Z"))
        autumn.move(to: "2026-10-24T07:00:00Z", autumnAlerts)
        #expect(autumnAlerts.alertTitles() == ["Brunch"])
    }

    @Test func snoozingAnEarlyAlertAlertsAgainTenMinutesLaterAndKeepsTheDueTime() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let id = try world.reminder("Standup", due: "2026-03-01T11:00", alertBefore: 30 * 60)
        let alerts = world.scheduler()
        world.move(to: "2026-03-01T10:30:00Z", alerts)
        #expect(alerts.alertTitles() == ["Standup"])
        world.clock.set("2026-03-01T10:31:10Z")

        let result = alerts.snooze(id: id, .tenMinutes)
        #expect(result.message == "Snoozed “Standup” until 10:41, due 11:00")
        #expect(result.undo == .setSnooze(id: id, DueDate("2026-03-01T11:00") ?? DueDate(moment: Date()), until: nil))
        // Only this device's alert waits: the due date is not an edit.
        #expect(try world.dueDate(of: id) == "2026-03-01T11:00")
        let snoozed = try await alerts.waitFor { $0.dueNow.isEmpty }
        #expect(snoozed.nextAlertAt == Self.moment("2026-03-01T10:41:00Z"))

        world.move(to: "2026-03-01T10:40:59Z", alerts)
        #expect(alerts.alertTitles().isEmpty)
        world.move(to: "2026-03-01T10:41:00Z", alerts)
        let events = alerts.takeEvents()
        guard case .alert(let again)? = events.first, events.count == 1 else {
            Issue.record("expected one alert, got \(events)")
            return
        }
        #expect(again.alertAt == Self.moment("2026-03-01T10:41:00Z"))
        #expect(again.lead == 19 * 60)
        #expect(alerts.state.dueNow.map(\.id) == [id])
        // And the due time brings nothing more.
        world.move(to: "2026-03-01T11:00:00Z", alerts)
        #expect(alerts.alertTitles().isEmpty)
    }

    @Test func undoingAnEarlySnoozeBringsTheAlertBackToDueNow() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let id = try world.reminder("Standup", due: "2026-03-01T11:00", alertBefore: 30 * 60)
        let alerts = world.scheduler()
        world.move(to: "2026-03-01T10:30:00Z", alerts)
        #expect(alerts.alertTitles() == ["Standup"])
        let undo = try #require(alerts.snooze(id: id, .tenMinutes).undo)
        try await alerts.waitFor { $0.dueNow.isEmpty }

        let undone = alerts.undo(undo)
        #expect(undone.message == "“Standup” due now again")
        let state = try await alerts.waitFor { !$0.dueNow.isEmpty }
        #expect(state.dueNow.map(\.id) == [id])
        #expect(state.nextAlertAt == nil)
        #expect(alerts.alertTitles().isEmpty)
        // The redo snoozes again.
        #expect(alerts.undo(try #require(undone.undo)).message == "Snoozed “Standup” again")
        try await alerts.waitFor { $0.dueNow.isEmpty && $0.nextAlertAt == Self.moment("2026-03-01T10:40:00Z") }
    }

    @Test func snoozingPastTheDueTimeMovesTheDueDateAndAlertsAtTheNewTimeNotItsLeadBefore() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let id = try world.reminder("Standup", due: "2026-03-01T10:40", alertBefore: 15 * 60)
        let alerts = world.scheduler()
        world.move(to: "2026-03-01T10:25:00Z", alerts)
        #expect(alerts.alertTitles() == ["Standup"])
        world.clock.set("2026-03-01T10:31:10Z")

        // 10:41 is after the due time: the due date moves (an edit, synced),
        // and here the alert waits for 10:41, not 15 minutes before it.
        let result = alerts.snooze(id: id, .tenMinutes)
        #expect(result.message == "Snoozed “Standup” until 10:41")
        #expect(result.undo == .restoreDueDate(id: id, DueDate("2026-03-01T10:40")))
        #expect(try world.dueDate(of: id) == "2026-03-01T10:41")
        let state = try await alerts.waitFor { $0.dueNow.isEmpty && $0.nextAlertAt != nil }
        #expect(state.nextAlertAt == Self.moment("2026-03-01T10:41:00Z"))
        #expect(alerts.alertTitles().isEmpty)

        world.move(to: "2026-03-01T10:40:59Z", alerts)
        #expect(alerts.alertTitles().isEmpty)
        world.move(to: "2026-03-01T10:41:00Z", alerts)
        #expect(alerts.alertTitles() == ["Standup"])
    }

    @Test func aRepeatingReminderAlertsEarlyOncePerOccurrence() async throws {
        let world = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let id = try world.reminder("Standup", due: "2026-03-01T10:30", alertBefore: 15 * 60, repeatRule: "FREQ=DAILY")
        let alerts = world.scheduler()
        world.move(to: "2026-03-01T10:15:00Z", alerts)
        #expect(alerts.alertTitles() == ["Standup"])

        try world.store.complete(id: id)
        #expect(try world.dueDate(of: id) == "2026-03-02T10:30")
        let state = try await alerts.waitFor { $0.nextAlertAt == Self.moment("2026-03-02T10:15:00Z") }
        #expect(state.dueNow.isEmpty)
        world.move(to: "2026-03-02T10:15:00Z", alerts)
        #expect(alerts.alertTitles() == ["Standup"])
    }

    @Test func theWatcherAlertsForAReminderSyncedFromAnotherDevice() async throws {
        // The clock is pinned at 10:00: nothing comes by the passing of
        // time, but a reminder that arrives with its alert moment past
        // alerts as it arrives, once.
        let world = DeviceWorld()
        let laptop = try world.device("laptop")
        let phone = try world.device("phone")
        let alerted = Recorder<DueAlert>()
        let problems = Recorder<String>()
        let watcher = AlertWatcher(session: laptop, settings: DueAlertSettings())
        watcher.start(onAlert: { alerted.append($0) }, onProblem: { problems.append($0) })
        defer { watcher.stop() }

        let list = try phone.store.createList(title: "Work")
        try phone.store.createReminder(ReminderDraft(listID: list.id, title: "Standup", dueDate: DueDate("2026-03-01T10:10"),
                                                     alertBefore: 15 * 60))
        try phone.store.createReminder(ReminderDraft(listID: list.id, title: "Later", dueDate: DueDate("2026-03-01T11:00"),
                                                     alertBefore: 15 * 60))
        try phone.connect()
        try phone.engine.sync()
        try await eventuallyAsync(timeout: 10, "the watcher to alert") { !alerted.all.isEmpty }
        #expect(alerted.all.map(\.title) == ["Standup"])
        #expect(alerted.all.first?.alertAt == Self.moment("2026-03-01T09:55:00Z"))
        try await eventuallyAsync(timeout: 5, "the next alert to be planned") {
            watcher.scheduler.state.nextAlertAt == Self.moment("2026-03-01T10:45:00Z")
        }
        #expect(alerted.all.count == 1)
        #expect(problems.all.isEmpty)
    }

    @Test func theAppAndTheWatcherOnOneDatabaseAlertOnceInAll() throws {
        // Two processes of one device: two connections to one file, each
        // with its scheduler, looking at the clock at the same moments.
        let app = try AlertWorld(now: "2026-03-01T10:00:00Z")
        let watcher = try AlertWorld(now: "2026-03-01T10:00:00Z", directory: app.directory)
        var ids: [String] = []
        for index in 0..<20 {
            ids.append(try app.reminder("Reminder \(index)", due: "2026-03-01T10:30",
                                        alertBefore: index.isMultiple(of: 2) ? 20 * 60 : nil))
        }
        let inApp = app.scheduler()
        let inWatcher = watcher.scheduler()
        func bothLook(at moment: String) {
            app.clock.set(moment)
            watcher.clock.set(moment)
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                (index == 0 ? inApp : inWatcher).checkNow()
            }
        }
        bothLook(at: "2026-03-01T10:10:00Z")
        // A snooze made in the app holds the watcher too, and its end is
        // claimed once.
        app.clock.set("2026-03-01T10:11:00Z")
        #expect(inApp.snooze(id: ids[0], .tenMinutes).message == "Snoozed “Reminder 0” until 10:21, due 10:30")
        for moment in ["2026-03-01T10:15:00Z", "2026-03-01T10:21:30Z", "2026-03-01T10:30:00Z", "2026-03-01T10:31:00Z"] {
            bothLook(at: moment)
        }
        let alerted = (inApp.takeEvents() + inWatcher.takeEvents()).compactMap { event -> String? in
            if case .alert(let alert) = event { return alert.reminderID }
            return nil
        }
        #expect(alerted.count == 21)
        #expect(Set(alerted) == Set(ids))
        #expect(alerted.filter { $0 == ids[0] }.count == 2)
    }
}
