import Foundation
import GRDB
import Synchronization
import RemindersCore

/// How the running app alerts for due reminders.
public struct DueAlertSettings: Sendable {
    /// The hour at which a reminder with a date but no time falls due.
    public var defaultHour: Int
    /// Told of every alert, outside the app (the notify command); nil for
    /// none.
    public var notifier: (any AlertNotifier)?
    /// Alerts that fell due while the app was closed are still raised
    /// when it opens, if they fell due at most this long ago; older ones
    /// only count as past due.
    public var catchUp: TimeInterval

    /// The app's settings unless told otherwise.
    public init(defaultHour: Int = DueQueries.defaultHour, notifier: (any AlertNotifier)? = nil,
                catchUp: TimeInterval = 12 * 3600) {
        self.defaultHour = defaultHour
        self.notifier = notifier
        self.catchUp = catchUp
    }
}

/// Announces due alerts outside the app, such as by running the user's
/// notify command (`NotifyRunner`, in the device runtime).
public protocol AlertNotifier: Sendable {
    /// Starts announcing one alert and returns at once. `failed` gets a
    /// line for the user when it goes wrong; the notifier decides how often
    /// (a broken command is reported once, not at every alert).
    func announce(title: String, due: String, failed: @escaping @Sendable (String) -> Void)
}

/// A reminder whose alert moment arrived and that this device alerted for.
public struct DueAlert: Equatable, Sendable, Identifiable {
    /// The reminder's id, for completing, opening or snoozing it.
    public var reminderID: String
    public var title: String
    public var listTitle: String
    /// "#rrggbb".
    public var listColor: String
    /// The due date as set: a date, or a date and time.
    public var dueDate: DueDate
    /// The moment it falls due: its time, or the default hour of its date.
    public var dueAt: Date
    /// The moment it alerted (or alerts): `dueAt` less the reminder's
    /// alert-before lead, or the end of a snooze.
    public var alertAt: Date
    /// Whether it was past due when the scheduler last looked at the clock.
    public var isPastDue: Bool
    /// Ticked and about to be completed (still shown so it can be undone).
    public var isCompleting: Bool

    public var id: String { reminderID }

    /// An alert as the scheduler reports it; `alertAt` is `dueAt` unless
    /// given.
    public init(reminderID: String, title: String, listTitle: String, listColor: String, dueDate: DueDate,
                dueAt: Date, alertAt: Date? = nil, isPastDue: Bool, isCompleting: Bool = false) {
        self.reminderID = reminderID
        self.title = title
        self.listTitle = listTitle
        self.listColor = listColor
        self.dueDate = dueDate
        self.dueAt = dueAt
        self.alertAt = alertAt ?? dueAt
        self.isPastDue = isPastDue
        self.isCompleting = isCompleting
    }

    /// "2026-03-01 10:00" (or "2026-03-01" for a date alone): the due time
    /// as the notify command receives it.
    public var dueText: String { dueDate.description.replacingOccurrences(of: "T", with: " ") }

    /// How long before the due moment it alerted: zero for an alert at (or
    /// after) the due time.
    public var lead: TimeInterval { max(0, dueAt.timeIntervalSince(alertAt)) }
}

/// Something the app should tell the user, taken with `takeEvents()`.
public enum DueAlertEvent: Equatable, Sendable {
    /// A reminder fell due: show a toast offering complete, open, snooze.
    case alert(DueAlert)
    /// The notify command failed; said once per run, never again.
    case notifyFailed(String)
}

/// When to move a due reminder to: ten minutes or an hour from now, or
/// tomorrow at the settings' default hour.
public enum SnoozeOption: String, CaseIterable, Sendable {
    case tenMinutes, oneHour, tomorrowMorning

    /// The option as the snooze menu shows it.
    public var label: String {
        switch self {
        case .tenMinutes: "10 minutes"
        case .oneHour: "1 hour"
        case .tomorrowMorning: "tomorrow morning"
        }
    }
}

/// The state of `DueAlertScheduler`: what is due now and how much is
/// past due.
public struct DueAlertState: ViewState {
    /// Reminders this device alerted for that are still open and not
    /// dismissed, earliest due first: the Home screen's "Due now".
    public var dueNow: [DueAlert]
    /// Open reminders past due (as on Home), for the status bar. Counted
    /// on start and kept current as time passes and data changes.
    public var pastDueCount: Int
    /// When the next alert falls due, if any: the timer is set for it.
    public var nextAlertAt: Date?
    /// False until the first read arrived.
    public var isLoaded: Bool
    public var errorMessage: String?

