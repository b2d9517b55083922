import Foundation

/// The app's idea of "now". Everything that depends on the time of day
/// (today, past due, clearing old completed reminders, alerts) reads this
/// clock, never SQLite's date('now'), so tests can pin it with
/// `REMINDERS_NOW` (ISO 8601, e.g. 2026-03-01T10:00:00Z or 2026-03-01T10:00).
public struct AppClock: Sendable {
    private let pinned: Date?
    private let source: (@Sendable () -> Date)?
    /// The zone the clock was given; nil for the process's local zone, which
    /// its dates and due moments (`today`, `nowDue`, `dueDate(at:)`,
    /// `moment(of:)`, `timestamp`) read through the C library, without
    /// loading it from ICU (see `DueDate(moment:in:)`).
    public let zone: TimeZone?

    /// `timeZone`: nil for the local one.
    public init(pinned: Date? = nil, timeZone: TimeZone? = nil) {
        self.pinned = pinned
        self.source = nil
        self.zone = timeZone
    }

    /// A clock that reads `source`: a test's hand-moved clock, or one that
    /// starts at a chosen moment and runs (`running(from:)`).
    public init(timeZone: TimeZone? = nil, source: @escaping @Sendable () -> Date) {
        self.pinned = nil
        self.source = source
        self.zone = timeZone
    }

    /// The clock's time zone as Foundation's, for calendars, formats and
    /// iCalendar: the local one read from `TZ` as the C library reads it
    /// (`LocalZone`), made when first asked for.
    public var timeZone: TimeZone { zone ?? LocalZone.current }

    /// The moment a due date falls due in the clock's zone (a date alone at
    /// `defaultHour`).
    public func moment(of due: DueDate, defaultHour: Int = 9) -> Date? {
        due.moment(in: zone, defaultHour: defaultHour)
    }

    /// The same clock pinned at `moment`.
    public func pinned(at moment: Date) -> AppClock { AppClock(pinned: moment, timeZone: zone) }

    /// A clock that starts at `start` and then runs at the wall clock's
    /// pace, so that due alerts can be shown at a chosen, scripted time.
    public static func running(from start: Date, timeZone: TimeZone? = nil) -> AppClock {
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

    /// Parses an ISO 8601 moment with a zone ("2026-03-01T10:00:00Z",
    /// "…T10:00:00.250+01:00"), or a floating local "YYYY-MM-DD[THH:MM[:SS]]"
    /// read in `timeZone` (the local one if nil, through the C library).
    ///
    /// Read by hand rather than by Foundation's formatters: those load the
    /// ICU library's locale data on first use, which a start that pins the
    /// clock would otherwise pay for before its first frame.
    public static func parseMoment(_ text: String, timeZone: TimeZone? = nil) -> Date? {
        var scanner = MomentScanner(text)
        guard let year = scanner.number(digits: 4), scanner.skip("-"), let month = scanner.number(digits: 2),
              scanner.skip("-"), let day = scanner.number(digits: 2),
              let date = DueDate(year: year, month: month, day: day) else { return nil }
        var hour = 0, minute = 0, second = 0, fraction = 0.0
        if scanner.skip("T") {
            guard let h = scanner.number(digits: 2), scanner.skip(":"), let m = scanner.number(digits: 2),
                  h < 24, m < 60 else { return nil }
            (hour, minute) = (h, m)
            if scanner.skip(":") {
                guard let s = scanner.number(digits: 2), s < 60 else { return nil }
                second = s
                if scanner.skip(".") {
                    guard let digits = scanner.digits(), !digits.isEmpty else { return nil }
                    fraction = Double("0." + digits) ?? 0
                }
            }
        }
        if scanner.atEnd {
            let wallClock = DueDate(year: year, month: month, day: day, hour: hour, minute: minute)
            return wallClock?.moment(in: timeZone)?.addingTimeInterval(TimeInterval(second) + fraction)
        }
        // A zone: only after a time.
        guard text.contains("T") else { return nil }
        var offset = 0
        if !scanner.skip("Z") {
            let sign: Int
            if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
            guard let h = scanner.number(digits: 2), h < 24 else { return nil }
            _ = scanner.skip(":")
            guard let m = scanner.number(digits: 2), m < 60 else { return nil }
            offset = sign * (h * 3600 + m * 60)
        }
        guard scanner.atEnd else { return nil }
        let seconds = (date.dayNumber - DueDate.epochDayNumber) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    public var now: Date { source?() ?? pinned ?? Date() }

    public var isPinned: Bool { pinned != nil }

    /// Today's date in the local time zone, "YYYY-MM-DD".
    public var today: String { dueDate(at: now, includingTime: false).dateString }

    /// Now as a floating due date with time, "YYYY-MM-DDTHH:MM".
    public var nowDue: DueDate { dueDate(at: now) }

    /// The wall-clock date (and time) of `moment` in the clock's zone.
    public func dueDate(at moment: Date, includingTime: Bool = true) -> DueDate {
        DueDate(moment: moment, in: zone, includingTime: includingTime)
    }

    /// "YYYY-MM-DDTHH:MM:SS" in the clock's zone, the form of
    /// `Reminder.completedAt`.
    public func timestamp(_ date: Date? = nil) -> String {
        let local = DueDate.wallClockSeconds(of: date ?? now, in: zone)
        let second = (local % 60 + 60) % 60
        return DueDate(wallClockSeconds: local).description + (second < 10 ? ":0" : ":") + String(second)
    }
}

/// Reads the fixed-width fields of `AppClock.parseMoment`.
private struct MomentScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    /// Exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<(index + digits)] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += digits
        return value
    }

    /// The decimal digits from here on, as text.
    mutating func digits() -> String? {
        let start = index
        while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
