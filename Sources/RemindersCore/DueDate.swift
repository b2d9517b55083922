import Foundation
import GRDB

/// A due date with an optional time of day, as wall-clock values in the
/// user's local time zone ("floating", like iCalendar): 09:00 stays 09:00
/// when the user travels. Stored as "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM", which
/// also sorts correctly as text.
public struct DueDate: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    /// Hour and minute, or nil for a date without a time.
    public var time: (hour: Int, minute: Int)? {
        get { hour.map { ($0, minute ?? 0) } }
        set {
            hour = newValue?.hour
            minute = newValue?.minute
        }
    }
    private var hour: Int?
    private var minute: Int?

    /// Years outside this range are refused: they are typos, not plans.
    public static let years = 1900...9999

    public init?(year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int? = nil) {
        guard Self.years.contains(year), (1...12).contains(month),
              (1...Self.daysIn(month: month, year: year)).contains(day) else { return nil }
        if let hour {
            guard (0...23).contains(hour), let minute, (0...59).contains(minute) else { return nil }
        } else if minute != nil {
            return nil
        }
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
    }

    /// A due date as a reminder's row stores it. Text that is not a due date
    /// (another device wrote it, or an old bug) reads as none: one bad value
    /// must not make every list that holds the reminder unreadable. Every
    /// reader of stored reminders goes through here.
    public init?(stored text: String?) {
        guard let text, let value = DueDate(text) else { return nil }
        self = value
    }

    /// Parses "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM" (also with a space for T).
    public init?(_ text: String) {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            var value = 0
            for c in chars[range] {
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard chars.count == 10 || chars.count == 16,
              chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"),
              let y = number(0..<4), let m = number(5..<7), let d = number(8..<10) else { return nil }
        if chars.count == 16 {
            guard chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " "),
                  chars[13] == UInt8(ascii: ":"),
                  let h = number(11..<13), let mi = number(14..<16) else { return nil }
            self.init(year: y, month: m, day: d, hour: h, minute: mi)
        } else {
            self.init(year: y, month: m, day: d)
        }
    }

    public var hasTime: Bool { hour != nil }

    /// "YYYY-MM-DD", the date part alone.
    public var dateString: String {
        Self.digits(year, 4) + "-" + Self.digits(month, 2) + "-" + Self.digits(day, 2)
    }

    /// A text every stored due date of `day` ("YYYY-MM-DD") sorts at or
    /// before, and every later one after: `dueDate <= ` it is a range of
    /// an index of due dates, where `substr(dueDate, 1, 10) <=` the day
    /// read every dated row.
    public static func lastStored(on day: String) -> String { day + "T99:99" }

    /// The stored form: "YYYY-MM-DD" or "YYYY-MM-DDTHH:MM".
    public var description: String {
        if let timeString { return dateString + "T" + timeString }
        return dateString
    }

    /// "HH:MM", or nil for a date without a time.
    public var timeString: String? {
        guard let hour, let minute else { return nil }
        return Self.digits(hour, 2) + ":" + Self.digits(minute, 2)
    }

    /// `value` with leading zeros to `width` (screens format thousands of
    /// dates a frame; `String(format:)` cost more than reading them).
    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// The order of the stored forms (a date alone before the same date
    /// with a time), from the parts: four-digit years make it the same.
    public static func < (a: DueDate, b: DueDate) -> Bool {
        (a.year, a.month, a.day, a.hour ?? -1, a.minute ?? -1) < (b.year, b.month, b.day, b.hour ?? -1, b.minute ?? -1)
    }

    /// The number of days in a month of a year (February by leap year).
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 0001-01-01 in the proleptic Gregorian calendar: the
    /// difference of two is the number of days between them, with no time
    /// zone involved (due dates are wall-clock dates).
    public var dayNumber: Int {
        var y = year
        var m = month
        if m <= 2 {
            y -= 1
            m += 12
        }
        return 365 * y + y / 4 - y / 100 + y / 400 + (153 * (m - 3) + 2) / 5 + day
    }

    /// The day of the week, 0 for Sunday to 6 for Saturday.
    public var weekday: Int {
        // 2000-01-02 was a Sunday; its day number is 730,427.
        ((dayNumber - 730_427) % 7 + 7) % 7
    }

    /// "Sun" to "Sat", indexed by `weekday`.
    public static let weekdaySymbols = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// "Fri 2026-11-27 09:00", "Mon 2026-12-07": the weekday says which
    /// day a date was read as.
    public var withWeekday: String {
        "\(Self.weekdaySymbols[weekday]) \(description.replacingOccurrences(of: "T", with: " "))"
    }

    /// "January" to "December".
    public static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                                    "September", "October", "November", "December"]

    /// The moment this is due in a time zone; nil: the process's local
    /// zone, read through the C library as `DueDate(moment:in:)` reads it,
    /// so that a due date and the date of its moment come from one source.
    /// A date without a time is due at `defaultHour` that day.
    ///
    /// Worked out from the zone's offsets a day either side, as a Gregorian
    /// calendar reads a wall-clock time: one that does not exist (in the
    /// hour skipped when clocks go forward) takes the offset from before
    /// the change, 02:30 as 03:30 summer time; one that comes twice (the
    /// hour repeated when they go back), its first occurrence.
    public func moment(in timeZone: TimeZone? = nil, defaultHour: Int = 9) -> Date? {
        let wall = (dayNumber - Self.epochDayNumber) * 86_400 + (hour ?? defaultHour) * 3600 + (minute ?? 0) * 60
        func offset(at seconds: Int) -> Int { Self.offset(at: seconds, in: timeZone) }
        let before = offset(at: wall - 86_400), after = offset(at: wall + 86_400)
        // A reading is one the zone keeps: its offset is in effect then.
        let readings = [before, after].map { wall - $0 }.filter { offset(at: $0) == wall - $0 }
        return Date(timeIntervalSince1970: TimeInterval(readings.min() ?? wall - before))
    }

    /// The wall-clock date and time of a moment in a time zone; nil: the
    /// process's local zone, whose offset the C library reads
    /// (`localtime_r`) where Foundation would load the zone from ICU, a
    /// millisecond of a start's first frame. Worked out from the zone's
    /// offset at that moment, without a calendar.
    public init(moment: Date, in timeZone: TimeZone? = nil, includingTime: Bool = true) {
        self.init(wallClockSeconds: Self.wallClockSeconds(of: moment, in: timeZone), includingTime: includingTime)
    }

    /// The date (and time) of a wall clock's seconds since 1970-01-01T00:00
    /// (`wallClockSeconds(of:in:)`).
    init(wallClockSeconds local: Int, includingTime: Bool = true) {
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        self.init(daysSince1970: days)
        if includingTime {
            let second = local - days * 86_400
            hour = second / 3600
            minute = second % 3600 / 60
        }
    }

    /// A moment's wall-clock time in a zone (nil: the local one), as
    /// seconds since 1970-01-01T00:00 of that wall clock.
    static func wallClockSeconds(of moment: Date, in timeZone: TimeZone?) -> Int {
        let seconds = Int(moment.timeIntervalSince1970.rounded(.down))
        return seconds + offset(at: seconds, in: timeZone)
    }

    /// A zone's offset from UTC at a moment (seconds since 1970), in
    /// seconds; nil: the local zone, through the C library.
    static func offset(at seconds: Int, in timeZone: TimeZone?) -> Int {
        guard let timeZone else { return localOffset(at: seconds) }
        return timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// The offset from UTC of the process's local zone at a moment, in
    /// seconds (`TZ`, else /etc/localtime, as Foundation reads them).
    static func localOffset(at seconds: Int) -> Int {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }

    /// The date `days` days after 1970-01-01, in the proleptic Gregorian
    /// calendar (the inverse of `dayNumber`, by H. Hinnant's
    /// `civil_from_days`), without a time.
    init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.month = month
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    }

    /// `dayNumber` of 1970-01-01.
    static let epochDayNumber = 719_469

    /// The same wall-clock time `days` later.
    public func adding(days: Int) -> DueDate {
        var result = DueDate(daysSince1970: dayNumber - Self.epochDayNumber + days)
        result.hour = hour
        result.minute = minute
        return result
    }
}

extension DueDate: Codable {
    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = DueDate(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "bad due date \(text)"))
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension DueDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { description.databaseValue }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DueDate? {
        String.fromDatabaseValue(dbValue).flatMap(DueDate.init)
    }
}
