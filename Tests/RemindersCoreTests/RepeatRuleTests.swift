import Foundation
import Testing
import TestSupport
@testable import RemindersCore

@Suite("Repeat rules")
struct RepeatRuleTests {
    // MARK: The series

    /// A rule, a due date, and the first occurrences after it; when the
    /// series ends, `asking` for more gives no more. The expected dates
    /// agree with python-dateutil's RFC 5545 implementation.
    struct Series: Sendable, CustomTestStringConvertible {
        var behaviour: String
        var rrule: String
        var due: String
        var expected: [String]
        var asking: Int?

        init(behaviour: String, rrule: String, due: String, expected: [String], asking: Int? = nil) {
            self.behaviour = behaviour
            self.rrule = rrule
            self.due = due
            self.expected = expected
            self.asking = asking
        }

        var testDescription: String { behaviour }
    }

    static let series: [Series] = [
        Series(behaviour: "Jan 31 monthly skips months without a 31st", rrule: "FREQ=MONTHLY", due: "2026-01-31",
               expected: ["2026-03-31", "2026-05-31", "2026-07-31", "2026-08-31"]),
        Series(behaviour: "the 31st skips short months from any start", rrule: "FREQ=MONTHLY;BYMONTHDAY=31", due: "2026-01-15",
               expected: ["2026-01-31", "2026-03-31", "2026-05-31"]),
        Series(behaviour: "the last day of the month in a common year", rrule: "FREQ=MONTHLY;BYMONTHDAY=-1", due: "2027-01-31",
               expected: ["2027-02-28", "2027-03-31", "2027-04-30"]),
        Series(behaviour: "the last day of the month in a leap year", rrule: "FREQ=MONTHLY;BYMONTHDAY=-1", due: "2028-01-31",
               expected: ["2028-02-29", "2028-03-31", "2028-04-30"]),
        Series(behaviour: "Feb 29 yearly falls in leap years only", rrule: "FREQ=YEARLY", due: "2024-02-29",
               expected: ["2028-02-29", "2032-02-29", "2036-02-29"]),
        Series(behaviour: "the last Friday of each month", rrule: "FREQ=MONTHLY;BYDAY=-1FR", due: "2026-01-30",
               expected: ["2026-02-27", "2026-03-27", "2026-04-24", "2026-05-29"]),
        Series(behaviour: "a 5th Thursday skips months without one", rrule: "FREQ=MONTHLY;BYDAY=5TH", due: "2026-01-29",
               expected: ["2026-04-30", "2026-07-30", "2026-10-29"]),
        Series(behaviour: "the 2nd Tuesday", rrule: "FREQ=MONTHLY;BYDAY=2TU", due: "2026-03-01",
               expected: ["2026-03-10", "2026-04-14", "2026-05-12"]),
        Series(behaviour: "every 2 weeks on Mon, Thu from a Wednesday", rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH",
               due: "2026-03-04", expected: ["2026-03-05", "2026-03-16", "2026-03-19", "2026-03-30", "2026-04-02"]),
        Series(behaviour: "weekdays skip the weekend", rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", due: "2026-03-06",
               expected: ["2026-03-09", "2026-03-10", "2026-03-11"]),
        Series(behaviour: "weekly keeps the due date's weekday and time", rrule: "FREQ=WEEKLY", due: "2026-03-04T18:30",
               expected: ["2026-03-11T18:30", "2026-03-18T18:30"]),
        Series(behaviour: "every 3 days across the end of February", rrule: "FREQ=DAILY;INTERVAL=3", due: "2026-02-26",
               expected: ["2026-03-01", "2026-03-04", "2026-03-07"]),
        Series(behaviour: "daily limited to weekends", rrule: "FREQ=DAILY;BYDAY=SA,SU", due: "2026-03-04",
               expected: ["2026-03-07", "2026-03-08", "2026-03-14"]),
        Series(behaviour: "daily limited to Feb 29 waits for leap years", rrule: "FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29",
               due: "2026-03-01", expected: ["2028-02-29", "2032-02-29"]),
        Series(behaviour: "weekly limited to December", rrule: "FREQ=WEEKLY;BYMONTH=12;BYDAY=SU", due: "2026-03-04",
               expected: ["2026-12-06", "2026-12-13", "2026-12-20"]),
        Series(behaviour: "Friday the 13th", rrule: "FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR", due: "2026-01-01",
               expected: ["2026-02-13", "2026-03-13", "2026-11-13"]),
        Series(behaviour: "every other month on the 1st, 15th and last day", rrule: "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=1,15,-1",
               due: "2026-01-20", expected: ["2026-01-31", "2026-03-01", "2026-03-15", "2026-03-31", "2026-05-01"]),
        Series(behaviour: "monthly in some months keeps the 31st", rrule: "FREQ=MONTHLY;BYMONTH=2,8", due: "2026-01-31",
               expected: ["2026-08-31", "2027-08-31", "2028-08-31"]),
        Series(behaviour: "every Monday of the month", rrule: "FREQ=MONTHLY;BYDAY=MO", due: "2026-03-04",
               expected: ["2026-03-09", "2026-03-16", "2026-03-23"]),
        Series(behaviour: "a date each year", rrule: "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14", due: "2026-01-10",
               expected: ["2026-03-14", "2027-03-14"]),
        Series(behaviour: "the 4th Thursday of November", rrule: "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", due: "2026-01-01",
               expected: ["2026-11-26", "2027-11-25", "2028-11-23"]),
        Series(behaviour: "the last Sunday of March", rrule: "FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU", due: "2026-01-01",
               expected: ["2026-03-29", "2027-03-28", "2028-03-26"]),
        Series(behaviour: "a yearly ordinal without a month counts in the year", rrule: "FREQ=YEARLY;BYDAY=1MO", due: "2026-01-01",
               expected: ["2026-01-05", "2027-01-04"]),
        Series(behaviour: "the last Friday of the year", rrule: "FREQ=YEARLY;BYDAY=-1FR", due: "2026-01-01",
               expected: ["2026-12-25", "2027-12-31"]),
        Series(behaviour: "a yearly day of the month without a month is in every month", rrule: "FREQ=YEARLY;BYMONTHDAY=1",
               due: "2026-01-01", expected: ["2026-02-01", "2026-03-01", "2026-04-01"]),
        Series(behaviour: "every 2 years in January and July", rrule: "FREQ=YEARLY;INTERVAL=2;BYMONTH=1,7", due: "2026-01-05",
               expected: ["2026-07-05", "2028-01-05", "2028-07-05"]),
        Series(behaviour: "COUNT=3 gives 2 after the due date", rrule: "FREQ=DAILY;COUNT=3", due: "2026-03-01",
               expected: ["2026-03-02", "2026-03-03"], asking: 10),
        Series(behaviour: "COUNT=1 gives nothing after the due date", rrule: "FREQ=DAILY;COUNT=1", due: "2026-03-01", expected: [], asking: 10),
        Series(behaviour: "UNTIL a date includes that day", rrule: "FREQ=DAILY;UNTIL=20260305", due: "2026-03-01T09:00",
               expected: ["2026-03-02T09:00", "2026-03-03T09:00", "2026-03-04T09:00", "2026-03-05T09:00"], asking: 10),
        Series(behaviour: "UNTIL a moment includes that moment", rrule: "FREQ=DAILY;UNTIL=20260303T090000", due: "2026-03-01T09:00",
               expected: ["2026-03-02T09:00", "2026-03-03T09:00"], asking: 10),
        Series(behaviour: "UNTIL a minute earlier excludes that day", rrule: "FREQ=DAILY;UNTIL=20260303T085900", due: "2026-03-01T09:00",
               expected: ["2026-03-02T09:00"], asking: 10),
        Series(behaviour: "UNTIL before the next occurrence ends the series", rrule: "FREQ=WEEKLY;UNTIL=20260307", due: "2026-03-01",
               expected: [], asking: 10),
        Series(behaviour: "Feb 30 never comes", rrule: "FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=30", due: "2026-01-01", expected: [], asking: 10),
        Series(behaviour: "a daily rule for a day that never comes ends", rrule: "FREQ=DAILY;BYMONTH=4;BYMONTHDAY=31",
               due: "2026-01-01", expected: [], asking: 10),
        Series(behaviour: "the search stops at the end of year 9999", rrule: "FREQ=YEARLY", due: "9998-06-01",
               expected: ["9999-06-01"], asking: 10),
    ]

