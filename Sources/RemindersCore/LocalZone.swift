import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's local time zone as Foundation's `TimeZone`, read from `TZ`
/// the way the C library reads it.
///
/// The app's dates and due moments in the local zone come from the C
/// library (`DueDate(moment:in:)`, `DueDate.moment(in:)`: no ICU at start);
/// calendars, formats and iCalendar need Foundation's zone. The two read
/// `TZ` differently: glibc takes `:Europe/Paris`, a file's path and POSIX
/// rules (`EST5EDT,M3.2.0,M11.1.0`), where Foundation falls back to UTC,
/// and each reads `GMT+3` with the opposite sign. So the zone is found by
/// glibc's rules, and kept only if its offsets agree with the C library's,
/// now and half a year on (summer and winter). Otherwise (a POSIX rule, a
/// name Foundation reads differently) it is a named zone whose offsets are
/// the C library's, to the second, for the next two years; failing that,
/// the C library's offset now, fixed.
public enum LocalZone {
    /// The local zone, found when first asked for.
    public static let current: TimeZone = zone(
        forTZ: ProcessInfo.processInfo.environment["TZ"], now: Date(), offset: DueDate.localOffset(at:))

    /// The zone `TZ` names, checked against `offset` (seconds from UTC at a
    /// moment, as the C library reads `TZ`).
    static func zone(forTZ value: String?, now: Date, offset: (Int) -> Int) -> TimeZone {
        let moments = [now, now.addingTimeInterval(182 * 86_400)]
        let named = named(byTZ: value)
        if let named, moments.allSatisfy({ named.secondsFromGMT(for: $0) == offset(Int($0.timeIntervalSince1970)) }) {
            return named
        }
        return matching(offset, from: Int(now.timeIntervalSince1970))
            ?? TimeZone(secondsFromGMT: offset(Int(now.timeIntervalSince1970))) ?? utc
    }

    /// The first named zone (in the order of their names) whose offset is
    /// `offset`'s at every change of it in the two years from `start`, on
    /// either side of the change's second, and every six hours between.
    static func matching(_ offset: (Int) -> Int, from start: Int) -> TimeZone? {
        let step = 6 * 3600
        var checks: [(moment: Int, offset: Int)] = []
        var previous = (moment: start, offset: offset(start))
        checks.append(previous)
        for moment in stride(from: start + step, through: start + 2 * 365 * 86_400, by: step) {
            let current = (moment: moment, offset: offset(moment))
            if current.offset != previous.offset {
                // The change's second, by halving: last with the old offset, first with the new.
                var (low, high) = (previous.moment, moment)
                while high - low > 1 {
                    let middle = (low + high) / 2
                    if offset(middle) == previous.offset { low = middle } else { high = middle }
                }
                checks.append((low, previous.offset))
                checks.append((high, current.offset))
            }
            checks.append(current)
            previous = current
        }
        let (first, halfYear) = (checks[0], checks[checks.count / 4])
        for name in TimeZone.knownTimeZoneIdentifiers.sorted() {
            guard let zone = TimeZone(identifier: name) else { continue }
            func agrees(_ check: (moment: Int, offset: Int)) -> Bool {
                zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(check.moment))) == check.offset
            }
            if agrees(first), agrees(halfYear), checks.allSatisfy(agrees) { return zone }
        }
        return nil
    }

    /// The zone `TZ` names by glibc's rules: unset, the system's
    /// (/etc/localtime); empty, UTC; a leading colon dropped; a path, the
    /// zone file it leads to; else a zone's name.
    static func named(byTZ value: String?) -> TimeZone? {
        guard let value else { return .current }
        var name = value[...]
        if name.isEmpty { return utc }
        if name.first == ":" { name = name.dropFirst() }
        if name.isEmpty { return zone(ofFile: "/etc/localtime") ?? .current }
        if name.first == "/" { return zone(ofFile: String(name)) }
        return TimeZone(identifier: String(name))
    }

    /// The zone whose file under a `zoneinfo` folder `path` is, or leads
    /// to by links.
    static func zone(ofFile path: String) -> TimeZone? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let target = String(cString: resolved)
        guard let folder = target.range(of: "/zoneinfo/", options: .backwards) else { return nil }
        var name = target[folder.upperBound...]
        // The folder of POSIX time holds the same zones under the same names.
        if name.hasPrefix("posix/") { name = name.dropFirst("posix/".count) }
        return TimeZone(identifier: String(name))
    }

    private static let utc = TimeZone(secondsFromGMT: 0) ?? .current
}
