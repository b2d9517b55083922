import Foundation

/// A repeat rule: the RFC 5545 RRULE subset documented below, anchored at
/// the reminder's current due date (DTSTART is the due date; the rule
/// describes the rest of the series from there).
///
/// The series follows RFC 5545, so that a rule means the same here as in
/// any calendar that reads the synced text:
/// - DAILY: every `interval` days.
/// - WEEKLY: every `interval` weeks, weeks starting on Monday (WKST=MO),
///   on the listed weekdays, or on the due date's weekday.
/// - MONTHLY: on the listed days of the month (31 skips months without a
///   31st; -1 is the last day), or on the listed weekdays (2TU = the 2nd
///   Tuesday, -1FR = the last Friday; a 5th weekday skips months without
///   one), or on the due date's day of the month. Months without that day
///   are skipped, as RFC 5545 says (Jan 31 monthly gives Mar 31, May 31,
///   …): moving to Feb 28 would silently turn "the 31st" into "the 28th"
///   for the rest of the series. People who mean the month's end choose
///   "the last day" (BYMONTHDAY=-1).
/// - YEARLY: on the due date's month and day (Feb 29 gives leap years
///   only), unless BYMONTH, BYMONTHDAY or BYDAY say otherwise.
///
/// The due date counts as the first occurrence (COUNT includes it) even
/// when it does not match the BY parts; the following occurrences are the
/// matching dates after it.
public struct RepeatRule: Hashable, Sendable, CustomStringConvertible {
    public enum Frequency: String, Sendable, CaseIterable {
        case daily = "DAILY", weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY"
    }

    /// A BYDAY entry: a weekday (0 = Sunday ... 6 = Saturday, as
    /// `DueDate.weekday`) with an optional ordinal (1...5, or -1...-5 from
    /// the end: -1 = last) for monthly and yearly rules.
    public struct Day: Hashable, Sendable {
        public var weekday: Int
        public var ordinal: Int?

        public init(weekday: Int, ordinal: Int? = nil) {
            self.weekday = weekday
            self.ordinal = ordinal
        }
    }

    /// How the series ends.
    public enum End: Hashable, Sendable {
        case never
        /// The last day (or moment) an occurrence may fall on, inclusive.
        case until(DueDate)
        /// The number of occurrences left, the current due date included.
        case count(Int)
    }

    public var frequency: Frequency
    /// Every how many days, weeks, months or years: 1...999.
    public var interval: Int
    /// BYDAY. Kept sorted (Monday first) and without repeats, as are the
    /// other lists: rules that mean the same compare equal and write the
    /// same text, whatever order they were built in.
    public var days: [Day] { didSet { days = Self.canonical(days) } }
    /// BYMONTHDAY: 1...31, or -1...-31 from the end of the month.
    public var monthDays: [Int] { didSet { monthDays = Self.canonical(monthDays) } }
    /// BYMONTH: 1...12.
    public var months: [Int] { didSet { months = Self.canonical(months) } }
    /// UNTIL or COUNT (COUNT counts occurrences from the current due date, inclusive).
    public var end: End
    /// "After completion": the next due date counts from the day the
    /// reminder was completed, not from its due date. Written as the
    /// non-standard rule part FROM=COMPLETION (as Tasks.org does); every
    /// other part is RFC 5545.
    public var fromCompletion: Bool

    /// A rule from its parts. The values are not checked here: a rule out
    /// of range (interval 0, weekday 9) has no occurrences. Text from
    /// people or other devices goes through the parsers, which refuse them.
    public init(frequency: Frequency, interval: Int = 1, days: [Day] = [], monthDays: [Int] = [],
                months: [Int] = [], end: End = .never, fromCompletion: Bool = false) {
        self.frequency = frequency
        self.interval = interval
        self.days = Self.canonical(days)
        self.monthDays = Self.canonical(monthDays)
        self.months = Self.canonical(months)
        self.end = end
        self.fromCompletion = fromCompletion
    }

    // MARK: Limits

    static let intervals = 1...999
    static let counts = 1...9999
    /// BYDAY ordinals, and BYMONTHDAY values, count from either end.
    static let ordinals = Set(Array(-5 ... -1) + Array(1...5))
    static let monthDayValues = Set(Array(-31 ... -1) + Array(1...31))
    /// Longer RRULE text is refused before it is read: the longest rule
    /// this type can write (every BY value at once) is under 800 characters.
    static let maximumRRULELength = 1000
    /// Longer typed text is refused before it is read.
    static let maximumPhraseLength = 200

    /// The RRULE weekday codes, indexed by `DueDate.weekday`.
    static let weekdayCodes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// Checks what the parsers accept, naming the first part out of range
    /// in RRULE terms.
    func validate() throws(RepeatRuleError) {
        guard Self.intervals.contains(interval) else {
            throw RepeatRuleError("INTERVAL=\(interval): the interval must be 1–999")
        }
        if case .count(let count) = end, !Self.counts.contains(count) {
            throw RepeatRuleError("COUNT=\(count): the count must be 1–9999")
        }
        for day in days {
            guard (0...6).contains(day.weekday) else {
                throw RepeatRuleError("BYDAY: weekday \(day.weekday) is not 0 (Sunday) to 6 (Saturday)")
            }
            guard let ordinal = day.ordinal else { continue }
            let code = Self.code(day)
            guard Self.ordinals.contains(ordinal) else {
                throw RepeatRuleError("BYDAY=\(code): the ordinal must be 1 to 5, or -1 to -5 counting from the end (-1FR = last Friday)")
            }
            guard frequency == .monthly || frequency == .yearly else {
                throw RepeatRuleError("BYDAY=\(code): an ordinal needs FREQ=MONTHLY or FREQ=YEARLY (every \(frequency == .daily ? "day" : "week") has one of each weekday)")
            }
        }
        for day in monthDays where !Self.monthDayValues.contains(day) {
            throw RepeatRuleError("BYMONTHDAY=\(day): a day of the month is 1 to 31, or -1 to -31 counting from the end (-1 = last day)")
        }
        guard frequency != .weekly || monthDays.isEmpty else {
            throw RepeatRuleError("BYMONTHDAY with FREQ=WEEKLY: RFC 5545 does not allow it (use BYDAY, or FREQ=MONTHLY)")
        }
        for month in months where !(1...12).contains(month) {
            throw RepeatRuleError("BYMONTH=\(month): a month is 1 to 12")
        }
    }

    // MARK: RRULE text