    /// The defaults are the state before the first read.
    public init(dueNow: [DueAlert] = [], pastDueCount: Int = 0, nextAlertAt: Date? = nil, isLoaded: Bool = false,
                errorMessage: String? = nil) {
        self.dueNow = dueNow
        self.pastDueCount = pastDueCount
        self.nextAlertAt = nextAlertAt
        self.isLoaded = isLoaded
        self.errorMessage = errorMessage
    }
}

/// Raises due alerts while the app (or `reminders alerts --watch`) runs.
///
/// A reminder alerts at its alert moment: its due moment, or earlier by
/// its `alertBefore` lead (`AlertBefore.moment`). The scheduler reads a
/// `DueAlertPlan` (a few small reads, however many reminders there are)
/// whenever the data changes (an edit here, a sync from another device,
/// a write of another process that `OtherProcessWrites` reports) and when
/// its one timer fires, set for the earliest moment something changes: an
/// alert comes, or a reminder becomes past due. Time comes from the
/// environment's clock, so a test moves it by hand and calls `checkNow()`;
/// a pinned clock never moves, so no timer is set for it.
///
/// Each (reminder, due date) pair alerts once per device, recorded in the
/// device's unsynced `local_alertsShown` table: restarting does not alert
/// again, every other open device alerts once too, a snoozed reminder
/// alerts again at the snooze's end, and a reminder with a new due date
/// (edited, or a repeat's next occurrence) alerts for it. The claim is one
/// statement only one writer wins, so two processes of one device (the
/// app and the watcher) never both alert.
///
/// The app takes what to announce with `takeEvents()` after `onChange`
/// woke it. Call `start()` once; `stop()` cancels the timer.
public final class DueAlertScheduler: ViewModel {
    public let core: ViewModelCore<DueAlertState>
    /// The settings it was made with.
    public let settings: DueAlertSettings
    /// Read and written on `queue`; guarded all the same, so the compiler
    /// can check it.
    private let planner = Mutex(Planner())
    private let events = Mutex<[DueAlertEvent]>([])

    private struct Planner {
        /// Numbers each read of a plan as it starts; a plan whose read
        /// started before the last one applied is older than it and
        /// dropped (an observed value may arrive after a newer read).
        var readsStarted = 0
        var lastApplied = 0
        /// Bumped whenever the timer is set again or cancelled: a timer
        /// that fires acts only if its generation is still current.
        var timerGeneration = 0
        var observation: AnyDatabaseCancellable?
        var isStarted = false
    }

    private var isStarted: Bool { planner.withLock { $0.isStarted } }

    /// A scheduler that raises nothing until `start()`.
    public init(environment: AppEnvironment, settings: DueAlertSettings = DueAlertSettings()) {
        self.settings = settings
        core = ViewModelCore(environment: environment, initial: DueAlertState(), label: "due-alerts")
    }

    /// Forgets alerts of reminders that are gone, reads the plan (raising
    /// alerts already due) and starts observing. Errors land in
    /// `state.errorMessage`.
    public func start() {
        onQueue {
            let wasStarted = planner.withLock { planner in
                defer { planner.isStarted = true }
                return planner.isStarted
            }
            guard !wasStarted else { return }
            let writer = environment.writer
            do {
                try writer.write { db in try DueAlertLog.prune(db) }
            } catch {
                update { $0.errorMessage = Self.describe(error) }
                return
            }
            let fetch = self.fetch
            let observation = ValueObservation.tracking(fetch)
            let started = observation.start(
                in: writer, scheduling: .async(onQueue: queue),
                onError: { [weak self] error in self?.update { $0.errorMessage = Self.describe(error) } },
                onChange: { [weak self] value in self?.received(value) })
            planner.withLock { $0.observation = started }
            reload()
        }
    }

    /// Reads the plan now and raises what is due (tests; the observation
    /// does it by itself).
    public func refresh() {
        onQueue { if isStarted { reload() } }
    }

    /// Looks at the clock now: raises alerts that came, recounts past due,
    /// re-plans the timer. For tests that move the clock by hand.
    public func checkNow() {
        onQueue { if isStarted { reload() } }
    }

    /// Cancels the observation and the timer; `start()` begins again.
    public func willStop() {
        onQueue {
            let observation = planner.withLock { planner in
                defer {
                    planner.observation = nil
                    planner.timerGeneration += 1
                    planner.isStarted = false
                }
                return planner.observation
            }
            observation?.cancel()
        }
    }

    /// Alerts and failures raised since the last call, oldest first.
    public func takeEvents() -> [DueAlertEvent] {
        events.withLock { events in
            defer { events = [] }
            return events
        }
    }

    // MARK: Actions

    /// Completes the reminder the way ticking it does: it stays a few
    /// seconds as "completing", and `u` takes it back.
    public func complete(id: String) -> ActionResult {
        do {
            guard let reminder = try environment.writer.read({ db in try Reminder.fetchOne(db, key: id) }) else {
                return .failed("reminder \(id) no longer exists")
            }
            guard reminder.status == .incomplete else { return ActionResult(message: "“\(reminder.title)” is already completed") }
            return ReminderActions.toggleCompletion(environment, id: id)
        } catch {
            return .failed(Self.describe(error))
        }
    }

