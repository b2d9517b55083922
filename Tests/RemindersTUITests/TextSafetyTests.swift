import Testing
@testable import RemindersTUI
import CNcurses

/// wcwidth needs a UTF-8 locale, as the app sets before starting ncurses.
private let utf8Locale: Bool = {
    _ = reminders_force_utf8_ctype()
    return true
}()

@Suite struct SanitizerTests {
    @Test func escapeSequencesAreRemoved() {
        #expect(TextSanitizer.line("\u{1B}[31mred\u{1B}[0m") == "[31mred[0m")
        #expect(TextSanitizer.line("bell\u{07} and null\u{00}") == "bell and null")
    }

    @Test func c1ControlsAndDeleteAreRemoved() {
        // U+009B is CSI on its own: a terminal would start a sequence.
        #expect(TextSanitizer.line("a\u{9B}31mb\u{7F}c\u{85}d") == "a31mbcd")
    }

    @Test func bidiOverridesAndIsolatesAreRemoved() {
        let spoof = "invoice\u{202E}fdp.exe"
        #expect(TextSanitizer.line(spoof) == "invoicefdp.exe")
        #expect(TextSanitizer.line("\u{2066}a\u{2067}b\u{2068}c\u{2069}\u{202A}\u{202B}\u{202C}\u{202D}") == "abc")
    }

    @Test func newLinesAndTabsBecomeSpaces() {
        #expect(TextSanitizer.line("one\ntwo\tthree\r\nfour") == "one two three  four")
    }

    @Test func privateUseIsRemovedUnlessItIsAMatchMarker() {
        let text = "a\u{E000}b\u{E001}c\u{E123}d\u{F8FF}"
        #expect(TextSanitizer.line(text) == "abcd")
        #expect(TextSanitizer.line(text, keepingMatchMarkers: true) == "a\u{E000}b\u{E001}cd")
    }

    @Test func ordinaryTextIsUntouched() {
        let text = "Café 東京 שלום مرحبا 👍 e\u{301}"
        #expect(TextSanitizer.line(text) == text)
    }

    /// Printable ASCII takes the short way through, and the characters on
    /// either side of it (a control, DEL) still do not.
    @Test func printableASCIIIsKeptAndItsNeighboursAreNot() {
        let printable = String((0x20...0x7E).map { Character(Unicode.Scalar(UInt8($0))) })
        #expect(TextSanitizer.line(printable) == printable)
        #expect(TextSanitizer.line("a\u{1F}b\u{7F}c") == "abc")
        #expect(TextSanitizer.line("tab\there") == "tab here")
    }

    @Test func firstLineSkipsBlankLines() {
        #expect(TextSanitizer.firstLine("\n  \nSecond line\nthird") == "Second line")
        #expect(TextSanitizer.firstLine("") == "")
    }

    @Test func linesSplitOnEveryKindOfNewLine() {
        #expect(TextSanitizer.lines("a\r\nb\rc\nd\u{2028}e") == ["a", "b", "c", "d", "e"])
    }
}

@Suite struct DisplayWidthTests {
    init() { _ = utf8Locale }

    @Test func asciiIsOneColumnEach() {
        #expect(DisplayWidth.of("hello") == 5)
    }

    @Test func cjkIsTwoColumnsEach() {
        #expect(DisplayWidth.of("東京") == 4)
        #expect(DisplayWidth.glyphs("東京").map(\.width) == [2, 2])
    }

    @Test func combiningAccentsAttachToTheirLetter() {
        let glyphs = DisplayWidth.glyphs("e\u{301}te\u{301}")
        #expect(glyphs.map(\.text) == ["e\u{301}", "t", "e\u{301}"])
        #expect(DisplayWidth.of("e\u{301}te\u{301}") == 3)
    }

    @Test func emojiAreTwoColumns() {
        #expect(DisplayWidth.of("👍") == 2)
    }