    /// Parses RRULE text, with or without a leading "RRULE:". Strict, so
    /// that a rule that would mean something else elsewhere is refused
    /// rather than half understood: unknown parts, repeated parts, bad
    /// values, BYSECOND/BYMINUTE/BYHOUR/BYWEEKNO/BYYEARDAY/BYSETPOS, WKST
    /// other than MO, COUNT and UNTIL together, INTERVAL < 1 or > 999,
    /// COUNT < 1 or > 9999 are each an error with one clear message. Names
    /// and values are case-insensitive (RFC 5545 3.1). UNTIL takes a DATE
    /// (YYYYMMDD) or DATE-TIME (YYYYMMDDTHHMMSS, optional Z, read as the
    /// wall clock given: due dates are floating); seconds are dropped.
    public init(rrule text: String) throws(RepeatRuleError) {
        try Self.checkCharacters(text, what: "RRULE", limit: Self.maximumRRULELength)
        var body = Substring(text.trimmingWhitespaceAndNewlines().uppercased())
        if body.hasPrefix("RRULE:") { body = body.dropFirst(6) }
        let example = "e.g. FREQ=WEEKLY;BYDAY=MO,TH"
        guard !body.isEmpty else { throw RepeatRuleError("RRULE is empty (\(example))") }

        var frequency: Frequency?
        var interval = 1
        var days: [Day] = []
        var monthDays: [Int] = []
        var months: [Int] = []
        var count: Int?
        var until: DueDate?
        var fromCompletion = false
        var seen: Set<Substring> = []
        for part in body.split(separator: ";", omittingEmptySubsequences: false) {
            guard !part.isEmpty else {
                throw RepeatRuleError("\(Self.quoted(body)) has an empty part (two ';' in a row, or one at an end)")
            }
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pieces.count == 2, !pieces[0].isEmpty, !pieces[1].isEmpty else {
                throw RepeatRuleError("\(Self.quoted(part)) is not NAME=VALUE (\(example))")
            }
            let name = pieces[0], value = pieces[1]
            guard seen.insert(name).inserted else { throw RepeatRuleError("\(Self.clipped(name)) is given twice") }
            switch name {
            case "FREQ":
                guard let value = Frequency(rawValue: String(value)) else {
                    let known = ["SECONDLY", "MINUTELY", "HOURLY"].contains(value)
                    throw RepeatRuleError("FREQ=\(Self.clipped(value)) is not \(known ? "supported" : "a frequency"): use DAILY, WEEKLY, MONTHLY or YEARLY")
                }
                frequency = value
            case "INTERVAL":
                guard let value = Self.number(value) else {
                    throw RepeatRuleError("INTERVAL=\(Self.clipped(value)): the interval must be 1–999")
                }
                interval = value
            case "COUNT":
                guard let value = Self.number(value) else {
                    throw RepeatRuleError("COUNT=\(Self.clipped(value)): the count must be 1–9999")
                }
                count = value
            case "UNTIL":
                until = try Self.untilValue(value)
            case "BYDAY":
                for entry in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let day = Self.day(entry) else {
                        throw RepeatRuleError("BYDAY=\(Self.clipped(value)): \(Self.quoted(entry)) is not a weekday (MO, TU, WE, TH, FR, SA or SU, with an optional ordinal: 2TU, -1FR)")
                    }
                    days.append(day)
                }
            case "BYMONTHDAY":
                for entry in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let day = Self.number(entry, signed: true) else {
                        throw RepeatRuleError("BYMONTHDAY=\(Self.clipped(value)): \(Self.quoted(entry)) is not a day of the month (1 to 31, or -1 to -31 counting from the end)")
                    }
                    monthDays.append(day)
                }
            case "BYMONTH":
                for entry in value.split(separator: ",", omittingEmptySubsequences: false) {
                    guard let month = Self.number(entry) else {
                        throw RepeatRuleError("BYMONTH=\(Self.clipped(value)): \(Self.quoted(entry)) is not a month (1 to 12)")
                    }
                    months.append(month)
                }
            case "WKST":
                guard value == "MO" else {
                    throw RepeatRuleError("WKST=\(Self.clipped(value)) is not supported: weeks start on Monday (WKST=MO)")
                }
            case "FROM":
                guard value == "COMPLETION" else {
                    throw RepeatRuleError("FROM=\(Self.clipped(value)) is not supported: the only value is FROM=COMPLETION")
                }
                fromCompletion = true
            case "BYSECOND", "BYMINUTE", "BYHOUR", "BYWEEKNO", "BYYEARDAY", "BYSETPOS":
                throw RepeatRuleError("\(name) is not supported (supported: FREQ, INTERVAL, BYMONTH, BYMONTHDAY, BYDAY, COUNT, UNTIL, WKST=MO)")
            default:
                throw RepeatRuleError("\(Self.quoted(name)) is not an RRULE part (\(example))")
            }
        }
        guard count == nil || until == nil else {
            throw RepeatRuleError("COUNT and UNTIL together: a rule ends one way, keep one")
        }
        guard let frequency else { throw RepeatRuleError("FREQ is missing (\(example))") }
        let end: End = if let count { .count(count) } else if let until { .until(until) } else { .never }
        self.init(frequency: frequency, interval: interval, days: days, monthDays: monthDays, months: months,
                  end: end, fromCompletion: fromCompletion)
        try validate()
    }

    /// The canonical RRULE text, without the "RRULE:" prefix, parts in a
    /// fixed order: FREQ, INTERVAL (only when > 1), BYMONTH, BYMONTHDAY,
    /// BYDAY, COUNT or UNTIL, FROM=COMPLETION. Two devices that build the
    /// same rule write the same text: it is synced and compared byte for
    /// byte. Parsing it gives the same rule back.
    public var rrule: String {
        var parts = ["FREQ=" + frequency.rawValue]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if !months.isEmpty { parts.append("BYMONTH=" + months.map(String.init).joined(separator: ",")) }
        if !monthDays.isEmpty { parts.append("BYMONTHDAY=" + monthDays.map(String.init).joined(separator: ",")) }
        if !days.isEmpty { parts.append("BYDAY=" + days.map(Self.code).joined(separator: ",")) }
        switch end {
        case .never: break
        case .count(let count): parts.append("COUNT=\(count)")
        case .until(let until): parts.append("UNTIL=" + Self.untilText(until))
        }
        if fromCompletion { parts.append("FROM=COMPLETION") }
        return parts.joined(separator: ";")
    }

    /// "2TU", "-1FR", "MO".
    static func code(_ day: Day) -> String {
        let weekday = weekdayCodes.indices.contains(day.weekday) ? weekdayCodes[day.weekday] : "?\(day.weekday)"
        return (day.ordinal.map(String.init) ?? "") + weekday
    }

    /// A BYDAY entry: an optional signed ordinal, then a weekday code.
    private static func day(_ entry: Substring) -> Day? {
        guard entry.count >= 2, let weekday = weekdayCodes.firstIndex(of: String(entry.suffix(2))) else { return nil }
        let prefix = entry.dropLast(2)
        if prefix.isEmpty { return Day(weekday: weekday) }
        guard let ordinal = number(prefix, signed: true) else { return nil }
        return Day(weekday: weekday, ordinal: ordinal)
    }

    /// A whole number of at most nine digits (no rule needs more; no
    /// arithmetic overflows), with a leading + or - when `signed`.
    private static func number(_ text: Substring, signed: Bool = false) -> Int? {
        var digits = text
        var sign = 1
        if signed, let first = digits.first, first == "+" || first == "-" {
            sign = first == "-" ? -1 : 1
            digits = digits.dropFirst()
        }
        guard (1...9).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let value = Int(digits) else { return nil }
        return sign * value
    }

    /// UNTIL as DATE (YYYYMMDD) or DATE-TIME (YYYYMMDDTHHMMSS, optional Z).
    private static func untilValue(_ value: Substring) throws(RepeatRuleError) -> DueDate {
        let shape = "UNTIL=\(clipped(value)): write YYYYMMDD or YYYYMMDDTHHMMSS (e.g. UNTIL=20270131)"
        let text = value.hasSuffix("Z") && value.count == 16 ? value.dropLast() : value
        let chars = Array(text)
        guard chars.count == 8 || (chars.count == 15 && chars[8] == "T") else { throw RepeatRuleError(shape) }
        func field(_ range: Range<Int>) -> Int? { number(Substring(String(chars[range]))) }
        guard let year = field(0..<4), let month = field(4..<6), let day = field(6..<8) else { throw RepeatRuleError(shape) }
        var hour: Int?, minute: Int?
        if chars.count == 15 {
            guard let h = field(9..<11), let m = field(11..<13), let s = field(13..<15), (0...59).contains(s) else {
                throw RepeatRuleError(shape)
            }
            hour = h
            minute = m
        }
        guard let until = DueDate(year: year, month: month, day: day, hour: hour, minute: minute) else {
            throw RepeatRuleError("UNTIL=\(clipped(value)) is not a date and time between \(DueDate.years.lowerBound) and \(DueDate.years.upperBound)")
        }
        return until
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// UNTIL as written: a DATE for a date alone, else a floating
    /// DATE-TIME (no Z: due dates are wall-clock values).
    private static func untilText(_ until: DueDate) -> String {
        let date = until.dateString.replacingOccurrences(of: "-", with: "")
        guard let time = until.time else { return date }
        return date + "T" + twoDigits(time.hour) + twoDigits(time.minute) + "00"
    }

    // MARK: Occurrences

    /// The next occurrences strictly after `due` under this rule, `count`
    /// of them at most; fewer when the rule ends (UNTIL is inclusive; COUNT
    /// counts `due` itself as occurrence 1, so COUNT=3 gives at most 2).
    /// Each keeps `due`'s time of day, or lack of one. `fromCompletion` is
    /// not considered here: this is the series as scheduled.
    ///
    /// The search walks the rule's periods (days, weeks, months or years,
    /// `interval` apart) from `due`'s, so a rule that matches in every
    /// period costs a step per occurrence. It stops after a whole Gregorian
    /// cycle of periods without a match (the calendar, weekdays included,
    /// repeats every 400 years, so a rule that has not matched in one
    /// cycle never will: Feb 30 gives nothing) or at the end of year 9999.
    /// The rule with an interval of one: which days it falls on, without
    /// which of its periods (a day on the rule's days is on them in any
    /// week, whatever the interval counts from).
    var everyPeriod: RepeatRule {
        var rule = self
        rule.interval = 1
        return rule
    }

    public func occurrences(after due: DueDate, count: Int) -> [DueDate] {
        guard (try? validate()) != nil else { return [] }
        var wanted = count
        if case .count(let total) = end { wanted = min(wanted, total - 1) }
        guard wanted > 0 else { return [] }
        var found: [DueDate] = []
        var idle = 0
        var period = 0
        while idle <= frequency.periodsPerCycle, let candidates = candidates(inPeriod: period, from: due) {
            var matched = false
            for dayNumber in candidates where dayNumber > due.dayNumber {
                guard let date = Self.date(dayNumber: dayNumber, time: due.time), isWithinEnd(date) else { return found }
                found.append(date)
                matched = true
                if found.count == wanted { return found }
            }
            idle = matched ? 0 : idle + 1
            period += 1
        }
        return found
    }

    /// What completing the occurrence `due` leaves: the next due date and
    /// the rule to carry on with (COUNT one less), or nil when the series
    /// has run out (COUNT=1, or the next occurrence is after UNTIL).
    ///
    /// For a `fromCompletion` rule the next due date is `completedOn` (the
    /// completion's wall-clock day in the device's zone; a time on it is
    /// ignored) plus one interval, a month's end clamped (Jan 31 plus a
    /// month is Feb 28 or 29: counted from a completion, the day of the
    /// month is an accident, not a choice), keeping `due`'s time of day. BY
    /// parts are ignored then, except that a weekly rule with days moves on
    /// to the first listed weekday on or after that date. Done so early
    /// that this lands on or before `due`'s day, it counts from that day
    /// instead: a series does not come due again on the day just done (the
    /// occurrence's copy would be taken for the next one's). Otherwise it
    /// is `occurrences(after: due, count: 1).first`.
    ///
    /// `movedTo` is where the occurrence `due` was moved (`Repeats`): the
    /// series keeps its schedule and time of day, and goes on at the first
    /// occurrence after the moved date (after its moment when both have a
    /// time), so a snooze to the next morning does not skip that evening's
    /// occurrence and a series every two weeks keeps its weeks. A count
    /// goes down by one however many occurrences that passes.
    public func advance(from due: DueDate, completedOn: DueDate, movedTo: DueDate? = nil) -> (due: DueDate, rule: RepeatRule)? {
        if case .count(let count) = end, count <= 1 { return nil }
        var next: DueDate?
        if fromCompletion {
            // The series' time of day, on the day it was done or moved to.
            let base = movedTo.map { due.adding(days: $0.dayNumber - due.dayNumber) } ?? due
            next = nextAfterCompletion(on: completedOn, keepingTimeOf: base)
            if let early = next, early.dayNumber <= base.dayNumber { next = nextAfterCompletion(on: base, keepingTimeOf: base) }
        } else {
            next = occurrences(after: due, count: 1).first
            var steps = 0
            while let moved = movedTo, let candidate = next, !Self.comes(candidate, after: moved), steps < 100_000 {
                next = occurrences(after: candidate, count: 1).first
                steps += 1
            }
        }
        guard let next, isWithinEnd(next) else { return nil }
        var rule = self
        if case .count(let count) = end { rule.end = .count(count - 1) }
        return (next, rule)
    }

    /// The occurrences a move of occurrence `due` to `movedTo` passes over:
    /// scheduled after `due` and not after `movedTo`, which completing the
    /// moved one skips (`advance`). `limit` of them at most; none for a
    /// rule counted from completion, which has no schedule to skip.
    public func skipped(from due: DueDate, movedTo: DueDate, limit: Int = 100) -> [DueDate] {
        guard !fromCompletion else { return [] }
        var found: [DueDate] = []
        var last = due
        while found.count < limit, let next = occurrences(after: last, count: 1).first, !Self.comes(next, after: movedTo) {
            found.append(next)
            last = next
        }
        return found
    }

    /// Whether `date` comes after `other`: by the minute when both have a
    /// time, else by the day.
    static func comes(_ date: DueDate, after other: DueDate) -> Bool {
        date.hasTime && other.hasTime ? date > other : date.dayNumber > other.dayNumber
    }

    /// `completedOn` plus one interval, for `advance`.
    private func nextAfterCompletion(on completedOn: DueDate, keepingTimeOf due: DueDate) -> DueDate? {
        guard (try? validate()) != nil,
              let start = DueDate(year: completedOn.year, month: completedOn.month, day: completedOn.day) else { return nil }
        var dayNumber: Int
        switch frequency {
        case .daily:
            dayNumber = start.dayNumber + interval
        case .weekly:
            dayNumber = start.dayNumber + 7 * interval
            let weekday = (start.weekday + 7 * interval) % 7
            if let wait = days.map({ ($0.weekday - weekday + 7) % 7 }).min() { dayNumber += wait }
        case .monthly, .yearly:
            let months = frequency == .monthly ? interval : 12 * interval
            let index = start.year * 12 + start.month - 1 + months
            let year = index / 12, month = index % 12 + 1
            guard let first = DueDate(year: year, month: month, day: 1) else { return nil }
            dayNumber = first.dayNumber + min(start.day, DueDate.daysIn(month: month, year: year)) - 1
        }
        return Self.date(dayNumber: dayNumber, time: due.time)
    }

    /// Whether `date` comes no later than UNTIL. An UNTIL without a time
    /// takes in its whole day, and so does one with a time for a due date
    /// without one: a date alone has no time to compare.
    private func isWithinEnd(_ date: DueDate) -> Bool {
        guard case .until(let until) = end else { return true }
        return !Self.comes(date, after: until)
    }

    /// The day numbers (`DueDate.dayNumber`) this rule picks in period
    /// `period` counted from `due`'s, ascending; nil past the year 9999.
    private func candidates(inPeriod period: Int, from due: DueDate) -> [Int]? {
        switch frequency {
        case .daily:
            // BY parts only filter days here (RFC 5545: they limit DAILY).
            let dayNumber = due.dayNumber + period * interval
            guard let date = Self.date(dayNumber: dayNumber, time: nil) else { return nil }
            let weekday = (due.weekday + period * interval) % 7
            guard months.isEmpty || months.contains(date.month),
                  days.isEmpty || days.contains(where: { $0.weekday == weekday }) else { return [] }
            guard !monthDays.isEmpty else { return [dayNumber] }
            let month = Period.month(date.year, date.month)
            return monthDays.contains { month?.dayNumber(ofMonthDay: $0) == dayNumber } ? [dayNumber] : []
        case .weekly:
            let monday = due.dayNumber - Self.daysSinceMonday(due.weekday) + 7 * interval * period
            guard Self.date(dayNumber: monday, time: nil) != nil else { return nil }
            let weekdays = days.isEmpty ? [due.weekday] : days.map(\.weekday)
            return Set(weekdays.map { monday + Self.daysSinceMonday($0) }).sorted().filter { dayNumber in
                months.isEmpty || Self.date(dayNumber: dayNumber, time: nil).map { months.contains($0.month) } == true
            }
        case .monthly:
            let index = due.year * 12 + due.month - 1 + period * interval
            guard let month = Period.month(index / 12, index % 12 + 1) else { return nil }
            guard months.isEmpty || months.contains(index % 12 + 1) else { return [] }
            return picks(in: month, ordinalsIn: month, dayOfMonth: due.day)
        case .yearly:
            let year = due.year + period * interval
            guard let whole = Period.year(year) else { return nil }
            if monthDays.isEmpty, days.isEmpty {
                return (months.isEmpty ? [due.month] : months).compactMap { Period.month(year, $0)?.dayNumber(ofMonthDay: due.day) }
            }
            if !months.isEmpty {
                return months.compactMap { Period.month(year, $0) }.flatMap { picks(in: $0, ordinalsIn: $0, dayOfMonth: nil) }
            }
            if !monthDays.isEmpty {
                return (1...12).compactMap { Period.month(year, $0) }.flatMap { picks(in: $0, ordinalsIn: whole, dayOfMonth: nil) }
            }
            return Set(days.flatMap(whole.dayNumbers)).sorted()
        }
    }

    /// The days one month gives, ascending: the listed days of the month
    /// (kept only on a listed weekday when BYDAY is given too), else the
    /// listed weekdays, else `dayOfMonth` if the month has it. Ordinals
    /// count in `ordinalsIn`: the month, or the year for a yearly rule
    /// without BYMONTH (RFC 5545: 20MO is then the year's 20th Monday).
    private func picks(in month: Period, ordinalsIn scope: Period, dayOfMonth: Int?) -> [Int] {
        if !monthDays.isEmpty {
            let listed = monthDays.compactMap(month.dayNumber(ofMonthDay:))
            return Set(listed.filter { dayNumber in days.isEmpty || days.contains { scope.contains(dayNumber, $0) } }).sorted()
        }
        if !days.isEmpty { return Set(days.flatMap(month.dayNumbers)).sorted() }
        return dayOfMonth.flatMap(month.dayNumber(ofMonthDay:)).map { [$0] } ?? []
    }

    /// A run of days a rule picks from: a month or a year.
    private struct Period {
        /// The day number of its first day.
        var first: Int
        var length: Int
        /// The weekday of its first day.
        var firstWeekday: Int

        var last: Int { first + length - 1 }

        static func month(_ year: Int, _ month: Int) -> Period? {
            guard let start = DueDate(year: year, month: month, day: 1) else { return nil }
            return Period(first: start.dayNumber, length: DueDate.daysIn(month: month, year: year), firstWeekday: start.weekday)
        }

        static func year(_ year: Int) -> Period? {
            guard let start = DueDate(year: year, month: 1, day: 1) else { return nil }
            let length = DueDate.daysIn(month: 2, year: year) == 29 ? 366 : 365
            return Period(first: start.dayNumber, length: length, firstWeekday: start.weekday)
        }

        func weekday(_ dayNumber: Int) -> Int { (firstWeekday + dayNumber - first) % 7 }

        /// Day `day` of a month (negative: from its end), if it has one.
        func dayNumber(ofMonthDay day: Int) -> Int? {
            guard day != 0, day.magnitude <= length else { return nil }
            return day > 0 ? first + day - 1 : last + day + 1
        }

        /// Every such weekday in the period, or the one its ordinal names.
        func dayNumbers(_ day: Day) -> [Int] {
            let firstMatch = first + (day.weekday - firstWeekday + 7) % 7
            guard let ordinal = day.ordinal else { return Array(stride(from: firstMatch, through: last, by: 7)) }
            let lastMatch = last - (weekday(last) - day.weekday + 7) % 7
            let dayNumber = ordinal > 0 ? firstMatch + 7 * (ordinal - 1) : lastMatch + 7 * (ordinal + 1)
            return (first...last).contains(dayNumber) ? [dayNumber] : []
        }

        func contains(_ dayNumber: Int, _ day: Day) -> Bool {
            guard weekday(dayNumber) == day.weekday else { return false }
            return day.ordinal == nil || dayNumbers(day) == [dayNumber]
        }
    }

    /// Days from Monday, the first day of RRULE weeks (WKST=MO).
    private static func daysSinceMonday(_ weekday: Int) -> Int { (weekday + 6) % 7 }

    /// The due date on day number `dayNumber` (the inverse of
    /// `DueDate.dayNumber`) at `time`; nil outside `DueDate.years`.
    /// Counted here, not with `Calendar`: the search takes many steps, and
    /// wall-clock dates need no time zone.
    static func date(dayNumber: Int, time: (hour: Int, minute: Int)?) -> DueDate? {
        guard dayNumber > 0 else { return nil }
        // The days-to-civil algorithm of H. Hinnant, in years starting on
        // March 1 (so the leap day ends a year), 400-year eras.
        let days = dayNumber - 1
        let era = days / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return DueDate(year: year, month: month, day: day, hour: time?.hour, minute: time?.minute)
    }

    // MARK: Canonical order

    /// Sorted without repeats: days Monday first, each weekday's plain
    /// entry before its ordinals (1 to 5, then -5 to -1). A total order,
    /// out-of-range values included, so the text never depends on the
    /// order a set happened to give.
    private static func canonical(_ days: [Day]) -> [Day] {
        func key(_ day: Day) -> (Int, Int, Int) {
            let (side, ordinal) = fromEitherEnd(day.ordinal ?? 0)
            return (day.weekday == 0 ? 7 : day.weekday, day.ordinal == nil ? -1 : side, ordinal)
        }
        return Set(days).sorted { key($0) < key($1) }
    }

    /// Sorted without repeats: days of the month from the start first,
    /// then those from the end (-31 to -1, so "last" comes last).
    private static func canonical(_ numbers: [Int]) -> [Int] {
        Set(numbers).sorted { fromEitherEnd($0) < fromEitherEnd($1) }
    }

    /// Values counted from the start before those counted from the end.
    private static func fromEitherEnd(_ value: Int) -> (Int, Int) { (value < 0 ? 1 : 0, value) }

    // MARK: Messages

    /// Refuses text too long to be a rule, or with characters no rule has,
    /// before reading it: messages quote the text, and must stay one line.
    fileprivate static func checkCharacters(_ text: String, what: String, limit: Int) throws(RepeatRuleError) {
        guard text.count <= limit else {
            throw RepeatRuleError("\(what) is too long (\(text.count) characters; at most \(limit))")
        }
        let trimmed = text.trimmingWhitespaceAndNewlines()
        if let control = trimmed.unicodeScalars.first(where: Validation.isControl) {
            let hex = String(control.value, radix: 16, uppercase: true)
            throw RepeatRuleError("\(what) contains a control character (U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex))")
        }
    }

    /// `text` in quotes, cut to a length a message can hold.
    fileprivate static func quoted(_ text: some StringProtocol) -> String {
        "'" + clipped(text) + "'"
    }

    fileprivate static func clipped(_ text: some StringProtocol) -> String {
        text.count > 40 ? text.prefix(40) + "…" : String(text)
    }
}

