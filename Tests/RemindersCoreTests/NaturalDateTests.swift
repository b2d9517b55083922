import Foundation
import Testing
import TestSupport
@testable import RemindersCore

/// Wednesday 25 November 2026, 10:17:30 UTC.
let wednesday = Date(timeIntervalSince1970: 1_795_601_850)

func naturalDates(_ order: DayMonthOrder = .dayFirst, now: Date = wednesday, zone: String = "UTC") -> NaturalDate {
    NaturalDate(now: now, timeZone: TimeZone(identifier: zone) ?? utc, order: order)
}

/// What `text` reads as, in the stored form, or the error's line.
func read(_ text: String, _ dates: NaturalDate = naturalDates()) -> String {
    do {
        return try dates.parse(text).description
    } catch {
        return "error: \(error)"
    }
}

@Suite("Natural dates")
struct NaturalDateTests {
    @Test func theClockIsWhereTheTableThinksItIs() {
        #expect(naturalDates().today.description == "2026-11-25")
        #expect(naturalDates().today.weekday == 3)
        #expect(DueDate(year: 2000, month: 1, day: 2)?.weekday == 0)
        #expect(DueDate(year: 2026, month: 11, day: 27)?.weekday == 5)
    }

    @Test(arguments: [
        // Days, no time.
        ("today", "2026-11-25"),
        ("Today", "2026-11-25"),
        ("tomorrow", "2026-11-26"),
        ("tmrw", "2026-11-26"),
        ("yesterday", "2026-11-24"),    // typed as a date; never taken from a title (QuickAddTests)
        ("yesterday 5pm", "2026-11-24T17:00"),
        ("fri", "2026-11-27"),
        ("Friday", "2026-11-27"),
        ("wed", "2026-12-02"),          // a weekday is the first one after today
        ("this wed", "2026-11-25"),     // "this" may be today
        ("next wed", "2026-12-02"),
        ("next mon", "2026-11-30"),
        ("on thursday", "2026-11-26"),
        ("next week", "2026-12-02"),
        ("next month", "2026-12-25"),
        ("+3d", "2026-11-28"),
        ("+1w", "2026-12-02"),
        ("in 3 days", "2026-11-28"),
        ("in a week", "2026-12-02"),
        ("in 2 weeks", "2026-12-09"),
        ("in 3 months", "2027-02-25"),
        ("in 1 year", "2027-11-25"),
        ("mar 14", "2027-03-14"),       // past this year: next year's
        ("March 14th", "2027-03-14"),
        ("14 mar", "2027-03-14"),
        ("dec 1", "2026-12-01"),
        ("nov 25", "2026-11-25"),       // today is not past
        ("mar 14 2028", "2028-03-14"),
        ("14 March, 2028", "2028-03-14"),
        ("feb 29", "2028-02-29"),       // the next year that has one
        ("14/3", "2027-03-14"),
        ("1/12", "2026-12-01"),
        ("14/3/2028", "2028-03-14"),
        ("14/3/28", "2028-03-14"),
        ("2026-12-01", "2026-12-01"),
        ("2026-3-1", "2026-03-01"),     // the past, when typed in full, is allowed
        // Days and times.
        ("tomorrow 9am", "2026-11-26T09:00"),
        ("9am tomorrow", "2026-11-26T09:00"),
        ("tomorrow at 9 am", "2026-11-26T09:00"),
        ("tomorrow at 9 a.m.", "2026-11-26T09:00"),
        ("fri 9:30pm", "2026-11-27T21:30"),
        ("next mon 14:30", "2026-11-30T14:30"),
        ("mar 14 noon", "2027-03-14T12:00"),
        ("14/3 21:00", "2027-03-14T21:00"),
        ("2026-12-01 14:30", "2026-12-01T14:30"),
        ("2026-12-01T14:30", "2026-12-01T14:30"),
        ("in 3 days at 9am", "2026-11-28T09:00"),
        ("today midnight", "2026-11-25T00:00"),
        ("fri 12am", "2026-11-27T00:00"),
        ("fri 12pm", "2026-11-27T12:00"),
        // Counting hours and minutes gives a time.
        ("in 2h", "2026-11-25T12:17"),
        ("in 2 hours", "2026-11-25T12:17"),
        ("+90m", "2026-11-25T11:47"),
        ("in 1h30m", "2026-11-25T11:47"),
        ("in an hour and 30 minutes", "2026-11-25T11:47"),
        ("in 1 day 2 hours", "2026-11-26T12:17"),
        ("in 14h", "2026-11-26T00:17"),
        // A time alone: today's while ahead, else tomorrow's.
        ("noon", "2026-11-25T12:00"),
        ("9am", "2026-11-26T09:00"),
        ("10:17", "2026-11-26T10:17"),  // this minute has begun: tomorrow
        ("10:18", "2026-11-25T10:18"),
        ("at 9:30pm", "2026-11-25T21:30"),
        ("21:00", "2026-11-25T21:00"),
        ("5p", "2026-11-25T17:00"),
        // An hour alone after "at", in waking hours.
        ("next tuesday at 3", "2026-12-01T15:00"),
        ("fri at 9", "2026-11-27T09:00"),
        ("fri at 7", "2026-11-27T07:00"),
        ("fri at 6", "2026-11-27T18:00"),
        ("fri at 12", "2026-11-27T12:00"),
        ("fri at 19", "2026-11-27T19:00"),
        ("at 3", "2026-11-25T15:00"),
        // So is an hour of one digit with minutes; two digits, am or an ISO time are the clock's.
        ("at 3:30", "2026-11-25T15:30"),
        ("fri 6:45", "2026-11-27T18:45"),
        ("fri 7:15", "2026-11-27T07:15"),
        ("fri 03:30", "2026-11-27T03:30"),
        ("fri 3:30am", "2026-11-27T03:30"),
        ("fri 0:30", "2026-11-27T00:30"),
        ("tomorrow 3.30", "2026-11-26T15:30"),
        ("2026-11-27T3:30", "2026-11-27T03:30"),
        ("2026-11-27 3:30", "2026-11-27T03:30"),
        // A morning named: its hours, not the afternoon's.
        ("tomorrow morning 6:30", "2026-11-26T06:30"),
        ("tomorrow morning at 6", "2026-11-26T06:00"),
        ("tomorrow evening at 6:30", "2026-11-26T18:30"),
        // Typed as a date, an hour alone after the day, and a dotted time.
        ("tomorrow 9", "2026-11-26T09:00"),
        ("tomorrow 3", "2026-11-26T15:00"),
        ("fri 19", "2026-11-27T19:00"),
        ("3 dec 7", "2026-12-03T07:00"),
        ("9.30", "2026-11-26T09:30"),
        ("tomorrow 14.45", "2026-11-26T14:45"),
        ("9", "error: '9' is not a date or time (e.g. tomorrow 9am, fri, in 3 days, 26 nov or 2026-11-26)"),
        ("tomorrow 9 10", "error: 'tomorrow 9 10': '10' is not a date or time (e.g. tomorrow 9am, fri, in 3 days, 26 nov or 2026-11-26)"),
        ("in 2h 9", "error: 'in 2h 9': gives two times, 'in 2h' and '9': keep one"),
        ("9.75", "error: 9.75: minutes must be 00–59"),
        // An hour with an "h": with its minutes anywhere, alone after a day.
        ("tomorrow 21h", "2026-11-26T21:00"),
        ("9h30", "2026-11-26T09:30"),
        ("fri 9h05", "2026-11-27T09:05"),
        ("21h", "2026-11-26T07:17"),  // alone, 21 hours from now
        // Words for parts of days, weeks and months.
        ("tonight", "2026-11-25T20:00"),
        ("tonight at 9", "2026-11-25T21:00"),
        ("tonight 10:30pm", "2026-11-25T22:30"),
        ("eod", "2026-11-25T17:00"),
        ("end of day", "2026-11-25T17:00"),
        ("end of the week", "2026-11-27"),
        ("end of month", "2026-11-30"),
        ("end of the year", "2026-12-31"),
        ("this weekend", "2026-11-28"),
        ("next weekend", "2026-12-05"),
        ("this weekend 10am", "2026-11-28T10:00"),
        // Parts of a day, after a day or "this"; alone, the next one.
        ("tomorrow morning", "2026-11-26T09:00"),
        ("fri evening", "2026-11-27T18:00"),
        ("sat night", "2026-11-28T20:00"),
        ("tomorrow evening at 7", "2026-11-26T19:00"),
        ("tomorrow afternoon 3", "2026-11-26T15:00"),
        ("tomorrow morning at 7:30", "2026-11-26T07:30"),
        ("this afternoon", "2026-11-25T14:00"),
        ("this evening", "2026-11-25T18:00"),
        ("evening", "2026-11-25T18:00"),
        ("morning", "2026-11-26T09:00"),  // this one is past at 10:17
        ("3 dec morning", "2026-12-03T09:00"),
        ("day after tomorrow", "2026-11-27"),
        // Dates with dots are day.month; "12.12" without its last dot is a time.
        ("12.12.", "2026-12-12"),
        ("3.1.2027", "2027-01-03"),
        ("24.12.26 18:00", "2026-12-24T18:00"),
        ("12.12", "2026-11-25T12:12"),
        ("31.11.", "error: 31.11.: November has 30 days"),
        ("9.30.", "2026-11-26T09:30"),  // a time at the end of a sentence
        // With am or pm, a part of a day moves no hour.
        ("tomorrow night 1am", "2026-11-26T01:00"),
        ("fri evening 10am", "2026-11-27T10:00"),
        ("tonight 9:30", "2026-11-25T21:30"),
        ("the day after tomorrow 9am", "2026-11-27T09:00"),
        ("next morning", "error: 'next morning': 'morning' is not a date or time (e.g. tomorrow 9am, fri, in 3 days, 26 nov or 2026-11-26)"),
        ("in 2h evening", "error: 'in 2h evening': gives two dates, 'in 2h' and 'evening': keep one"),
        // Typed as a date, a length alone counts from now, as with +.
        ("1w", "2026-12-02"),
        ("3d", "2026-11-28"),
        ("2h", "2026-11-25T12:17"),
    ])
    func readsWhatPeopleType(text: String, expected: String) {
        #expect(read(text) == expected, "\(text)")
    }