    @Test(arguments: series)
    func occurrencesFollowTheRule(_ series: Series) throws {
        let rule = try RepeatRule(rrule: series.rrule)
        let found = rule.occurrences(after: try date(series.due), count: series.asking ?? series.expected.count)
        #expect(found.map(\.description) == series.expected)
        #expect(rule.rrule == series.rrule, "the table is written in canonical form")
    }

    @Test func aDailyNineOClockStaysNineAcrossDaylightSavingChanges() throws {
        // US clocks change on 2026-03-08 and 2026-11-01, European ones on
        // 2026-03-29 and 2026-10-25: due dates are wall-clock values, so
        // none of these may show.
        let daily = try RepeatRule(rrule: "FREQ=DAILY")
        for start in ["2026-03-06T09:00", "2026-10-22T09:00"] {
            let first = try date(start)
            let found = daily.occurrences(after: first, count: 30)
            #expect(found.count == 30)
            #expect(found.allSatisfy { $0.time?.hour == 9 && $0.time?.minute == 0 })
            #expect(found.map(\.dayNumber) == Array(first.dayNumber + 1...first.dayNumber + 30))
        }
        let advanced = daily.advance(from: try date("2026-03-28T09:00"), completedOn: try date("2026-03-29"))
        #expect(advanced?.due.description == "2026-03-29T09:00")
    }

    /// "Every 2 days after completion" due Wednesday and done on Monday
    /// counts from Wednesday: counted from Monday it would be due on the
    /// Wednesday just done, and that occurrence's copy taken for the next.
    /// (Done early by less, it counts from the completion, as the test
    /// below has it.)
    @Test func aCompletionBeforeTheDueDateCountsFromTheDueDate() throws {
        let rule = try RepeatRule(rrule: "FREQ=DAILY;INTERVAL=2;FROM=COMPLETION")
        let early = rule.advance(from: try date("2027-01-13T09:00"), completedOn: try date("2027-01-11"))
        #expect(early?.due.description == "2027-01-15T09:00")
        let late = rule.advance(from: try date("2027-01-13T09:00"), completedOn: try date("2027-01-14"))
        #expect(late?.due.description == "2027-01-16T09:00")
    }