extension RepeatRule.Frequency {
    /// How many periods make the 400 years after which the Gregorian
    /// calendar repeats, weekdays included (146,097 days is 20,871 weeks).
    var periodsPerCycle: Int {
        switch self {
        case .daily: 146_097
        case .weekly: 20_871
        case .monthly: 4_800
        case .yearly: 400
        }
    }
}

/// Why a repeat rule, as RRULE text or as typed, could not be read: one
/// line for people naming the part not understood, with an example.
public struct RepeatRuleError: Error, CustomStringConvertible, Equatable, Sendable {
    public let message: String

    init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

// MARK: - Typed repeats

extension RepeatRule {
    /// Parses the short syntax people type (case-insensitive, extra spaces
    /// and commas ignored):
    /// - "daily", "weekly", "monthly", "yearly", "every day", "every 3
    ///   days", "every week", "every other week", "every 2 weeks";
    /// - weekdays: "every 2 weeks on mon,thu" (also "on mon, thu", "on
    ///   monday and thursday"), "every weekday" (Mon–Fri), "every
    ///   weekend"; a bare list means weekly: "mon,thu", "every mon and thu";
    /// - days of the month: "every month on the 15th" / "on day 15" / "on
    ///   the 1st and 15th", "on the last day", "on the last fri", "on the
    ///   2nd tue";
    /// - "every year", "every 2 years", "every year on mar 14" (or "14
    ///   mar"), "every year on the last fri of nov", "every year in mar";
    /// then, in any order: "until <date>", "for 5 times" / "5 times" /
    /// "x5" (the current due date is the first of them), "after
    /// completion".
    ///
    /// `untilDate` turns the words after "until" into a date (the app
    /// passes its natural-date parser); by default they are YYYY-MM-DD.
    /// Anything else is an error naming the word not understood, with an
    /// example.
    public init(parsing text: String, untilDate: (String) -> DueDate? = { DueDate($0) }) throws(RepeatRuleError) {
        var reader = try PhraseReader(text)
        self = try reader.read(untilDate: untilDate)
    }