    @Test func aRepeatMayEndWithATime() throws {
        let dates = naturalDates()  // Wednesday 2026-11-25 10:17
        let gym = try dates.repeatWithTime("every friday at 7pm")
        #expect(gym.rule.rrule == "FREQ=WEEKLY;BYDAY=FR" && gym.time! == (19, 0))
        #expect(dates.due(of: gym.rule, at: gym.time!, on: nil).description == "2026-11-27T19:00")
        // Today's while the time is ahead, tomorrow's once it has passed.
        let daily = try dates.repeatWithTime("daily at 9")
        #expect(dates.due(of: daily.rule, at: daily.time!, on: nil).description == "2026-11-26T09:00")
        #expect(dates.due(of: daily.rule, at: (11, 0), on: nil).description == "2026-11-25T11:00")
        #expect(dates.due(of: daily.rule, at: (11, 0), on: DueDate("2026-12-03")).description == "2026-12-03T11:00")
        // An "until" date with a time of its own is still the rule's.
        let until = try dates.repeatWithTime("weekly until dec 24")
        #expect(until.time == nil && until.rule.rrule.hasPrefix("FREQ=WEEKLY;UNTIL="))
        let bare = try dates.repeatWithTime("daily 7am")
        #expect(bare.rule.rrule == "FREQ=DAILY" && bare.time! == (7, 0))
        let spaced = try dates.repeatWithTime("every tue 9 pm")
        #expect(spaced.rule.rrule == "FREQ=WEEKLY;BYDAY=TU" && spaced.time! == (21, 0))
        // "every 3 days" keeps its 3; "5 times" is a count.
        #expect(try dates.repeatWithTime("every 3 days").time == nil)
        #expect(try dates.repeatWithTime("daily 5 times").time == nil)
        #expect(throws: RepeatRuleError.self) { try dates.repeatWithTime("weekly at teatime") }
        #expect(throws: RepeatRuleError.self) { try dates.repeatWithTime("at 9") }
    }

