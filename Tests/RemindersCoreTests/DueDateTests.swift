import Foundation
import Testing
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
