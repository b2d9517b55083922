/// Draws a framed box centered in `area` and returns its inside.
func drawDialog(_ buffer: inout CellBuffer, area: Rect, width: Int, height: Int, title: String, theme: Theme) -> Rect {
    let width = min(width, area.width - 2)
    let height = min(height, area.height)
    let rect = Rect(row: area.row + max(0, (area.height - height) / 2), column: area.column + max(0, (area.width - width) / 2),
                    width: width, height: height)
    buffer.fill(rect, style: theme.dialog)
    var frameStyle = theme.border
    frameStyle.background = theme.dialog.background
    var titleStyle = theme.title
    titleStyle.background = theme.dialog.background
    buffer.frame(rect, style: frameStyle, title: title, titleStyle: titleStyle)
    return Rect(row: rect.row + 1, column: rect.column + 2, width: rect.width - 4, height: rect.height - 2)
}

extension Theme {
    /// A style drawn on a dialog's background.
    func onDialog(_ style: Style) -> Style {
        var copy = style
        if copy.background == .default { copy.background = dialog.background }
        return copy
    }
}
