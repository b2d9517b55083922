/// Keeps a selected row visible: the first row to show, given where the
/// selected item's lines are.
enum Scrolling {
    static func top(current: Int, selectedStart: Int, selectedEnd: Int, viewport: Int, total: Int) -> Int {
        guard viewport > 0 else { return 0 }
        var top = current
        if selectedEnd > top + viewport { top = selectedEnd - viewport }
        if selectedStart < top { top = selectedStart }
        return max(0, min(top, max(0, total - viewport)))
    }
}
