import Foundation
import ICalendar

/// Moments, wall clocks and time zones for iCalendar values.
enum ICalendarTime {
    static let utc = TimeZone(identifier: "UTC")!

    /// Gregorian calendars by time zone: making one per value would cost
    /// more than the rest of an import.
    private static let calendars = CalendarCache()

    /// The moment of a DATE or DATE-TIME on the clock of `zone` (a DATE is
    /// its midnight). A wall-clock time the zone skips reads with the
    /// offset from before the change.
    static func moment(_ value: ICalDateTime, in zone: TimeZone) -> Date {
        let calendar = calendars.calendar(zone)
        return calendar.date(from: DateComponents(
            year: value.year, month: value.month, day: value.day,
            hour: value.hour ?? 0, minute: value.minute, second: value.second)) ?? Date(timeIntervalSince1970: 0)
    }

    /// "YYYY-MM-DDTHH:MM:SS" on the clock of `zone`, the form of
    /// `Reminder.completedAt`.
    /// Worked out from the zone's offset at that moment and the day's
    /// number (`DueDate`), written digit by digit: a calendar's components
    /// and `String(format:)` were a seventh of a big import.
    static func timestamp(_ moment: Date, in zone: TimeZone) -> String {
        let local = DueDate.wallClockSeconds(of: moment, in: zone)
        // "YYYY-MM-DDTHH:MM", then the seconds (of a minute that began
        // before 1970 too).
        return DueDate(wallClockSeconds: local).description + ":" + DueDate.digits((local % 60 + 60) % 60, 2)
    }

    /// The moment of a `completedAt` timestamp on the clock of `zone`.
    static func moment(timestamp: String, in zone: TimeZone) -> Date? {
        let parts = timestamp.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" || $0 == " " }).compactMap { Int($0) }
        guard parts.count >= 5 else { return nil }
        return calendars.calendar(zone).date(from: DateComponents(
            year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
            second: parts.count > 5 ? parts[5] : 0))
    }

    /// A UTC DATE-TIME value: `20261124T090000Z`.
    static func utcText(_ moment: Date) -> String {
        let c = calendars.calendar(utc).dateComponents([.year, .month, .day, .hour, .minute, .second], from: moment)
        return ICalDateTime(year: c.year ?? 1970, month: c.month ?? 1, day: c.day ?? 1, hour: c.hour ?? 0,
                            minute: c.minute ?? 0, second: c.second ?? 0, isUTC: true).description
    }

    private final class CalendarCache: @unchecked Sendable {
        private let lock = NSLock()
        private var byZone: [String: Calendar] = [:]

        func calendar(_ zone: TimeZone) -> Calendar {
            lock.lock()
            defer { lock.unlock() }
            if let calendar = byZone[zone.identifier] { return calendar }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            byZone[zone.identifier] = calendar
            return calendar
        }
    }
}

/// The time zones a file's TZID parameters name: an Olson name Foundation
/// knows ("Europe/Berlin"), one behind a publisher's prefix
/// ("/mozilla.org/20050126_1/Europe/Berlin"), a Windows zone name as
/// Outlook writes them ("W. Europe Standard Time", `WindowsZoneNames`), or
/// the X-LIC-LOCATION its VTIMEZONE gives.
struct TimeZones {
    /// X-LIC-LOCATION by TZID, from the file's VTIMEZONEs.
    var locations: [String: String] = [:]

    init(calendar: ICalComponent? = nil) {
        for zone in calendar?.components ?? [] where zone.name == "VTIMEZONE" {
            if let tzid = zone.property("TZID")?.value, let location = zone.property("X-LIC-LOCATION")?.value {
                locations[tzid] = location
            }
        }
    }

    func zone(_ tzid: String) -> TimeZone? {
        if let zone = Self.known(tzid) { return zone }
        if let location = locations[tzid], let zone = Self.known(location) { return zone }
        return nil
    }

    /// A TZID that names an X-LIC-LOCATION of the file rather than a zone
    /// Foundation knows ("Custom Berlin"), as that location: the name a
    /// to-do keeps it by, since export defines zones by Foundation's names
    /// (`ICalendarZoneDefinitions`); nil for any other TZID.
    func location(naming tzid: String) -> String? {
        guard Self.known(tzid) == nil, let location = locations[tzid], Self.known(location) != nil else { return nil }
        return location
    }

    /// A zone Foundation knows by `name`, or by its end behind a
    /// publisher's prefix, or a Windows zone name's.
    static func known(_ name: String) -> TimeZone? {
        if let windows = WindowsZoneNames.zone(name) { return TimeZone(identifier: windows) }
        var parts = name.split(separator: "/", omittingEmptySubsequences: true)
        while !parts.isEmpty {
            let candidate = parts.joined(separator: "/")
            if candidate.contains("/") || ["UTC", "GMT", "Etc/UTC"].contains(candidate),
               let zone = TimeZone(identifier: candidate) {
                return zone
            }
            parts.removeFirst()
        }
        return nil
    }
}


/// Bytes as lower-case hexadecimal digits.
func hexDigits<S: Sequence>(_ bytes: S) -> String where S.Element == UInt8 {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    for byte in bytes {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
}
