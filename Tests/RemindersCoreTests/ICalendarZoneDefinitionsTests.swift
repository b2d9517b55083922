import Foundation
import ICalendar
import Testing
import TestSupport
@testable import RemindersCore

/// The VTIMEZONEs an export writes, read back as RFC 5545 reads them, give
/// each moment the offset Foundation's time zone data gives.
@Suite("iCalendar time zone definitions")
struct ICalendarZoneDefinitionsTests {
    /// The offsets a VTIMEZONE says, read independently of how it was
    /// written: each observance's onsets (DTSTART and RDATEs, local times
    /// on the clock of TZOFFSETFROM) as moments, with the offset after.
    static func changes(_ definition: ICalComponent) throws -> [(moment: Int, offset: Int)] {
        func offset(_ text: String) throws -> Int {
            let digits = Array(text.dropFirst()).compactMap { $0.wholeNumberValue }
            try #require(digits.count == 4 || digits.count == 6, "offset \(text)")
            let seconds = (digits[0] * 10 + digits[1]) * 3600 + (digits[2] * 10 + digits[3]) * 60
                + (digits.count == 6 ? digits[4] * 10 + digits[5] : 0)
            return text.hasPrefix("-") ? -seconds : seconds
        }
        var changes: [(moment: Int, offset: Int)] = []
        for observance in definition.components {
            #expect(["STANDARD", "DAYLIGHT"].contains(observance.name))
            let from = try offset(try #require(observance.property("TZOFFSETFROM")).value)
            let to = try offset(try #require(observance.property("TZOFFSETTO")).value)
            let onsets = [try #require(observance.property("DTSTART")).value]
                + observance.properties("RDATE").flatMap { $0.value.split(separator: ",").map(String.init) }
            for onset in onsets {
                let local = try ICalDateTime(parsing: onset)
                #expect(!local.isUTC && !local.isDate, "\(onset): an onset is a local date-time")
                let day = try #require(DueDate(year: local.year, month: local.month, day: local.day)).dayNumber
                let wall = (day - DueDate.epochDayNumber) * 86_400 + (local.hour ?? 0) * 3600 + local.minute * 60 + local.second
                changes.append((wall - from, to))
            }
        }
        return changes.sorted { $0.moment < $1.moment }
    }

    /// Random zones of every kind Foundation knows (summer times of 30
    /// minutes, 45-minute offsets, zones that changed their standard
    /// offset), over random spans: every three hours, and a second before
    /// and after each change, the definition's offset is the zone's.
    @Test func aDefinitionGivesTheZonesOffsetAtEveryMoment() throws {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        print("aDefinitionGivesTheZonesOffsetAtEveryMoment seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let named = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "Europe/Moscow",
                     "America/Sao_Paulo", "Asia/Tokyo", "UTC", "Pacific/Apia", "Africa/Casablanca"]
        let zones = named + (0..<14).compactMap { _ in TimeZone.knownTimeZoneIdentifiers.randomElement(using: &random) }
        for identifier in zones {
            let zone = try #require(TimeZone(identifier: identifier))
            let first = Int.random(in: 1975...2035, using: &random)
            let years = first...(first + Int.random(in: 0...6, using: &random))
            let definition = ICalendarZoneDefinitions.definition(tzid: identifier, zone: zone, years: years)
            #expect(definition.property("TZID")?.value == identifier)
            let changes = try Self.changes(definition)
            let start = try #require(changes.first).moment
            let end = try #require(DueDate(year: years.upperBound + 1, month: 1, day: 1)).dayNumber * 86_400
                - DueDate.epochDayNumber * 86_400
            // The span begins at midnight of its first year, on the zone's clock.
            let midnight = try #require(DueDate(year: first, month: 1, day: 1)).dayNumber * 86_400 - DueDate.epochDayNumber * 86_400
            #expect(start + zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(start))) == midnight, "\(identifier)")
            var moments = Array(stride(from: start, to: end, by: 3 * 3600))
            for change in changes.dropFirst() { moments += [change.moment - 1, change.moment, change.moment + 1] }
            for moment in moments where moment >= start && moment < end {
                let said = try #require(changes.last { $0.moment <= moment }).offset
                let actual = zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(moment)))
                #expect(said == actual, "\(identifier) \(years) at \(Date(timeIntervalSince1970: TimeInterval(moment)))")
            }
        }
    }

    /// A calendar gets a definition for each zone its values name, the
    /// years of every value counted (an EXDATE's list, an alarm's, an
    /// override's); a zone no one knows is left alone; a zone defined
    /// already is not defined twice.
    @Test func aCalendarDefinesEachZoneItNames() throws {
        let text = """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:-//Test//EN
            BEGIN:VTIMEZONE
            TZID:Asia/Tokyo
            BEGIN:STANDARD
            DTSTART:19700101T000000
            TZOFFSETFROM:+0900
            TZOFFSETTO:+0900
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VTODO
            UID:a
            DTSTART;TZID=Europe/Berlin:20261210T090000
            EXDATE;TZID=Europe/Berlin:20281210T090000,20301210T090000
            DUE;TZID=Nowhere Standard Time:20261210T090000
            END:VTODO
            BEGIN:VTODO
            UID:b
            DUE;TZID=/mozilla.org/20050126_1/America/New_York:20240101T080000
            RECURRENCE-ID;TZID=Asia/Tokyo:20261210T090000
            END:VTODO
            END:VCALENDAR
            """
        let calendar = try #require(try ICalParser.parse(Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)).first)
        let defined = ICalendarZoneDefinitions.adding(to: calendar)
        let zones = defined.components.filter { $0.name == "VTIMEZONE" }
        // The new ones first, by name, then the calendar's own.
        #expect(zones.compactMap { $0.property("TZID")?.value }
            == ["/mozilla.org/20050126_1/America/New_York", "Europe/Berlin", "Asia/Tokyo"])
        #expect(defined.components.prefix(3).allSatisfy { $0.name == "VTIMEZONE" })
        let berlin = try #require(zones.first { $0.property("TZID")?.value == "Europe/Berlin" })
        let changes = try Self.changes(berlin)
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let years = changes.map { DueDate(moment: Date(timeIntervalSince1970: TimeInterval($0.moment)), in: zone).year }
        #expect(years.min() == 2026 && years.max() == 2030 + ICalendarZoneDefinitions.yearsAhead)
        // Near the last year a date can have, the span stops there; a
        // year no date can have defines nothing.
        let late = ICalComponent("VCALENDAR", components: [ICalComponent("VTODO", properties: [
            ICalProperty("DUE", "99950701T090000", parameters: [ICalParameter("TZID", "Europe/Berlin")]),
            ICalProperty("EXDATE", "18990701T090000", parameters: [ICalParameter("TZID", "Europe/Berlin")]),
        ])])
        let lateChanges = try Self.changes(try #require(ICalendarZoneDefinitions.adding(to: late).components.first))
        let lateYears = lateChanges.map { DueDate(moment: Date(timeIntervalSince1970: TimeInterval($0.moment)), in: zone).year }
        #expect(lateYears.min() == 9995 && lateYears.max() == 9999, "\(lateYears)")
        // Nothing to add: the calendar as it was.
        let plain = ICalComponent("VCALENDAR", components: [ICalComponent("VTODO", properties: [ICalProperty("DUE", "20261210T090000")])])
        #expect(ICalendarZoneDefinitions.adding(to: plain) == plain)
    }

    /// Every Windows zone name reads as a zone Foundation knows, with the
    /// offsets its name says where the name says one.
    @Test func everyWindowsZoneNameIsAZoneHere() throws {
        for (name, identifier) in WindowsZoneNames.table {
            let zone = try #require(TimeZones.known(name), "\(name) → \(identifier)")
            #expect(TimeZone(identifier: identifier) == zone, "\(name)")
        }
        let winter = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        #expect(TimeZones.known("Eastern Standard Time")?.secondsFromGMT(for: winter) == -5 * 3600)
        #expect(TimeZones.known("W. Europe Standard Time")?.secondsFromGMT(for: winter) == 3600)
        #expect(TimeZones.known("India Standard Time")?.secondsFromGMT(for: winter) == 19_800)
        #expect(TimeZones.known("UTC+12")?.secondsFromGMT(for: winter) == 12 * 3600)
        #expect(TimeZones.known("Nowhere Standard Time") == nil)
    }

    @Test(arguments: [(3600, "+0100"), (-18_000, "-0500"), (20_700, "+0545"), (-12_600, "-0330"), (3208, "+005328"), (0, "+0000")])
    func anOffsetIsWrittenAsUTCOffset(seconds: Int, text: String) {
        #expect(ICalendarZoneDefinitions.offsetText(seconds) == text)
    }
}