    @Test func numericDatesFollowTheLocale() {
        let us = naturalDates(DayMonthOrder(locale: Locale(identifier: "en_US")))
        let uk = naturalDates(DayMonthOrder(locale: Locale(identifier: "en_GB")))
        let germany = naturalDates(DayMonthOrder(locale: Locale(identifier: "de_DE")))
        #expect(us.order == .monthFirst && uk.order == .dayFirst && germany.order == .dayFirst)
        #expect(read("3/4", us) == "2027-03-04")
        #expect(read("3/4", uk) == "2027-04-03")
        #expect(read("12/1", us) == "2026-12-01")
        #expect(read("12/1", uk) == "2027-01-12")
        #expect(read("14/3", us) == "error: 14/3: there is no month 14 (dates with / are month/day here, e.g. 11/26)")
        #expect(read("3/14", uk) == "error: 3/14: there is no month 14 (dates with / are day/month here, e.g. 26/11)")
        // Month names mean the same everywhere.
        #expect(read("mar 14", us) == read("14 mar", uk))
    }

    @Test func theLocaleComesFromTheEnvironmentAsTheCLibraryReadsIt() {
        #expect(DayMonthOrder.fromEnvironment(["LANG": "en_US.UTF-8"]) == .monthFirst)
        #expect(DayMonthOrder.fromEnvironment(["LANG": "en_US.UTF-8", "LC_TIME": "en_GB.UTF-8"]) == .dayFirst)
        #expect(DayMonthOrder.fromEnvironment(["LC_ALL": "en_US", "LC_TIME": "en_GB.UTF-8"]) == .monthFirst)
        #expect(DayMonthOrder.fromEnvironment(["LANG": "de_DE@euro"]) == .dayFirst)
        #expect(DayMonthOrder.fromEnvironment(["LANG": "C.UTF-8"]) == .dayFirst)
        #expect(DayMonthOrder.fromEnvironment(["LC_ALL": "", "LANG": "en_US.UTF-8"]) == .monthFirst)
        #expect(DayMonthOrder.fromEnvironment([:]) == .dayFirst)
    }

