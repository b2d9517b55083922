import Foundation

/// Which number comes first in a date written with numbers alone, such as
/// 14/3: the day, as in most of the world, or the month, as in the United
/// States. "3/4" means 3 April to one user and March 4 to another, so the
/// parser asks the user's locale rather than guessing.
public enum DayMonthOrder: String, Sendable, Hashable {
    /// 14/3 is 14 March.
    case dayFirst
    /// 3/14 is March 14.
    case monthFirst

    /// The order of the locale's short numeric dates, as ICU writes them
    /// ("M/d" in en_US, "dd/MM" in en_GB, "d.M." in de_DE).
    public init(locale: Locale) {
        let pattern = DateFormatter.dateFormat(fromTemplate: "dM", options: 0, locale: locale) ?? "d/M"
        if let month = pattern.firstIndex(of: "M"), let day = pattern.firstIndex(of: "d"), month < day {
            self = .monthFirst
        } else {
            self = .dayFirst
        }
    }

    /// The order of the locale the environment names, read as the C library
    /// reads it: `LC_ALL`, else `LC_TIME`, else `LANG` ("en_US.UTF-8").
    /// Foundation's `Locale.current` ignores these on Linux, hence reading
    /// them here. Without one (unset, `C` or `POSIX`), the day comes first.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> DayMonthOrder {
        let named = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let identifier = String(named.prefix { $0 != "." && $0 != "@" })
        guard !identifier.isEmpty, identifier != "C", identifier != "POSIX" else { return .dayFirst }
        return DayMonthOrder(locale: Locale(identifier: identifier))
    }

    /// "day/month" or "month/day", for messages.
    public var name: String {
        switch self {
        case .dayFirst: "day/month"
        case .monthFirst: "month/day"
        }
    }
}
