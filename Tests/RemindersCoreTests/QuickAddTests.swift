import Foundation
import Testing
import TestSupport
@testable import RemindersCore

/// A quick-add line as one string: "title | due | tags | priority | list | flag".
func quick(_ text: String, lists: [String] = ["Home", "Work", "Work Projects"]) -> String {
    do {
        let parsed = try QuickAdd(parsing: text, dates: naturalDates(), listTitles: lists)
        return [parsed.title, parsed.due?.description ?? "-", parsed.tags.map { "#" + $0 }.joined(separator: " "),
                parsed.priority?.name ?? "-", parsed.listName ?? "-", parsed.isFlagged ? "flagged" : "-"]
            .joined(separator: " | ")
    } catch {
        return "error: \(error)"
    }
}

@Suite("Quick add")
struct QuickAddTests {
    @Test(arguments: [
        ("Pay rent tomorrow 9am #bills !! ^Home", "Pay rent | 2026-11-26T09:00 | #bills | medium | Home | -"),
        ("Pay rent", "Pay rent | - |  | - | - | -"),
        ("  Pay   rent  ", "Pay   rent | - |  | - | - | -"),       // nothing read: the text is the title, as typed
        ("Call mom fri", "Call mom | 2026-11-27 |  | - | - | -"),
        ("Answer the email from yesterday", "Answer the email from yesterday | - |  | - | - | -"),
        ("Call Sun", "Call | 2026-11-29 |  | - | - | -"),          // at the end, a weekday is a date
        ("Buy milk at 5pm", "Buy milk | 2026-11-25T17:00 |  | - | - | -"),
        ("Meet Bob at noon on fri", "Meet Bob | 2026-11-27T12:00 |  | - | - | -"),
        ("Renew passport in 3 days", "Renew passport | 2026-11-28 |  | - | - | -"),
        ("Stretch in 2h", "Stretch | 2026-11-25T12:17 |  | - | - | -"),
        ("Dentist mar 14", "Dentist | 2027-03-14 |  | - | - | -"),
        ("Dentist 14 mar 10:30", "Dentist | 2027-03-14T10:30 |  | - | - | -"),
        ("Tax return 2027-04-30", "Tax return | 2027-04-30 |  | - | - | -"),
        // Words people use for a day, a word that leads into the date, an hour after "at".
        ("Taxes by april 15", "Taxes | 2027-04-15 |  | - | - | -"),
        ("Doctor next tuesday at 3", "Doctor | 2026-12-01T15:00 |  | - | - | -"),
        ("Water plants tonight", "Water plants | 2026-11-25T20:00 |  | - | - | -"),
        ("Call Bob tomorrow morning", "Call Bob | 2026-11-26T09:00 |  | - | - | -"),
        // At the end, an hour alone, a dotted time or 21h just after a day is its time.
        ("Pay rent tomorrow 9", "Pay rent | 2026-11-26T09:00 |  | - | - | -"),
        ("Pay rent fri 21h", "Pay rent | 2026-11-27T21:00 |  | - | - | -"),
        ("Buy 2 apples", "Buy 2 apples | - |  | - | - | -"),
        ("Invite tomorrow 9 people", "Invite 9 people | 2026-11-26 |  | - | - | -"),  // in the middle, not a time
        ("Call mum tomorrow at 9.30.", "Call mum | 2026-11-26T09:30 |  | - | - | -"),
        // Versions, prices and dates of the month stay in titles.
        ("Install Python 3.11.10", "Install Python 3.11.10 | - |  | - | - | -"),
        ("Meeting notes 2.1.", "Meeting notes 2.1. | - |  | - | - | -"),
        ("Lunch money mon 4.50", "Lunch money mon 4.50 | - |  | - | - | -"),
        ("Buy tickets for fri 13", "Buy tickets for fri 13 | - |  | - | - | -"),
        ("Finish the report this evening", "Finish the report | 2026-11-25T18:00 |  | - | - | -"),
        ("Dinner the day after tomorrow", "Dinner | 2026-11-27 |  | - | - | -"),
        ("Good morning", "Good morning | - |  | - | - | -"),
        ("Say good evening", "Say good evening | - |  | - | - | -"),
        ("Review PR eod", "Review PR | 2026-11-25T17:00 |  | - | - | -"),
        ("Finish the report by end of day", "Finish the report | 2026-11-25T17:00 |  | - | - | -"),
        ("Pay bills end of month", "Pay bills | 2026-11-30 |  | - | - | -"),
        ("Call mom this weekend", "Call mom | 2026-11-28 |  | - | - | -"),
        ("Meet Ann at 3", "Meet Ann | 2026-11-25T15:00 |  | - | - | -"),
        ("Plan the weekend", "Plan the weekend | - |  | - | - | -"),
        ("Stand by", "Stand by | - |  | - | - | -"),
        ("Buy 3d glasses", "Buy 3d glasses | - |  | - | - | -"),      // a length needs its + in a title
        ("Due fri", "Due | 2026-11-27 |  | - | - | -"),
        // At the start or in the middle, only what cannot be a title word.
        ("Tomorrow call mom", "call mom | 2026-11-26 |  | - | - | -"),
        ("Sun cream", "Sun cream | - |  | - | - | -"),
        ("Fri night drinks", "Fri night drinks | - |  | - | - | -"),
        ("Sunday morning run tomorrow", "Sunday morning run | 2026-11-26 |  | - | - | -"),
        ("Tomorrow morning call mom", "call mom | 2026-11-26T09:00 |  | - | - | -"),
        ("Dentist fri 10am bring x-ray", "Dentist bring x-ray | 2026-11-27T10:00 |  | - | - | -"),
        ("Read 1/2 of the book", "Read 1/2 of the book | - |  | - | - | -"),
        ("Move fri 9am to mon 10am please", "Move fri 9am to mon 10am please | - |  | - | - | -"),  // two: ambiguous
        // A title keeps a word; numbers alone are no dates.
        ("Friday", "Friday | - |  | - | - | -"),
        ("Read 1984", "Read 1984 | - |  | - | - | -"),
        ("Buy 2 apples", "Buy 2 apples | - |  | - | - | -"),
        ("Call 555-1234", "Call 555-1234 | - |  | - | - | -"),
        // Marks anywhere, in words of their own.
        ("!!! File taxes #money #Admin", "File taxes | - | #money #Admin | high | - | -"),
        ("Water plants ! *", "Water plants | - |  | low | - | flagged"),
        ("Fix issue #42 now!", "Fix issue #42 now! | - |  | - | - | -"),
        ("Learn C# basics", "Learn C# basics | - |  | - | - | -"),
        ("Wow!!!! party", "Wow!!!! party | - |  | - | - | -"),
        ("Rate 5 * 3 stars", "Rate 5 3 stars | - |  | - | - | flagged"),
        ("Tags #a, #b.", "Tags | - | #a #b | - | - | -"),
        ("Same tag #Work #work", "Same tag | - | #Work | - | - | -"),
        ("Same mark !! !!", "Same mark | - |  | medium | - | -"),
        ("Plan tomorrow #x 9am", "Plan | 2026-11-26T09:00 | #x | - | - | -"),
        // Lists: by title, any case, the longest that exists.
        ("Report ^work", "Report | - |  | - | Work | -"),
        ("Report ^Work Projects due fri", "Report | 2026-11-27 |  | - | Work Projects | -"),
        ("Report ^Garden", "Report | - |  | - | Garden | -"),
        ("Report ^home ^HOME", "Report | - |  | - | Home | -"),
        ("2^10 is 1024", "2^10 is 1024 | - |  | - | - | -"),
        // Digits with dashes that are no date's shape stay in the title.
        ("Call 555-123-4567", "Call 555-123-4567 | - |  | - | - | -"),
    ])
    func readsTheLine(text: String, expected: String) {
        #expect(quick(text) == expected, "\(text)")
    }

