import RemindersCore

/// Makes text from the database (or another user) safe to draw.
///
/// Titles, notes and tags may hold anything a peer or an import wrote:
/// escape sequences that would recolor or move the cursor of the user's
/// terminal, bidi overrides that reorder what is drawn next to them, private
/// use characters that would pass for search-match markers. None of them
/// reach the screen.
enum TextSanitizer {
    /// One line of text: new lines and tabs become spaces, everything that
    /// is not safe to print is removed. With `keepingMatchMarkers` the
    /// search snippet markers U+E000/U+E001 stay, so the screen can
    /// highlight matches.
    static func line(_ text: String, keepingMatchMarkers: Bool = false) -> String {
        // Printable ASCII, most titles, is kept as it is: no scalar is
        // looked at one by one (a row's title, tags and date are drawn
        // through here, every frame).
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        var scalars = String.UnicodeScalarView()
        var changed = false
        for scalar in text.unicodeScalars {
            switch classify(scalar, keepingMatchMarkers: keepingMatchMarkers) {
            case .keep:
                scalars.append(scalar)
            case .space:
                scalars.append(" ")
                changed = true
            case .drop:
                changed = true
            }
        }
        return changed ? String(scalars) : text
    }

    /// Text split into lines (on LF, CR LF, CR, U+2028/2029), each one
    /// sanitized like `line(_:)`.
    static func lines(_ text: String) -> [String] {
        var result: [String] = []
        var current = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n", previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                result.append(line(String(current)))
                current = String.UnicodeScalarView()
            } else {
                current.append(scalar)
            }
        }
        result.append(line(String(current)))
        return result
    }

    /// The first line of text that is not blank, sanitized and trimmed:
    /// what a row shows of a reminder's notes. Reads no further than that
    /// line (and at most `limit` characters of it), so huge notes cost
    /// nothing.
    static func firstLine(_ text: String, limit: Int = 400) -> String {
        var current = String.UnicodeScalarView()
        var count = 0
        var hasContent = false
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                if hasContent { break }
                current = String.UnicodeScalarView()
                count = 0
                continue
            }
            guard count < limit else {
                if hasContent { break }
                continue
            }
            switch classify(scalar, keepingMatchMarkers: false) {
            case .keep:
                current.append(scalar)
                if scalar != " " { hasContent = true }
            case .space:
                current.append(" ")
            case .drop:
                continue
            }
            count += 1
        }
        return hasContent ? String(current).trimmingSpaces() : ""
    }

    enum Verdict { case keep, space, drop }

    static func classify(_ scalar: Unicode.Scalar, keepingMatchMarkers: Bool) -> Verdict {
        let value = scalar.value
        switch value {
        case 0x20...0x7E:
            return .keep
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x2028, 0x2029:
            return .space
        case 0x00...0x1F, 0x7F, 0x80...0x9F:
            // C0 (ESC included), DEL, C1 (CSI, OSC, ...).
            return .drop
        case 0x202A...0x202E, 0x2066...0x2069:
            // Bidi embeddings, overrides and isolates.
            return .drop
        case 0x200E, 0x200F, 0x061C:
            // Bidi marks are harmless in principle, but a terminal lays text
            // out left to right cell by cell; they only add confusion.
            return .drop
        case 0xFFF9...0xFFFB, 0xFEFF:
            // Interlinear annotations and the byte order mark.
            return .drop
        case 0xE000, 0xE001:
            return keepingMatchMarkers ? .keep : .drop
        case 0xE002...0xF8FF, 0xF0000...0xFFFFD, 0x100000...0x10FFFD:
            return .drop
        default:
            switch scalar.properties.generalCategory {
            case .control, .surrogate, .unassigned:
                return .drop
            default:
                return .keep
            }
        }
    }
}

extension String {
    /// Without leading and trailing spaces (the sanitizer has already turned
    /// other blanks into spaces).
    func trimmingSpaces() -> String {
        var view = Substring(self)
        while view.first == " " { view = view.dropFirst() }
        while view.last == " " { view = view.dropLast() }
        return String(view)
    }
}