    /// A repeating reminder given no due date starts on the rule's first
    /// day from today: today itself for a rule without days ("weekly",
    /// "monthly"), not a period on.
    @Test(arguments: [
        ("weekly", "2026-11-25"), ("monthly", "2026-11-25"), ("yearly", "2026-11-25"), ("every 2 weeks", "2026-11-25"),
        ("daily", "2026-11-25"), ("every week on fri", "2026-11-27"), ("every month on the 15th", "2026-12-15"),
        ("every year on mar 14", "2027-03-14"), ("every week on wed", "2026-11-25"),
        // An interval counts from the first day, so it does not skip one.
        ("every 2 weeks on fri", "2026-11-27"), ("every 3 weeks on mon", "2026-11-30"), ("every 2 weeks on tue", "2026-12-01"),
        ("every 2 months on the 15th", "2026-12-15"), ("every 2 months on the 1st", "2026-12-01"),
        ("every 2 years on jan 5", "2027-01-05"),
    ])
    func aSeriesWithoutADueDateStartsOnItsFirstDayFromToday(phrase: String, expected: String) throws {
        let rule = try RepeatRule(parsing: phrase)
        #expect(Repeats.firstDue(rule, today: try #require(DueDate("2026-11-25"))).description == expected, "\(phrase)")
    }

    @Test func aDateWithoutATimeStaysWithoutOne() throws {
        let found = try RepeatRule(rrule: "FREQ=WEEKLY").occurrences(after: try date("2026-03-04"), count: 2)
        #expect(found.map(\.description) == ["2026-03-11", "2026-03-18"])
    }

