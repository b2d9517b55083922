/// The styles screens draw with, for a color mode. With NO_COLOR every style
/// keeps only its attributes (bold, reverse, …), so selection and emphasis
/// still show.
struct Theme: Sendable {
    let mode: ColorMode

    init(mode: ColorMode) {
        self.mode = mode
    }

    var colored: Bool { mode.hasColor }

    private func style(_ foreground: TermColor, _ attributes: TextAttributes = [], background: TermColor = .default) -> Style {
        colored ? Style(foreground: foreground, background: background, attributes: attributes) : Style(attributes: attributes)
    }

    var text: Style { .plain }
    /// Gray on 256-color terminals; the dim attribute where gray is not
    /// available (few colors, NO_COLOR).
    var dim: Style { style(.indexed(245), mode.canDrawImages ? [] : [.dim]) }
    var heading: Style { style(.indexed(250), [.bold]) }
    var title: Style { Style(attributes: [.bold]) }
    var border: Style { style(.indexed(240)) }
    var accent: Style { style(.indexed(75), [.bold]) }
    var danger: Style { style(.indexed(203), colored ? [] : [.bold]) }
    var warning: Style { style(.indexed(214)) }
    var success: Style { style(.indexed(114)) }
    var priority: Style { style(.indexed(209), [.bold]) }
    var flag: Style { style(.indexed(214)) }
    var tag: Style { style(.indexed(110)) }
    var match: Style { colored ? Style(foreground: .indexed(16), background: .indexed(222), attributes: [.bold]) : Style(attributes: [.underline, .bold]) }
    var topBar: Style { colored ? Style(foreground: .indexed(252), background: .indexed(236)) : Style(attributes: [.reverse]) }
    var statusBar: Style { colored ? Style(foreground: .indexed(250), background: .indexed(236)) : Style(attributes: [.reverse]) }
    var statusKey: Style { colored ? Style(foreground: .indexed(229), background: .indexed(236), attributes: [.bold]) : Style(attributes: [.reverse, .bold]) }
    var toast: Style { colored ? Style(foreground: .indexed(16), background: .indexed(151)) : Style(attributes: [.reverse, .bold]) }
    var toastError: Style { colored ? Style(foreground: .indexed(231), background: .indexed(160), attributes: [.bold]) : Style(attributes: [.reverse, .bold]) }
    var field: Style { colored ? Style(background: .indexed(236)) : Style(attributes: [.underline]) }
    var focusedField: Style { colored ? Style(background: .indexed(238)) : Style(attributes: [.underline, .bold]) }
    var label: Style { style(.indexed(250)) }
    var focusedLabel: Style { style(.indexed(75), [.bold]) }
    var button: Style { colored ? Style(background: .indexed(238)) : Style() }
    var focusedButton: Style { colored ? Style(foreground: .indexed(231), background: .indexed(25), attributes: [.bold]) : Style(attributes: [.reverse, .bold]) }
    var dialog: Style { colored ? Style(background: .indexed(235)) : Style() }

    /// The selected row: a bar across the row. Text keeps its own colors
    /// where it has one; plain text becomes bright.
    func select(_ buffer: inout CellBuffer, _ rect: Rect) {
        if colored {
            buffer.restyle(rect) { style in
                style.background = .indexed(24)
                if style.foreground == .default { style.foreground = .indexed(231) }
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
