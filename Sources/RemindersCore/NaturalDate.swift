import Foundation

/// Reads a due date the way people type one: `today`, `tomorrow 9am`,
/// `fri`, `next mon 14:30`, `+3d`, `in 2h`, `in 3 days`, `mar 14`,
/// `14 mar`, `14/3`, `2026-12-01`, `2026-12-01 14:30`, or a time alone
/// (`9am`, `9:30pm`, `21:00`, `noon`). Words may come in either order
/// (`9am tomorrow`), with `at` and `on` between them. `yesterday` counts
/// only in text given as a date (`parse`), never at the end of a title.
///
/// Pure: "now", the time zone and the order of numeric dates are given, so
/// the same text means the same date in a test as on the user's machine
/// at that moment. The rules, where people could mean two things:
/// - a phrase that names a day but no time gives a date alone (`in 3
///   days` is a day, not a moment); one that counts hours or minutes
///   (`in 2h`) gives a date and time;
/// - a time alone is today's if it is still ahead, else tomorrow's;
/// - a weekday is the first one after today (`fri` on a Friday is a week
///   away); `next fri` is the same day, and `this fri` may be today;
/// - a day and month without a year is the next one from today on;
/// - `14/3` is day/month or month/day as the user's locale writes dates;
/// - an hour alone after `at` (`at 3`) is read in waking hours: 1 to 6 in
///   the afternoon, 7 to 11 in the morning (`at 7pm`, `at 19` for the
///   evening); after `tonight`, in the evening; so is an hour of one digit
///   with minutes (`3:30` is 15:30, `03:30` and `3:30am` the morning's);
/// - `tonight` is today at 20:00, `eod` and `end of day` today at 17:00,
///   `this weekend` the coming Saturday (today on a weekend day),
///   `next weekend` the one after, `end of week` the coming Friday (today
///   on a Friday), `end of month` and `end of year` their last day;
/// - `morning`, `afternoon`, `evening` and `night` after a day or `this`
///   are 09:00, 14:00, 18:00 and 20:00 (`tomorrow morning`, `this
///   evening`); typed as a date, `evening` alone is the next one;
///   `day after tomorrow` is in two days.
public struct NaturalDate: Sendable {
    /// The moment relative phrases count from.
    public let now: Date
    /// The zone whose wall clock "today" and "9am" are read on.
    public let timeZone: TimeZone
    /// Whether 3/4 is 3 April or March 4.
    public let order: DayMonthOrder

    public init(now: Date, timeZone: TimeZone, order: DayMonthOrder) {
        self.now = now
        self.timeZone = timeZone
        self.order = order
    }

    /// Reads relative to the app's clock, at the moment of the call.
    public init(clock: AppClock, order: DayMonthOrder) {
        self.init(now: clock.now, timeZone: clock.timeZone, order: order)
    }

    /// Today's date, without a time.
    public var today: DueDate { DueDate(moment: now, in: timeZone, includingTime: false) }

    /// The date that error messages give as an example: tomorrow, so that
    /// an example never shows a date already past.
    public var example: DueDate { today.adding(days: 1) }

    // MARK: Reading

    /// The due date `text` names, or an error naming the part that is not
    /// understood.
    public func parse(_ text: String) throws(NaturalDateError) -> DueDate {
        let raw = Self.words(text)
        return try read(raw, text: text.trimmingWhitespace(), typedAsADate: true)
    }

    /// The due date the words name, or nil when they are not exactly one
    /// date phrase (quick add tries runs of a title's words with this).
    /// `endingTheText`: the words end the title, where an hour alone (to
    /// 12) or `21h` just after a day is a time ("Pay rent tomorrow 9"), as
    /// in text typed as a date.
    public func date(words: [String], endingTheText: Bool = false) -> DueDate? {
        let raw = words.flatMap { Self.words($0) }
        return try? read(raw, text: words.joined(separator: " "), typedAsADate: false, endingTheText: endingTheText)
    }

    /// A part of a day (`morning`, `evening`): the time it gives, and
    /// whether an hour with it is in the afternoon or evening; nil for
    /// other words.
    public static func dayPart(_ word: String) -> (time: (hour: Int, minute: Int), evening: Bool)? {
        dayParts[word.lowercased()]
    }

    /// A time of day alone (`9am`, `9:30pm`, `21:00`, `noon`, `9.30`,
    /// `21h`, and an hour alone in waking hours: `9`, `3` for 15:00), as
    /// the reminder form's time field takes it.
    public func time(_ text: String) throws(NaturalDateError) -> (hour: Int, minute: Int) {
        let raw = Self.words(text)
        let trimmed = text.trimmingWhitespace()
        guard !raw.isEmpty else { throw failure(trimmed, .empty) }
        let words = raw.map { $0.lowercased() }
        let start = words[0] == "at" && words.count > 1 ? 1 : 0
        // "3" or "at 3", as a date takes it after "at" (in waking hours),
        // and "21h" or "9h30".
        if words.count == start + 1, try readTime(words, raw, at: start, dotted: true) == nil {
            if let bare = Self.bareHour(words[start]) { return (bare.hour, 0) }
            if let time = Self.hourMark(words[start], alone: false) { return time }
        }
        guard let (time, used, _) = try readTime(words, raw, at: start, dotted: true), start + used == words.count else {
            throw failure(trimmed, .notATime(trimmed))
        }
        return time
    }

