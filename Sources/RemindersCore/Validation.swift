import Foundation

/// Checks on what users type, shared by the command line and the forms.
public enum Validation {
    public static let maxTitleLength = 1_000
    public static let maxNotesLength = 1_000_000
    public static let maxTagLength = 100
    public static let maxCoverBytes = 8 * 1024 * 1024
    /// Larger images are refused before they are decoded.
    public static let maxCoverPixels = 4096 * 4096

    /// A trimmed, non-empty title of at most 1,000 characters, without
    /// control characters.
    public static func title(_ raw: String, of what: String = "title") throws -> String {
        let title = raw.trimmingWhitespaceAndNewlines()
        guard !title.isEmpty else { throw CoreError.invalidInput("\(what) must not be empty") }
        guard title.count <= maxTitleLength else {
            throw CoreError.invalidInput("\(what) is \(title.count) characters long; the limit is \(maxTitleLength)")
        }
        if title.unicodeScalars.contains(where: isControl) {
            throw CoreError.invalidInput("\(what) must not contain control characters")
        }
        return title
    }

    /// Notes may hold new lines and tabs, but no other control characters.
    public static func notes(_ raw: String) throws -> String {
        guard raw.utf8.count <= maxNotesLength else {
            throw CoreError.invalidInput("notes are \(raw.utf8.count) bytes long; the limit is \(maxNotesLength)")
        }
        if raw.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) {
            throw CoreError.invalidInput("notes must not contain control characters other than new lines and tabs")
        }
        // Foundation's replacing copies every string through NSString.
        guard raw.utf8.contains(UInt8(ascii: "\r")) else { return raw }
        return raw.replacingOccurrences(of: "\r\n", with: "\n")
    }

    /// One of the palette's colours by name (`RemindersStore.paletteNames`,
    /// "grey" too), or "#rrggbb" or "#rgb" (with or without "#", any case),
    /// returned as lower-case "#rrggbb".
    public static func color(_ raw: String) throws -> String {
        var hex = raw.trimmingWhitespace().lowercased()
        if let index = RemindersStore.paletteNames.firstIndex(of: hex == "grey" ? "gray" : hex) {
            return RemindersStore.palette[index]
        }
        if hex.hasPrefix("#") { hex.removeFirst() }
        guard hex.count == 6 || hex.count == 3, hex.allSatisfy({ $0.isHexDigit && $0.isASCII }) else {
            throw CoreError.invalidInput("color '\(raw)' is not one of \(RemindersStore.paletteNames.joined(separator: ", ")), "
                                         + "nor of the form #RRGGBB or #RGB")
        }
        // "#f80" is "#ff8800", as in CSS.
        if hex.count == 3 { hex = String(hex.flatMap { [$0, $0] }) }
        return "#" + hex
    }

    /// A repeat rule as RRULE text, returned in its canonical form (so two
    /// devices write the same bytes for the same rule).
    public static func repeatRule(_ raw: String) throws -> String {
        do {
            return try RepeatRule(rrule: raw).rrule
        } catch {
            throw CoreError.invalidInput("repeat rule: \(error.description)")
        }
    }

    /// Seconds before the due time, within `AlertBefore.maximumSeconds`.
    public static func alertBefore(_ seconds: Int) throws -> Int {
        guard (0...AlertBefore.maximumSeconds).contains(seconds) else {
            throw CoreError.invalidInput("an alert comes at most 366 days before the due time")
        }
        return seconds
    }

    public static func priority(_ raw: String) throws -> Priority {
        guard let priority = Priority(name: raw) else {
            throw CoreError.invalidInput("priority '\(raw)' is not one of none, low, medium, high")
        }
        return priority
    }

    /// A tag title: trimmed, a leading '#' dropped, no commas or control
    /// characters, at most 100 characters.
    public static func tag(_ raw: String) throws -> String {
        var tag = raw.trimmingWhitespaceAndNewlines()
        if tag.hasPrefix("#") { tag.removeFirst() }
        guard !tag.isEmpty else { throw CoreError.invalidInput("tag must not be empty") }
        guard tag.count <= maxTagLength else {
            throw CoreError.invalidInput("tag is \(tag.count) characters long; the limit is \(maxTagLength)")
        }
        guard !tag.contains(","), !tag.unicodeScalars.contains(where: isControl) else {
            throw CoreError.invalidInput("tag must not contain commas or control characters")
        }
        return tag
    }

    /// Unicode's control characters (Cc): exactly these two ranges, so
    /// no lookup of the general category is needed.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
