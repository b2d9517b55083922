import Foundation
import Testing
import TestSupport
@testable import RemindersCore

/// The local zone has one source: Foundation's zone (`LocalZone`) is the
/// one the C library reads from `TZ`, or its offset when Foundation has no
/// such zone; the clock's dates, due moments, timestamps and floating
/// moments all read the C library.
@Suite("Local zone")
struct LocalZoneTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000) // 2026-05-28, summer in Paris

    /// The C library's offsets as they would be with `TZ` naming `zone`.
    func offsets(of zone: TimeZone) -> (Int) -> Int {
        { zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval($0))) }
    }

    func zone(_ name: String) throws -> TimeZone { try #require(TimeZone(identifier: name)) }

    @Test func aNameReadsAsTheCLibraryReadsIt() throws {
        let paris = try zone("Europe/Paris")
        // A leading colon, which Foundation would read as UTC.
        #expect(LocalZone.zone(forTZ: ":Europe/Paris", now: Self.now, offset: offsets(of: paris)).identifier == "Europe/Paris")
        #expect(LocalZone.zone(forTZ: "Europe/Paris", now: Self.now, offset: offsets(of: paris)).identifier == "Europe/Paris")
        // A zone file's path, with a colon or without.
        let tokyo = try zone("Asia/Tokyo")
        for path in ["/usr/share/zoneinfo/Asia/Tokyo", ":/usr/share/zoneinfo/Asia/Tokyo", "/usr/share/zoneinfo/posix/Asia/Tokyo"] {
            #expect(LocalZone.zone(forTZ: path, now: Self.now, offset: offsets(of: tokyo)).identifier == "Asia/Tokyo", "\(path)")
        }
        // Empty is UTC to the C library.
        #expect(LocalZone.zone(forTZ: "", now: Self.now, offset: { _ in 0 }).secondsFromGMT(for: Self.now) == 0)
    }

    @Test func aZoneTheCLibraryReadsOtherwiseIsItsOffset() throws {
        // POSIX reads GMT+3 as three hours west of Greenwich; Foundation's
        // zone of that name is three hours east. The C library's wins.
        let west = LocalZone.zone(forTZ: "GMT+3", now: Self.now, offset: { _ in -3 * 3600 })
        #expect(west.secondsFromGMT(for: Self.now) == -3 * 3600)
        // A POSIX rule: a named zone that changes its clocks when the rule
        // does, to the second, summer and winter.
        let newYork = try zone("America/New_York")
        let rule = LocalZone.zone(forTZ: "EST5EDT,M3.2.0,M11.1.0", now: Self.now, offset: offsets(of: newYork))
        for days in stride(from: 0.0, through: 700, by: 0.25) {
            let moment = Self.now.addingTimeInterval(days * 86_400)
            #expect(rule.secondsFromGMT(for: moment) == newYork.secondsFromGMT(for: moment), "\(moment)")
        }
        for change in sequence(first: Self.now, next: { newYork.nextDaylightSavingTimeTransition(after: $0) }).prefix(4) {
            #expect(rule.secondsFromGMT(for: change.addingTimeInterval(-1)) == newYork.secondsFromGMT(for: change.addingTimeInterval(-1)))
            #expect(rule.secondsFromGMT(for: change) == newYork.secondsFromGMT(for: change))
        }
        // An offset no named zone keeps: the offset now.
        let odd = LocalZone.zone(forTZ: "ODD-1:23", now: Self.now, offset: { _ in 3600 + 23 * 60 })
        #expect(odd.secondsFromGMT(for: Self.now) == 3600 + 23 * 60)
        // A name the C library does not know is UTC to it.
        #expect(LocalZone.zone(forTZ: "Nowhere/Bogus", now: Self.now, offset: { _ in 0 }).secondsFromGMT(for: Self.now) == 0)
        // A name both know but whose offsets differ (the file changed under one of them).
        let stale = LocalZone.zone(forTZ: "Europe/Paris", now: Self.now, offset: { _ in 3600 })
        #expect(stale.secondsFromGMT(for: Self.now) == 3600)
    }

    /// The process's own: its offsets are the C library's, now and in six months.
    @Test func theProcesssZoneAgreesWithTheCLibrary() {
        for moment in [Date(), Date().addingTimeInterval(182 * 86_400)] {
            #expect(LocalZone.current.secondsFromGMT(for: moment) == DueDate.localOffset(at: Int(moment.timeIntervalSince1970)))
        }
    }

    /// A timestamp and a floating moment read the clock's zone as a
    /// calendar and a formatter in it do, in zones and the local one.
    @Test func timestampsAndFloatingMomentsAreTheCalendarsInEveryZone() throws {
        let seed = UInt64.random(in: 0...UInt64(UInt32.max))
        print("timestampsAndFloatingMomentsAreTheCalendarsInEveryZone seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let zones: [TimeZone?] = try [nil] + ["UTC", "Europe/Paris", "America/St_Johns", "Asia/Kathmandu"].map(zone)
        for _ in 0..<1000 {
            let zone = zones.randomElement(using: &random) ?? nil
            let moment = Date(timeIntervalSince1970: Double(Int.random(in: -2_000_000_000...7_000_000_000, using: &random)))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone ?? LocalZone.current
            formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
            let text = formatter.string(from: moment)
            #expect(AppClock(pinned: moment, timeZone: zone).timestamp() == text, "\(moment) in \(zone?.identifier ?? "the local zone")")
            // Read back as a floating moment: the same moment, unless the
            // wall clock's time comes twice and this is its second time.
            let read = try #require(AppClock.parseMoment(text, timeZone: zone))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone ?? LocalZone.current
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: moment)
            #expect(read == calendar.date(from: c), "\(text) in \(zone?.identifier ?? "the local zone")")
        }
    }
}