    /// Whether a single word names a date by itself, whatever surrounds it
    /// (`today`, `tonight`, `tomorrow`, `+3d`, `2026-12-01`), unlike `fri`, `noon` or
    /// `14/3`, which can as well be part of a title.
    public static func standsAlone(_ word: String) -> Bool {
        let word = word.lowercased()
        if ["today", "tomorrow", "tmrw", "tonight", "eod"].contains(word) { return true }
        if word.hasPrefix("+"), word.count > 2 { return true }
        return word.first?.isASCII == true && word.first?.isNumber == true && word.filter({ $0 == "-" }).count == 2
    }

    /// Splits on white space and commas; a word's trailing full stop goes
    /// ("mar." is "mar", "a.m." is "a.m"), but for a date written with
    /// dots ("12.12.", where "12.12" is a time).
    static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map { word in
            var word = String(word)
            if isDottedDate(word) { return word }
            while word.count > 1, word.hasSuffix(".") { word.removeLast() }
            return word
        }
    }

    /// `12.12.` or `12.12.2026` (two full stops, a month 1 to 12): a date,
    /// day first. ("9.30." is a time at the end of a sentence.)
    static func isDottedDate(_ word: some StringProtocol) -> Bool {
        let parts = word.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, word.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }),
              (1...2).contains(parts[0].count), (1...2).contains(parts[1].count), [0, 2, 4].contains(parts[2].count),
              let day = Int(parts[0]), let month = Int(parts[1]) else { return false }
        return (1...31).contains(day) && (1...12).contains(month)
    }

    /// What a run of words gives: a day alone, or a day and time; or a
    /// day with the time it has unless one is given, which is read as in
    /// the evening when `evening` (`tonight`).
    private enum Part {
        case day(DueDate)
        case moment(DueDate)
        case dayAt(DueDate, defaultTime: (hour: Int, minute: Int), evening: Bool)
    }

    /// `tonight`'s time when none is given.
    static let tonight = (hour: 20, minute: 0)
    /// The end of the day (`eod`).
    static let endOfDay = (hour: 17, minute: 0)
    /// The parts of a day after a day (`tomorrow morning`) or `this`, with
    /// the time each gives when none is; an hour alone with one of the
    /// later three is in the afternoon or evening (`tomorrow evening at 7`).
    static let dayParts: [String: (time: (hour: Int, minute: Int), evening: Bool)] = [
        "morning": ((9, 0), false), "afternoon": ((14, 0), true), "evening": ((18, 0), true), "night": ((20, 0), true),
    ]

    /// `21h`, `9h30`: an hour with an "h" (and its minutes), as much of
    /// Europe writes one. `alone` (no day before it): only with minutes,
    /// since `21h` alone is 21 hours from now.
    private static func hourMark(_ word: String, alone: Bool) -> (hour: Int, minute: Int)? {
        let parts = word.split(separator: "h", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].isEmpty ? !alone : parts[1].count == 2,
              (parts[0] + parts[1]).allSatisfy({ $0.isASCII && $0.isNumber }),
              let hour = Int(parts[0]), (0...23).contains(hour) else { return nil }
        let minute = parts[1].isEmpty ? 0 : Int(parts[1]) ?? 60
        return minute < 60 ? (hour, minute) : nil
    }

    /// An hour from 1 to 6 as waking hours read it: the afternoon's.
    private static func inWakingHours(_ hour: Int) -> Int {
        (1...6).contains(hour) ? hour + 12 : hour
    }

    /// An hour alone, `3` in `at 3`, read in waking hours (see the type);
    /// `waking`: one digit moved to the afternoon, which a morning named
    /// takes back (`tomorrow morning at 6`).
    private static func bareHour(_ word: String) -> (hour: Int, waking: Bool)? {
        guard (1...2).contains(word.count), word.allSatisfy({ $0.isASCII && $0.isNumber }), let hour = Int(word),
              (0...23).contains(hour) else { return nil }
        let read = inWakingHours(hour)
        return (read, word.count == 1 && read != hour)
    }

    /// `typedAsADate`: the whole text was given as a date (an option, a
    /// form's field), not found at the end of a title: only then does
    /// "yesterday" count, since a title may well end with it ("email from
    /// yesterday").
    private func read(_ raw: [String], text: String, typedAsADate: Bool, endingTheText: Bool = false)
        throws(NaturalDateError) -> DueDate {
        guard !raw.isEmpty else { throw failure(text, .empty) }
        let words = raw.map { $0.lowercased() }
        var part: (value: Part, phrase: String)?
        // `waking`: read in waking hours (see `bareHour`, `readTime`).
        var time: (value: (hour: Int, minute: Int), phrase: String, waking: Bool)?
        // "tonight at 9" is 21:00, "tomorrow night 1am" 01:00.
        func saysAMOrPM(_ phrase: String) -> Bool {
            Self.meridiem(phrase.lowercased().filter(\.isLetter)) != nil
        }
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "at" || word == "on" {
                guard index + 1 < words.count else {
                    throw failure(text, .incomplete(raw[index], word == "at" ? .time : .date))
                }
                if word == "at", try readTime(words, raw, at: index + 1) == nil, let bare = Self.bareHour(words[index + 1]) {
                    let phrase = raw[index...index + 1].joined(separator: " ")
                    if let time { throw failure(text, .twoTimes(time.phrase, phrase)) }
                    if let part, case .moment = part.value { throw failure(text, .twoTimes(part.phrase, phrase)) }
                    time = ((bare.hour, 0), phrase, bare.waking)
                    index += 2
                    continue
                }
                index += 1
                continue
            }
            // After "at", "9.30" is a time wherever it is (elsewhere at the
            // end of a title, more often a price).
            let afterAt = index > 0 && words[index - 1] == "at"
            let lastAfterADay = endingTheText && part != nil && index == words.count - 1
            // After an ISO date, a time is the 24-hour clock's, as in its own form.
            let afterISODate = index > 0 && words[index - 1].range(of: #"^\d{4}-\d{1,2}-\d{1,2}$"#, options: .regularExpression) != nil
            if let (value, used, waking) = try readTime(words, raw, at: index, dotted: typedAsADate || afterAt,
                                                        wakingHours: !afterISODate) {
                let phrase = raw[index..<index + used].joined(separator: " ")
                if let time { throw failure(text, .twoTimes(time.phrase, phrase)) }
                if let part, case .moment = part.value { throw failure(text, .twoTimes(part.phrase, phrase)) }
                time = (value, phrase, waking)
                index += used
                continue
            }
            // Typed as a date, "9h30", and after a day "21h": a time (else
            // "21h" counts 21 hours from now, which a day cannot take).
            if typedAsADate || lastAfterADay, time == nil, let value = Self.hourMark(word, alone: part == nil) {
                if let day = part, case .moment = day.value { throw failure(text, .twoTimes(day.phrase, raw[index])) }
                time = (value, raw[index], false)
                index += 1
                continue
            }
            if var (value, used) = try readDay(words, raw, at: index, text: text, typedAsADate: typedAsADate) {
                // "tomorrow morning", "fri evening": the day at that part's time.
                if case .day(let day) = value, index + used < words.count, let dayPart = Self.dayParts[words[index + used]] {
                    value = .dayAt(day, defaultTime: dayPart.time, evening: dayPart.evening)
                    used += 1
                }
                let phrase = raw[index..<index + used].joined(separator: " ")
                if let part { throw failure(text, .twoDates(part.phrase, phrase)) }
                if case .moment = value, let time { throw failure(text, .twoTimes(phrase, time.phrase)) }
                part = (value, phrase)
                index += used
                continue
            }
            // Typed as a date, or at the end of a title, an hour alone after
            // the day: "tomorrow 9", read in waking hours as after "at".
            // (At the end of a title, to 12 only: "Tickets for fri 13" is a date.)
            if typedAsADate || (lastAfterADay && (Int(word) ?? 99) <= 12), let day = part, time == nil,
               let bare = Self.bareHour(word) {
                if case .moment = day.value { throw failure(text, .twoTimes(day.phrase, raw[index])) }
                time = ((bare.hour, 0), raw[index], bare.waking)
                index += 1
                continue
            }
            throw failure(text, .notUnderstood(raw[index]))
        }
        let timePhrase = time?.phrase ?? ""
        let readInWakingHours = time?.waking ?? false
        switch (part?.value, time?.value) {
        case (.moment(let due)?, _):
            return due
        case (.dayAt(let day, let defaultTime, let evening)?, let time?):
            // "tonight at 9" is at 21:00; "tomorrow morning at 6" (or 6:30)
            // at 06:00, not the waking hours' afternoon.
            let shift = evening && time.hour < 12 && !saysAMOrPM(timePhrase)
            let morning = !evening && defaultTime.hour < 12 && readInWakingHours
            return day.at(shift ? (time.hour + 12, time.minute) : morning ? (time.hour - 12, time.minute) : time)
        case (.dayAt(let day, let defaultTime, _)?, nil):
            return day.at(defaultTime)
        case (.day(let day)?, let time?):
            return day.at(time)
        case (.day(let day)?, nil):
            return day
        case (nil, let time?):
            return nextDay(at: time).at(time)
        case (nil, nil):
            throw failure(text, .empty)
        }
    }

    // MARK: Times

    /// A time at `index`: `noon`, `midnight`, `9am`, `9 am`, `9:30pm`,
    /// `21:00`. Nil when the word is not trying to be a time (a bare
    /// number, `14th`, `3d`); an error when it is, but a wrong one.
    /// `dotted`: `9.30` is a time too (typed as a date or a time; at the
    /// end of a title it is more often a price).
    /// `wakingHours`: an hour of one digit from 1 to 6 with minutes and no
    /// am or pm (`3:30`) is the afternoon's, as `at 3` is (not in an ISO
    /// date's time, which is a 24-hour clock). Returns the time, the words
    /// it took, and whether waking hours moved it.
    private func readTime(_ words: [String], _ raw: [String], at index: Int, dotted: Bool = false,
                          wakingHours: Bool = true) throws(NaturalDateError)
        -> ((hour: Int, minute: Int), Int, waking: Bool)? {
        let word = words[index]
        switch word {
        case "noon", "midday": return ((12, 0), 1, false)
        case "midnight": return ((0, 0), 1, false)
        default: break
        }
        if dotted, Self.isDottedDate(word) { return nil }
        let clock = String(word.prefix { ($0.isASCII && $0.isNumber) || $0 == ":" || $0 == "." })
        var suffix = String(word.dropFirst(clock.count))
        var used = 1
        // "9 am", not "9 a": a lone "a" is more often an article.
        if suffix.isEmpty, index + 1 < words.count, words[index + 1].count > 1, Self.meridiem(words[index + 1]) != nil {
            suffix = words[index + 1]
            used = 2
        }
        guard let first = clock.first, first.isNumber else { return nil }
        let meridiem = Self.meridiem(suffix)
        if !suffix.isEmpty, meridiem == nil { return nil }
        let isDotted = dotted && !clock.contains(":") && clock.filter({ $0 == "." }).count == 1
        guard meridiem != nil || clock.contains(":") || isDotted else { return nil }
        let phrase = raw[index..<index + used].joined(separator: " ")
        let parts = clock.split(omittingEmptySubsequences: false) { $0 == ":" || $0 == "." }
        guard parts.count <= 2, (1...2).contains(parts[0].count), parts.count == 1 || parts[1].count == 2,
              let hourValue = Int(parts[0]), let minute = parts.count == 2 ? Int(parts[1]) : 0 else {
            throw failure(phrase, .notATime(phrase))
        }
        var hour = hourValue
        if let meridiem {
            guard (1...12).contains(hour) else { throw failure(phrase, .hourOutOfRange(phrase, twelveHour: true)) }
            hour = hour % 12 + (meridiem == .pm ? 12 : 0)
        } else {
            guard (0...23).contains(hour) else { throw failure(phrase, .hourOutOfRange(phrase, twelveHour: false)) }
            if wakingHours, parts[0].count == 1 { hour = Self.inWakingHours(hour) }
        }
        guard (0...59).contains(minute) else { throw failure(phrase, .minuteOutOfRange(phrase)) }
        return ((hour, minute), used, hour != hourValue && meridiem == nil)
    }

    private enum Meridiem { case am, pm }

    private static func meridiem(_ word: String) -> Meridiem? {
        switch word {
        case "am", "a", "a.m": .am
        case "pm", "p", "p.m": .pm
        default: nil
        }
    }

    // MARK: Days

    /// A day at `index` (with a time for `in 2h` and `2026-12-01T09:00`),
    /// and how many words it took; nil when the word does not start one.
    private func readDay(_ words: [String], _ raw: [String], at index: Int, text: String, typedAsADate: Bool)
        throws(NaturalDateError) -> (Part, Int)? {
        let word = words[index]
        let next = index + 1 < words.count ? words[index + 1] : nil
        switch word {
        case "today": return (.day(today), 1)
        case "yesterday" where typedAsADate: return (.day(today.adding(days: -1)), 1)
        case "tomorrow", "tmrw": return (.day(today.adding(days: 1)), 1)
        case "tonight": return (.dayAt(today, defaultTime: Self.tonight, evening: true), 1)
        case "day", "the":
            // "day after tomorrow", "the day after tomorrow".
            let start = word == "the" ? index + 1 : index
            let phrase = ["day", "after", "tomorrow"]
            guard start + 3 <= words.count, Array(words[start..<start + 3]) == phrase else { return nil }
            return (.day(today.adding(days: 2)), start + 3 - index)
        case "morning", "afternoon", "evening":
            // Alone, typed as a date, the next one: today's while it is
            // still ahead. (At the end of a title it is a word: "Good
            // morning".)
            guard typedAsADate, let dayPart = Self.dayParts[word] else { return nil }
            return (.dayAt(nextDay(at: dayPart.time), defaultTime: dayPart.time, evening: dayPart.evening), 1)
        case "eod": return (.dayAt(today, defaultTime: Self.endOfDay, evening: false), 1)
        case "end":
            // "end of day", "end of the month".
            guard next == "of" else { return nil }
            var unitIndex = index + 2
            if unitIndex < words.count, words[unitIndex] == "the" { unitIndex += 1 }
            guard unitIndex < words.count else { throw failure(text, .incomplete(raw[index + 1], .day)) }
            let used = unitIndex - index + 1
            switch words[unitIndex] {
            case "day": return (.dayAt(today, defaultTime: Self.endOfDay, evening: false), used)
            case "week": return (.day(coming(5, includingToday: true)), used)
            case "month":
                return (.day(DueDate(year: today.year, month: today.month, day: DueDate.daysIn(month: today.month, year: today.year))!), used)
            case "year": return (.day(DueDate(year: today.year, month: 12, day: 31)!), used)
            default: throw failure(text, .notUnderstood(raw[unitIndex]))
            }
        case "next", "this":
            guard let next else { throw failure(text, .incomplete(raw[index], .day)) }
            if let weekday = Self.weekdays[next] {
                return (.day(coming(weekday, includingToday: word == "this")), 2)
            }
            if next == "weekend" { return (.day(weekend(next: word == "next")), 2) }
            if word == "this", let dayPart = Self.dayParts[next] {
                return (.dayAt(today, defaultTime: dayPart.time, evening: dayPart.evening), 2)
            }
            guard word == "next" else { throw failure(text, .notUnderstood(raw[index + 1])) }
            switch Self.units[next] {
            case .days?, .minutes?, .hours?: break
            case let unit?:
                return (try apply(Span(unit, 1), phrase: raw[index...index + 1].joined(separator: " "), text: text), 2)
            case nil: break
            }
            throw failure(text, .notUnderstood(raw[index + 1]))
        case "in":
            guard let (span, used) = try readSpan(words, raw, from: index + 1, text: text) else {
                throw failure(text, .incomplete(raw[index], .length))
            }
            return (try apply(span, phrase: raw[index...index + used].joined(separator: " "), text: text), used + 1)
        default:
            break
        }
        if let weekday = Self.weekdays[word] {
            return (.day(coming(weekday, includingToday: false)), 1)
        }
        if word.hasPrefix("+") {
            guard let span = try compactSpan(String(word.dropFirst()), text: text) else {
                throw failure(text, .incomplete(raw[index], .length))
            }
            return (try apply(span, phrase: raw[index], text: text), 1)
        }
        // Typed as a date, `3d` and `1w` are `+3d` and `+1w` (at the end of
        // a title, "Buy 2 3d glasses" keeps its words).
        if typedAsADate, let span = try compactSpan(word, text: text) {
            return (try apply(span, phrase: raw[index], text: text), 1)
        }
        if let month = Self.months[word] {
            guard let next, let day = Self.dayOfMonth(next) else {
                throw failure(text, .incomplete(raw[index], .dayOfMonth))
            }
            let year = index + 2 < words.count ? Self.year(words[index + 2]) : nil
            let used = year == nil ? 2 : 3
            return (.day(try date(year: year, month: month, day: day, phrase: raw[index..<index + used].joined(separator: " "))), used)
        }
        if let day = Self.dayOfMonth(word), let next, let month = Self.months[next] {
            let year = index + 2 < words.count ? Self.year(words[index + 2]) : nil
            let used = year == nil ? 2 : 3
            return (.day(try date(year: year, month: month, day: day, phrase: raw[index..<index + used].joined(separator: " "))), used)
        }
        if word.first?.isASCII == true, word.first?.isNumber == true {
            if word.contains("/") { return (.day(try numericDate(raw[index])), 1) }
            // Typed as a date only: at the end of a title "3.11.10" is a
            // version more often than a day.
            if typedAsADate, Self.isDottedDate(word) { return (.day(try numericDate(raw[index], separator: ".")), 1) }
            if word.contains("-") { return (try isoDate(raw[index]), 1) }
        }
        return nil
    }

    /// The Saturday of this weekend (today on a Saturday or Sunday), or
    /// with `next`, of the one after.
    private func weekend(next: Bool) -> DueDate {
        let this = today.weekday == 0 ? today : coming(6, includingToday: true)
        return next ? (today.weekday == 0 ? coming(6, includingToday: false) : this.adding(days: 7)) : this
    }

    /// The first `weekday` (0 Sunday) after today, or from today on.
    private func coming(_ weekday: Int, includingToday: Bool) -> DueDate {
        var days = (weekday - today.weekday + 7) % 7
        if days == 0, !includingToday { days = 7 }
        return today.adding(days: days)
    }

    /// A day and month, with the year if given, else the next one from
    /// today on (for 29 February, the next year that has one).
    private func date(year: Int?, month: Int, day: Int, phrase: String) throws(NaturalDateError) -> DueDate {
        guard (1...12).contains(month) else { throw failure(phrase, .noSuchMonth(phrase, month: month)) }
        if let year {
            guard DueDate.years.contains(year) else { throw failure(phrase, .yearOutOfRange(year)) }
            guard let date = DueDate(year: year, month: month, day: day) else {
                throw failure(phrase, .noSuchDay(phrase, month: month, year: year))
            }
            return date
        }
        guard (1...DueDate.daysIn(month: month, year: 2000)).contains(day) else {
            throw failure(phrase, .noSuchDay(phrase, month: month, year: nil))
        }
        for year in today.year...today.year + 8 {
            if let date = DueDate(year: year, month: month, day: day), date >= today { return date }
        }
        throw failure(phrase, .noSuchDay(phrase, month: month, year: nil))
    }

    /// `14/3`, `14/3/2027`, `14/3/27`, read in the locale's order.
    private func numericDate(_ word: String, separator: Character = "/") throws(NaturalDateError) -> DueDate {
        // "12.12." and "12.12.2026" are day.month wherever dates are so written.
        let dotted = separator == "."
        var parts = word.split(separator: separator, omittingEmptySubsequences: false)
        if dotted, parts.count == 3, parts[2].isEmpty { parts.removeLast() }
        guard (2...3).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              parts[0].count <= 2, parts[1].count <= 2, parts.count == 2 || [2, 4].contains(parts[2].count),
              let a = Int(parts[0]), let b = Int(parts[1]) else {
            throw failure(word, .notUnderstood(word))
        }
        let (day, month) = order == .dayFirst || dotted ? (a, b) : (b, a)
        guard (1...12).contains(month) else { throw failure(word, .noSuchMonth(word, month: month)) }
        var year: Int?
        if parts.count == 3, let value = Int(parts[2]) {
            year = parts[2].count == 2 ? 2000 + value : value
        }
        return try date(year: year, month: month, day: day, phrase: word)
    }

    /// `2026-12-01`, also `2026-3-1`, or with a time: `2026-12-01T14:30`.
    private func isoDate(_ word: String) throws(NaturalDateError) -> Part {
        let pieces = word.lowercased().split(separator: "t", maxSplits: 1, omittingEmptySubsequences: false)
        let parts = pieces[0].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            throw failure(word, .notISO(word))
        }
        guard DueDate.years.contains(year) else { throw failure(word, .yearOutOfRange(year)) }
        let date = try self.date(year: year, month: month, day: day, phrase: String(pieces[0]))
        guard pieces.count == 2 else { return .day(date) }
        let clock = String(pieces[1])
        guard clock.contains(":"), let (time, _, _) = try readTime([clock], [clock], at: 0, wakingHours: false) else {
            throw failure(word, .notATime(clock))
        }
        return .moment(date.at(time))
    }

    /// "15", "15th", "1st": a number of one or two digits (also read by
    /// `RepeatRule`'s short syntax).
    static func dayOfMonth(_ word: String) -> Int? {
        var digits = Substring(word)
        for suffix in ["st", "nd", "rd", "th"] where digits.hasSuffix(suffix) {
            digits = digits.dropLast(2)
            break
        }
        guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }

    private static func year(_ word: String) -> Int? {
        guard word.count == 4, word.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(word)
    }

    // MARK: Lengths of time

    private enum Unit { case minutes, hours, days, weeks, months, years }

    /// A length of time in the units calendars count by: months and years
    /// (which vary in days), days and weeks (which keep the wall-clock
    /// time), and minutes (which do not).
    private struct Span {
        var months = 0
        var days = 0
        var minutes = 0

        init() {}

        init(_ unit: Unit, _ count: Int) {
            add(unit, count)
        }

        mutating func add(_ unit: Unit, _ count: Int) {
            switch unit {
            case .minutes: minutes += count
            case .hours: minutes += count * 60
            case .days: days += count
            case .weeks: days += count * 7
            case .months: months += count
            case .years: months += count * 12
            }
        }
    }

    /// Numbers of more digits are refused before any arithmetic: no
    /// calendar reaches them.
    private static let maximumDigits = 6

    /// `3 days`, `2h`, `1h30m`, `an hour`, `1 hour and 30 minutes`, from
    /// `start`; nil when no length starts there.
    private func readSpan(_ words: [String], _ raw: [String], from start: Int, text: String) throws(NaturalDateError)
        -> (Span, Int)? {
        var span = Span()
        var index = start
        var found = false
        while index < words.count {
            let word = words[index]
            if found, word == "and", index + 1 < words.count {
                index += 1
                continue
            }
            if index + 1 < words.count, let unit = Self.units[words[index + 1]], let count = try count(word, text: text) {
                span.add(unit, count)
                index += 2
            } else if let compact = try compactSpan(word, text: text) {
                span.months += compact.months
                span.days += compact.days
                span.minutes += compact.minutes
                index += 1
            } else {
                break
            }
            found = true
        }
        if index > start, words[index - 1] == "and" { index -= 1 }
        return found ? (span, index - start) : nil
    }

    /// A count of units (`3`, `a`, `an`); nil when the word is not one.
    private func count(_ word: String, text: String) throws(NaturalDateError) -> Int? {
        if word == "a" || word == "an" { return 1 }
        guard !word.isEmpty, word.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        guard word.count <= Self.maximumDigits, let value = Int(word) else { throw failure(text, .tooFar(text)) }
        return value
    }

    /// `3d`, `2h`, `1h30m`, `2weeks`: numbers each followed by a unit.
    private func compactSpan(_ word: String, text: String) throws(NaturalDateError) -> Span? {
        var span = Span()
        var rest = Substring(word)
        guard rest.first?.isASCII == true, rest.first?.isNumber == true else { return nil }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            let letters = rest.prefix { !($0.isASCII && $0.isNumber) }
            rest = rest.dropFirst(letters.count)
            guard !digits.isEmpty, let unit = Self.units[String(letters)] else { return nil }
            guard digits.count <= Self.maximumDigits, let count = Int(digits) else { throw failure(text, .tooFar(text)) }
            span.add(unit, count)
        }
        return span
    }

    /// Now plus a length: a day alone unless the length counts minutes.
    private func apply(_ span: Span, phrase: String, text: String) throws(NaturalDateError) -> Part {
        let start = span.minutes == 0 ? today : DueDate(moment: now, in: timeZone)
        let total = start.year * 12 + (start.month - 1) + span.months
        let year = total / 12, month = total % 12 + 1
        guard DueDate.years.contains(year),
              var moved = DueDate(year: year, month: month, day: min(start.day, DueDate.daysIn(month: month, year: year))) else {
            throw failure(text, .tooFar(phrase))
        }
        moved = moved.adding(days: span.days)
        guard DueDate.years.contains(moved.year) else { throw failure(text, .tooFar(phrase)) }
        guard span.minutes > 0 else { return .day(moved) }
        guard let base = moved.at((start.time?.hour ?? 0, start.time?.minute ?? 0)).moment(in: timeZone) else {
            throw failure(text, .tooFar(phrase))
        }
        let due = DueDate(moment: base.addingTimeInterval(TimeInterval(span.minutes) * 60), in: timeZone)
        guard DueDate.years.contains(due.year) else { throw failure(text, .tooFar(phrase)) }
        return .moment(due)
    }

    // MARK: Words

    private static let weekdays: [String: Int] = [
        "sun": 0, "sunday": 0, "mon": 1, "monday": 1, "tue": 2, "tues": 2, "tuesday": 2,
        "wed": 3, "weds": 3, "wednesday": 3, "thu": 4, "thur": 4, "thurs": 4, "thursday": 4,
        "fri": 5, "friday": 5, "sat": 6, "saturday": 6,
    ]

    /// "march", "mar", "sept": the month's number (also read by
    /// `RepeatRule`'s short syntax).
    static let months: [String: Int] = {
        var table: [String: Int] = ["sept": 9]
        for (index, name) in DueDate.monthNames.enumerated() {
            table[name.lowercased()] = index + 1
            table[String(name.lowercased().prefix(3))] = index + 1
        }
        return table
    }()

    private static let units: [String: Unit] = {
        let names: [(Unit, [String])] = [
            (.minutes, ["m", "min", "mins", "minute", "minutes"]),
            (.hours, ["h", "hr", "hrs", "hour", "hours"]),
            (.days, ["d", "day", "days"]),
            (.weeks, ["w", "wk", "wks", "week", "weeks"]),
            (.months, ["mo", "mos", "month", "months"]),
            (.years, ["y", "yr", "yrs", "year", "years"]),
        ]
        var table: [String: Unit] = [:]
        for (unit, words) in names {
            for word in words { table[word] = unit }
        }
        return table
    }()

    private func failure(_ text: String, _ problem: NaturalDateError.Problem) -> NaturalDateError {
        NaturalDateError(text: text, problem: problem, example: example, order: order)
    }
}