    @Test func rulesOutOfRangeHaveNoOccurrences() throws {
        let due = try date("2026-03-04")
        #expect(RepeatRule(frequency: .daily, interval: 0).occurrences(after: due, count: 3).isEmpty)
        #expect(RepeatRule(frequency: .weekly, days: [.init(weekday: 9)]).occurrences(after: due, count: 3).isEmpty)
        #expect(RepeatRule(frequency: .weekly, days: [.init(weekday: 1, ordinal: 2)]).occurrences(after: due, count: 3).isEmpty)
        #expect(RepeatRule(frequency: .daily, end: .count(0)).occurrences(after: due, count: 3).isEmpty)
        // Extreme values set in code must not trap.
        #expect(RepeatRule(frequency: .daily, end: .count(.min)).occurrences(after: due, count: 3).isEmpty)
        #expect(RepeatRule(frequency: .monthly, days: [.init(weekday: 1, ordinal: .min)]).occurrences(after: due, count: 3).isEmpty)
        #expect(RepeatRule(frequency: .monthly, monthDays: [.min]).occurrences(after: due, count: 3).isEmpty)
        #expect(RepeatRule(frequency: .yearly, interval: .max).advance(from: due, completedOn: due) == nil)
        #expect(RepeatRule(frequency: .monthly, days: [.init(weekday: 1, ordinal: .min)], monthDays: [.min]).description
            .hasPrefix("Monthly on the "))
    }

    // MARK: Completing an occurrence

    @Test func completingCountsDownToTheLastOccurrence() throws {
        let rule = try RepeatRule(rrule: "FREQ=DAILY;COUNT=3")
        let first = try date("2026-03-01")
        let second = try #require(rule.advance(from: first, completedOn: first))
        #expect(second.due.description == "2026-03-02")
        #expect(second.rule.rrule == "FREQ=DAILY;COUNT=2")
        let third = try #require(second.rule.advance(from: second.due, completedOn: second.due))
        #expect(third.due.description == "2026-03-03")
        #expect(third.rule.rrule == "FREQ=DAILY;COUNT=1")
        #expect(third.rule.advance(from: third.due, completedOn: third.due) == nil)
    }

    @Test func completingTheLastOccurrenceBeforeUntilEndsTheSeries() throws {
        let rule = try RepeatRule(rrule: "FREQ=WEEKLY;UNTIL=20260311")
        let next = try #require(rule.advance(from: try date("2026-03-04"), completedOn: try date("2026-03-04")))
        #expect(next.due.description == "2026-03-11")
        #expect(next.rule == rule)
        #expect(rule.advance(from: next.due, completedOn: next.due) == nil)
    }

    @Test func aScheduledRuleIgnoresWhenItWasCompleted() throws {
        let rule = try RepeatRule(rrule: "FREQ=DAILY;INTERVAL=3")
        let next = rule.advance(from: try date("2026-03-01T09:00"), completedOn: try date("2026-03-04"))
        #expect(next?.due.description == "2026-03-04T09:00")
    }

    @Test func afterCompletionCountsFromTheCompletionDay() throws {
        let rule = try RepeatRule(parsing: "every 3 days after completion")
        // Completed three days late: the next is three days after that.
        let next = rule.advance(from: try date("2026-03-01T09:00"), completedOn: try date("2026-03-04"))
        #expect(next?.due.description == "2026-03-07T09:00")
        // A time on the completion day is not the due time.
        let early = rule.advance(from: try date("2026-03-10"), completedOn: try date("2026-03-08T23:30"))
        #expect(early?.due.description == "2026-03-11")
    }

    @Test func monthlyAfterCompletionFromJanuary31EndsFebruary() throws {
        let rule = try RepeatRule(rrule: "FREQ=MONTHLY;FROM=COMPLETION")
        let common = rule.advance(from: try date("2026-01-31T18:00"), completedOn: try date("2026-01-31"))
        #expect(common?.due.description == "2026-02-28T18:00")
        let leap = rule.advance(from: try date("2028-01-31T18:00"), completedOn: try date("2028-01-31"))
        #expect(leap?.due.description == "2028-02-29T18:00")
        let yearly = try RepeatRule(rrule: "FREQ=YEARLY;FROM=COMPLETION")
        #expect(yearly.advance(from: try date("2028-02-29"), completedOn: try date("2028-02-29"))?.due.description == "2029-02-28")
    }

    @Test func weeklyAfterCompletionMovesOnToAListedWeekday() throws {
        let rule = try RepeatRule(rrule: "FREQ=WEEKLY;BYDAY=MO,FR;FROM=COMPLETION")
        // Completed on Wednesday 2026-03-04: a week later is Wednesday the 11th, then Friday.
        let next = rule.advance(from: try date("2026-03-02"), completedOn: try date("2026-03-04"))
        #expect(next?.due.description == "2026-03-13")
        let onMonday = rule.advance(from: try date("2026-03-02"), completedOn: try date("2026-03-02"))
        #expect(onMonday?.due.description == "2026-03-09")
    }

    @Test func afterCompletionRespectsTheEnd() throws {
        let rule = try RepeatRule(rrule: "FREQ=DAILY;INTERVAL=7;UNTIL=20260310;FROM=COMPLETION")
        #expect(rule.advance(from: try date("2026-03-01"), completedOn: try date("2026-03-03"))?.due.description == "2026-03-10")
        #expect(rule.advance(from: try date("2026-03-01"), completedOn: try date("2026-03-04")) == nil)
        let counted = try RepeatRule(rrule: "FREQ=DAILY;COUNT=2;FROM=COMPLETION")
        let next = try #require(counted.advance(from: try date("2026-03-01"), completedOn: try date("2026-03-05")))
        #expect(next.due.description == "2026-03-06")
        #expect(next.rule.advance(from: next.due, completedOn: next.due) == nil)
    }

    // MARK: RRULE text

    @Test(arguments: series.map(\.rrule))
    func canonicalTextRoundTrips(_ text: String) throws {
        let rule = try RepeatRule(rrule: text)
        #expect(rule.rrule == text)
        #expect(try RepeatRule(rrule: rule.rrule) == rule)
    }

    @Test func readingIsLenientOnlyWhereRFC5545Is() throws {
        let pairs: [(String, String)] = [
            ("RRULE:FREQ=WEEKLY;BYDAY=TH,MO", "FREQ=WEEKLY;BYDAY=MO,TH"),
            ("freq=weekly;byday=mo;wkst=mo", "FREQ=WEEKLY;BYDAY=MO"),
            ("FREQ=DAILY;INTERVAL=1;BYDAY=SU,SA,SU", "FREQ=DAILY;BYDAY=SA,SU"),
            ("BYMONTHDAY=-1,+15,1;FREQ=MONTHLY", "FREQ=MONTHLY;BYMONTHDAY=1,15,-1"),
            ("FREQ=MONTHLY;BYDAY=-1FR,+2TU,MO", "FREQ=MONTHLY;BYDAY=MO,2TU,-1FR"),
            ("FREQ=DAILY;UNTIL=20270131T235959Z", "FREQ=DAILY;UNTIL=20270131T235900"),
            ("FREQ=DAILY;FROM=COMPLETION;COUNT=4", "FREQ=DAILY;COUNT=4;FROM=COMPLETION"),
            (" FREQ=YEARLY;BYMONTH=12,3 \n", "FREQ=YEARLY;BYMONTH=3,12"),
        ]
        for (text, canonical) in pairs {
            #expect(try RepeatRule(rrule: text).rrule == canonical, "\(text)")
        }
    }

    @Test func listsStayInCanonicalOrderWhenSet() throws {
        var rule = RepeatRule(frequency: .weekly)
        rule.days = [.init(weekday: 4), .init(weekday: 1), .init(weekday: 4)]
        #expect(rule.days == [.init(weekday: 1), .init(weekday: 4)])
        #expect(rule.rrule == "FREQ=WEEKLY;BYDAY=MO,TH")
        #expect(try RepeatRule(rrule: rule.rrule) == rule)
    }

    @Test func theLongestRuleFitsTheLengthLimit() throws {
        let days = (0...6).flatMap { weekday in
            [nil, 1, 2, 3, 4, 5, -1, -2, -3, -4, -5].map { RepeatRule.Day(weekday: weekday, ordinal: $0) }
        }
        let rule = RepeatRule(frequency: .monthly, interval: 999, days: days, monthDays: Array(1...31) + Array(-31 ... -1),
                              months: Array(1...12), end: .until(try date("2999-12-31T23:59")), fromCompletion: true)
        #expect(rule.rrule.count < RepeatRule.maximumRRULELength)
        #expect(try RepeatRule(rrule: rule.rrule) == rule)
    }

    /// Each bad RRULE with the one line that says what is wrong.
    static let badRRULEs: [(String, String)] = [
        ("", "RRULE is empty (e.g. FREQ=WEEKLY;BYDAY=MO,TH)"),
        ("RRULE:", "RRULE is empty (e.g. FREQ=WEEKLY;BYDAY=MO,TH)"),
        ("FREQ=HOURLY", "FREQ=HOURLY is not supported: use DAILY, WEEKLY, MONTHLY or YEARLY"),
        ("FREQ=SOMETIMES", "FREQ=SOMETIMES is not a frequency: use DAILY, WEEKLY, MONTHLY or YEARLY"),
        ("FREQ=DAILY;COUNT=2;UNTIL=20270101", "COUNT and UNTIL together: a rule ends one way, keep one"),
        ("FREQ=DAILY;BYSETPOS=1",
         "BYSETPOS is not supported (supported: FREQ, INTERVAL, BYMONTH, BYMONTHDAY, BYDAY, COUNT, UNTIL, WKST=MO)"),
        ("FREQ=DAILY;BYHOUR=9",
         "BYHOUR is not supported (supported: FREQ, INTERVAL, BYMONTH, BYMONTHDAY, BYDAY, COUNT, UNTIL, WKST=MO)"),
        ("FREQ=WEEKLY;BYDAY=XX",
         "BYDAY=XX: 'XX' is not a weekday (MO, TU, WE, TH, FR, SA or SU, with an optional ordinal: 2TU, -1FR)"),
        ("FREQ=MONTHLY;BYDAY=6MO",
         "BYDAY=6MO: the ordinal must be 1 to 5, or -1 to -5 counting from the end (-1FR = last Friday)"),
        ("FREQ=WEEKLY;BYDAY=1MO", "BYDAY=1MO: an ordinal needs FREQ=MONTHLY or FREQ=YEARLY (every week has one of each weekday)"),
        ("FREQ=WEEKLY;BYMONTHDAY=1", "BYMONTHDAY with FREQ=WEEKLY: RFC 5545 does not allow it (use BYDAY, or FREQ=MONTHLY)"),
        ("FREQ=MONTHLY;BYMONTHDAY=0",
         "BYMONTHDAY=0: a day of the month is 1 to 31, or -1 to -31 counting from the end (-1 = last day)"),
        ("FREQ=YEARLY;BYMONTH=13", "BYMONTH=13: a month is 1 to 12"),
        ("FREQ=DAILY;INTERVAL=0", "INTERVAL=0: the interval must be 1–999"),
        ("FREQ=DAILY;INTERVAL=1000", "INTERVAL=1000: the interval must be 1–999"),
        ("FREQ=DAILY;INTERVAL=-1", "INTERVAL=-1: the interval must be 1–999"),
        ("FREQ=DAILY;COUNT=0", "COUNT=0: the count must be 1–9999"),
        ("FREQ=DAILY;COUNT=10000", "COUNT=10000: the count must be 1–9999"),
        ("FREQ=DAILY;COUNT=99999999999999999999", "COUNT=99999999999999999999: the count must be 1–9999"),
        ("FREQ=DAILY;UNTIL=2027-01-31", "UNTIL=2027-01-31: write YYYYMMDD or YYYYMMDDTHHMMSS (e.g. UNTIL=20270131)"),
        ("FREQ=DAILY;UNTIL=20270230", "UNTIL=20270230 is not a date and time between 1900 and 9999"),
        ("FREQ=WEEKLY;WKST=SU", "WKST=SU is not supported: weeks start on Monday (WKST=MO)"),
        ("FREQ=DAILY;FROM=DUE", "FROM=DUE is not supported: the only value is FROM=COMPLETION"),
        ("FREQ=DAILY;FREQ=WEEKLY", "FREQ is given twice"),
        ("FREQ=DAILY;;COUNT=2", "'FREQ=DAILY;;COUNT=2' has an empty part (two ';' in a row, or one at an end)"),
        ("FREQ=DAILY;", "'FREQ=DAILY;' has an empty part (two ';' in a row, or one at an end)"),
        ("FREQ", "'FREQ' is not NAME=VALUE (e.g. FREQ=WEEKLY;BYDAY=MO,TH)"),
        ("FREQ=DAILY;COLOR=RED", "'COLOR' is not an RRULE part (e.g. FREQ=WEEKLY;BYDAY=MO,TH)"),
        ("INTERVAL=2", "FREQ is missing (e.g. FREQ=WEEKLY;BYDAY=MO,TH)"),
        ("FREQ=DAILY;\u{7}COUNT=2", "RRULE contains a control character (U+0007)"),
        ("FREQ=DAILY;COUNT=2\u{0}", "RRULE contains a control character (U+0000)"),
        (String(repeating: "x;=Q", count: 2560), "RRULE is too long (10240 characters; at most 1000)"),
    ]

    @Test(arguments: badRRULEs.indices)
    func badRRULETextSaysWhatIsWrong(_ index: Int) {
        let (text, message) = Self.badRRULEs[index]
        #expect(throws: RepeatRuleError(message)) { try RepeatRule(rrule: text) }
    }

    /// Random garbage of any length never crashes the reader, and what it
    /// accepts writes itself back.
    @Test func randomRRULETextNeverCrashes() {
        let seed = UInt64(20_270_131)
        print("RepeatRule garbage seed: \(seed)")
        var generator = SeededGenerator(seed: seed)
        let pieces = ["FREQ", "=", ";", "DAILY", "WEEKLY", "MONTHLY", "YEARLY", "INTERVAL", "COUNT", "UNTIL", "BYDAY",
                      "BYMONTHDAY", "BYMONTH", ",", "-", "+", "1", "5", "31", "0", "MO", "FR", "2TU", "-1FR", "20270131",
                      "T090000", "Z", "RRULE:", "FROM", "COMPLETION", "WKST", "é", " ", "99999999999"]
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...12, using: &generator))
                .map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            if let rule = try? RepeatRule(rrule: text) {
                #expect((try? RepeatRule(rrule: rule.rrule)) == rule, "\(text)")
            }
        }
    }

    // MARK: Typed repeats

    static let phrases: [(String, String)] = [
        ("daily", "FREQ=DAILY"),
        ("weekly", "FREQ=WEEKLY"),
        ("monthly", "FREQ=MONTHLY"),
        ("yearly", "FREQ=YEARLY"),
        ("every day", "FREQ=DAILY"),
        ("every 3 days", "FREQ=DAILY;INTERVAL=3"),
        ("every week", "FREQ=WEEKLY"),
        ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2"),
        ("every other week", "FREQ=WEEKLY;INTERVAL=2"),
        ("every other friday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR"),
        ("every 3 mondays", "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO"),
        ("every other mon and thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"),
        ("fortnightly", "FREQ=WEEKLY;INTERVAL=2"),
        ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("weekends", "FREQ=WEEKLY;BYDAY=SA,SU"),
        ("fortnightly on tue", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"),
        ("quarterly", "FREQ=MONTHLY;INTERVAL=3"),
        ("monthly on the 1st,15th", "FREQ=MONTHLY;BYMONTHDAY=1,15"),
        ("weekly on mon,thu", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("quarterly on the 1st", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1"),
        ("every 2 weeks on mon,thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"),
        ("every 2 weeks on mon, thu", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"),
        ("every 2 weeks on monday and thursday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"),
        ("weekly on thu & mon", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
        ("every weekend", "FREQ=WEEKLY;BYDAY=SA,SU"),
        ("mon,thu", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("every mon and thu", "FREQ=WEEKLY;BYDAY=MO,TH"),
        ("every month on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("every month on day 15", "FREQ=MONTHLY;BYMONTHDAY=15"),
        ("monthly on the 1st and 15th", "FREQ=MONTHLY;BYMONTHDAY=1,15"),
        ("every month on the last day", "FREQ=MONTHLY;BYMONTHDAY=-1"),
        ("every month on the last fri", "FREQ=MONTHLY;BYDAY=-1FR"),
        ("every month on the 2nd tue", "FREQ=MONTHLY;BYDAY=2TU"),
        ("every 3 months on the first monday and last friday", "FREQ=MONTHLY;INTERVAL=3;BYDAY=1MO,-1FR"),
        ("every year", "FREQ=YEARLY"),
        ("every 2 years", "FREQ=YEARLY;INTERVAL=2"),
        ("every year on mar 14", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14"),
        ("every year on 14 march", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14"),
        ("every year on the last fri of nov", "FREQ=YEARLY;BYMONTH=11;BYDAY=-1FR"),
        ("every year in jan and jul", "FREQ=YEARLY;BYMONTH=1,7"),
        ("every day until 2027-01-31", "FREQ=DAILY;UNTIL=20270131"),
        ("every day for 5 times", "FREQ=DAILY;COUNT=5"),
        ("every day 5 times", "FREQ=DAILY;COUNT=5"),
        ("every day x5", "FREQ=DAILY;COUNT=5"),
        ("every 3 days after completion", "FREQ=DAILY;INTERVAL=3;FROM=COMPLETION"),
        ("every 2 weeks on mon,thu after completion until 2027-01-31",
         "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH;UNTIL=20270131;FROM=COMPLETION"),
        ("weekly x5 after completion", "FREQ=WEEKLY;COUNT=5;FROM=COMPLETION"),
        ("  Every   2  WEEKS on Mon ,Thu  ", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"),
    ]

    @Test(arguments: phrases.indices)
    func typedRepeatsReadAsRules(_ index: Int) throws {
        let (text, rrule) = Self.phrases[index]
        let rule = try RepeatRule(parsing: text)
        #expect(rule.rrule == rrule)
        #expect(try RepeatRule(rrule: rule.rrule) == rule)
    }

    @Test func untilTakesTheAppsDateReader() throws {
        let rule = try RepeatRule(parsing: "every day until next fri for", untilDate: { text in
            text == "next fri for" ? DueDate("2026-03-06T17:00") : nil
        })
        #expect(rule.rrule == "FREQ=DAILY;UNTIL=20260306T170000")
        // The date stops where another ending starts.
        let counted = try RepeatRule(parsing: "daily until mar 14 after completion", untilDate: { text in
            text == "mar 14" ? DueDate("2027-03-14") : nil
        })
        #expect(counted.rrule == "FREQ=DAILY;UNTIL=20270314;FROM=COMPLETION")
    }

    static let badPhrases: [(String, String)] = [
        ("", "enter how often it repeats (e.g. every 2 weeks on mon,thu)"),
        ("   ", "enter how often it repeats (e.g. every 2 weeks on mon,thu)"),
        ("every", "'every' needs a day, week, month or year after it (e.g. every 2 weeks on mon,thu)"),
        ("every 0 days", "'every 0 days': the interval must be 1–999 (e.g. every 2 weeks on mon,thu)"),
        ("every 1000 days", "'every 1000 days': the interval must be 1–999 (e.g. every 2 weeks on mon,thu)"),
        ("every 3", "'every 3' needs days, weeks, months or years after it (e.g. every 2 weeks on mon,thu)"),
        ("every fortnight", "'every fortnight': 'fortnight' is not a day, week, month or year (e.g. every 2 weeks on mon,thu)"),
        ("sometimes", "'sometimes' is not understood (e.g. every 2 weeks on mon,thu)"),
        ("biweekly", "'biweekly' can mean every 2 weeks or twice a week: say 'every 2 weeks' or 'weekly on mon,thu'"),
        ("Bimonthly on the 1st", "'Bimonthly on the 1st': 'Bimonthly' can mean every 2 months or twice a month: say 'every 2 months' or 'monthly on the 1st,15th'"),
        ("every day please", "'every day please': 'please' is not understood (e.g. every 2 weeks on mon,thu)"),
        ("every day 5 times please", "'every day 5 times please': 'please' is not understood (e.g. every 2 weeks on mon,thu)"),
        ("every day on mon", "'on mon': a daily repeat has no days to choose (e.g. every 2 weeks on mon,thu)"),
        ("every week on the 15th", "'the 15th': a weekly repeat falls on weekdays (e.g. every 2 weeks on mon,thu)"),
        ("every month on the 32nd", "'32nd': a month has at most 31 days (e.g. every month on the 15th)"),
        ("every month on the last", "'last' needs 'day' or a weekday after it (e.g. every month on the last fri)"),
        ("every month on the 15th and last fri",
         "'the 15th and last fri' mixes days of the month and weekdays: pick one (e.g. every month on the 15th)"),
        ("every year on feb 30", "'feb 30': February has at most 29 days"),
        ("every year on mar 14 and sep 15", "'mar 14 and sep 15': give one day in several months, or several days in one month"),
        ("every day until", "'until' needs a date (e.g. until 2027-01-31)"),
        ("every day until someday", "'someday' is not a date (e.g. until 2027-01-31)"),
        ("every day 0 times", "'0 times': the count must be 1–9999 (e.g. for 5 times)"),
        ("every day x5 until 2027-01-31", "'x5' and 'until 2027-01-31' both end the repeat: keep one"),
        ("every day after completion after completion", "'after completion' is given twice"),
        ("5 times", "'5 times' needs how often before it (e.g. every day 5 times)"),
        ("every\u{1}day", "repeat contains a control character (U+0001)"),
        (String(repeating: "every day ", count: 1024), "repeat is too long (10240 characters; at most 200)"),
    ]

    @Test(arguments: badPhrases.indices)
    func badTypedRepeatsSayWhatIsWrong(_ index: Int) {
        let (text, message) = Self.badPhrases[index]
        #expect(throws: RepeatRuleError(message)) { try RepeatRule(parsing: text) }
    }

    /// RRULE text is not a typed repeat: it is refused with a message.
    @Test func rruleTextIsNotATypedRepeat() {
        #expect(throws: RepeatRuleError.self) { try RepeatRule(parsing: "FREQ=HOURLY") }
    }

    // MARK: Descriptions

    static let descriptions: [(String, String)] = [
        ("FREQ=DAILY", "Daily"),
        ("FREQ=DAILY;INTERVAL=3", "Every 3 days"),
        ("FREQ=WEEKLY;BYDAY=MO,TH", "Weekly on Mon, Thu"),
        ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", "Every 2 weeks on Mon, Thu"),
        ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "Every weekday"),
        ("FREQ=WEEKLY;BYDAY=SA,SU", "Every weekend"),
        ("FREQ=MONTHLY;BYMONTHDAY=15", "Monthly on the 15th"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15,-1", "Monthly on the 1st and 15th and the last day"),
        ("FREQ=MONTHLY;BYMONTHDAY=-1", "Monthly on the last day"),
        ("FREQ=MONTHLY;BYDAY=-1FR", "Monthly on the last Fri"),
        ("FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU", "Every 2 months on the 2nd Tue"),
        ("FREQ=MONTHLY;BYMONTHDAY=13;BYDAY=FR", "Monthly on the 13th if a Fri"),
        ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=14", "Yearly on Mar 14"),
        ("FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "Yearly on the 4th Thu of Nov"),
        ("FREQ=YEARLY;BYDAY=1MO", "Yearly on the 1st Mon of the year"),
        ("FREQ=YEARLY;INTERVAL=2;BYMONTH=1,7", "Every 2 years in Jan, Jul"),
        ("FREQ=DAILY;UNTIL=20270131", "Daily until 2027-01-31"),
        ("FREQ=WEEKLY;COUNT=5", "Weekly, 5 times"),
        ("FREQ=WEEKLY;COUNT=1", "Weekly, 1 time"),
        ("FREQ=DAILY;INTERVAL=3;FROM=COMPLETION", "Every 3 days, after completion"),
        ("FREQ=MONTHLY;BYMONTHDAY=-2;UNTIL=20270131T090000;FROM=COMPLETION",
         "Monthly on the 2nd to last day until 2027-01-31T09:00, after completion"),
    ]

    @Test(arguments: descriptions.indices)
    func descriptionsReadWell(_ index: Int) throws {
        let (rrule, text) = Self.descriptions[index]
        #expect(try RepeatRule(rrule: rrule).description == text)
    }

    /// What the screen shows for a typed repeat can be typed back.
    @Test(arguments: phrases.indices)
    func descriptionsOfTypedRepeatsReadBack(_ index: Int) throws {
        let rule = try RepeatRule(parsing: Self.phrases[index].0)
        #expect(try RepeatRule(parsing: rule.description) == rule, "\(rule.description)")
    }

    // MARK: Properties

    /// Random valid rules: their text reads back as the same rule (and is
    /// the same whatever order the lists were given in), their occurrences
    /// rise strictly after the due date, asking for more only extends the
    /// list, and completing one occurrence at a time walks the same series.
    @Test func randomRulesKeepTheirPromises() throws {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        print("RepeatRule property seed: \(seed)")
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<3_000 {
            let rule = Self.randomRule(using: &generator)
            let due = Self.randomDate(using: &generator)
            let context = "seed \(seed): \(rule.rrule) from \(due)"
            #expect((try? RepeatRule(rrule: rule.rrule)) == rule, "\(context)")
            let reordered = RepeatRule(frequency: rule.frequency, interval: rule.interval,
                                       days: (rule.days + rule.days).shuffled(using: &generator),
                                       monthDays: rule.monthDays.shuffled(using: &generator), months: rule.months.reversed(),
                                       end: rule.end, fromCompletion: rule.fromCompletion)
            #expect(reordered == rule && reordered.rrule == rule.rrule, "\(context)")
            let wanted = Int.random(in: 0...8, using: &generator)
            let more = rule.occurrences(after: due, count: wanted + 1)
            let fewer = rule.occurrences(after: due, count: wanted)
            #expect(Array(more.prefix(wanted)) == fewer, "\(context)")
            #expect(zip([due] + more, more).allSatisfy { $0 < $1 }, "\(context)")
            #expect(more.allSatisfy { $0.hasTime == due.hasTime }, "\(context)")
            if !rule.fromCompletion {
                var walked: [DueDate] = []
                var step = (due: due, rule: rule)
                while walked.count < more.count, let next = step.rule.advance(from: step.due, completedOn: step.due) {
                    walked.append(next.due)
                    step = next
                }
                #expect(walked == more, "\(context)")
            }
        }
    }

    static func randomRule(using generator: inout SeededGenerator) -> RepeatRule {
        let frequency = RepeatRule.Frequency.allCases.randomElement(using: &generator) ?? .daily
        let interval = Bool.random(using: &generator) ? 1 : Int.random(in: 1...(Int.random(in: 0...9, using: &generator) == 0 ? 999 : 4), using: &generator)
        func some<T>(_ values: [T], most: Int) -> [T] {
            guard Int.random(in: 0...2, using: &generator) == 0 else { return [] }
            return (0..<Int.random(in: 1...most, using: &generator)).compactMap { _ in values.randomElement(using: &generator) }
        }
        let ordinals: [Int?] = frequency == .monthly || frequency == .yearly ? [nil, 1, 2, 3, 4, 5, -1, -2, -5] : [nil]
        let days = some((0...6).flatMap { weekday in ordinals.map { RepeatRule.Day(weekday: weekday, ordinal: $0) } }, most: 4)
        let monthDays = frequency == .weekly ? [] : some(Array(1...31) + Array(-31 ... -1), most: 3)
        let months = some(Array(1...12), most: 3)
        let end: RepeatRule.End = switch Int.random(in: 0...2, using: &generator) {
        case 0: .count(Int.random(in: 1...12, using: &generator))
        case 1: .until(randomDate(using: &generator))
        default: .never
        }
        return RepeatRule(frequency: frequency, interval: interval, days: days, monthDays: monthDays, months: months,
                          end: end, fromCompletion: Int.random(in: 0...4, using: &generator) == 0)
    }

    static func randomDate(using generator: inout SeededGenerator) -> DueDate {
        let year = Int.random(in: 1990...2100, using: &generator)
        let month = Int.random(in: 1...12, using: &generator)
        let day = Int.random(in: 1...DueDate.daysIn(month: month, year: year), using: &generator)
        let timed = Bool.random(using: &generator)
        return DueDate(year: year, month: month, day: day, hour: timed ? Int.random(in: 0...23, using: &generator) : nil,
                       minute: timed ? Int.random(in: 0...59, using: &generator) : nil) ?? DueDate(year: 2026, month: 1, day: 1)!
    }

    /// The search counts days itself; its count agrees with `DueDate`'s.
    @Test func dayNumbersConvertBackToDates() throws {
        let first = try date("1900-01-01").dayNumber
        let last = try date("9999-12-31").dayNumber
        for dayNumber in Array(first...first + 200_000) + Array(last - 1_000...last) {
            let converted = try #require(RepeatRule.date(dayNumber: dayNumber, time: nil))
            #expect(converted.dayNumber == dayNumber)
        }
        #expect(RepeatRule.date(dayNumber: last + 1, time: nil) == nil)
        let start = try date("2026-03-01T09:30")
        for days in stride(from: 0, through: 40_000, by: 37) {
            #expect(RepeatRule.date(dayNumber: start.dayNumber + days, time: (9, 30)) == start.adding(days: days))
        }
    }

    // MARK: Helpers

    private func date(_ text: String) throws -> DueDate {
        try #require(DueDate(text))
    }
}