    /// A short description for the screen: "Daily", "Every 3 days",
    /// "Weekly on Mon, Thu", "Every 2 weeks on Mon, Thu", "Every weekday",
    /// "Monthly on the 15th", "Monthly on the last Fri", "Yearly on Mar
    /// 14", then " until 2027-01-31" or ", 5 times", then ", after
    /// completion".
    public var description: String {
        var text = summary
        switch end {
        case .never: break
        case .until(let until): text += " until \(until)"
        case .count(let count): text += ", \(count) time\(count == 1 ? "" : "s")"
        }
        if fromCompletion { text += ", after completion" }
        return text
    }

    /// The description without the end.
    private var summary: String {
        let units = ["days", "weeks", "months", "years"]
        let index = Frequency.allCases.firstIndex(of: frequency) ?? 0
        let lead = interval == 1 ? ["Daily", "Weekly", "Monthly", "Yearly"][index] : "Every \(interval) \(units[index])"
        let inMonths = months.isEmpty ? "" : " in " + Self.monthList(months)
        switch frequency {
        case .daily:
            return lead + Self.onDays(days: days, monthDays: monthDays) + inMonths
        case .weekly:
            let plain = days.allSatisfy { $0.ordinal == nil }
            if interval == 1, months.isEmpty, plain, days.map(\.weekday) == [1, 2, 3, 4, 5] { return "Every weekday" }
            if interval == 1, months.isEmpty, plain, days.map(\.weekday) == [6, 0] { return "Every weekend" }
            return lead + Self.onDays(days: days, monthDays: []) + inMonths
        case .monthly:
            return lead + Self.onDays(days: days, monthDays: monthDays) + inMonths
        case .yearly:
            if months.count == 1, monthDays.count == 1, monthDays[0] > 0, days.isEmpty {
                return lead + " on " + Self.monthName(months[0]) + " \(monthDays[0])"
            }
            let on = Self.onDays(days: days, monthDays: monthDays)
            if months.isEmpty {
                return lead + on + (monthDays.isEmpty && days.contains { $0.ordinal != nil } ? " of the year" : "")
            }
            return lead + on + (on.isEmpty ? " in " : " of ") + Self.monthList(months)
        }
    }

