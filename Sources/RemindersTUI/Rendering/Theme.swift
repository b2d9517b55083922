/// The styles screens draw with, for a color mode. With NO_COLOR every style
/// keeps only its attributes (bold, reverse, …), so selection and emphasis
/// still show.
struct Theme: Sendable {
    let mode: ColorMode
    /// The user's colours, role by role, over the ones below.
    let colors: ThemeColors

    init(mode: ColorMode, colors: ThemeColors = .standard) {
        self.mode = mode
        self.colors = colors
    }

    var colored: Bool { mode.hasColor }

    private func style(_ foreground: TermColor, _ attributes: TextAttributes = [], background: TermColor = .default) -> Style {
        colored ? Style(foreground: foreground, background: background, attributes: attributes) : Style(attributes: attributes)
    }

    /// A role's style with the user's colours for it, where the terminal
    /// shows colour at all.
    private func role(_ role: ThemeRole, _ base: Style) -> Style {
        guard colored, let choice = colors.choice(for: role, mode: mode) else { return base }
        var style = base
        if let foreground = choice.foreground { style.foreground = foreground }
        if let background = choice.background { style.background = background }
        return style
    }

    var text: Style { role(.text, .plain) }
    /// Gray on 256-color terminals; the dim attribute where gray is not
    /// available (few colors, NO_COLOR).
    var dim: Style { role(.dim, style(.indexed(245), mode.canDrawImages ? [] : [.dim])) }
    var heading: Style { role(.heading, style(.indexed(250), [.bold])) }
    var title: Style { role(.title, Style(attributes: [.bold])) }
    var border: Style { role(.border, style(.indexed(240))) }
    var accent: Style { role(.accent, style(.indexed(75), [.bold])) }
    var danger: Style { role(.danger, style(.indexed(203), colored ? [] : [.bold])) }
    var warning: Style { role(.warning, style(.indexed(214))) }
    var success: Style { role(.success, style(.indexed(114))) }
    var priority: Style { role(.priority, style(.indexed(209), [.bold])) }
    var flag: Style { role(.flag, style(.indexed(214))) }
    var tag: Style { role(.tag, style(.indexed(110))) }
    var match: Style { role(.match, colored ? Style(foreground: .indexed(16), background: .indexed(222), attributes: [.bold]) : Style(attributes: [.underline, .bold])) }
    var topBar: Style { role(.topBar, colored ? Style(foreground: .indexed(252), background: .indexed(236)) : Style(attributes: [.reverse])) }
    var statusBar: Style { role(.statusBar, colored ? Style(foreground: .indexed(250), background: .indexed(236)) : Style(attributes: [.reverse])) }
    var statusKey: Style { role(.statusKey, colored ? Style(foreground: .indexed(229), background: .indexed(236), attributes: [.bold]) : Style(attributes: [.reverse, .bold])) }
    var toast: Style { role(.toast, colored ? Style(foreground: .indexed(16), background: .indexed(151)) : Style(attributes: [.reverse, .bold])) }
    var toastError: Style { role(.toastError, colored ? Style(foreground: .indexed(231), background: .indexed(160), attributes: [.bold]) : Style(attributes: [.reverse, .bold])) }
    var field: Style { role(.field, colored ? Style(background: .indexed(236)) : Style(attributes: [.underline])) }
    var focusedField: Style { role(.focusedField, colored ? Style(background: .indexed(238)) : Style(attributes: [.underline, .bold])) }
    var label: Style { role(.label, style(.indexed(250))) }
    var focusedLabel: Style { role(.focusedLabel, style(.indexed(75), [.bold])) }
    var button: Style { role(.button, colored ? Style(background: .indexed(238)) : Style()) }
    var focusedButton: Style { role(.focusedButton, colored ? Style(foreground: .indexed(231), background: .indexed(25), attributes: [.bold]) : Style(attributes: [.reverse, .bold])) }
    var dialog: Style { role(.dialog, colored ? Style(background: .indexed(235)) : Style()) }

    /// The selected row: a bar across the row. Text keeps its own colors
    /// where it has one; plain text becomes bright.
    func select(_ buffer: inout CellBuffer, _ rect: Rect) {
        if colored {
            let choice = colors.choice(for: .selection, mode: mode)
            let background = choice?.background ?? .indexed(24)
            let foreground = choice?.foreground ?? .indexed(231)
            buffer.restyle(rect) { style in
                style.background = background
                if style.foreground == .default { style.foreground = foreground }
            }
        } else {
            buffer.restyle(rect) { style in style.attributes.insert(.reverse) }
        }
    }

    /// A list's color ("#rrggbb") as a text style.
    func listColor(_ hex: String, _ attributes: TextAttributes = []) -> Style {
        guard colored, let color = TermColor(hex: hex) else { return Style(attributes: attributes) }
        return Style(foreground: color, attributes: attributes)
    }
}
