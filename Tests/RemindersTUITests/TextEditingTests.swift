import Testing
@testable import RemindersTUI

@Suite struct TextFieldTests {
    @Test func editingKeysMoveAndDelete() {
        var field = TextField("buy milk")
        field.apply(.deleteWord)
        #expect(field.text == "buy ")
        field.insert("oat")
        field.apply(.lineStart)
        field.apply(.deleteForward)
        #expect(field.text == "uy oat")
        field.apply(.cursorRight)
        field.apply(.deleteToEnd)
        #expect(field.text == "u")
        field.apply(.lineEnd)
        field.apply(.deleteToStart)
        #expect(field.isEmpty)
    }

    @Test func controlCharactersCannotBeTyped() {
        var field = TextField()
        field.insert("a\u{1B}[31mb\u{202E}c")
        #expect(field.text == "a[31mbc")
    }

    @Test func aLongTextScrollsToKeepTheCursorVisible() {
        var buffer = CellBuffer(width: 10, height: 1)
        let field = TextField("abcdefghijklmnop")
        field.draw(into: &buffer, row: 0, column: 0, width: 10, style: .plain, focused: true)
        #expect(buffer.text == "hijklmnop")
        #expect(buffer.cursor?.column == 9)
    }

    @Test func theCursorCountsWideCharactersAsTwoColumns() {
        var buffer = CellBuffer(width: 20, height: 1)
        let field = TextField("東京")
        field.draw(into: &buffer, row: 0, column: 2, width: 10, style: .plain, focused: true)
        #expect(buffer.cursor?.column == 6)
    }
}

@Suite struct TextAreaTests {
    @Test func longLinesWrapAtSpaces() {
        let area = TextArea("the quick brown fox jumps")
        let rows = area.visualRows(width: 10)
        #expect(rows.map { String(area.lines[$0.line][$0.start..<$0.end]) } == ["the quick ", "brown fox ", "jumps"])
    }

    @Test func aWordLongerThanTheWidthIsCut() {
        let area = TextArea("abcdefghijkl")
        #expect(area.visualRows(width: 5).map { $0.end - $0.start } == [5, 5, 2])
    }

    @Test func upAndDownMoveByVisualRowsThenLeaveTheField() {
        var area = TextArea("first line\nsecond")
        #expect(area.line == 1)
        let up = area.apply(.lineUp, width: 20)
        #expect(up)
        #expect(area.line == 0)
        #expect(area.column == 6)
        let pastTop = area.apply(.lineUp, width: 20)
        #expect(!pastTop)
        let down = area.apply(.lineDown, width: 20)
        #expect(down)
        let pastBottom = area.apply(.lineDown, width: 20)
        #expect(!pastBottom)
    }

    @Test func backspaceAtTheStartOfALineJoinsIt() {
        var area = TextArea("one\ntwo")
        area.apply(.lineStart, width: 20)
        area.apply(.deleteBackward, width: 20)
        #expect(area.text == "onetwo")
        area.newline()
        #expect(area.text == "one\ntwo")
    }

    @Test func drawingScrollsToTheCursor() {
        var area = TextArea("1\n2\n3\n4\n5")
        area.scrollToCursor(width: 10, height: 2)
        var buffer = CellBuffer(width: 10, height: 2)
        area.draw(into: &buffer, rect: buffer.bounds, style: .plain, focused: true)
        #expect(buffer.textLines() == ["4", "5"])
        #expect(buffer.cursor?.row == 1)
        #expect(buffer.cursor?.column == 1)
    }
}