extension DueDate {
    /// The same day at a time of day.
    func at(_ time: (hour: Int, minute: Int)) -> DueDate {
        var copy = self
        copy.time = time
        return copy
    }
}

/// Why a due date could not be read: the problem as a value, and one line
/// for people that names the part not understood and gives an example
/// that is not in the past.
public struct NaturalDateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is missing after a word that needs more.
    public enum Need: Equatable, Sendable {
        case time, date, day, dayOfMonth, length
    }

    public enum Problem: Equatable, Sendable {
        /// Nothing was typed.
        case empty
        /// A word that is no part of a date or time.
        case notUnderstood(String)
        /// A word that needs more after it (`in`, `next`, `mar`, `at`).
        case incomplete(String, Need)
        /// Meant as a time, but not one (`9:7`, `1:2:3`).
        case notATime(String)
        /// Meant as YYYY-MM-DD, but not one (`2026-3`).
        case notISO(String)
        case hourOutOfRange(String, twelveHour: Bool)
        case minuteOutOfRange(String)
        case noSuchMonth(String, month: Int)
        /// The month has no such day (in that year, when one was given).
        case noSuchDay(String, month: Int, year: Int?)
        case yearOutOfRange(Int)
        /// Beyond the last year a due date may have.
        case tooFar(String)
        case twoDates(String, String)
        case twoTimes(String, String)
    }

    /// The text that was read.
    public let text: String
    public let problem: Problem
    /// Tomorrow, when the text was read: the date examples show.
    public let example: DueDate
    /// The order numeric dates were read in, which messages about them name.
    public let order: DayMonthOrder

    public var description: String {
        let month = DueDate.monthNames[example.month - 1].prefix(3).lowercased()
        let dayMonth = order == .dayFirst ? "\(example.day) \(month)" : "\(month) \(example.day)"
        let numeric = order == .dayFirst ? "\(example.day)/\(example.month)" : "\(example.month)/\(example.day)"
        let examples = "e.g. tomorrow 9am, fri, in 3 days, \(dayMonth) or \(example.dateString)"
        let times = "e.g. 9:30, 21:00, 9pm or noon"
        let context = text.isEmpty ? "" : "'\(text)': "
        switch problem {
        case .empty:
            return "enter a date (\(examples))"
        case .notUnderstood(let word):
            return (word == text ? "" : context) + "'\(word)' is not a date or time (\(examples))"
        case .incomplete(let word, let need):
            let what = switch need {
            case .time: "a time after it, e.g. at 9am"
            case .date: "a date after it, e.g. on fri"
            case .day: "a day after it, e.g. next mon"
            case .dayOfMonth: "a day, e.g. \(dayMonth)"
            case .length: "a length of time, e.g. in 3 days or +2h"
            }
            return (word == text ? "" : context) + "'\(word)' needs \(what)"
        case .notATime(let word):
            return (word == text ? "" : context) + "'\(word)' is not a time (\(times))"
        case .notISO(let word):
            return "'\(word)' is not a date: write YYYY-MM-DD, e.g. \(example.dateString)"
        case .hourOutOfRange(let word, let twelveHour):
            return twelveHour ? "\(word): with am or pm the hour is 1–12" : "\(word): the hour must be 0–23"
        case .minuteOutOfRange(let word):
            return "\(word): minutes must be 00–59"
        case .noSuchMonth(let word, let number):
            let hint = word.contains("/") ? " (dates with / are \(order.name) here, e.g. \(numeric))" : " (months are 1–12)"
            return "\(word): there is no month \(number)" + hint
        case .noSuchDay(let word, let number, let year?):
            return "\(word): \(DueDate.monthNames[number - 1]) \(year) has \(DueDate.daysIn(month: number, year: year)) days"
        case .noSuchDay(let word, let number, nil):
            let most = DueDate.daysIn(month: number, year: 2000)
            return "\(word): \(DueDate.monthNames[number - 1]) has \(number == 2 ? "at most " : "")\(most) days"
        case .yearOutOfRange(let year):
            return "year \(year) is out of range (\(DueDate.years.lowerBound)–\(DueDate.years.upperBound))"
        case .tooFar(let phrase):
            return "'\(phrase)' is too far ahead (due dates end in \(DueDate.years.upperBound))"
        case .twoDates(let first, let second):
            return "\(context)gives two dates, '\(first)' and '\(second)': keep one"
        case .twoTimes(let first, let second):
            return "\(context)gives two times, '\(first)' and '\(second)': keep one"
        }
    }
}