    /// " on Mon, Thu", " on the 15th", " on the last Fri", " on the 13th
    /// if a Fri", or nothing.
    private static func onDays(days: [Day], monthDays: [Int]) -> String {
        let names = days.map { day in
            guard let ordinal = day.ordinal else { return weekdayName(day.weekday) }
            return "the " + ordinalWords(ordinal) + " " + weekdayName(day.weekday)
        }
        if !monthDays.isEmpty {
            let positive = monthDays.filter { $0 > 0 }.map(ordinalNumber)
            var phrases = positive.isEmpty ? [] : ["the " + list(positive)]
            phrases += monthDays.filter { $0 < 0 }.map { "the " + ordinalWords($0) + " day" }
            return " on " + list(phrases) + (days.isEmpty ? "" : " if a " + list(names, or: true))
        }
        guard !days.isEmpty else { return "" }
        if days.allSatisfy({ $0.ordinal == nil }) { return " on " + names.joined(separator: ", ") }
        return " on " + list(names)
    }

    /// "a", "a and b", "a, b and c" (or "or").
    private static func list(_ items: [String], or: Bool = false) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + (or ? " or " : " and ") + last
    }

    /// "1st", "2nd", "3rd", "11th", "22nd".
    private static func ordinalNumber(_ number: Int) -> String {
        let suffix = switch (number % 10, number % 100) {
        case (_, 11...13): "th"
        case (1, _): "st"
        case (2, _): "nd"
        case (3, _): "rd"
        default: "th"
        }
        return "\(number)\(suffix)"
    }