    /// The reminder's id if it still exists, for the screen to open it.
    public func open(id: String) -> String? {
        (try? environment.writer.read { db in try Reminder.exists(db, key: id) }) == true ? id : nil
    }

    /// Alerts again later; the reminder leaves Due now until then.
    ///
    /// Before the due time (an early alert snoozed for less than is left),
    /// only this device's alert waits: the due date stays, and the undo
    /// brings the alert back to Due now. Otherwise the due date moves to
    /// the snooze's end (a normal edit, synced like any other, so every
    /// device alerts again), and this device alerts at that time itself,
    /// not the reminder's lead before it; the undo sets the old due date
    /// back, which brings it back to Due now.
    public func snooze(id: String, _ option: SnoozeOption) -> ActionResult {
        let clock = environment.clock
        let until = snoozedDueDate(option)
        let timestamp = clock.timestamp()
        let hour = settings.defaultHour
        return perform {
            guard let reminder = try environment.writer.read({ db in try Reminder.fetchOne(db, key: id) }) else {
                return .failed("reminder \(id) no longer exists")
            }
            guard let untilMoment = clock.moment(of: until) else {
                return .failed("cannot snooze “\(reminder.title)” to \(until), which does not exist here")
            }
            let time = until.timeString ?? "00:00"
            let when = option == .tomorrowMorning && until.dateString != clock.today ? "tomorrow \(time)" : time
            // The time is what matters: a long title is shortened so a toast keeps it.
            let title = reminder.title.count > 40 ? String(reminder.title.prefix(39)) + "…" : reminder.title
            if let due = reminder.dueDate, let dueAt = clock.moment(of: due, defaultHour: hour), untilMoment < dueAt {
                let previous = try environment.writer.write { db in
                    let previous = try DueAlertLog.snoozedUntil(db, reminderID: id, dueDate: due)
                    try DueAlertLog.snooze(db, reminderID: id, dueDate: due, until: untilMoment, at: timestamp)
                    return previous
                }
                let dueTime = clock.dueDate(at: dueAt)
                let dueText = due.hasTime && dueTime.dateString == until.dateString
                    ? dueTime.timeString ?? "00:00"
                    : due.description.replacingOccurrences(of: "T", with: " ")
                return ActionResult(message: "Snoozed “\(title)” until \(when), due \(dueText)",
                                    undo: .setSnooze(id: id, due, until: previous))
            }
            if (reminder.alertBefore ?? 0) > 0 {
                // Held first: the new due date less the lead may be now already.
                try environment.writer.write { db in
                    try DueAlertLog.snooze(db, reminderID: id, dueDate: until, until: untilMoment, at: timestamp)
                }
            }
            try store.moveOccurrence(id: id, to: until)
            // A series snoozed past its next occurrence stands for both.
            let moved = try environment.writer.read { db in try Reminder.fetchOne(db, key: id) }
            let skipped = moved.flatMap { Repeats.skippedWords(Repeats.skipped($0), format: \.withWeekday) }
            return ActionResult(message: "Snoozed “\(title)” until \(when)" + (skipped.map { ", skipping \($0)" } ?? ""),
                                undo: .restoreDueDate(id: id, reminder.dueDate))
        }
    }

    /// Takes the reminder off Due now without changing it.
    public func dismiss(id: String) -> ActionResult {
        let timestamp = environment.clock.timestamp()
        return perform {
            try environment.writer.write { db in try DueAlertLog.dismiss(db, reminderID: id, at: timestamp) }
            return .done
        }
    }

    /// Takes back a completion or a snooze made from an alert.
    public func undo(_ action: UndoAction) -> ActionResult {
        ReminderActions.undo(environment, action)
    }

    /// Before this hour the night is still the day before's, for "tomorrow
    /// morning".
    static let smallHoursEnd = 4

    /// The due date a snooze sets: now plus 10 minutes or an hour, to the
    /// nearest minute; or the next morning (today's in the small hours) at
    /// the settings' default hour.
    public func snoozedDueDate(_ option: SnoozeOption) -> DueDate {
        let clock = environment.clock
        let now = clock.now
        switch option {
        case .tenMinutes, .oneHour:
            let seconds: TimeInterval = option == .tenMinutes ? 600 : 3600
            return clock.dueDate(at: now.addingTimeInterval(seconds + 30))
        case .tomorrowMorning:
            // In the small hours the morning to come is today's: at 00:30,
            // "tomorrow morning" is the one after the user has slept.
            let current = clock.dueDate(at: now)
            let hour = current.time?.hour ?? 0
            var morning = clock.dueDate(at: now, includingTime: false)
                .adding(days: hour < Self.smallHoursEnd && hour < settings.defaultHour ? 0 : 1)
            morning.time = (settings.defaultHour, 0)
            return morning
        }
    }