    @Test(arguments: [
        ("#bills !!", "error: '#bills !!' leaves no title once the date, #tags, !priority, ^list and * are read"),
        ("Pay rent ! !!!", "error: two priorities, '!' and '!!!': keep one"),
        ("Pay rent ^Home ^Work", "error: two lists, '^Home' and '^Work': keep one"),
        ("Pay #\(String(repeating: "x", count: 101))", "error: '#\(String(repeating: "x", count: 101))': tag is 101 characters long; the limit is 100"),
        ("   ", "error: title must not be empty"),
        ("Bell \u{7}", "error: title must not contain control characters"),
        // A word written as a date that is none is not a title word.
        ("Pay rent 2026-02-30", "error: 2026-02-30: February 2026 has 28 days"),
        ("Pay rent 2026-13-01 #bills", "error: 2026-13-01: there is no month 13 (months are 1–12)"),
    ])
    func badLinesSayWhy(text: String, expected: String) {
        #expect(quick(text) == expected)
    }

    /// A repeat is read before the date ("every …" anywhere, daily and the
    /// like after the first word); a time beside it is on the rule's first
    /// day from the next time it comes (Wednesday 2026-11-25, 10:17 here).
    @Test(arguments: [
        ("Mow lawn every monday", "Mow lawn | - | Weekly on Mon"),
        ("Pills every day 8pm", "Pills | 2026-11-25T20:00 | Daily"),
        ("Stretch daily 7am", "Stretch | 2026-11-26T07:00 | Daily"),
        ("Bins every week on mon 7pm #home", "Bins | 2026-11-30T19:00 | Weekly on Mon"),
        ("Water plants every 3 days until dec 31", "Water plants | - | Every 3 days until 2026-12-31"),
        ("Report every 2 weeks on fri ^Work", "Report | - | Every 2 weeks on Fri"),
        ("Call mom every sunday tomorrow", "Call mom | 2026-11-26 | Weekly on Sun"),
        ("Gym every tuesday at 9", "Gym | 2026-12-01T09:00 | Weekly on Tue"),
        ("Call grandma every sunday at 5", "Call grandma | 2026-11-29T17:00 | Weekly on Sun"),
        ("Clean fortnightly on sat", "Clean | - | Every 2 weeks on Sat"),
        ("Pay VAT quarterly", "Pay VAT | - | Every 3 months"),
        // A part of a day just after the repeat is its time; a weekday in the plural repeats.
        ("Bins every thursday night", "Bins | 2026-11-26T20:00 | Weekly on Thu"),
        ("Review every friday afternoon", "Review | 2026-11-27T14:00 | Weekly on Fri"),
        ("Standup mondays at 9", "Standup | 2026-11-30T09:00 | Weekly on Mon"),
        ("Swim on wednesdays", "Swim | - | Weekly on Wed"),
        ("Swim on wednesdays at 7", "Swim | 2026-12-02T07:00 | Weekly on Wed"),
        ("Garfield hates mondays", "Garfield hates mondays | - | -"),
        ("Sundays are for rest", "Sundays are for rest | - | -"),
        ("Call mum every sunday evening at 7", "Call mum | 2026-11-29T19:00 | Weekly on Sun"),
        ("Gym every tuesday 9", "Gym | 2026-12-01T09:00 | Weekly on Tue"),
        ("Pay rent monthly tomorrow 9", "Pay rent | 2026-11-26T09:00 | Monthly"),
        ("every monday", "every monday | - | -"),
        ("Quarterly review", "Quarterly review | - | -"),
        ("Standup weekdays 9am", "Standup | 2026-11-26T09:00 | Every weekday"),
        // After "at", a dotted time is one; elsewhere it may be a price.
        ("Dentist tomorrow at 9.30", "Dentist | 2026-11-26T09:30 | -"),
        ("Pay 9.30 tomorrow", "Pay 9.30 | 2026-11-26 | -"),
        // Not a repeat: a title's word, or words that read as no rule.
        ("Daily standup", "Daily standup | - | -"),
        ("Check every door", "Check every door | - | -"),
        ("Weekly report fri", "Weekly report | 2026-11-27 | -"),
        ("Submit monthly report", "Submit monthly report | - | -"),
        ("Read daily news fri", "Read daily news | 2026-11-27 | -"),
        ("Pay rent monthly", "Pay rent | - | Monthly"),
    ])
    func readsARepeat(text: String, expected: String) throws {
        let parsed = try QuickAdd(parsing: text, dates: naturalDates(), listTitles: ["Work"])
        #expect("\(parsed.title) | \(parsed.due?.description ?? "-") | \(parsed.repeatRule?.description ?? "-")" == expected, "\(text)")
        #expect(parsed.hasMarks == (parsed.repeatRule != nil || parsed.due != nil || parsed.listName != nil || !parsed.tags.isEmpty))
    }