    @Test func hoursCountInTheTimeZoneAcrossAClockChange() throws {
        // 29 March 2026, 01:30 in London: at 01:00 clocks went forward to 02:00.
        let london = "Europe/London"
        let dates = naturalDates(now: try #require(AppClock.parseMoment("2026-03-29T00:30:00Z")), zone: london)
        #expect(read("in 2h", dates) == "2026-03-29T03:30")
        #expect(read("today", dates) == "2026-03-29")
        #expect(read("tomorrow 9am", dates) == "2026-03-30T09:00")
        // Late in the evening in Tokyo, it is already tomorrow there.
        let tokyo = naturalDates(now: try #require(AppClock.parseMoment("2026-11-25T16:00:00Z")), zone: "Asia/Tokyo")
        #expect(read("today", tokyo) == "2026-11-26")
    }

    @Test(arguments: [
        ("frday", "error: 'frday' is not a date or time (e.g. tomorrow 9am, fri, in 3 days, 26 nov or 2026-11-26)"),
        ("next frday", "error: 'next frday': 'frday' is not a date or time (e.g. tomorrow 9am, fri, in 3 days, 26 nov or 2026-11-26)"),
        ("", "error: enter a date (e.g. tomorrow 9am, fri, in 3 days, 26 nov or 2026-11-26)"),
        ("in", "error: 'in' needs a length of time, e.g. in 3 days or +2h"),
        ("in soon", "error: 'in soon': 'in' needs a length of time, e.g. in 3 days or +2h"),
        ("+3", "error: '+3' needs a length of time, e.g. in 3 days or +2h"),
        ("next", "error: 'next' needs a day after it, e.g. next mon"),
        ("mar", "error: 'mar' needs a day, e.g. 26 nov"),
        ("tomorrow at", "error: 'tomorrow at': 'at' needs a time after it, e.g. at 9am"),
        ("25:00", "error: 25:00: the hour must be 0–23"),
        ("13pm", "error: 13pm: with am or pm the hour is 1–12"),
        ("0am", "error: 0am: with am or pm the hour is 1–12"),
        ("12:60", "error: 12:60: minutes must be 00–59"),
        ("9:7", "error: '9:7' is not a time (e.g. 9:30, 21:00, 9pm or noon)"),
        ("2026-02-30", "error: 2026-02-30: February 2026 has 28 days"),
        ("2026-13-01", "error: 2026-13-01: there is no month 13 (months are 1–12)"),
        ("0999-01-01", "error: year 999 is out of range (1900–9999)"),
        ("2026-03", "error: '2026-03' is not a date: write YYYY-MM-DD, e.g. 2026-11-26"),
        ("2026-03-01T24:00", "error: 24:00: the hour must be 0–23"),
        ("31 apr", "error: 31 apr: April has 30 days"),
        ("30/2", "error: 30/2: February has at most 29 days"),
        ("fri mar 14", "error: 'fri mar 14': gives two dates, 'fri' and 'mar 14': keep one"),
        ("9am 10am", "error: '9am 10am': gives two times, '9am' and '10am': keep one"),
        ("in 2h at 9am", "error: 'in 2h at 9am': gives two times, 'in 2h' and '9am': keep one"),
        ("in 9999 years", "error: 'in 9999 years' is too far ahead (due dates end in 9999)"),
        ("in 9999999 days", "error: 'in 9999999 days' is too far ahead (due dates end in 9999)"),
        ("+999999w", "error: '+999999w' is too far ahead (due dates end in 9999)"),
    ])
    func eachMistakeSaysWhatWasNotUnderstood(text: String, expected: String) {
        #expect(read(text) == expected, "\(text)")
    }

    @Test func anExampleInAMessageIsNeverInThePast() throws {
        // The old message gave 2026-03-01 as its example whatever the date.
        for moment in ["2026-03-01T10:00:00Z", "2027-12-31T23:59:00Z", "2030-06-15T08:00:00Z"] {
            let dates = naturalDates(now: try #require(AppClock.parseMoment(moment)))
            let message = read("someday", dates)
            let example = try #require(message.split(separator: " ").last.map { String($0.dropLast()) })
            #expect(try #require(DueDate(example)) > dates.today, "\(message)")
        }
    }

    /// On a weekend day, this weekend is today's; on a Friday, the end of
    /// the week is today.
    @Test func weekendsAndWeekEndsCountFromToday() {
        let saturday = naturalDates(now: wednesday.addingTimeInterval(3 * 86_400))
        let sunday = naturalDates(now: wednesday.addingTimeInterval(4 * 86_400))
        let friday = naturalDates(now: wednesday.addingTimeInterval(2 * 86_400))
        #expect(read("this weekend", saturday) == "2026-11-28")
        #expect(read("next weekend", saturday) == "2026-12-05")
        #expect(read("this weekend", sunday) == "2026-11-29")
        #expect(read("next weekend", sunday) == "2026-12-05")
        #expect(read("end of week", friday) == "2026-11-27")
        #expect(read("end of the", friday).hasPrefix("error: 'end of the': 'of' needs a day after it"))
        #expect(read("end of time", friday).hasPrefix("error: 'end of time': 'time' is not a date or time"))
    }

    @Test func theTimeFieldTakesATimeAlone() throws {
        let dates = naturalDates()
        #expect(try dates.time("9am") == (9, 0))
        #expect(try dates.time(" 9:30 pm ") == (21, 30))
        #expect(try dates.time("at noon") == (12, 0))
        #expect(try dates.time("07:05") == (7, 5))
        #expect(throws: NaturalDateError.self) { try dates.time("tomorrow") }
        // An hour alone in waking hours, as after "at"; an hour with an "h".
        #expect(try dates.time("9") == (9, 0))
        #expect(try dates.time("3") == (15, 0))
        #expect(try dates.time("3:30") == (15, 30))
        #expect(try dates.time("03:30") == (3, 30))
        #expect(try dates.time("21h") == (21, 0))
        #expect(try dates.time("9h30") == (9, 30))
        #expect(try dates.time("9.30") == (9, 30))
        #expect(throws: NaturalDateError.self) { try dates.time("25") }
        #expect(throws: NaturalDateError.self) { try dates.time("9 10") }
        #expect(throws: NaturalDateError.self) { try dates.time("24:00") }
    }

    @Test func wordsThatStandAloneAsDates() {
        for word in ["today", "Tomorrow", "+3d", "2026-12-01"] { #expect(NaturalDate.standsAlone(word), "\(word)") }
        for word in ["fri", "sun", "14/3", "noon", "9am", "+", "in"] { #expect(!NaturalDate.standsAlone(word), "\(word)") }
    }

    /// Random text never crashes the parser, and what it accepts is a
    /// valid due date in range.
    @Test func randomTextNeverCrashes() {
        var generator = SeededGenerator(seed: 20261125)
        let pieces = ["in", "next", "this", "at", "on", "+", "-", "/", ":", ".", "a", "am", "pm", "mar", "14", "0",
                      "99999999999999999999", "2026", "t", "h", "d", "w", "mo", "y", "fri", "today", "noon", " ", ",",
                      "and", "3", "12", "31", "29", "feb", "é", "\u{0}", "9", "１", "٣"]
        let dates = naturalDates()
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...8, using: &generator)
            let text = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }
                .joined(separator: Bool.random(using: &generator) ? " " : "")
            if let due = try? dates.parse(text) {
                #expect(DueDate.years.contains(due.year), "\(text)")
                #expect(DueDate(due.description) == due, "\(text)")
            }
            _ = try? dates.time(text)
            _ = dates.date(words: text.split(separator: " ").map(String.init))
        }
    }
}