    // MARK: Work (on the queue)

    /// Reads a plan for the clock's now, numbered as its read starts.
    private var fetch: @Sendable (Database) throws -> NumberedPlan {
        let clock = environment.clock
        let settings = self.settings
        return { [weak self] db in
            let number = self?.planner.withLock { planner in
                planner.readsStarted += 1
                return planner.readsStarted
            } ?? 0
            let plan = try DueAlertPlan.read(db, clock: clock, defaultHour: settings.defaultHour, catchUp: settings.catchUp)
            return NumberedPlan(number: number, plan: plan)
        }
    }

    struct NumberedPlan: Sendable {
        var number: Int
        var plan: DueAlertPlan
    }

    private func reload() {
        do {
            received(try environment.writer.read(fetch))
        } catch {
            update { $0.errorMessage = Self.describe(error) }
        }
    }

    /// Raises what the plan finds due, then shows the plan (read again if
    /// anything was claimed) and sets the timer.
    private func received(_ value: NumberedPlan) {
        guard isStarted else { return }
        let isNewest = planner.withLock { planner in
            guard value.number >= planner.lastApplied else { return false }
            planner.lastApplied = value.number
            return true
        }
        guard isNewest else { return }
        var plan = value.plan
        if !plan.due.isEmpty {
            let fired = claim(plan.due, now: plan.now)
            for alert in fired {
                post(.alert(alert))
                settings.notifier?.announce(title: alert.title, due: alert.dueText) { [weak self] message in
                    self?.post(.notifyFailed(message))
                }
            }
            // What this process claimed, or another process did, is in the
            // log now: Due now shows it.
            do {
                let numbered = try environment.writer.read(fetch)
                planner.withLock { $0.lastApplied = max($0.lastApplied, numbered.number) }
                plan = numbered.plan
            } catch {
                update { $0.errorMessage = Self.describe(error) }
                return
            }
        }
        show(plan)
    }

    private func show(_ plan: DueAlertPlan) {
        let snapshot = environment.clock.pinned(at: plan.now)
        let dueNow = plan.shown.map { alert(for: $0, alertAt: nil, snapshot: snapshot) }
        schedule([plan.nextAlertAt, plan.nextPastDueAt].compactMap { $0 }.min(), now: plan.now)
        update { state in
            state.dueNow = dueNow
            state.pastDueCount = plan.pastDueCount
            state.nextAlertAt = plan.nextAlertAt
            state.isLoaded = true
            state.errorMessage = nil
        }
    }

    /// Claims the alerts in the device's log and returns those this
    /// process won.
    private func claim(_ due: [PlannedAlert], now: Date) -> [DueAlert] {
        let snapshot = environment.clock.pinned(at: now)
        let timestamp = snapshot.timestamp()
        do {
            let won = try environment.writer.write { db in try due.filter { try $0.claim(db, at: timestamp) } }
            return won.map { alert(for: $0.reminder, alertAt: $0.alertAt, snapshot: snapshot) }
        } catch {
            update { $0.errorMessage = Self.describe(error) }
            return []
        }
    }

    private func alert(for reminder: AlertingReminder, alertAt: Date?, snapshot: AppClock) -> DueAlert {
        DueAlert(reminderID: reminder.id, title: reminder.title, listTitle: reminder.listTitle,
                 listColor: reminder.listColor, dueDate: reminder.dueDate, dueAt: reminder.dueAt,
                 alertAt: alertAt ?? reminder.alertAt,
                 isPastDue: Queries.isPastDue(reminder.dueDate, clock: snapshot),
                 isCompleting: reminder.status == .completing)
    }

    /// Sets the one timer. Long waits are cut into steps of at most five
    /// minutes so that a changed system clock is noticed.
    private func schedule(_ next: Date?, now: Date) {
        let generation = planner.withLock { planner in
            planner.timerGeneration += 1
            return planner.timerGeneration
        }
        guard let next, !environment.clock.isPinned else { return }
        let delay = min(max(next.timeIntervalSince(now), 0.01), 300)
        queue.asyncAfter(wallDeadline: .now() + delay) { [weak self] in
            guard let self, self.planner.withLock({ $0.timerGeneration }) == generation else { return }
            self.reload()
        }
    }

    /// Queues an event and wakes the app (`onChange` runs on the queue,
    /// as for every state change; failures are reported from other threads).
    private func post(_ event: DueAlertEvent) {
        events.withLock { $0.append(event) }
        queue.async { [weak self] in self?.onChange?() }
    }
}
