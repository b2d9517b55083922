/// A terminal color: the terminal's default, one of the 256 indexed colors,
/// or an RGB value (drawn as such on direct-color terminals, mapped to the
/// nearest indexed color elsewhere).
enum TermColor: Hashable, Sendable {
    case `default`
    case indexed(UInt8)
    case rgb(UInt8, UInt8, UInt8)

    /// "#rrggbb" as stored for list colors; nil when malformed.
    init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        self = .rgb(UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
}

struct TextAttributes: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    init(rawValue: UInt8) { self.rawValue = rawValue }

    static let bold = TextAttributes(rawValue: 1 << 0)
    static let dim = TextAttributes(rawValue: 1 << 1)
    static let underline = TextAttributes(rawValue: 1 << 2)
    static let reverse = TextAttributes(rawValue: 1 << 3)
    static let italic = TextAttributes(rawValue: 1 << 4)
}

struct Style: Hashable, Sendable {
    var foreground: TermColor
    var background: TermColor
    var attributes: TextAttributes

    init(foreground: TermColor = .default, background: TermColor = .default, attributes: TextAttributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    static let plain = Style()

    func with(_ extra: TextAttributes) -> Style {
        var copy = self
        copy.attributes.formUnion(extra)
        return copy
    }

    func on(_ background: TermColor) -> Style {
        var copy = self
        copy.background = background
        return copy
    }
}

/// One cell of the screen. A wide glyph takes its cell (width 2) and the
/// next one, which is left as a continuation (width 0, empty text).
struct Cell: Hashable, Sendable {
    var text: String
    var width: UInt8
    var style: Style

    init(text: String, width: UInt8 = 1, style: Style = .plain) {
        self.text = text
        self.width = width
        self.style = style
    }

    static let blank = Cell(text: " ")

    var isContinuation: Bool { width == 0 }
}

struct Rect: Hashable, Sendable {
    var row: Int
    var column: Int
    var width: Int
    var height: Int

    init(row: Int, column: Int, width: Int, height: Int) {
        self.row = row
        self.column = column
        self.width = max(0, width)
        self.height = max(0, height)
    }

    var bottom: Int { row + height }
    var right: Int { column + width }

    func contains(row r: Int, column c: Int) -> Bool {
        r >= row && r < bottom && c >= column && c < right
    }

    /// The rectangle shrunk by `by` cells on every side.
    func inset(_ by: Int) -> Rect {
        Rect(row: row + by, column: column + by, width: width - 2 * by, height: height - 2 * by)
    }
}

/// A piece of text with one style, for lines drawn from several parts.
struct Span: Hashable, Sendable {
    var text: String
    var style: Style

    init(_ text: String, _ style: Style = .plain) {
        self.text = text
        self.style = style
    }
}

/// What a screen draws into: a grid of cells that a terminal flushes and a
/// test reads back as text. All text goes through the sanitizer on its way
/// in, so nothing a screen draws can send an escape sequence.
struct CellBuffer: Equatable, Sendable {
    let width: Int
    let height: Int
    private(set) var cells: [Cell]
    /// Where the terminal cursor goes (a focused text field), if anywhere.
    var cursor: (row: Int, column: Int)? {
        get { cursorStorage.map { (row: $0.row, column: $0.column) } }
        set { cursorStorage = newValue.map { Position(row: $0.row, column: $0.column) } }
    }
    private var cursorStorage: Position?

    struct Position: Equatable, Sendable {
        var row: Int
        var column: Int
        init(row: Int, column: Int) {
            self.row = row
            self.column = column
        }
    }

