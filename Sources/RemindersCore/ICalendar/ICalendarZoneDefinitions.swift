import Foundation
import ICalendar

/// The VTIMEZONE of each time zone an exported calendar names. RFC 5545
/// (3.6.5) asks for one for every TZID a calendar's values use: a to-do
/// imported with `DTSTART;TZID=Europe/Berlin` keeps it, and a reader that
/// takes zones only from the file would not know when that is.
///
/// A definition lists the zone's changes of offset, as Foundation's time
/// zone data has them, from the first year a value names through ten
/// years past the last (a repeating to-do goes on): one STANDARD and one
/// DAYLIGHT observance per pair of offsets, the first change as its
/// DTSTART and the others as RDATEs, each in local time before the change.
enum ICalendarZoneDefinitions {
    /// Years past the last one a value names that a definition covers.
    static let yearsAhead = 10

    /// `calendar` with a VTIMEZONE, ahead of its other components, for
    /// each TZID its properties name (its to-dos', their alarms' and
    /// overrides') that Foundation knows and the calendar does not define
    /// already. A TZID no zone answers to is left as it is: there is
    /// nothing true to define it with.
    static func adding(to calendar: ICalComponent) -> ICalComponent {
        var years: [String: ClosedRange<Int>] = [:]
        var defined = Set<String>()
        for component in calendar.components {
            if component.name == "VTIMEZONE", let tzid = component.property("TZID")?.value {
                defined.insert(tzid)
            } else {
                collectYears(of: component, into: &years)
            }
        }
        var definitions: [ICalComponent] = []
        for (tzid, span) in years.sorted(by: { $0.key < $1.key }) where !defined.contains(tzid) {
            guard let zone = TimeZones.known(tzid) else { continue }
            let last = min(span.upperBound + yearsAhead, DueDate.years.upperBound)
            definitions.append(definition(tzid: tzid, zone: zone, years: span.lowerBound...last))
        }
        guard !definitions.isEmpty else { return calendar }
        var calendar = calendar
        calendar.components = definitions + calendar.components
        return calendar
    }

    /// The years of the values each TZID names in `component` and its own
    /// components (an EXDATE or RDATE lists several; a PERIOD counts by
    /// its start).
    private static func collectYears(of component: ICalComponent, into years: inout [String: ClosedRange<Int>]) {
        for property in component.properties {
            guard let tzid = property.parameter("TZID") else { continue }
            for value in property.value.split(separator: ",") {
                let start = value.split(separator: "/").first.map(String.init) ?? ""
                // A year no due date can have (DueDate.years) defines nothing.
                guard let year = (try? ICalDateTime(parsing: start))?.year, DueDate.years.contains(year) else { continue }
                let known = years[tzid]
                years[tzid] = min(known?.lowerBound ?? year, year)...max(known?.upperBound ?? year, year)
            }
        }
        for child in component.components { collectYears(of: child, into: &years) }
    }

    /// A VTIMEZONE named `tzid` for `zone` through `years`.
    static func definition(tzid: String, zone: TimeZone, years: ClosedRange<Int>) -> ICalComponent {
        // From midnight of the first year on the zone's clock.
        let midnight = Self.midnight(DueDate(year: years.lowerBound, month: 1, day: 1))
        let start = midnight.addingTimeInterval(-TimeInterval(zone.secondsFromGMT(for: midnight)))
        let end = Self.midnight(DueDate(year: years.upperBound, month: 12, day: 31)).addingTimeInterval(86_400)
        // The offset the span begins in: an observance from its first moment.
        let first = zone.secondsFromGMT(for: start)
        var observances: [Observance] = [
            Observance(isDaylight: zone.isDaylightSavingTime(for: start), from: first, to: first, onsets: [start]),
        ]
        var moment = start
        while let change = zone.nextDaylightSavingTimeTransition(after: moment), change < end {
            let from = zone.secondsFromGMT(for: change.addingTimeInterval(-1))
            let to = zone.secondsFromGMT(for: change)
            let isDaylight = zone.isDaylightSavingTime(for: change)
            if let index = observances.firstIndex(where: { $0.isDaylight == isDaylight && $0.from == from && $0.to == to }) {
                observances[index].onsets.append(change)
            } else {
                observances.append(Observance(isDaylight: isDaylight, from: from, to: to, onsets: [change]))
            }
            moment = change
        }
        return ICalComponent("VTIMEZONE", properties: [ICalProperty("TZID", tzid)],
                             components: observances.map(\.component))
    }

    /// One kind of change: to daylight time or to standard time, from one
    /// offset to another, at each of `onsets`.
    private struct Observance {
        var isDaylight: Bool
        var from: Int
        var to: Int
        var onsets: [Date]

        var component: ICalComponent {
            // Each onset in local time, on the clock of the offset before it.
            let local = onsets.map { ICalendarZoneDefinitions.localText($0, offset: from) }
            var properties = [
                ICalProperty("DTSTART", local[0]),
                ICalProperty("TZOFFSETFROM", ICalendarZoneDefinitions.offsetText(from)),
                ICalProperty("TZOFFSETTO", ICalendarZoneDefinitions.offsetText(to)),
            ]
            if local.count > 1 { properties.append(ICalProperty("RDATE", local.dropFirst().joined(separator: ","))) }
            return ICalComponent(isDaylight ? "DAYLIGHT" : "STANDARD", properties: properties)
        }
    }

    /// The start of `date`, 00:00 UTC (of 1970-01-01 for none: the years
    /// a definition covers are all dates').
    private static func midnight(_ date: DueDate?) -> Date {
        let day = date?.dayNumber ?? DueDate.epochDayNumber
        return Date(timeIntervalSince1970: TimeInterval(day - DueDate.epochDayNumber) * 86_400)
    }

    /// `moment` as a local DATE-TIME on the clock `offset` seconds east of
    /// UTC (the offsets of time zone data are whole minutes since 1970).
    static func localText(_ moment: Date, offset: Int) -> String {
        let seconds = Int(moment.timeIntervalSince1970.rounded(.down)) + offset
        let wall = DueDate(wallClockSeconds: seconds)
        let second = ((seconds % 60) + 60) % 60
        return ICalDateTime(year: wall.year, month: wall.month, day: wall.day, hour: wall.time?.hour ?? 0,
                            minute: wall.time?.minute ?? 0, second: second).description
    }

    /// An offset as UTC-OFFSET writes it: "+0100", "-0530", "+005328".
    static func offsetText(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        let (hours, minutes, rest) = (magnitude / 3600, magnitude % 3600 / 60, magnitude % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return (seconds < 0 ? "-" : "+") + two(hours) + two(minutes) + (rest == 0 ? "" : two(rest))
    }
}