    /// "2nd", "last", "2nd to last".
    private static func ordinalWords(_ ordinal: Int) -> String {
        ordinal > 0 ? ordinalNumber(ordinal) : ordinal == -1 ? "last" : ordinalNumber(Int(clamping: ordinal.magnitude)) + " to last"
    }

    private static func weekdayName(_ weekday: Int) -> String {
        DueDate.weekdaySymbols.indices.contains(weekday) ? DueDate.weekdaySymbols[weekday] : "?"
    }

    private static func monthName(_ month: Int) -> String {
        DueDate.monthNames.indices.contains(month - 1) ? String(DueDate.monthNames[month - 1].prefix(3)) : "?"
    }

    private static func monthList(_ months: [Int]) -> String {
        months.map(monthName).joined(separator: ", ")
    }
}

/// Reads a typed repeat, word by word; see `RepeatRule.init(parsing:untilDate:)`.
private struct PhraseReader {
    /// The text as typed, trimmed, for messages.
    let text: String
    /// The words as typed, for messages and for the date after "until".
    let raw: [String]
    /// The words in lower case, for reading.
    let words: [String]
    var index = 0

    static let example = "e.g. every 2 weeks on mon,thu"

    init(_ text: String) throws(RepeatRuleError) {
        try RepeatRule.checkCharacters(text, what: "repeat", limit: RepeatRule.maximumPhraseLength)
        self.text = text.trimmingWhitespaceAndNewlines()
        raw = self.text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map { word in
            var word = String(word)
            while word.count > 1, word.hasSuffix(".") { word.removeLast() }
            return word
        }
        words = raw.map { $0.lowercased() }
        guard !words.isEmpty else { throw RepeatRuleError("enter how often it repeats (\(Self.example))") }
    }

    // MARK: The whole phrase

    mutating func read(untilDate: (String) -> DueDate?) throws(RepeatRuleError) -> RepeatRule {
        let mainEnd = words.indices.first(where: startsEnding) ?? words.count
        guard mainEnd > 0 else {
            throw RepeatRuleError("\(RepeatRule.quoted(text)) needs how often before it (e.g. every day 5 times)")
        }
        var rule = try frequencyPhrase(upTo: mainEnd)
        guard index == mainEnd else { throw notUnderstood(index) }
        var endPhrase: String?
        while index < words.count {
            guard startsEnding(index) else { throw notUnderstood(index) }
            let start = index
            let end: RepeatRule.End
            switch words[index] {
            case "until":
                index += 1
                while index < words.count, !startsEnding(index) { index += 1 }
                guard index > start + 1 else { throw RepeatRuleError("'until' needs a date (e.g. until 2027-01-31)") }
                let dateText = raw[start + 1..<index].joined(separator: " ")
                guard let date = untilDate(dateText) else {
                    throw RepeatRuleError("\(RepeatRule.quoted(dateText)) is not a date (e.g. until 2027-01-31)")
                }
                end = .until(date)
            case "after", "from":
                guard index + 1 < words.count, ["completion", "completed", "done"].contains(words[index + 1]) else {
                    throw RepeatRuleError("'\(raw[index])' needs 'completion' after it (e.g. every 3 days after completion)")
                }
                guard !rule.fromCompletion else { throw RepeatRuleError("'after completion' is given twice") }
                rule.fromCompletion = true
                index += 2
                continue
            default:
                end = .count(try count())
            }
            let phrase = raw[start..<index].joined(separator: " ")
            if let endPhrase {
                throw RepeatRuleError("'\(endPhrase)' and '\(phrase)' both end the repeat: keep one")
            }
            endPhrase = phrase
            rule.end = end
        }
        return rule
    }

    /// Whether an ending starts at word `i`: "until", "after completion",
    /// "for 5 times", "5 times", "x5".
    private func startsEnding(_ i: Int) -> Bool {
        let word = words[i]
        let next = i + 1 < words.count ? words[i + 1] : nil
        switch word {
        case "until": return true
        case "after", "from": return ["completion", "completed", "done"].contains(next ?? "")
        case "for": return next.map(Self.isNumber) == true
        default: break
        }
        if Self.isNumber(word), next == "times" || next == "time" { return true }
        return word.hasPrefix("x") && Self.isNumber(String(word.dropFirst()))
    }

