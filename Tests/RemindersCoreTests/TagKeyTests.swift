import Testing
@testable import RemindersCore

@Suite("Tag keys")
struct TagKeyTests {
    @Test func asciiTitlesTakeTheShortWayToTheSameKey() {
        let ascii = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        for a in ascii {
            for b in ["", "a", "Z", "@", "[", "`", "{", "\u{7F}", " "] {
                #expect(TagKey.of(a + b) == TagKey.folded(a + b), "\((a + b).debugDescription)")
            }
        }
        #expect(TagKey.of("Work-Q3_Plan") == "work-q3_plan")
    }

    @Test func caseVariantsShareOneKey() {
        #expect(Set(["Work", "work", "WORK", "wOrK"].map(TagKey.of)) == ["work"])
    }

    @Test func accentsMatchWhateverTheirCaseOrEncoding() {
        let variants = ["Café", "CAFÉ", "café", "cafe\u{301}", "CAFE\u{301}", "Cafe\u{301}"]
        #expect(Set(variants.map(TagKey.of)) == ["caf\u{E9}"])
        #expect(TagKey.of("cafe") != TagKey.of("café"))
    }

    @Test func fullCaseFoldingJoinsWhatUpperCaseJoins() {
        #expect(Set(["Straße", "STRASSE", "strasse", "STRAẞE"].map(TagKey.of)) == ["strasse"])
        #expect(TagKey.of("ΣΊΣΥΦΟΣ") == TagKey.of("Σίσυφος"))
        #expect(TagKey.of("ﬁle") == TagKey.of("FILE"))
        // No locale: "I" folds to "i" on every device, a Turkish one too.
        #expect(TagKey.of("ISTANBUL") == "istanbul")
    }

    @Test func anyTitleHasAKeyAndAKeyIsItsOwnKey() {
        for title in ["日本", "😀 party", "a/b", "Überweisung", "Z\u{301}\u{302}algo", "עברית", "x"] {
            let key = TagKey.of(title)
            #expect(!key.isEmpty)
            #expect(TagKey.of(key) == key, "\(title)")
        }
        #expect(TagKey.of("work") != TagKey.of("works"))
    }
}
