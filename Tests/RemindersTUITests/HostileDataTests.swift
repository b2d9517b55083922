import Foundation
import GRDB
import Testing
@testable import RemindersTUI
import RemindersCore

/// Data as another device or person could leave it in the database, past
/// every check the app makes when the user types: escape sequences, control
/// characters, invalid UTF-8, bidi overrides, huge notes, lying or damaged
/// images, dates no calendar has. Every screen draws it without a single
/// control character reaching the terminal, and nothing crashes.
@Suite struct HostileDataTests {
    /// Titles, notes and tags that try to take over the terminal.
    static let hostileTexts: [String] = [
        "\u{1B}[31mred\u{1B}[0m \u{1B}]0;window title\u{7} \u{1B}[2J\u{1B}[H cleared",
        "\u{9B}31m C1 CSI \u{9D}0;osc\u{9C} \u{85}next line",
        "bell\u{7} backspace\u{8}\u{8}\u{8} delete\u{7F} nul\u{0}after",
        "\u{202E}gnp.exe\u{202C} \u{2066}isolated\u{2069} \u{200F}mark",
        "עברית ومرحبا بالعالم mixed with English",
        "Z\u{301}\u{302}\u{303}\u{304}\u{305}\u{306}\u{307}\u{308}\u{309}\u{30A}\u{30B}\u{30C}\u{30D}\u{30E}\u{30F}algo",
        "tab\there\r\ncarriage\u{2028}separator\u{2029}paragraph",
        "\u{FEFF}bom \u{E000}marker\u{E001} \u{F8FF}private \u{FFF9}annotation\u{FFFB}",
        "😀👨‍👩‍👧‍👦🏳️‍🌈 wide 漢字",
    ]

    @Test(arguments: [(80, 24), (120, 40)])
    func everyScreenDrawsHostileDataWithoutControlCharacters(width: Int, height: Int) throws {
        let world = try TestWorld(width: width, height: height, seeded: false)
        let lists = try Self.fillWithHostileData(world.store.writer)
        var frames = 0
        func check(_ step: String) {
            frames += 1
            Self.expectSafe(world.screen, step)
        }
        check("home")
        // Every list (the smart lists first), and in each the first few
        // reminders' edit forms, whose fields show the raw text.
        for index in 0..<(5 + lists) {
            world.press(.character("g"))
            for _ in 0..<index { world.press(.character("j")) }
            check("home, row \(index)")
            world.press(.enter)
            check("list \(index)")
            for row in 0..<3 {
                world.press(.character("g"))
                for _ in 0..<row { world.press(.character("j")) }
                world.press(.character("e"))
                check("list \(index), form of reminder \(row)")
                for field in 1...8 {
                    world.press(.tab)
                    if field % 3 == 0 { check("list \(index), form of reminder \(row), field \(field)") }
                }
                world.press(.escape)
            }
            world.press(.character("E"))
            check("list \(index), list form")
            world.press(.escape)
            world.press(.character("q"))
        }
        world.press(.character("/"))
        world.type("red")
        check("search")
        world.press(.down)
        check("search results")
        world.press(.escape, .escape)
        world.press(.character("t"))
        check("tags")
        world.moveDown(2)
        check("tags, moved")
        world.press(.character("q"))
        world.press(.character("?"))
        check("help")
        #expect(frames > 100)
        print("hostile data in the TUI at \(width)x\(height): \(frames) frames drawn, no control character")
    }

    /// Fills the database the way a peer could: raw SQL, no validation,
    /// text as arbitrary bytes. Returns the number of lists.
    static func fillWithHostileData(_ writer: some DatabaseWriter) throws -> Int {
        let forest = try Data(contentsOf: coversFolder.appendingPathComponent("forest.png"))
        let covers: [Data] = [
            PNGWriter.lyingAboutItsSize(width: 100_000, height: 100_000),
            PNGWriter.lyingAboutItsSize(width: 3_000, height: 3_000),
            forest.prefix(forest.count / 2),
            Data("not a png at all".utf8),
            Data(),
            forest,
        ]
        let dueDates: [String?] = [nil, "0000-00-00", "9999-12-31T23:59", "1900-01-01", "2026-02-30", "abcdefghij",
                                   "2026-03-04T99:99", "-001-01-01"]
        return try writer.write { db in
            var lists = 0
            for (index, cover) in covers.enumerated() {
                let listID = "list-\(index)"
                let title = hostileTexts[index % hostileTexts.count]
                try db.execute(sql: "INSERT INTO remindersLists (id, title, color, position) VALUES (?, ?, '#e8524a', ?)",
                               arguments: [listID, title, index])
                try db.execute(sql: "INSERT INTO remindersListCovers (remindersListID, image) VALUES (?, ?)", arguments: [listID, cover])
                lists += 1
                for (row, text) in hostileTexts.enumerated() {
                    let id = "reminder-\(index)-\(row)"
                    // One reminder with 1 MB of notes, full of escapes.
                    let notes = index == 0 && row == 0
                        ? String(repeating: "\u{1B}[5mblink\u{1B}[0m line of notes\n", count: 40_000) : text + "\n" + text
                    try db.execute(sql: """
                        INSERT INTO reminders (id, remindersListID, title, notes, dueDate, priority, isFlagged, status, position)
                        VALUES (?, ?, ?, ?, ?, ?, ?, 'incomplete', ?)
                        """, arguments: [id, listID, text, notes, dueDates[row % dueDates.count], row % 4, row % 2, row])
                }
            }
            // Invalid UTF-8, which SQLite stores as given in a TEXT column.
            try db.execute(sql: """
                INSERT INTO remindersLists (id, title, color, position)
                VALUES ('list-bytes', CAST(X'fffe1b5b33316d80c328' AS TEXT), '#4a99ef', 99)
                """)
            try db.execute(sql: """
                INSERT INTO reminders (id, remindersListID, title, notes) VALUES
                  ('reminder-bytes', 'list-bytes', CAST(X'1b5d303b78079b324aff' AS TEXT), CAST(X'c0afe080af0a1b5b324a' AS TEXT))
                """)
            lists += 1
            for text in hostileTexts {
                try db.execute(sql: "INSERT INTO tags (id, title) VALUES (?, ?)", arguments: [TagKey.of(text), text])
                try db.execute(sql: "INSERT INTO remindersTags (reminderID, tagID) VALUES ('reminder-0-1', ?)", arguments: [TagKey.of(text)])
            }
            try db.execute(sql: "INSERT INTO tags (id, title) VALUES (CAST(X'1b5b316d7461679b' AS TEXT), CAST(X'1b5b316d7461679b' AS TEXT))")
            return lists
        }
    }