    /// With the due date given by an option (`add --due`), a date in the
    /// text is title; the other marks are still read.
    @Test func aGivenDueLeavesTheTextsDateInTheTitle() throws {
        let parsed = try QuickAdd(parsing: "Pick up tickets sat #fun !", dates: naturalDates(), readingDates: false)
        #expect(parsed.title == "Pick up tickets sat")
        #expect(parsed.due == nil)
        #expect(parsed.tags == ["fun"])
        // A date that is none is no mistake then: a title word.
        let odd = try QuickAdd(parsing: "Plan 2026-02-30 party", dates: naturalDates(), readingDates: false)
        #expect(odd.title == "Plan 2026-02-30 party")
        // Read as before without the option.
        #expect(try QuickAdd(parsing: "Pick up tickets sat", dates: naturalDates()).title == "Pick up tickets")
    }

    @Test func literalKeepsEverything() {
        let literal = QuickAdd(literal: "Pay rent tomorrow #bills !!")
        #expect(literal.title == "Pay rent tomorrow #bills !!")
        #expect(!literal.hasMarks)
    }

    /// Random lines never crash the reader; what it accepts has a title
    /// that is a valid one.
    @Test func randomLinesNeverCrash() throws {
        var generator = SeededGenerator(seed: 14_03)
        let words = ["Pay", "rent", "tomorrow", "9am", "#bills", "#", "!", "!!", "!!!", "!!!!", "^Home", "^", "^Work",
                     "Projects", "*", "**", "in", "2h", "3", "days", "fri", "next", "mar", "14", "14/3", "2026-12-01",
                     "at", "on", "noon", "#42", "é", "🙂", "a", "an", "every", "daily", "week", "mon", "until", "times"]
        for _ in 0..<5_000 {
            let line = (0..<Int.random(in: 1...10, using: &generator))
                .map { _ in words.randomElement(using: &generator) ?? "" }.joined(separator: " ")
            guard let parsed = try? QuickAdd(parsing: line, dates: naturalDates(), listTitles: ["Home", "Work Projects"]) else {
                continue
            }
            #expect(try Validation.title(parsed.title) == parsed.title, "\(line)")
        }
    }
}