// MARK: - A repeat with a time

extension NaturalDate {
    /// A repeat as typed for `--repeat`, whose words may end with a time
    /// (`every tuesday at 9`, `weekdays at 8:30am`, `daily 9am`): the rule, and the time
    /// when one was given. Text that reads as a rule whole is one, time or
    /// not; the first error is the rule's own.
    public func repeatWithTime(_ text: String) throws(RepeatRuleError) -> (rule: RepeatRule, time: (hour: Int, minute: Int)?) {
        let untilDate: (String) -> DueDate? = { try? self.parse($0) }
        let failure: RepeatRuleError
        do throws(RepeatRuleError) {
            return (try RepeatRule(parsing: text, untilDate: untilDate), nil)
        } catch {
            failure = error
        }
        // The time after "at", or the last word or two ("daily 9am",
        // "every tue 9 pm").
        let words = Self.words(text)
        var starts = [words.count - 1, words.count - 2]
        if let at = words.lastIndex(where: { $0.lowercased() == "at" }) { starts.insert(at, at: 0) }
        for start in starts where start > 0 {
            if let time = try? self.time(words[start...].joined(separator: " ")),
               let rule = try? RepeatRule(parsing: words[..<start].joined(separator: " "), untilDate: untilDate) {
                return (rule, time)
            }
        }
        throw failure
    }

