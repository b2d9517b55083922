import CNcurses

/// One terminal cell's worth of text: a base character with the zero-width
/// marks that attach to it, and how many columns it takes (1 or 2).
struct Glyph: Hashable, Sendable {
    var text: String
    var width: Int
}

/// Display widths in terminal columns.
///
/// Widths come from the C library's `wcwidth` when the locale is UTF-8 (the
/// same function ncurses uses to place characters, so the two never
/// disagree), and from a built-in table otherwise.
enum DisplayWidth {
    /// Whether `wcwidth` knows Unicode in this process (a UTF-8 locale is
    /// set). Checked on every call: the app sets the locale at start-up.
    static var libcIsUnicodeAware: Bool {
        reminders_wcwidth(0x4E00) == 2 && reminders_wcwidth(0x0301) == 0 && reminders_wcwidth(0x00E9) == 1
    }

    /// Columns taken by one scalar: 0 (combining, format), 1 or 2.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        of(scalar, useLibc: libcIsUnicodeAware)
    }

    static func of(_ scalar: Unicode.Scalar, useLibc: Bool) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if useLibc {
            let width = Int(reminders_wcwidth(value))
            if width >= 0 { return width }
        }
        return fallback(scalar)
    }

    /// Columns taken by text once split into glyphs.
    static func of(_ text: String) -> Int {
        var total = 0
        let useLibc = libcIsUnicodeAware
        for scalar in text.unicodeScalars where !isDropped(scalar) {
            total += of(scalar, useLibc: useLibc)
        }
        return total
    }

    static func of(_ text: Substring) -> Int { of(String(text)) }

    /// Splits text into cells. Each scalar with a width starts a new glyph;
    /// combining marks attach to the glyph before them (at most four, what
    /// an ncurses cell holds). Zero-width joiners and variation selectors
    /// are dropped: terminals disagree on how wide a joined emoji sequence
    /// or an emoji-presentation selector makes a character, and a guess
    /// that differs from the terminal's shifts the rest of the line. A
    /// family emoji is thus drawn as its members side by side.
    static func glyphs(_ text: String) -> [Glyph] {
        var result: [Glyph] = []
        result.reserveCapacity(text.utf8.count)
        var marks = 0
        let useLibc = libcIsUnicodeAware
        for scalar in text.unicodeScalars {
            if isDropped(scalar) { continue }
            let width = of(scalar, useLibc: useLibc)
            if width == 0 {
                guard !result.isEmpty, marks < 4 else { continue }
                result[result.count - 1].text.unicodeScalars.append(scalar)
                marks += 1
            } else {
                result.append(Glyph(text: String(scalar), width: width))
                marks = 0
            }
        }
        return result
    }

    static func isDropped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200D, 0xFE0E, 0xFE0F: true
        case 0xE0020...0xE007F: true // emoji tag characters
        default: false
        }
    }

    /// Text cut to at most `width` columns, ending in "…" when cut.
    static func truncate(_ text: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        let glyphs = glyphs(text)
        let total = glyphs.reduce(0) { $0 + $1.width }
        if total <= width { return glyphs.map(\.text).joined() }
        var result = ""
        var used = 0
        for glyph in glyphs {
            if used + glyph.width > width - 1 { break }
            result += glyph.text
            used += glyph.width
        }
        return result + "…"
    }

    /// Text padded with spaces (or cut) to exactly `width` columns.
    static func pad(_ text: String, to width: Int) -> String {
        let cut = truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - of(cut)))
    }

    // MARK: Fallback table

    /// Widths without a UTF-8 locale: combining and format characters take
    /// none, East Asian wide and fullwidth characters and emoji two.
    static func fallback(_ scalar: Unicode.Scalar) -> Int {
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format:
            return 0
        case .control, .lineSeparator, .paragraphSeparator, .surrogate:
            return 0
        default:
            break
        }
        let value = scalar.value
        if (0x1160...0x11FF).contains(value) { return 0 } // Hangul medial vowels and final consonants
        if properties.isEmojiPresentation { return 2 }
        for range in wideRanges where range.contains(value) { return 2 }
        return 1
    }

    static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
        0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
        0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
        0x16FE0...0x18AFF, 0x1B000...0x1B2FF, 0x1F200...0x1F2FF, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

extension DisplayWidth {
    /// Text in lines of at most `width` columns, broken at spaces where
    /// possible; the last line ends in "…" when more did not fit.
    static func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
        guard width > 0 else { return [""] }
        var lines: [String] = []
        for paragraph in TextSanitizer.lines(text) {
            var rest = DisplayWidth.glyphs(paragraph)
            while true {
                var used = 0
                var end = 0
                while end < rest.count, used + rest[end].width <= width {
                    used += rest[end].width
                    end += 1
                }
                if end < rest.count, let space = rest[..<end].lastIndex(where: { $0.text == " " }), space > 0 {
                    end = space + 1
                }
                lines.append(rest[..<end].map(\.text).joined().trimmingCharacters(in: .whitespaces))
                rest = Array(rest[end...])
                // A glyph wider than the column ends the paragraph.
                if rest.isEmpty || end == 0 { break }
            }
        }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = DisplayWidth.truncate(lines[maxLines - 1] + " …", to: width)
        }
        return lines.isEmpty ? [""] : lines
    }
}
