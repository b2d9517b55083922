import Foundation
import Testing
@testable import RemindersCore

/// The native trims and checks stand in for Foundation's: they must give
/// the same answers on every scalar, not just the common ones.
@Suite("Trimming and character checks")
struct TrimmingTests {
    /// Every scalar Foundation counts as white space or a new line, and
    /// their neighbours, around text and alone.
    static let edges: [Unicode.Scalar] = (Array(0...0x40) + Array(0x7E...0xA2) + [0x1680, 0x180E] + Array(0x1FFF...0x2030)
        + [0x205F, 0x2060, 0x3000, 0x3001, 0xFEFF, 0x1F600]).compactMap(Unicode.Scalar.init)

    @Test func trimmingMatchesFoundationOnEveryScalarOfTheBasicPlane() {
        for value in 0...0xFFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar) + "a" + String(scalar)
            if text.trimmingWhitespaceAndNewlines() != text.trimmingCharacters(in: .whitespacesAndNewlines)
                || text.trimmingWhitespace() != text.trimmingCharacters(in: .whitespaces) {
                Issue.record("U+\(String(value, radix: 16)) trims differently")
            }
        }
    }

    @Test func trimmingMatchesFoundationOnEveryEdge() {
        for scalar in Self.edges {
            let s = String(scalar)
            for text in [s, s + s, s + "a" + s, "a" + s + "b", s + "\u{301}x" + s, " " + s + "é" + s + "\n", "x" + s] {
                #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespaces),
                        "U+\(String(scalar.value, radix: 16)) in \(text.debugDescription)")
                #expect(text.trimmingWhitespaceAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines),
                        "U+\(String(scalar.value, radix: 16)) in \(text.debugDescription)")
                let substring = ("[" + text + "]").dropFirst().dropLast()
                #expect(substring.trimmingWhitespaceAndNewlines() == substring.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        #expect("".trimmingWhitespace() == "")
        #expect("  Buy milk \t".trimmingWhitespace() == "Buy milk")
        #expect("\r\n Buy milk\u{2028}".trimmingWhitespaceAndNewlines() == "Buy milk")
        #expect("\nBuy milk\n".trimmingWhitespace() == "\nBuy milk\n")
    }

    @Test func controlCharactersAreExactlyUnicodesCc() {
        for value in 0...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if Validation.isControl(scalar) != (scalar.properties.generalCategory == .control) {
                Issue.record("U+\(String(value, radix: 16)) differs")
                return
            }
        }
    }

    @Test func uuidsAreWhatFoundationReadsAsOne() {
        let uuid = "5D2F7A1C-93B4-4E0A-8C71-2B6D9F04E5A3"
        var candidates = [uuid, uuid.lowercased(), "5d2F7a1C-93b4-4E0a-8c71-2B6d9F04e5A3", "", "x", String(uuid.dropLast()),
                          uuid + "0", "{\(uuid)}", uuid.replacingOccurrences(of: "-", with: ""),
                          uuid.replacingOccurrences(of: "-", with: "_"), " " + uuid.dropLast(), "g" + uuid.dropFirst(),
                          "5D2F7A1C-93B4-4E0A-8C71-2B6D9F04E5AÉ".precomposedStringWithCanonicalMapping,
                          "5D2F7A1C93B4-4E0A-8C71-2B6D9F04E5A3-", "00000000-0000-0000-0000-000000000000",
                          "5D2F7A1C-93B4-4E0A-8C71-2B6D9F 4E5A3", "icalendar-uid@example.com"]
        for offset in stride(from: 0, to: 36, by: 5) {
            var bytes = Array(uuid.utf8)
            bytes[offset] = UInt8(ascii: "z")
            candidates.append(String(decoding: bytes, as: UTF8.self))
        }
        for text in candidates {
            if TodoMapping.isUUID(text) { #expect(UUID(uuidString: text) != nil, "\(text)") }
            // The id every version derived from a UID.
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            let before = UUID(uuidString: trimmed).map { $0.uuidString.lowercased() } ?? derivedID("icalendar-uid", trimmed)
            #expect(TodoMapping.id(forUID: text) == before, "\(text)")
        }
        #expect(TodoMapping.isUUID(uuid) && TodoMapping.isUUID(uuid.lowercased()))
    }
}
