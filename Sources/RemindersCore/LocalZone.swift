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
/// now and half a year on (summer and winter); otherwise it is the C
/// library's offset now, fixed: right until the next change of the clocks,
/// which only a POSIX rule in `TZ` can bring about.
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
        return TimeZone(secondsFromGMT: offset(Int(now.timeIntervalSince1970))) ?? utc
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
