/// The styles screens draw with, for a color mode. With NO_COLOR every style
/// keeps only its attributes (bold, reverse, …), so selection and emphasis
/// still show.
public struct Theme: Sendable {
    public let mode: ColorMode

    public init(mode: ColorMode) {
        self.mode = mode
    }

    var colored: Bool { mode.hasColor }

    private func style(_ foreground: TermColor, _ attributes: TextAttributes = [], background: TermColor = .default) -> Style {
        colored ? Style(foreground: foreground, background: background, attributes: attributes) : Style(attributes: attributes)
    }

    public var text: Style { .plain }
    /// Gray on 256-color terminals; the dim attribute where gray is not
    /// available (few colors, NO_COLOR).
    public var dim: Style { style(.indexed(245), mode.canDrawImages ? [] : [.dim]) }
    public var heading: Style { style(.indexed(250), [.bold]) }
    public var title: Style { Style(attributes: [.bold]) }
    public var border: Style { style(.indexed(240)) }
    public var accent: Style { style(.indexed(75), [.bold]) }
    public var danger: Style { style(.indexed(203), colored ? [] : [.bold]) }
    public var warning: Style { style(.indexed(214)) }
    public var success: Style { style(.indexed(114)) }
    public var priority: Style { style(.indexed(209), [.bold]) }
    public var flag: Style { style(.indexed(214)) }
    public var tag: Style { style(.indexed(110)) }
    public var match: Style { colored ? Style(foreground: .indexed(16), background: .indexed(222), attributes: [.bold]) : Style(attributes: [.underline, .bold]) }
    public var topBar: Style { colored ? Style(foreground: .indexed(252), background: .indexed(236)) : Style(attributes: [.reverse]) }
    public var statusBar: Style { colored ? Style(foreground: .indexed(250), background: .indexed(236)) : Style(attributes: [.reverse]) }
    public var statusKey: Style { colored ? Style(foreground: .indexed(229), background: .indexed(236), attributes: [.bold]) : Style(attributes: [.reverse, .bold]) }
    public var toast: Style { colored ? Style(foreground: .indexed(16), background: .indexed(151)) : Style(attributes: [.reverse, .bold]) }
    public var toastError: Style { colored ? Style(foreground: .indexed(231), background: .indexed(160), attributes: [.bold]) : Style(attributes: [.reverse, .bold]) }
    public var field: Style { colored ? Style(background: .indexed(236)) : Style(attributes: [.underline]) }
    public var focusedField: Style { colored ? Style(background: .indexed(238)) : Style(attributes: [.underline, .bold]) }
    public var label: Style { style(.indexed(250)) }
    public var focusedLabel: Style { style(.indexed(75), [.bold]) }
    public var button: Style { colored ? Style(background: .indexed(238)) : Style() }
    public var focusedButton: Style { colored ? Style(foreground: .indexed(231), background: .indexed(25), attributes: [.bold]) : Style(attributes: [.reverse, .bold]) }
    public var dialog: Style { colored ? Style(background: .indexed(235)) : Style() }

    /// The selected row: a bar across the row. Text keeps its own colors
    /// where it has one; plain text becomes bright.
    public func select(_ buffer: inout CellBuffer, _ rect: Rect) {
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
    public func listColor(_ hex: String, _ attributes: TextAttributes = []) -> Style {
        guard colored, let color = TermColor(hex: hex) else { return Style(attributes: attributes) }
        return Style(foreground: color, attributes: attributes)
    }
}
