/// A DATE (`20261124`) or DATE-TIME (`20261124T090000`, `…Z` for UTC)
/// value, checked: the day exists in its month, the time on a clock.
public struct ICalDateTime: Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    /// Hour, minute, second; nil for a DATE.
    public var hour: Int?
    public var minute: Int
    public var second: Int
    /// A DATE-TIME ending in Z.
    public var isUTC: Bool

    public var isDate: Bool { hour == nil }

    public init(year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int = 0, second: Int = 0, isUTC: Bool = false) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.isUTC = isUTC
    }

    /// Parses a DATE or DATE-TIME value.
    /// - throws: a message (without a line) saying what is wrong.
    public init(parsing text: String) throws(ICalError) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) throws(ICalError) -> Int {
            var value = 0
            for byte in bytes[range] {
                guard byte >= 0x30, byte <= 0x39 else { throw ICalError(line: 0, "'\(ICalParser.clip(text))' is not a date or date-time") }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard bytes.count == 8 || bytes.count == 15 || (bytes.count == 16 && bytes[15] == UInt8(ascii: "Z")) else {
            throw ICalError(line: 0, "'\(ICalParser.clip(text))' is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS)")
        }
        year = try number(0..<4)
        month = try number(4..<6)
        day = try number(6..<8)
        hour = nil
        minute = 0
        second = 0
        isUTC = false
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year), year >= 1 else {
            throw ICalError(line: 0, "'\(ICalParser.clip(text))' is not a real date")
        }
        if bytes.count >= 15 {
            guard bytes[8] == UInt8(ascii: "T") else {
                throw ICalError(line: 0, "'\(ICalParser.clip(text))' is not a date-time (YYYYMMDDTHHMMSS)")
            }
            let h = try number(9..<11)
            minute = try number(11..<13)
            second = try number(13..<15)
            guard h <= 23, minute <= 59, second <= 60 else {
                throw ICalError(line: 0, "'\(ICalParser.clip(text))' is not a real time of day")
            }
            hour = h
            isUTC = bytes.count == 16
        }
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The value as written: `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]`.
    public var description: String {
        var text = pad(year, 4) + pad(month, 2) + pad(day, 2)
        if let hour {
            text += "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2)
            if isUTC { text += "Z" }
        }
        return text
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

/// A DURATION value (`-PT15M`, `P1D`, `P2W`): whole days (calendar days,
/// weeks as 7) and seconds (elapsed time), with a sign.
public struct ICalDuration: Hashable, Sendable, CustomStringConvertible {
    public var isNegative: Bool
    public var days: Int
    public var seconds: Int

    public init(isNegative: Bool = false, days: Int = 0, seconds: Int = 0) {
        self.isNegative = isNegative
        self.days = days
        self.seconds = seconds
    }

    /// Parses `[+|-]P` followed by `nW`, or `nD`, `T nH nM nS` parts in order.
    public init(parsing text: String) throws(ICalError) {
        let bad = ICalError(line: 0, "'\(ICalParser.clip(text))' is not a duration (such as -PT15M or P1D)")
        var bytes = Array(text.utf8)[...]
        isNegative = false
        days = 0
        seconds = 0
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            isNegative = sign == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        guard bytes.first == UInt8(ascii: "P") else { throw bad }
        bytes = bytes.dropFirst()
        var inTime = false
        var lastUnit = 0
        var any = false
        var sawWeek = false
        var units = 0
        while let first = bytes.first {
            if first == UInt8(ascii: "T") {
                guard !inTime else { throw bad }
                inTime = true
                bytes = bytes.dropFirst()
                continue
            }
            var value = 0
            var digits = 0
            while let byte = bytes.first, byte >= 0x30, byte <= 0x39 {
                value = value * 10 + Int(byte - 0x30)
                digits += 1
                guard digits <= 9 else { throw bad }
                bytes = bytes.dropFirst()
            }
            guard digits > 0, let unit = bytes.first else { throw bad }
            bytes = bytes.dropFirst()
            // Units in order: W or D before T; H, M, S after it.
            let rank: Int
            switch (unit, inTime) {
            case (UInt8(ascii: "W"), false): rank = 1; days += value * 7; sawWeek = true
            case (UInt8(ascii: "D"), false): rank = 2; days += value
            case (UInt8(ascii: "H"), true): rank = 3; seconds += value * 3600
            case (UInt8(ascii: "M"), true): rank = 4; seconds += value * 60
            case (UInt8(ascii: "S"), true): rank = 5; seconds += value
            default: throw bad
            }
            guard rank > lastUnit else { throw bad }
            lastUnit = rank
            units += 1
            any = true
        }
        // A time part needs a unit; weeks stand alone (RFC 5545 3.3.6).
        guard any, !inTime || lastUnit >= 3, !sawWeek || units == 1 else { throw bad }
    }

    /// Signed seconds, counting a day as 86,400 seconds.
    public var totalSeconds: Int { (isNegative ? -1 : 1) * (days * 86_400 + seconds) }

    public var description: String {
        var text = isNegative ? "-P" : "P"
        if days > 0 {
            text += days % 7 == 0 && seconds == 0 ? "\(days / 7)W" : "\(days)D"
        }
        if seconds > 0 {
            text += "T"
            let h = seconds / 3600, m = seconds % 3600 / 60, s = seconds % 60
            if h > 0 { text += "\(h)H" }
            if m > 0 { text += "\(m)M" }
            if s > 0 { text += "\(s)S" }
        }
        if days == 0 && seconds == 0 { text += "T0S" }
        return text
    }
}
