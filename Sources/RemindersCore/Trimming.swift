/// Trimming without Foundation's `trimmingCharacters(in:)`, which on Linux
/// copies every string into an NSString and the result back, even when
/// there is nothing to trim: a tenth of reading a big iCalendar file went
/// there. The sets are Foundation's: `.whitespaces` is Unicode's space
/// separators (Zs), the tab and the zero-width space; `.whitespacesAndNewlines`
/// adds the line and paragraph separators (Zl, Zp), U+000A to U+000D and
/// U+0085.
extension StringProtocol {
    /// As Foundation's `trimmingCharacters(in: .whitespaces)`.
    public func trimmingWhitespace() -> String {
        trimming(Self.isWhitespace)
    }

    /// As Foundation's `trimmingCharacters(in: .whitespacesAndNewlines)`.
    public func trimmingWhitespaceAndNewlines() -> String {
        trimming { Self.isWhitespace($0) || Self.isNewline($0) }
    }

    private func trimming(_ drops: (Unicode.Scalar) -> Bool) -> String {
        let string = String(self)
        let scalars = string.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, drops(scalars[start]) { start = scalars.index(after: start) }
        while start < end {
            let last = scalars.index(before: end)
            guard drops(scalars[last]) else { break }
            end = last
        }
        return String(scalars[start..<end])
    }

    private static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar == " " || scalar == "\t" }
        // Foundation's set still holds the zero-width space, a space
        // separator in Unicode's older versions.
        return scalar.properties.generalCategory == .spaceSeparator || scalar == "\u{200B}"
    }

    private static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A...0x0D, 0x85: return true
        case 0..<0x80: return false
        default:
            let category = scalar.properties.generalCategory
            return category == .lineSeparator || category == .paragraphSeparator
        }
    }
}
