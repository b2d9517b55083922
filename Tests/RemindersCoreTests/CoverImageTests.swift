import Foundation
import Testing
import TestSupport
@testable import RemindersCore

/// Covers from photos: a JPEG is read, shrunk and stored as PNG, the form
/// covers sync in; damaged or foreign files are refused with one line.
@Suite struct CoverImageTests {
    /// A 64x48 JPEG: red grows left to right, green top to bottom, blue 128.
    static let photo = Data(base64Encoded: "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAMCAgMCAgMDAwMEAwMEBQgFBQQEBQoHBwYIDAoMDAsKCwsNDhIQDQ4RDgsLEBYQERMUFRUVDA8XGBYUGBIUFRT/2wBDAQMEBAUEBQkFBQkUDQsNFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBT/wAARCAAwAEADASIAAhEBAxEB/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/8QAHwEAAwEBAQEBAQEBAQAAAAAAAAECAwQFBgcICQoL/8QAtREAAgECBAQDBAcFBAQAAQJ3AAECAxEEBSExBhJBUQdhcRMiMoEIFEKRobHBCSMzUvAVYnLRChYkNOEl8RcYGRomJygpKjU2Nzg5OkNERUZHSElKU1RVVldYWVpjZGVmZ2hpanN0dXZ3eHl6goOEhYaHiImKkpOUlZaXmJmaoqOkpaanqKmqsrO0tba3uLm6wsPExcbHyMnK0tPU1dbX2Nna4uPk5ebn6Onq8vP09fb3+Pn6/9oADAMBAAIRAxEAPwD8+bTQuny1s2mhdPlrq7TQuny/pWzaaF0+Wv3qtmHmfPZbmu2pytpoXT5a2rTQuny11VpoXT5a2rTQuny/pXhVsw8z9XyzNdtTlLTQuny1t2mhdPlrqbTQuny1t2mhdPl/SvBrZh5n6tlma7anKWmhdPlratNC6fLXVWmhdPl/Stq00Lp8teHWzDzP1bLc121PDrTQuny1tWmhdPlrq7TQuny1s2mhdPlrqrZh5n+TeW5rtqcraaF0+Wtq00Lp8tdVZ6F0+Wtq00Lp8teFWzDzP1fLM121OUtNC6fLW1aaF0+WuqtNC6fLW3aaF0+WvCrZh5n6tlma7anKWmhdPlratNC6fLXVWmhdPlratNC6fLXhVsw8z9Wy3NdtTw+00Lp8tbNpoXT5f0rq7TQuny1s2mhdPlrqrZj5n+TeW5rtqcraaF0+Wtq00Lp8tdVZ6F0+Wtq00Lp8teFWzHzP1fLM121OUtNC6fL+lbVpoXT5a6u00Lp8tbVpoXT5a8KtmPmfq2WZrtqcpaaF0+Wtq00Lp8tdVaaF0+Wtq00Lp8teFWzHzP1bLc121P/Z") ?? Data()

    /// Removed with the test's suite value.
    let folder = TemporaryDirectory(prefix: "cover")

    func file(_ data: Data, named name: String) throws -> String {
        let url = folder.url.appendingPathComponent(name)
        try data.write(to: url)
        return url.path
    }

    @Test func aJPEGPhotoBecomesAPNGCover() throws {
        let stored = try CoverImage.load(path: file(Self.photo, named: "my photo.jpg"))
        #expect(stored.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let image = try CoverImage(png: stored)
        #expect(image.width == 64 && image.height == 48)
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(image.rgba[((y * 64 + x) * 4)..<((y * 64 + x) * 4 + 4)]) }
        #expect(pixel(0, 0)[0] < 16 && pixel(63, 0)[0] > 240, "\(pixel(0, 0)) \(pixel(63, 0))")
        #expect(pixel(0, 47)[1] > 240 && abs(Int(pixel(30, 20)[2]) - 128) < 8)
        #expect(pixel(10, 10)[3] == 255)
    }

    @Test func aLargePhotoIsShrunkToFit() {
        let big = CoverImage(width: 3000, height: 2000, rgba: [UInt8](repeating: 200, count: 3000 * 2000 * 4))
        let small = big.fitting(within: CoverImage.photoSide)
        #expect(small.width == 1024 && small.height == 682)
        #expect(small.rgba.allSatisfy { $0 == 200 })
        let already = CoverImage(width: 10, height: 5, rgba: [UInt8](repeating: 1, count: 200))
        #expect(already.fitting(within: 1024) == already)
    }

    @Test func damagedAndForeignFilesAreRefused() throws {
        let truncated = try file(Self.photo.prefix(400), named: "cut.jpg")
        #expect(throws: CoreError.invalidInput("cover image \(truncated): JPEG image is damaged or truncated")) {
            try CoverImage.load(path: truncated)
        }
        let text = try file(Data("just words".utf8), named: "notes.txt")
        #expect(throws: CoreError.invalidInput("cover image \(text): not a PNG or JPEG image")) {
            try CoverImage.load(path: text)
        }
    }
}
