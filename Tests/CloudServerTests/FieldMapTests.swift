import CloudServer
import Foundation
import TestSupport
import Testing

/// `FieldMap` replaced `[String: FieldValue]` in records: it must behave as
/// the dictionary did, whatever the order of the edits.
@Suite struct FieldMapTests {
    static let keys = ["", "a", "b", "title", "Title", "notes", "é", "e\u{301}", "z", "😀", "isCompleted", "dueDate"]

    /// Random sets, removals, updates and merges, done to a dictionary and
    /// to a map side by side: same contents after every step, entries
    /// always in key order, each key once.
    @Test func behavesAsADictionaryUnderRandomEdits() {
        let seed = UInt64.random(in: 0...UInt64.max)
        print("FieldMap random edits: seed \(seed)")
        var random = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            var map = FieldMap<Int>()
            var dictionary: [String: Int] = [:]
            for _ in 0..<Int.random(in: 0...40, using: &random) {
                let key = Self.keys.randomElement(using: &random)!
                let value = Int.random(in: 0...9, using: &random)
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    map[key] = value
                    dictionary[key] = value
                case 1:
                    map[key] = nil
                    dictionary[key] = nil
                case 2:
                    #expect(map.updateValue(value, forKey: key) == dictionary.updateValue(value, forKey: key))
                case 3:
                    #expect(map.removeValue(forKey: key) == dictionary.removeValue(forKey: key))
                default:
                    let other = FieldMap([(key: key, value: value), (key: Self.keys.randomElement(using: &random)!, value: 1)])
                    map.merge(other, uniquingKeysWith: +)
                    dictionary.merge(other.dictionary, uniquingKeysWith: +)
                }
                #expect(map.dictionary == dictionary, "seed \(seed)")
                #expect(map.keys == map.keys.sorted() && Set(map.keys).count == map.count, "seed \(seed)")
                for key in Self.keys { #expect(map[key] == dictionary[key], "seed \(seed)") }
            }
            #expect(map.filter { $0.value > 4 }.dictionary == dictionary.filter { $0.value > 4 })
            #expect(map.mapValues { $0 * 2 }.dictionary == dictionary.mapValues { $0 * 2 })
            #expect(map.compactMapValues { $0 > 4 ? $0 : nil }.dictionary == dictionary.compactMapValues { $0 > 4 ? $0 : nil })
        }
    }

    /// Built in any order, equal maps are equal, hash equal and iterate in
    /// one order.
    @Test func equalMapsAreEqualWhateverTheOrderTheyWereBuiltIn() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            // Distinct keys: "é" and "e\u{301}" are one key (below).
            let pairs = Self.keys.filter { !$0.unicodeScalars.elementsEqual("e\u{301}".unicodeScalars) }.shuffled(using: &random)
                .prefix(Int.random(in: 0...Self.keys.count, using: &random))
                .map { (key: $0, value: Int.random(in: 0...3, using: &random)) }
            let one = FieldMap(pairs)
            let other = FieldMap(pairs.shuffled(using: &random))
            #expect(one == other)
            #expect(one.hashValue == other.hashValue)
            #expect(one.map(\.key) == other.map(\.key))
            #expect(one == FieldMap(Dictionary(uniqueKeysWithValues: pairs.map { ($0.key, $0.value) })))
        }
        let small: FieldMap<Int> = ["b": 2, "a": 1]
        #expect(small != ["a": 1, "b": 3])
        #expect(small != ["a": 1])
        #expect(small.map(\.key) == ["a", "b"])
        // Keys compare as Swift strings do, as the dictionary's did: a
        // composed and a decomposed "é" are one key.
        var accents = FieldMap<Int>()
        accents["é"] = 1
        accents["e\u{301}"] = 2
        #expect(accents.count == 1 && accents["é"] == 2)
    }

    /// Codable writes and reads the object the dictionary did, so records
    /// stored or sent before read the same.
    @Test func codesAsTheDictionaryItReplaced() throws {
        let map: FieldMap<FieldValue> = ["title": .string("Milk"), "priority": .int64(3), "é": .double(1.5)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(map) == encoder.encode(map.dictionary))
        let decoded = try JSONDecoder().decode(FieldMap<FieldValue>.self, from: encoder.encode(map.dictionary))
        #expect(decoded == map)
        #expect(FieldMap<Int>().description == "[:]")
    }
}
