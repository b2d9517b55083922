/// The parts of the screen a colour can be set for, as the config file's
/// `[colors]` table names them (`status-bar`, `focused-field`).
enum ThemeRole: String, CaseIterable, Sendable {
    case text, dim, heading, title, border, accent, danger, warning, success, priority, flag, tag, match
    case topBar, statusBar, statusKey, toast, toastError, field, focusedField, label, focusedLabel
    case button, focusedButton, dialog, selection

    var configName: String { ConfigNames.kebab(rawValue) }
}

/// One entry of the config file's `[colors]` (or `[colors.fallback]`):
/// a role's foreground and background as the file writes them.
public struct ColorSetting: Sendable, Hashable {
    /// The role's name ("accent", "status-bar").
    public var role: String
    /// "#rrggbb", an xterm colour number 0-255, a name of the 16 basic
    /// colours ("red", "bright-blue") or "default"; nil keeps the app's.
    public var foreground: String?
    public var background: String?
    /// From `[colors.fallback]`: for terminals with 8 or 16 colours, where
    /// only the 16 basic colours may be named.
    public var isFallback: Bool
    /// The entry's line in the file, for errors.
    public var line: Int?

    public init(role: String, foreground: String?, background: String? = nil, isFallback: Bool = false, line: Int? = nil) {
        self.role = role
        self.foreground = foreground
        self.background = background
        self.isFallback = isFallback
        self.line = line
    }
}

/// The user's colours, role by role. On a terminal with 256 colours or
/// more the `[colors]` ones are drawn (RGB becomes the nearest of the 256
/// where the terminal has no direct colour); with 8 or 16 colours a role's
/// `[colors.fallback]` colour is drawn, or else its `[colors]` one mapped
/// to the nearest basic colour. NO_COLOR keeps every role colourless.
public struct ThemeColors: Sendable, Equatable {
    struct Choice: Sendable, Equatable {
        var foreground: TermColor?
        var background: TermColor?
    }

    private var full: [ThemeRole: Choice] = [:]
    private var fallback: [ThemeRole: Choice] = [:]

    public static let standard = ThemeColors()

    private init() {}

    /// - Throws: `CustomizationError` for an unknown role or a colour that
    ///   is not one, naming the entry's line.
    public init(_ settings: [ColorSetting]) throws(CustomizationError) {
        for setting in settings {
            let table = setting.isFallback ? "[colors.fallback]" : "[colors]"
            guard let role = ThemeRole.allCases.first(where: { $0.configName == setting.role }) else {
                throw CustomizationError(line: setting.line, message: "\(table) names no role “\(setting.role)” (roles: \(ThemeRole.allCases.map(\.configName).joined(separator: ", ")))")
            }
            func parse(_ text: String?) throws(CustomizationError) -> TermColor? {
                guard let text else { return nil }
                guard let color = Self.color(text) else {
                    throw CustomizationError(line: setting.line, message: "\(table) \(setting.role): “\(text)” is not a colour (#rrggbb, 0-255, a name such as red or bright-blue, or default)")
                }
                if setting.isFallback, case .indexed(let index) = color, index > 15 {
                    throw CustomizationError(line: setting.line, message: "\(table) \(setting.role): “\(text)” is not one of the 16 basic colours (black, red, green, yellow, blue, magenta, cyan, white, their bright- forms, or 0-15)")
                }
                if setting.isFallback, case .rgb = color {
                    throw CustomizationError(line: setting.line, message: "\(table) \(setting.role): “\(text)” is not one of the 16 basic colours (black, red, green, yellow, blue, magenta, cyan, white, their bright- forms, or 0-15)")
                }
                return color
            }
            let choice = Choice(foreground: try parse(setting.foreground), background: try parse(setting.background))
            if setting.isFallback {
                fallback[role] = choice
            } else {
                full[role] = choice
            }
        }
    }

    /// The user's colours for a role in a colour mode, nil for the app's own.
    func choice(for role: ThemeRole, mode: ColorMode) -> Choice? {
        if case .basic = mode, let choice = fallback[role] { return choice }
        return full[role]
    }

    static let basicNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// A colour as the config file writes it.
    static func color(_ text: String) -> TermColor? {
        let name = text.lowercased().replacingOccurrences(of: "_", with: "-")
        if name == "default" { return .default }
        if name.hasPrefix("#") { return TermColor(hex: name) }
        if let number = Int(name) { return (0...255).contains(number) ? .indexed(UInt8(number)) : nil }
        if let index = basicNames.firstIndex(of: name) { return .indexed(UInt8(index)) }
        if name.hasPrefix("bright-"), let index = basicNames.firstIndex(of: String(name.dropFirst("bright-".count))) {
            return .indexed(UInt8(index + 8))
        }
        if name == "gray" || name == "grey" { return .indexed(8) }
        return nil
    }
}