    /// The due date of a reminder given `due` (or none) and a repeat that
    /// names `time`: `due`'s day at that time, or the rule's first day at
    /// it; `.failure` with the due date's own time when it has another
    /// one, a mistake to point out (`--repeat says 19:00 and…`).
    public func due(_ due: DueDate?, repeating rule: RepeatRule,
                    at time: (hour: Int, minute: Int)) -> Result<DueDate, RepeatTimeClash> {
        if let given = due?.time, given != time { return .failure(RepeatTimeClash(repeatTime: time, dueTime: given)) }
        return .success(self.due(of: rule, at: time, on: due))
    }

    /// The due date of a repeat with a time: `day` at that time, or with no
    /// day, the rule's first day from the time's next one (today while the
    /// time is ahead), as quick add reads "Gym every tuesday at 9".
    public func due(of rule: RepeatRule, at time: (hour: Int, minute: Int), on day: DueDate?) -> DueDate {
        if let day { return day.at(time) }
        return Repeats.firstDue(rule, today: nextDay(at: time)).at(time)
    }

    /// The day `time` next comes: today while it is still ahead, else
    /// tomorrow.
    func nextDay(at time: (hour: Int, minute: Int)) -> DueDate {
        today.at(time) > DueDate(moment: now, in: timeZone) ? today : today.adding(days: 1)
    }
}

/// A repeat that names one time and a due date that names another.
public struct RepeatTimeClash: Error, Equatable {
    public var repeatTime: (hour: Int, minute: Int)
    public var dueTime: (hour: Int, minute: Int)

    /// "19:00 and … 08:00": `repeatName` and `dueName` name where each
    /// was typed ("--repeat", "the due date").
    public func message(repeatName: String, dueName: String) -> String {
        "\(repeatName) says \(Self.clock(repeatTime)) and \(dueName) says \(Self.clock(dueTime)): keep one time"
    }

    static func clock(_ time: (hour: Int, minute: Int)) -> String {
        (time.hour < 10 ? "0" : "") + "\(time.hour):" + (time.minute < 10 ? "0" : "") + "\(time.minute)"
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.repeatTime == b.repeatTime && a.dueTime == b.dueTime
    }
}