    /// "for 5 times", "5 times", "x5".
    private mutating func count() throws(RepeatRuleError) -> Int {
        let start = index
        var digits = words[index]
        if digits == "for" {
            index += 1
            digits = words[index]
            guard index + 1 < words.count, ["times", "time"].contains(words[index + 1]) else {
                throw RepeatRuleError("'for \(raw[index])' needs 'times' after it (e.g. for 5 times)")
            }
            index += 2
        } else if digits.hasPrefix("x") {
            digits.removeFirst()
            index += 1
        } else {
            index += 2
        }
        guard digits.count <= 4, let count = Int(digits), RepeatRule.counts.contains(count) else {
            throw RepeatRuleError("'\(raw[start..<index].joined(separator: " "))': the count must be 1–9999 (e.g. for 5 times)")
        }
        return count
    }

    // MARK: How often

    /// "daily", "every 2 weeks", "every weekday", "mon,thu", each with what
    /// may follow it ("on …", "in …"), up to the first ending.
    private mutating func frequencyPhrase(upTo end: Int) throws(RepeatRuleError) -> RepeatRule {
        let first = words[index]
        if let frequency = Self.adverbs[first] {
            index += 1
            var rule = RepeatRule(frequency: frequency, interval: first == "fortnightly" ? 2 : first == "quarterly" ? 3 : 1)
            try readOn(into: &rule, upTo: end)
            return rule
        }
        if Self.weekdays[first] != nil {
            return RepeatRule(frequency: .weekly, days: try weekdayList(upTo: end))
        }
        if first == "weekdays" || first == "weekends" {
            index += 1
            return RepeatRule(frequency: .weekly, days: (first == "weekdays" ? Array(1...5) : [0, 6]).map { RepeatRule.Day(weekday: $0) })
        }
        guard first == "every" else { throw notUnderstood(index) }
        index += 1
        guard index < end else {
            throw RepeatRuleError("'\(raw[index - 1])' needs a day, week, month or year after it (\(Self.example))")
        }
        var interval: Int?
        if words[index] == "other" {
            interval = 2
            index += 1
        } else if Self.isNumber(words[index]) {
            guard words[index].count <= 4, let number = Int(words[index]), RepeatRule.intervals.contains(number) else {
                let phrase = raw[index - 1...min(index + 1, end - 1)].joined(separator: " ")
                throw RepeatRuleError("'\(phrase)': the interval must be 1–999 (\(Self.example))")
            }
            interval = number
            index += 1
        }
        guard index < end else {
            throw RepeatRuleError("'\(raw[index - 2...index - 1].joined(separator: " "))' needs days, weeks, months or years after it (\(Self.example))")
        }
        let word = words[index]
        if let frequency = Self.units[word] {
            index += 1
            var rule = RepeatRule(frequency: frequency, interval: interval ?? 1)
            try readOn(into: &rule, upTo: end)
            return rule
        }
        if interval == nil {
            if word == "weekday" || word == "weekdays" {
                index += 1
                return RepeatRule(frequency: .weekly, days: (1...5).map { RepeatRule.Day(weekday: $0) })
            }
            if word == "weekend" || word == "weekends" {
                index += 1
                return RepeatRule(frequency: .weekly, days: [0, 6].map { RepeatRule.Day(weekday: $0) })
            }
        }
        // "every fri", "every other friday", "every 3 mondays".
        if Self.weekdays[word] != nil {
            return RepeatRule(frequency: .weekly, interval: interval ?? 1, days: try weekdayList(upTo: end))
        }
        throw notUnderstood(index, "is not a day, week, month or year")
    }

    /// What may follow a frequency: "on …" (weekdays, days of the month,
    /// dates), and for a yearly rule "in <months>".
    private mutating func readOn(into rule: inout RepeatRule, upTo end: Int) throws(RepeatRuleError) {
        if index < end, words[index] == "on" {
            index += 1
            guard index < end else { throw RepeatRuleError("'on' needs a day after it (\(Self.example))") }
            switch rule.frequency {
            case .daily:
                throw RepeatRuleError("\(phrase(index - 1..<end)): a daily repeat has no days to choose (\(Self.example))")
            case .weekly:
                guard Self.weekdays[words[index]] != nil else {
                    throw RepeatRuleError("\(phrase(index..<end)): a weekly repeat falls on weekdays (\(Self.example))")
                }
                rule.days = try weekdayList(upTo: end)
            case .monthly:
                try daysOfMonth(into: &rule, upTo: end)
            case .yearly:
                if Self.months[words[index]] != nil {
                    try dates(into: &rule, upTo: end)
                } else {
                    try daysOfMonth(into: &rule, upTo: end)
                    // "on the 14th of mar", "on 14 mar", "on the last fri in nov".
                    if index < end, ["of", "in"].contains(words[index]) { index += 1 }
                    if index < end, Self.months[words[index]] != nil { rule.months = monthList(upTo: end) }
                }
            }
        }
        if rule.frequency == .yearly, rule.months.isEmpty, index + 1 < end, words[index] == "in",
           Self.months[words[index + 1]] != nil {
            index += 1
            rule.months = monthList(upTo: end)
        }
    }

    /// "mon thu", "monday and thursday", "mon & thu".
    private mutating func weekdayList(upTo end: Int) throws(RepeatRuleError) -> [RepeatRule.Day] {
        var days: [RepeatRule.Day] = []
        while index < end, let weekday = Self.weekdays[words[index]] {
            days.append(RepeatRule.Day(weekday: weekday))
            index += 1
            if index + 1 < end, Self.joiners.contains(words[index]), Self.weekdays[words[index + 1]] != nil { index += 1 }
        }
        return days
    }

    /// "mar", "march and sep".
    private mutating func monthList(upTo end: Int) -> [Int] {
        var months: [Int] = []
        while index < end, let month = Self.months[words[index]] {
            months.append(month)
            index += 1
            if index + 1 < end, Self.joiners.contains(words[index]), Self.months[words[index + 1]] != nil { index += 1 }
        }
        return months
    }

