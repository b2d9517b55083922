import Foundation

/// The app's idea of "now". Everything that depends on the time of day
/// (today, past due, clearing old completed reminders, alerts) reads this
/// clock, never SQLite's date('now'), so tests can pin it with
/// `REMINDERS_NOW` (ISO 8601, e.g. 2026-03-01T10:00:00Z or 2026-03-01T10:00).
public struct AppClock: Sendable {
    private let pinned: Date?
    private let source: (@Sendable () -> Date)?
    public let timeZone: TimeZone

    public init(pinned: Date? = nil, timeZone: TimeZone = .current) {
        self.pinned = pinned
        self.source = nil
        self.timeZone = timeZone
    }

    /// A clock that reads `source`: a test's hand-moved clock, or one that
    /// starts at a chosen moment and runs (`running(from:)`).
    public init(timeZone: TimeZone = .current, source: @escaping @Sendable () -> Date) {
        self.pinned = nil
        self.source = source
        self.timeZone = timeZone
    }

    /// A clock that starts at `start` and then runs at the wall clock's
    /// pace, so that due alerts can be shown at a chosen, scripted time.
    public static func running(from start: Date, timeZone: TimeZone = .current) -> AppClock {
        let origin = Date()
        return AppClock(timeZone: timeZone) { start.addingTimeInterval(Date().timeIntervalSince(origin)) }
    }

    /// A clock pinned by `REMINDERS_NOW` if the environment sets it; with
    /// `REMINDERS_CLOCK=running` it starts there and runs on instead.
    /// Throws `CoreError.invalidInput` when a variable cannot be read.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AppClock {
        let mode = environment["REMINDERS_CLOCK"] ?? ""
        guard ["", "pinned", "running"].contains(mode) else {
            throw CoreError.invalidInput("REMINDERS_CLOCK '\(mode)' is not 'pinned' or 'running'")
        }
        guard let text = environment["REMINDERS_NOW"], !text.isEmpty else { return AppClock() }
        guard let date = parseMoment(text) else {
            throw CoreError.invalidInput("REMINDERS_NOW '\(text)' is not an ISO 8601 date and time (e.g. 2026-03-01T10:00:00Z)")
        }
        return mode == "running" ? running(from: date) : AppClock(pinned: date)
    }

    /// Parses an ISO 8601 moment with a zone, or a floating local
    /// "YYYY-MM-DDTHH:MM[:SS]".
    public static func parseMoment(_ text: String, timeZone: TimeZone = .current) -> Date? {
        let withZone = ISO8601DateFormatter()
        withZone.formatOptions = [.withInternetDateTime]
        if let date = withZone.date(from: text) { return date }
        withZone.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withZone.date(from: text) { return date }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = timeZone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd"] {
            local.dateFormat = format
            if let date = local.date(from: text) { return date }
        }
        return nil
    }

    public var now: Date { source?() ?? pinned ?? Date() }

    public var isPinned: Bool { pinned != nil }

    /// Today's date in the local time zone, "YYYY-MM-DD".
    public var today: String { DueDate(moment: now, in: timeZone, includingTime: false).dateString }

    /// Now as a floating due date with time, "YYYY-MM-DDTHH:MM".
    public var nowDue: DueDate { DueDate(moment: now, in: timeZone) }

    /// "YYYY-MM-DDTHH:MM:SS" local time, the form of `Reminder.completedAt`.
    public func timestamp(_ date: Date? = nil) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter.string(from: date ?? now)
    }
}
