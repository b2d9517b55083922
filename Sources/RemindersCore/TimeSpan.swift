import Foundation

/// A length of time written the way people type it on a command line:
/// "90m", "2h", "1d", "1h30m", "1w". Due times have minute precision, so
/// the smallest unit is the minute. A day is 24 hours (a span of moments,
/// not of calendar days).
public struct TimeSpan: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The length in minutes, never negative.
    public let minutes: Int

    /// Units from largest to smallest, with their length in minutes.
    public static let units: [(symbol: Character, minutes: Int, name: String)] = [
        ("w", 7 * 24 * 60, "weeks"), ("d", 24 * 60, "days"), ("h", 60, "hours"), ("m", 1, "minutes"),
    ]

    /// Longer spans are refused: they are typos, not agendas.
    public static let maximum = TimeSpan(minutes: 366 * 24 * 60)

    public init(minutes: Int) {
        self.minutes = max(0, minutes)
    }

    /// Parses "90m", "2h", "1d", "1h30m", "1w2d"; spaces between parts are
    /// allowed ("1h 30m"). Throws `CoreError.invalidInput` naming what is
    /// wrong with the text.
    public init(parsing raw: String) throws {
        let text = raw.trimmingWhitespace()
        let example = "e.g. 90m, 2h, 1d or 1h30m"
        guard !text.isEmpty else { throw CoreError.invalidInput("duration must not be empty (\(example))") }
        var total = 0
        var seen: Set<Character> = []
        var digits = ""
        for character in text where character != " " {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            guard let unit = Self.units.first(where: { String($0.symbol) == character.lowercased() }) else {
                throw CoreError.invalidInput("duration '\(raw)' has an unknown unit '\(character)' (use m, h, d or w; \(example))")
            }
            guard !digits.isEmpty else {
                throw CoreError.invalidInput("duration '\(raw)' has '\(character)' without a number before it (\(example))")
            }
            guard !seen.contains(unit.symbol) else {
                throw CoreError.invalidInput("duration '\(raw)' gives \(unit.name) twice (\(example))")
            }
            seen.insert(unit.symbol)
            // Nine digits of any unit already exceed the maximum; refuse before multiplying.
            guard digits.count <= 9, let value = Int(digits) else {
                throw CoreError.invalidInput("duration '\(raw)' is longer than 366 days")
            }
            total += value * unit.minutes
            digits = ""
        }
        guard digits.isEmpty else {
            throw CoreError.invalidInput("duration '\(raw)' needs a unit after \(digits): m, h, d or w (\(example))")
        }
        guard total <= Self.maximum.minutes else {
            throw CoreError.invalidInput("duration '\(raw)' is longer than 366 days")
        }
        self.init(minutes: total)
    }

    public var timeInterval: TimeInterval { TimeInterval(minutes * 60) }

    /// The shortest form: "1h30m", "2d", "0m".
    public var description: String {
        guard minutes > 0 else { return "0m" }
        var rest = minutes
        var text = ""
        for unit in Self.units where rest >= unit.minutes {
            text += "\(rest / unit.minutes)\(unit.symbol)"
            rest %= unit.minutes
        }
        return text
    }

    public static func < (a: TimeSpan, b: TimeSpan) -> Bool { a.minutes < b.minutes }
}