    /// "the 15th", "day 15", "days 1 and 15", "the 1st and 15th", "the last
    /// day", "the last fri", "the 2nd tue", "mon": either days of the month
    /// or weekdays, not both (RFC 5545 would keep only the days that are
    /// both, which nobody who types "the 15th and last fri" means).
    private mutating func daysOfMonth(into rule: inout RepeatRule, upTo end: Int) throws(RepeatRuleError) {
        let start = index
        var monthDays: [Int] = []
        var days: [RepeatRule.Day] = []
        repeat {
            if words[index] == "the" {
                index += 1
                guard index < end else { throw RepeatRuleError("'the' needs a day after it (e.g. every month on the 15th)") }
            }
            let word = words[index]
            let next = index + 1 < end ? words[index + 1] : nil
            if word == "day" || word == "days" {
                index += 1
                guard index < end, Self.dayOfMonth(words[index]) != nil else {
                    throw RepeatRuleError("'\(raw[index - 1])' needs a number after it (e.g. every month on day 15)")
                }
                while index < end, let day = Self.dayOfMonth(words[index]) {
                    monthDays.append(try checked(day))
                    index += 1
                    if index + 1 < end, Self.joiners.contains(words[index]), Self.dayOfMonth(words[index + 1]) != nil { index += 1 }
                }
            } else if let ordinal = Self.ordinals[word], let weekday = next.flatMap({ Self.weekdays[$0] }) {
                days.append(RepeatRule.Day(weekday: weekday, ordinal: ordinal))
                index += 2
            } else if let ordinal = Self.ordinals[word], next == "day" {
                monthDays.append(ordinal)
                index += 2
            } else if let day = Self.dayOfMonth(word) {
                monthDays.append(try checked(day))
                index += 1
            } else if let weekday = Self.weekdays[word] {
                days.append(RepeatRule.Day(weekday: weekday))
                index += 1
            } else if word == "last" {
                throw RepeatRuleError("'\(raw[index])' needs 'day' or a weekday after it (e.g. every month on the last fri)")
            } else {
                throw notUnderstood(index, "is not a day of the month or a weekday")
            }
        } while index < end && skipJoiner(upTo: end, before: Self.startsDayOfMonth)
        guard monthDays.isEmpty || days.isEmpty else {
            let phrase = raw[start..<index].joined(separator: " ")
            throw RepeatRuleError("\(RepeatRule.quoted(phrase)) mixes days of the month and weekdays: pick one (e.g. every month on the 15th)")
        }
        rule.monthDays = monthDays
        rule.days = days
    }

    /// "mar 14", "march 14th and sep 14", for a yearly rule: one day in
    /// several months, or several days in one month (a rule holds months
    /// and days, not pairs).
    private mutating func dates(into rule: inout RepeatRule, upTo end: Int) throws(RepeatRuleError) {
        let start = index
        var pairs: Set<[Int]> = []
        repeat {
            guard let month = Self.months[words[index]] else { throw notUnderstood(index, "is not a month") }
            index += 1
            guard index < end, let day = Self.dayOfMonth(words[index]) else {
                throw RepeatRuleError("'\(raw[index - 1])' needs a day after it (e.g. every year on mar 14)")
            }
            let most = DueDate.daysIn(month: month, year: 2000)
            guard (1...most).contains(day) else {
                throw RepeatRuleError("'\(raw[index - 1...index].joined(separator: " "))': \(DueDate.monthNames[month - 1]) has \(month == 2 ? "at most " : "")\(most) days")
            }
            pairs.insert([month, day])
            index += 1
        } while index < end && skipJoiner(upTo: end, before: { Self.months[$0] != nil })
        let months = Set(pairs.map { $0[0] }), days = Set(pairs.map { $0[1] })
        guard months.count * days.count == pairs.count else {
            let phrase = raw[start..<index].joined(separator: " ")
            throw RepeatRuleError("\(RepeatRule.quoted(phrase)): give one day in several months, or several days in one month")
        }
        rule.months = Array(months)
        rule.monthDays = Array(days)
    }

    /// Steps over "and" or "&" before another item; true when another item
    /// follows, with or without one (commas are already gone).
    private mutating func skipJoiner(upTo end: Int, before startsItem: (String) -> Bool) -> Bool {
        if Self.joiners.contains(words[index]), index + 1 < end, startsItem(words[index + 1]) {
            index += 1
            return true
        }
        return startsItem(words[index])
    }

    /// Whether a word can start an item of `daysOfMonth`.
    private static func startsDayOfMonth(_ word: String) -> Bool {
        word == "the" || word == "day" || word == "days" || ordinals[word] != nil || dayOfMonth(word) != nil
            || weekdays[word] != nil
    }

    /// A day of the month 1...31, or an error naming it.
    private func checked(_ day: Int) throws(RepeatRuleError) -> Int {
        guard (1...31).contains(day) else {
            throw RepeatRuleError("'\(raw[index])': a month has at most 31 days (e.g. every month on the 15th)")
        }
        return day
    }

    // MARK: Words

    private static func isNumber(_ word: String) -> Bool {
        !word.isEmpty && word.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// "15", "15th", "1st": as dates read it.
    private static func dayOfMonth(_ word: String) -> Int? {
        NaturalDate.dayOfMonth(word)
    }

    private static let joiners: Set<String> = ["and", "&"]

    private static let adverbs: [String: RepeatRule.Frequency] = [
        "daily": .daily, "weekly": .weekly, "fortnightly": .weekly, "monthly": .monthly, "quarterly": .monthly,
        "yearly": .yearly, "annually": .yearly,
    ]

    private static let units: [String: RepeatRule.Frequency] = [
        "day": .daily, "days": .daily, "week": .weekly, "weeks": .weekly,
        "month": .monthly, "months": .monthly, "year": .yearly, "years": .yearly,
    ]

    private static let ordinals: [String: Int] = [
        "1st": 1, "first": 1, "2nd": 2, "second": 2, "3rd": 3, "third": 3, "4th": 4, "fourth": 4,
        "5th": 5, "fifth": 5, "last": -1,
    ]

    /// Weekday words, singular and plural, to `DueDate.weekday`.
    private static let weekdays: [String: Int] = {
        let names: [[String]] = [
            ["sun", "sunday"], ["mon", "monday"], ["tue", "tues", "tuesday"], ["wed", "weds", "wednesday"],
            ["thu", "thur", "thurs", "thursday"], ["fri", "friday"], ["sat", "saturday"],
        ]
        var table: [String: Int] = [:]
        for (weekday, words) in names.enumerated() {
            for word in words { table[word] = weekday }
            if let full = words.last { table[full + "s"] = weekday }
        }
        return table
    }()

    /// Month names as dates read them.
    private static var months: [String: Int] { NaturalDate.months }

    // MARK: Messages

    /// Words `range` as typed, in quotes.
    private func phrase(_ range: Range<Int>) -> String {
        RepeatRule.quoted(raw[range].joined(separator: " "))
    }

    /// "'every fortnight': 'fortnight' is not understood (e.g. …)".
    private func notUnderstood(_ i: Int, _ problem: String = "is not understood") -> RepeatRuleError {
        let context = raw.count > 1 ? RepeatRule.quoted(text) + ": " : ""
        // Words that mean two things: the two are named.
        if let meanings = Self.twoMeanings[words[i]] {
            return RepeatRuleError(context + RepeatRule.quoted(raw[i]) + " can mean \(meanings)")
        }
        return RepeatRuleError(context + RepeatRule.quoted(raw[i]) + " \(problem) (\(Self.example))")
    }

    private static let twoMeanings: [String: String] = [
        "biweekly": "every 2 weeks or twice a week: say 'every 2 weeks' or 'weekly on mon,thu'",
        "bimonthly": "every 2 months or twice a month: say 'every 2 months' or 'monthly on the 1st,15th'",
        "biannually": "every 2 years or twice a year: say 'every 2 years' or 'every 6 months'",
        "biyearly": "every 2 years or twice a year: say 'every 2 years' or 'every 6 months'",
    ]
}