    /// No cell holds a control character, a bidi control or a lone
    /// surrogate: what the terminal gets is only what the app drew.
    static func expectSafe(_ screen: CellBuffer, _ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (index, cell) in screen.cells.enumerated() {
            for scalar in cell.text.unicodeScalars where isUnsafe(scalar) {
                Issue.record("\(step): U+\(String(scalar.value, radix: 16, uppercase: true)) at row \(index / screen.width), column \(index % screen.width): \(screen.textLines()[index / screen.width])",
                             sourceLocation: sourceLocation)
                return
            }
        }
    }

    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C, 0xFEFF: true
        default: scalar.properties.generalCategory == .control
        }
    }
}

/// The sample covers in the package's Assets folder.
private let coversFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Assets/covers")

/// Hand-made PNG files (stored, uncompressed deflate), for images no
/// encoder would write.
enum PNGWriter {
    /// A header claiming `width` x `height` 8-bit RGBA pixels, followed by
    /// one small image data chunk and the end.
    static func lyingAboutItsSize(width: UInt32, height: UInt32) -> Data {
        png(width: width, height: height, bitDepth: 8, colorType: 6, scanlines: [UInt8](repeating: 0, count: 64))
    }

    /// A real image of `width` x `height` 1-bit gray pixels (stripes).
    static func grayStripes(width: Int, height: Int) -> Data {
        let rowBytes = (width + 7) / 8
        var raw: [UInt8] = []
        raw.reserveCapacity((rowBytes + 1) * height)
        for row in 0..<height {
            raw.append(0)
            raw.append(contentsOf: repeatElement(row % 2 == 0 ? 0xAA : 0x55, count: rowBytes))
        }
        return png(width: UInt32(width), height: UInt32(height), bitDepth: 1, colorType: 0, scanlines: raw)
    }

    static func png(width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8, scanlines: [UInt8]) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, 0])
        bytes += chunk("IDAT", zlibStored(scanlines))
        bytes += chunk("IEND", [])
        return Data(bytes)
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let last: UInt8 = offset + count == data.count ? 1 : 0
            out.append(last)
            out += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[offset..<(offset + count)]
            offset += count
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static let crcTable: [UInt32] = (0..<256).map { (n: UInt32) in
        var c = n
        for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        return c
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return ~crc
    }
}

@Suite struct HostileImageTests {
    @Test func imagesThatLieOrBreakAreRefusedNotDecoded() throws {
        let forest = try Data(contentsOf: coversFolder.appendingPathComponent("forest.png"))
        func refused(_ data: Data) -> Bool { (try? CoverImage(png: data)) == nil }
        #expect(refused(PNGWriter.lyingAboutItsSize(width: 100_000, height: 100_000)))
        #expect(refused(PNGWriter.lyingAboutItsSize(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF)))
        #expect(refused(PNGWriter.lyingAboutItsSize(width: 4_097, height: 4_096)), "over the pixel limit")
        #expect(refused(PNGWriter.lyingAboutItsSize(width: 3_000, height: 3_000)), "far less data than the header promises")
        // Cut anywhere before the end of its image data: refused.
        let imageEnd = try #require(forest.range(of: Data("IEND".utf8))).lowerBound - 4
        var cuts = 0
        for cut in stride(from: 0, to: imageEnd - 24, by: 7) {
            cuts += 1
            #expect(refused(forest.prefix(cut)), "cut at \(cut) of \(forest.count)")
        }
        // Flipped bytes: refused or decoded, never a crash.
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var damaged = forest
            for _ in 0..<4 {
                let at = Int.random(in: 8..<damaged.count, using: &random)
                damaged[at] ^= UInt8.random(in: 1...255, using: &random)
            }
            _ = try? CoverImage(png: damaged)
        }
        print("hostile images: 4 lying headers, \(cuts) truncations refused, 200 damaged files decoded or refused")
    }

    @Test func theLargestAllowedImageStillDecodes() throws {
        let image = try CoverImage(png: PNGWriter.grayStripes(width: 2_048, height: 2_048))
        #expect(image.width == 2_048 && image.rgba.count == 2_048 * 2_048 * 4)
    }
}
