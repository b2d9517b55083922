import Foundation
import Testing
import TestSupport
@testable import RemindersCore

@Suite("Due dates")
struct DueDateTests {
    @Test func parsesAndPrintsBothForms() throws {
        #expect(try due("2026-03-01").description == "2026-03-01")
        #expect(try due("2026-03-01").hasTime == false)
        #expect(try due("2026-03-01T09:05").description == "2026-03-01T09:05")
        #expect(try due("2026-03-01T09:05").time?.hour == 9)
        #expect(DueDate("2026-03-01T9:05") == nil)
        #expect(DueDate("2026-03-01X09:05") == nil)
        #expect(DueDate("２０２６-03-01") == nil)
    }

    @Test func addingDaysKeepsTheWallClockTime() throws {
        #expect(try due("2024-02-28T23:30").adding(days: 1).description == "2024-02-29T23:30")
        #expect(try due("2026-12-31").adding(days: 1).description == "2027-01-01")
        #expect(try due("2026-03-01").adding(days: -1).description == "2026-02-28")
    }

    /// The date of a moment, worked out from the zone's offset, is the one
    /// a Gregorian calendar in that zone gives, for random moments from
    /// 1901 to 2199 in zones with half-hour, 45-minute and daylight-saving
    /// offsets, and in the local zone, read through the C library.
    @Test func aMomentsDateIsTheCalendarsInEveryZone() throws {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        print("aMomentsDateIsTheCalendarsInEveryZone seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let zones: [TimeZone?] = try [nil] + ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe",
                                              "Pacific/Kiritimati", "America/Los_Angeles"].map { try #require(TimeZone(identifier: $0)) }
        for _ in 0..<2000 {
            let moment = Date(timeIntervalSince1970: Double.random(in: -2_170_000_000...7_200_000_000, using: &random))
            let zone = zones.randomElement(using: &random) ?? nil
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone ?? .current
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: moment)
            let expected = try #require(DueDate(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0,
                                                hour: c.hour, minute: c.minute))
            #expect(DueDate(moment: moment, in: zone) == expected, "\(moment) in \(zone?.identifier ?? "the local zone")")
            #expect(DueDate(moment: moment, in: zone, includingTime: false).description == expected.dateString)
        }
    }

    /// An iCalendar import's completion timestamp ("YYYY-MM-DDTHH:MM:SS"
    /// on a zone's clock), worked out from the zone's offset, is the one a
    /// Gregorian calendar in that zone gives, to the second.
    @Test func aCompletionTimestampIsTheCalendarsInEveryZone() throws {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        print("aCompletionTimestampIsTheCalendarsInEveryZone seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let zones: [TimeZone] = try ["UTC", "Europe/Berlin", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe",
                                     "Pacific/Kiritimati", "America/Los_Angeles"].map { try #require(TimeZone(identifier: $0)) }
        for _ in 0..<2000 {
            let moment = Date(timeIntervalSince1970: Double.random(in: -2_170_000_000...7_200_000_000, using: &random))
            let zone = try #require(zones.randomElement(using: &random))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: moment)
            let expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                                  c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
            #expect(ICalendarTime.timestamp(moment, in: zone) == expected, "\(moment) in \(zone.identifier)")
        }
    }

    /// A wall-clock time's moment, worked out from the zone's offsets, is
    /// the one a Gregorian calendar in that zone gives: random times from
    /// 1901 to 2199, and times around each change of the clocks (the hour
    /// skipped in spring, the hour repeated in autumn), in zones with
    /// half-hour and 45-minute offsets and summer times of 30 minutes, and
    /// in the local zone, read through the C library.
    @Test func aWallClockTimesMomentIsTheCalendarsInEveryZone() throws {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        print("aWallClockTimesMomentIsTheCalendarsInEveryZone seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let zones: [TimeZone?] = try [nil] + ["UTC", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu", "Australia/Lord_Howe",
                                              "America/New_York", "Europe/London", "Australia/Sydney", "America/Santiago"]
            .map { try #require(TimeZone(identifier: $0)) }
        for index in 0..<3000 {
            let zone = zones.randomElement(using: &random) ?? nil
            let calendarZone = zone ?? .current
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = calendarZone
            let around: Date
            let start = Date(timeIntervalSince1970: Double.random(in: -2_170_000_000...7_200_000_000, using: &random))
            if index % 2 == 0, let change = calendarZone.nextDaylightSavingTimeTransition(after: start) {
                // Within two hours of a change, on a quarter hour of the wall clock.
                around = change.addingTimeInterval(Double(Int.random(in: -8...8, using: &random)) * 900)
            } else {
                around = start
            }
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: around)
            guard let wallClock = DueDate(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0, hour: c.hour, minute: c.minute)
            else { continue }
            // The wall clock's time an hour on, which near a change may not exist.
            let hourOn = try #require(DueDate(year: wallClock.year, month: wallClock.month, day: wallClock.day,
                                              hour: ((c.hour ?? 0) + 1) % 24, minute: c.minute))
            for time in [wallClock, hourOn] {
                let parts = DateComponents(year: time.year, month: time.month, day: time.day,
                                           hour: time.time?.hour, minute: time.time?.minute)
                #expect(time.moment(in: zone) == calendar.date(from: parts),
                        "\(time) in \(zone?.identifier ?? "the local zone \(calendarZone.identifier)")")
            }
            let dateAlone = try #require(DueDate(wallClock.dateString))
            #expect(dateAlone.moment(in: zone, defaultHour: 7)
                    == calendar.date(from: DateComponents(year: dateAlone.year, month: dateAlone.month, day: dateAlone.day, hour: 7)))
        }
    }

    /// Days added across months, leap days and centuries land where a
    /// calendar puts them.
    @Test func addingDaysIsTheCalendarsArithmetic() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let start = try due("1999-12-31T08:15")
        for days in stride(from: -40_000, through: 40_000, by: 37) {
            let moved = try #require(calendar.date(byAdding: .day, value: days,
                                                   to: calendar.date(from: DateComponents(year: 1999, month: 12, day: 31))!))
            let c = calendar.dateComponents([.year, .month, .day], from: moved)
            #expect(start.adding(days: days).description
                    == String(format: "%04d-%02d-%02dT08:15", c.year ?? 0, c.month ?? 0, c.day ?? 0))
        }
    }

    @Test func isAFloatingTime() throws {
        let nine = try due("2026-03-01T09:00")
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let inTokyo = try #require(nine.moment(in: tokyo))
        let inParis = try #require(nine.moment(in: paris))
        #expect(inParis.timeIntervalSince(inTokyo) == 8 * 3600)
        #expect(DueDate(moment: inTokyo, in: tokyo) == nine)
    }

    @Test func sortsByText() throws {
        let dates = try ["2026-03-02", "2026-03-01T23:59", "2026-03-01"].map(due)
        #expect(dates.sorted().map(\.description) == ["2026-03-01", "2026-03-01T23:59", "2026-03-02"])
    }
}