    @Test func joinedEmojiAreDrawnAsTheirParts() {
        // Terminals disagree on ZWJ sequences; drawing the parts keeps every
        // column where the app expects it.
        let family = "👨\u{200D}👩\u{200D}👧"
        #expect(DisplayWidth.glyphs(family).map(\.text) == ["👨", "👩", "👧"])
        #expect(DisplayWidth.of(family) == 6)
        #expect(DisplayWidth.glyphs("❤\u{FE0F}").map(\.text) == ["❤"])
    }

    @Test func rightToLeftTextIsMeasuredByItsCharacters() {
        #expect(DisplayWidth.of("שלום") == 4)
        #expect(DisplayWidth.of("مرحبا") == 5)
    }

    @Test func fallbackTableAgreesWithLibcOnCommonText() {
        for scalar in "aé東👍\u{301}שع".unicodeScalars {
            #expect(DisplayWidth.fallback(scalar) == DisplayWidth.of(scalar), "\(scalar)")
        }
    }

    @Test func truncateCutsByColumnsWithAnEllipsis() {
        #expect(DisplayWidth.truncate("Groceries", to: 20) == "Groceries")
        #expect(DisplayWidth.truncate("Groceries", to: 5) == "Groc…")
        // A wide character that does not fit is left out whole.
        #expect(DisplayWidth.truncate("東京タワー", to: 6) == "東京…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("東京タワー", to: 6)) == 5)
        #expect(DisplayWidth.truncate("abc", to: 0) == "")
    }
}

@Suite struct CellBufferTests {
    init() { _ = utf8Locale }

    @Test func wideCharactersTakeTwoCells() {
        var buffer = CellBuffer(width: 10, height: 1)
        let used = buffer.draw("a東b", row: 0, column: 0)
        #expect(used == 4)
        #expect(buffer[0, 1].text == "東")
        #expect(buffer[0, 1].width == 2)
        #expect(buffer[0, 2].isContinuation)
        #expect(buffer.text == "a東b")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var buffer = CellBuffer(width: 6, height: 1)
        buffer.draw("東京", row: 0, column: 0)
        buffer.draw("x", row: 0, column: 1)
        #expect(buffer.text == " x京")
        buffer.draw("y", row: 0, column: 2)
        #expect(buffer.text == " xy")
        #expect(!buffer[0, 3].isContinuation)
    }

    @Test func aWideCharacterNeverSticksOutOfTheRightEdge() {
        var buffer = CellBuffer(width: 3, height: 1)
        buffer.setGlyph(Glyph(text: "東", width: 2), row: 0, column: 2, style: .plain)
        #expect(buffer[0, 2].width == 1)
        #expect(buffer.text == "")
    }

    @Test func textIsCutWithAnEllipsisAtTheLimit() {
        var buffer = CellBuffer(width: 20, height: 1)
        let used = buffer.draw("Prepare sprint demo", row: 0, column: 0, maxWidth: 10)
        #expect(used == 10)
        #expect(buffer.text == "Prepare s…")
    }

    @Test func escapeSequencesNeverReachTheBuffer() {
        var buffer = CellBuffer(width: 30, height: 1)
        buffer.draw("\u{1B}]0;pwned\u{07}title\u{1B}[2J", row: 0, column: 0)
        #expect(!buffer.cells.contains { $0.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
        #expect(buffer.text == "]0;pwnedtitle[2J")
    }

    @Test func matchMarkersBecomeHighlightedSpans() {
        let highlight = Style(attributes: [.reverse])
        var buffer = CellBuffer(width: 30, height: 1)
        buffer.drawMarked("Buy \u{E000}milk\u{E001} today", row: 0, column: 0, style: .plain, highlight: highlight)
        #expect(buffer.text == "Buy milk today")
        #expect(buffer.text(row: 0) { $0 == highlight } == "milk")
    }

    @Test func spansAreCutAsOneLine() {
        var buffer = CellBuffer(width: 12, height: 1)
        buffer.draw([Span("[ ] "), Span("Renew passport", Style(attributes: [.bold]))], row: 0, column: 0)
        #expect(buffer.text == "[ ] Renew p…")
    }
}
