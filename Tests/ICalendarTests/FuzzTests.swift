import ICalendar
import Testing
import TestSupport

/// Mangled iCalendar text never crashes or hangs the parser: it reads, or
/// it throws an `ICalError` whose line is within the text.
@Suite struct FuzzTests {
    static let sample = Array("""
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example//EN\r
        BEGIN:VTIMEZONE\r
        TZID:Europe/Berlin\r
        BEGIN:STANDARD\r
        DTSTART:19701025T030000\r
        TZOFFSETFROM:+0200\r
        TZOFFSETTO:+0100\r
        END:STANDARD\r
        END:VTIMEZONE\r
        BEGIN:VTODO\r
        UID:6F9619FF-8B86-D011-B42D-00C04FC964FF\r
        SUMMARY;LANGUAGE=de:Milch kaufen\\, schnell\r
        DESCRIPTION:Zwei Liter\\nBio\\; frisch – Ünïcødé 🎉 and a long line that will be fold\r
         ed in the middle of a word\r
        DUE;TZID=Europe/Berlin:20261124T090000\r
        CATEGORIES:Einkauf,Haus\r
        RRULE:FREQ=WEEKLY;BYDAY=MO,TH\r
        X-APPLE-SORT-ORDER:12\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        TRIGGER;RELATED=END;X-Q="a:b":-PT15M\r
        END:VALARM\r
        END:VTODO\r
        END:VCALENDAR\r

        """.utf8)

    @Test func mangledTextReadsOrFailsWithALine() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("mangledTextReadsOrFailsWithALine seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let interesting: [UInt8] = Array(":;,=\"\\^\r\n \t".utf8) + [0x00, 0x1B, 0x7F, 0xC3, 0xA9, 0xFF, 0xF0, 0x9F]
        var failures = 0
        for round in 0..<3_000 {
            var bytes = Self.sample
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                let at = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<6, using: &random) {
                case 0 where at < bytes.count: bytes[at] = interesting.randomElement(using: &random)!
                case 1: bytes.insert(interesting.randomElement(using: &random)!, at: at)
                case 2 where at < bytes.count: bytes.remove(at: at)
                case 3: bytes = Array(bytes.prefix(at))
                case 4 where at < bytes.count:
                    let length = min(Int.random(in: 1...40, using: &random), bytes.count - at)
                    bytes.insert(contentsOf: bytes[at..<(at + length)], at: at)
                default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: at)
                }
            }
            let lines = bytes.filter { $0 == 0x0A }.count + 1
            do {
                let calendars = try ICalParser.parse(bytes)
                // What reads writes and reads back the same.
                for calendar in calendars {
                    let again = try ICalParser.parse(Array(calendar.text.utf8))
                    #expect(again.count == 1, "round \(round), seed \(seed)")
                }
            } catch {
                failures += 1
                #expect((0...lines).contains(error.line), "round \(round), seed \(seed): \(error)")
                #expect(!error.message.isEmpty)
            }
        }
        // Most mangled inputs are refused, some still read: both paths ran.
        #expect(failures > 100 && failures < 3_000, "seed \(seed)")
    }

    @Test func randomBytesAndValuesNeverCrash() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("randomBytesAndValuesNeverCrash seed \(seed)")
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("0123456789TZPWDHMS+-:".utf8)
        for _ in 0..<5_000 {
            let bytes = (0..<Int.random(in: 0...200, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = try? ICalParser.parse(bytes)
            let value = String(decoding: (0..<Int.random(in: 0...20, using: &random)).map { _ in alphabet.randomElement(using: &random)! }, as: UTF8.self)
            _ = try? ICalDateTime(parsing: value)
            _ = try? ICalDuration(parsing: value)
            _ = ICalText.list(value)
        }
    }

    /// A deep or long input is refused or read in linear time: 200,000
    /// lines of properties and 100,000 BEGINs.
    @Test func largeInputsStayLinear() throws {
        var text = "BEGIN:VCALENDAR\r\n"
        for index in 0..<200_000 { text += "X-P\(index):value \(index)\r\n" }
        text += "END:VCALENDAR\r\n"
        let calendars = try ICalParser.parse(Array(text.utf8))
        #expect(calendars[0].properties.count == 200_000)
        let deep = Array(String(repeating: "BEGIN:VCALENDAR\r\n", count: 100_000).utf8)
        #expect(throws: ICalError.self) { try ICalParser.parse(deep) }
    }
}
