/// What the terminal can show, decided once at start-up.
enum ColorMode: Hashable, Sendable {
    /// NO_COLOR, or a terminal without colors: attributes only.
    case monochrome
    /// 8 or 16 colors: list colors map to the basic ones, covers become a
    /// placeholder.
    case basic(Int)
    /// xterm's 256 colors: RGB maps to the 6x6x6 cube and the gray ramp.
    case indexed256
    /// Direct color: RGB drawn as is.
    case direct

    /// Decides from what the terminal reports.
    /// - Parameters:
    ///   - colors: ncurses' COLORS after `start_color` (2^24 for direct-color terminfo entries).
    ///   - hasColors: ncurses' `has_colors()`.
    ///   - hasDirectFlag: terminfo's `RGB` or `Tc` flag.
    ///   - environment: for NO_COLOR.
    static func detect(colors: Int, hasColors: Bool, hasDirectFlag: Bool, environment: [String: String]) -> ColorMode {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        guard hasColors, colors >= 8 else { return .monochrome }
        // ncurses can only emit 24-bit colors through a terminfo entry that
        // describes them (colors#0x1000000 with RGB, e.g. xterm-direct);
        // under xterm-256color, COLORTERM=truecolor or Tc alone do not
        // change what it sends, so those terminals get the 256-color cube.
        if colors >= 1 << 24, hasDirectFlag { return .direct }
        if colors >= 256 { return .indexed256 }
        return .basic(colors)
    }

    var hasColor: Bool { self != .monochrome }

    /// Whether a cover image can be drawn (otherwise a placeholder is).
    var canDrawImages: Bool {
        switch self {
        case .indexed256, .direct: true
        case .monochrome, .basic: false
        }
    }
}

/// Maps RGB to xterm's 256-color palette, which is the same in every
/// terminal for indexes 16-255: a 6x6x6 cube and a 24-step gray ramp.
enum XtermPalette {
    /// The channel values of the cube's six steps.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// The nearest of indexes 16-255 (the first 16 are left alone: users
    /// theme them).
    static func nearestIndex(r: UInt8, g: UInt8, b: UInt8) -> UInt8 {
        let r = Int(r), g = Int(g), b = Int(b)
        let ri = nearestCubeStep(r), gi = nearestCubeStep(g), bi = nearestCubeStep(b)
        let cubeIndex = 16 + 36 * ri + 6 * gi + bi
        let cubeDistance = distance(r, g, b, cubeLevels[ri], cubeLevels[gi], cubeLevels[bi])
        // Gray ramp: 8, 18, ..., 238.
        let average = (r + g + b) / 3
        let grayStep = min(23, max(0, (average - 8 + 5) / 10))
        let grayLevel = 8 + 10 * grayStep
        let grayDistance = distance(r, g, b, grayLevel, grayLevel, grayLevel)
        return UInt8(grayDistance < cubeDistance ? 232 + grayStep : cubeIndex)
    }

    /// The RGB value xterm shows for an index from 16 to 255.
    static func rgb(ofIndex index: UInt8) -> (r: Int, g: Int, b: Int) {
        let index = Int(index)
        if index >= 232 {
            let level = 8 + 10 * (index - 232)
            return (level, level, level)
        }
        if index >= 16 {
            let value = index - 16
            return (cubeLevels[value / 36], cubeLevels[value / 6 % 6], cubeLevels[value % 6])
        }
        return basicColors[index]
    }

    static func nearestCubeStep(_ value: Int) -> Int {
        if value < 48 { return 0 }
        if value < 115 { return 1 }
        return min(5, (value - 35) / 40)
    }

    /// Squared distance weighted for how the eye sees red, green and blue.
    static func distance(_ r1: Int, _ g1: Int, _ b1: Int, _ r2: Int, _ g2: Int, _ b2: Int) -> Int {
        let dr = r1 - r2, dg = g1 - g2, db = b1 - b2
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    /// xterm's defaults for the first 16 colors, used only to pick the
    /// nearest basic color on 8/16-color terminals.
    static let basicColors: [(r: Int, g: Int, b: Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The nearest of the first `count` (8 or 16) colors, by hue rather
    /// than brightness so that a dark blue list stays blue.
    static func nearestBasic(r: UInt8, g: UInt8, b: UInt8, count: Int) -> UInt8 {
        let r = Int(r), g = Int(g), b = Int(b)
        let maxChannel = max(r, g, b), minChannel = min(r, g, b)
        if maxChannel - minChannel < 40 {
            // Grays: white, light gray (7), dark gray (8 if available) or black.
            if maxChannel > 200 { return count > 8 ? 15 : 7 }
            if maxChannel > 110 { return 7 }
            return count > 8 ? 8 : 0
        }
        // Pick the basic hue whose channels are "on" where this color is strong.
        let threshold = (maxChannel + minChannel) / 2
        let bits = (r > threshold ? 1 : 0) | (g > threshold ? 2 : 0) | (b > threshold ? 4 : 0)
        let base = UInt8(bits == 0 ? 7 : bits)
        return count > 8 && maxChannel > 200 ? base + 8 : base
    }

    /// A color as the terminal can draw it in `mode`; nil means "leave the
    /// terminal's default".
    static func resolve(_ color: TermColor, mode: ColorMode) -> TermColor {
        switch (color, mode) {
        case (.default, _), (_, .monochrome):
            return .default
        case (.indexed(let index), .basic(let count)):
            if Int(index) < count { return color }
            let rgb = rgb(ofIndex: index)
            return .indexed(nearestBasic(r: UInt8(rgb.r), g: UInt8(rgb.g), b: UInt8(rgb.b), count: count))
        case (.indexed, _):
            return color
        case (.rgb(let r, let g, let b), .basic(let count)):
            return .indexed(nearestBasic(r: r, g: g, b: b, count: count))
        case (.rgb(let r, let g, let b), .indexed256):
            return .indexed(nearestIndex(r: r, g: g, b: b))
        case (.rgb, .direct):
            return color
        }
    }
}