    init(width: Int, height: Int, style: Style = .plain) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: Cell(text: " ", style: style), count: self.width * self.height)
    }

    var bounds: Rect { Rect(row: 0, column: 0, width: width, height: height) }

    subscript(row: Int, column: Int) -> Cell {
        get { cells[row * width + column] }
        set { cells[row * width + column] = newValue }
    }

    // MARK: Filling

    mutating func fill(_ rect: Rect, style: Style, character: String = " ") {
        let rows = max(0, rect.row)..<min(height, rect.bottom)
        let columns = max(0, rect.column)..<min(width, rect.right)
        guard !rows.isEmpty, !columns.isEmpty else { return }
        for row in rows {
            for column in columns {
                setGlyph(Glyph(text: character, width: 1), row: row, column: column, style: style)
            }
        }
    }

    /// Changes the style of cells without touching their text.
    mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        let rows = max(0, rect.row)..<min(height, rect.bottom)
        let columns = max(0, rect.column)..<min(width, rect.right)
        guard !rows.isEmpty, !columns.isEmpty else { return }
        for row in rows {
            for column in columns {
                change(&cells[row * width + column].style)
            }
        }
    }

    // MARK: Text

    /// Draws one line of text (sanitized; new lines become spaces) from
    /// `column`, cut with "…" to `maxWidth` columns (default: to the right
    /// edge). Returns the number of columns drawn.
    @discardableResult
    mutating func draw(_ text: String, row: Int, column: Int, maxWidth: Int? = nil, style: Style = .plain) -> Int {
        drawGlyphs(DisplayWidth.glyphs(TextSanitizer.line(text)), row: row, column: column, maxWidth: maxWidth, style: style)
    }

    /// Draws spans one after the other, cutting the whole line with "…".
    @discardableResult
    mutating func draw(_ spans: [Span], row: Int, column: Int, maxWidth: Int? = nil) -> Int {
        let limit = min(maxWidth ?? (width - column), width - column)
        guard limit > 0, row >= 0, row < height else { return 0 }
        var pieces: [(Glyph, Style)] = []
        for span in spans {
            for glyph in DisplayWidth.glyphs(TextSanitizer.line(span.text)) {
                pieces.append((glyph, span.style))
            }
        }
        let total = pieces.reduce(0) { $0 + $1.0.width }
        var used = 0
        let budget = total <= limit ? limit : limit - 1
        var lastStyle = spans.last?.style ?? .plain
        for (glyph, style) in pieces {
            if used + glyph.width > budget { break }
            setGlyph(glyph, row: row, column: column + used, style: style)
            used += glyph.width
            lastStyle = style
        }
        if total > limit {
            setGlyph(Glyph(text: "…", width: 1), row: row, column: column + used, style: lastStyle)
            used += 1
        }
        return used
    }

    /// Draws text in which search matches are wrapped in U+E000/U+E001,
    /// with the matches in `highlight`.
    @discardableResult
    mutating func drawMarked(_ text: String, row: Int, column: Int, maxWidth: Int? = nil,
                                    style: Style, highlight: Style) -> Int {
        draw(Self.markedSpans(text, style: style, highlight: highlight), row: row, column: column, maxWidth: maxWidth)
    }

    /// Splits snippet text on the match markers into plain and highlighted
    /// spans; an unclosed match runs to the end.
    static func markedSpans(_ text: String, style: Style, highlight: Style) -> [Span] {
        let clean = TextSanitizer.line(text, keepingMatchMarkers: true)
        var spans: [Span] = []
        var current = ""
        var inMatch = false
        for character in clean {
            if character == "\u{E000}" || character == "\u{E001}" {
                if !current.isEmpty { spans.append(Span(current, inMatch ? highlight : style)) }
                current = ""
                inMatch = character == "\u{E000}"
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { spans.append(Span(current, inMatch ? highlight : style)) }
        return spans
    }

    mutating func drawGlyphs(_ glyphs: [Glyph], row: Int, column: Int, maxWidth: Int?, style: Style) -> Int {
        let limit = min(maxWidth ?? (width - column), width - column)
        guard limit > 0, row >= 0, row < height, column >= 0 else { return 0 }
        let total = glyphs.reduce(0) { $0 + $1.width }
        let budget = total <= limit ? limit : limit - 1
        var used = 0
        for glyph in glyphs {
            if used + glyph.width > budget { break }
            setGlyph(glyph, row: row, column: column + used, style: style)
            used += glyph.width
        }
        if total > limit {
            setGlyph(Glyph(text: "…", width: 1), row: row, column: column + used, style: style)
            used += 1
        }
        return used
    }

    /// Puts a glyph, keeping wide glyphs whole: overwriting half of a wide
    /// glyph blanks its other half, and a wide glyph that would stick out
    /// of the right edge becomes a space.
    mutating func setGlyph(_ glyph: Glyph, row: Int, column: Int, style: Style) {
        guard row >= 0, row < height, column >= 0, column < width else { return }
        var glyph = glyph
        if glyph.width == 2, column + 1 >= width {
            glyph = Glyph(text: " ", width: 1)
        }
        let index = row * width + column
        // Overwriting the right half of a wide glyph: blank its left half.
        if cells[index].width == 0, column > 0 {
            cells[index - 1] = Cell(text: " ", width: 1, style: cells[index - 1].style)
        }
        // Overwriting the left half of a wide glyph with a narrow one: blank its right half.
        if cells[index].width == 2, glyph.width == 1, column + 1 < width {
            cells[index + 1] = Cell(text: " ", width: 1, style: cells[index + 1].style)
        }
        cells[index] = Cell(text: glyph.text, width: UInt8(glyph.width), style: style)
        if glyph.width == 2 {
            let next = index + 1
            if cells[next].width == 2, column + 2 < width {
                cells[next + 1] = Cell(text: " ", width: 1, style: cells[next + 1].style)
            }
            cells[next] = Cell(text: "", width: 0, style: style)
        }
    }

    // MARK: Boxes

    /// A rounded frame around `rect`, with an optional title on its top edge.
    mutating func frame(_ rect: Rect, style: Style, title: String? = nil, titleStyle: Style? = nil) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let top = rect.row, bottom = rect.bottom - 1, left = rect.column, right = rect.right - 1
        for column in (left + 1)..<right {
            setGlyph(Glyph(text: "─", width: 1), row: top, column: column, style: style)
            setGlyph(Glyph(text: "─", width: 1), row: bottom, column: column, style: style)
        }
        for row in (top + 1)..<bottom {
            setGlyph(Glyph(text: "│", width: 1), row: row, column: left, style: style)
            setGlyph(Glyph(text: "│", width: 1), row: row, column: right, style: style)
        }
        setGlyph(Glyph(text: "╭", width: 1), row: top, column: left, style: style)
        setGlyph(Glyph(text: "╮", width: 1), row: top, column: right, style: style)
        setGlyph(Glyph(text: "╰", width: 1), row: bottom, column: left, style: style)
        setGlyph(Glyph(text: "╯", width: 1), row: bottom, column: right, style: style)
        if let title, rect.width > 6 {
            draw(" \(title) ", row: top, column: left + 2, maxWidth: rect.width - 4, style: titleStyle ?? style)
        }
    }

    // MARK: Reading back

    /// The buffer as text, one string per row, trailing spaces removed: what
    /// snapshot tests compare.
    func textLines() -> [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width {
                let cell = cells[row * width + column]
                if cell.width > 0 { line += cell.text }
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// `textLines()` joined with new lines.
    var text: String { textLines().joined(separator: "\n") }

    /// Display columns of `row` whose style satisfies `predicate`, as the
    /// text they hold: lets tests check what is highlighted or colored.
    func text(row: Int, where predicate: (Style) -> Bool) -> String {
        var line = ""
        for column in 0..<width {
            let cell = cells[row * width + column]
            if cell.width > 0, predicate(cell.style) { line += cell.text }
        }
        return line
    }
}
