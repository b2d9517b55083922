import ICalendar
import Testing
import TestSupport

@Suite struct ParserTests {
    func parse(_ text: String) throws -> [ICalComponent] {
        try ICalParser.parse(Array(text.utf8))
    }

    func error(_ text: String) -> ICalError? {
        do {
            _ = try ICalParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func readsComponentsPropertiesAndParameters() throws {
        let calendars = try parse("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VTODO\r
            UID:1\r
            SUMMARY;LANGUAGE=en;X-A="a;b:c",d:Buy milk\\, eggs\\; bread\\nand\\\\more\r
            BEGIN:VALARM\r
            TRIGGER;RELATED=END:-PT15M\r
            END:VALARM\r
            END:VTODO\r
            END:VCALENDAR\r

            """)
        #expect(calendars.count == 1)
        let todo = try #require(calendars[0].components.first)
        #expect(todo.name == "VTODO")
        let summary = try #require(todo.property("summary"))
        #expect(summary.text == "Buy milk, eggs; bread\nand\\more")
        #expect(summary.parameter("LANGUAGE") == "en")
        #expect(summary.parameters[1].values == ["a;b:c", "d"])
        #expect(summary.line == 5)
        #expect(todo.components.first?.property("TRIGGER")?.parameter("related") == "END")
    }

    @Test func unfoldsLinesEvenInsideAUTF8Sequence() throws {
        // "é" is C3 A9; fold between its two bytes, with LF line ends.
        var bytes = Array("BEGIN:VCALENDAR\nX-T:caf".utf8) + [0xC3, 0x0A, 0x20, 0xA9]
        bytes += Array(" au\n\tlait\nEND:VCALENDAR\n".utf8)
        let calendars = try ICalParser.parse(bytes)
        #expect(calendars[0].property("X-T")?.text == "café aulait")
    }

    @Test func caretEncodingInParameters() throws {
        let calendars = try parse("BEGIN:VCALENDAR\r\nX-A;X-P=\"say ^'hi^' ^^ ^n\":v\r\nEND:VCALENDAR\r\n")
        #expect(calendars[0].property("X-A")?.parameter("X-P") == "say \"hi\" ^ \n")
    }

    @Test func namesEachProblemWithItsLine() {
        #expect(error("hello\r\n")?.description == "line 1: not iCalendar: it does not start with BEGIN:VCALENDAR")
        #expect(error("BEGIN:VCARD\r\nEND:VCARD\r\n")?.message.contains("not iCalendar") == true)
        #expect(error("{\"json\": 1}")?.message.contains("not iCalendar") == true)
        // An image: named as binary, not by the carriage return in its header.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52]
        #expect(throws: ICalError(line: 1, "not iCalendar: it holds binary data, not text starting with BEGIN:VCALENDAR")) {
            try ICalParser.parse(png)
        }
        #expect(error("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nEND:VCALENDAR\r\n")?.line == 3)
        #expect(error("BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\n")?.description == "line 2: BEGIN:VTODO is never ended")
        #expect(error("BEGIN:VCALENDAR\r\nSUMMARY\r\nEND:VCALENDAR\r\n")?.line == 2)
        #expect(error("BEGIN:VCALENDAR\r\nX-A;P:v\r\nEND:VCALENDAR\r\n")?.message.contains("'=value'") == true)
        #expect(error("BEGIN:VCALENDAR\r\nX-A;P=\"v:v\r\nEND:VCALENDAR\r\n")?.message.contains("unclosed quote") == true)
        #expect(error("BEGIN:VCALENDAR\r\nX-A:a\u{1B}[2Jb\r\nEND:VCALENDAR\r\n")?.message.contains("control character") == true)
        #expect(error("BEGIN:VCALENDAR\r\n END:VCALENDAR\r\n")?.line == 1)
        #expect(error(" X:1\r\n")?.message.contains("continuation") == true)
        #expect(error("BEGIN:VCALENDAR\rEND:VCALENDAR\r")?.message.contains("carriage return") == true)
        #expect(error("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nX-A:b\r\n")?.message.contains("outside") == true)
        var nested = "BEGIN:VCALENDAR\r\n"
        for _ in 0..<10 { nested += "BEGIN:X\r\n" }
        #expect(error(nested)?.message.contains("deeper") == true)
        let badUTF8 = Array("BEGIN:VCALENDAR\r\nX-A:".utf8) + [0xFF, 0xFE] + Array("\r\nEND:VCALENDAR\r\n".utf8)
        #expect(throws: ICalError(line: 2, "the value of X-A is not UTF-8 text")) { try ICalParser.parse(badUTF8) }
    }

    @Test func writesFoldedLinesOfAtMost75OctetsAndReadsThemBack() throws {
        let long = String(repeating: "Ünïcødé 🎉 text, with; escapes\\ and\nnew lines ", count: 20)
        let component = ICalComponent("VCALENDAR", properties: [
            .text("X-LONG", long, parameters: [ICalParameter(name: "X-P", values: ["a:b", "c\"d", "e^f\ng"])]),
        ])
        let text = component.text
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: false) {
            #expect(line.utf8.count <= 75)
        }
        let read = try parse(text)
        #expect(read[0].content == component)
        #expect(read[0].property("X-LONG")?.text == long)
    }

    @Test func textListsSplitOnUnescapedCommas() {
        #expect(ICalText.list("a,b\\,c,\\\\,") == ["a", "b,c", "\\", ""])
    }

    @Test func datesAndTimesAreChecked() throws {
        #expect(try ICalDateTime(parsing: "20240229").isDate)
        #expect(try ICalDateTime(parsing: "20261124T093000Z").isUTC)
        #expect(try ICalDateTime(parsing: "20261124T093000").description == "20261124T093000")
        for bad in ["20230229", "20261131", "20261124T250000", "20261124T096000", "2026-11-24", "20261124X093000", "", "202611"] {
            #expect(throws: ICalError.self) { try ICalDateTime(parsing: bad) }
        }
    }

    @Test func durations() throws {
        #expect(try ICalDuration(parsing: "-PT15M").totalSeconds == -900)
        #expect(try ICalDuration(parsing: "P1D").totalSeconds == 86_400)
        #expect(try ICalDuration(parsing: "P2W").days == 14)
        #expect(try ICalDuration(parsing: "+P1DT1H30M5S").totalSeconds == 86_400 + 5405)
        #expect(try ICalDuration(parsing: "-P1DT2H").description == "-P1DT2H")
        #expect(ICalDuration().description == "PT0S")
        for bad in ["", "P", "PT", "-15M", "PT15", "P1H", "PT1D", "PT1M1H", "P1W2D", "P1DT", "P9999999999D"] {
            #expect(throws: ICalError.self, "\(bad)") { try ICalDuration(parsing: bad) }
        }
    }

    /// Random components written and read back are the same components.
    @Test func writeThenReadIsTheIdentity() throws {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("writeThenReadIsTheIdentity seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("aZ09 ,;:\\\"^\n\té€🎉-=") + ["\r\n"]
        func text() -> String {
            String((0..<Int.random(in: 0...120, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        func component(depth: Int) -> ICalComponent {
            var c = ICalComponent(depth == 0 ? "VCALENDAR" : ["VTODO", "VALARM", "X-THING"].randomElement(using: &random)!)
            for index in 0..<Int.random(in: 0...6, using: &random) {
                let parameters = (0..<Int.random(in: 0...2, using: &random)).map { p in
                    ICalParameter(name: "X-P\(p)", values: (0..<Int.random(in: 1...3, using: &random)).map { _ in
                        text().replacingOccurrences(of: "\r\n", with: "\n")
                    })
                }
                c.properties.append(.text("X-PROP\(index)", text(), parameters: parameters))
            }
            if depth < 3 {
                for _ in 0..<Int.random(in: 0...2, using: &random) { c.components.append(component(depth: depth + 1)) }
            }
            return c
        }
        for _ in 0..<300 {
            let original = component(depth: 0)
            let read = try parse(original.text)
            #expect(read.map(\.content) == [original], "seed \(seed)")
        }
    }
}

extension ICalComponent {
    var content: ICalComponent {
        ICalComponent(name, properties: properties.map(\.content), components: components.map(\.content))
    }
}
