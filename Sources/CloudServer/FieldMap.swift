/// A record's values (or their edit times) by field name: one array of
/// entries kept sorted by name, each name once.
///
/// A record has a dozen fields at most, and a sync builds, reads and copies
/// tens of thousands of records. As a `Dictionary`, every entry hashed its
/// name on the way in and on every look-up, and every record allocated a
/// hash table: a fifth of a first sync's time went there. Here an entry
/// costs an append, a look-up a short binary search over names that are
/// almost all small strings, and the entries come out in name order, which
/// is the order the JSON and the archive write them in.
///
/// It reads like the dictionary it replaced: `map[name]` gets and sets (nil
/// removes), iteration yields `(key:, value:)`, and a dictionary literal
/// makes one.
///
/// Every method is inlinable. Called across modules unspecialised, each
/// call looked up the generic types' metadata at run time, and copying an
/// array of tuples went through the runtime's tuple witnesses: that cost
/// more than the hashing saved. The entries are a struct for that reason.
public struct FieldMap<Value> {
    public typealias Element = (key: String, value: Value)

    @usableFromInline struct Entry {
        @usableFromInline var key: String
        @usableFromInline var value: Value

        @inlinable init(key: String, value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// Sorted by key, keys unique.
    @usableFromInline var storage: [Entry]

    @inlinable public init() { storage = [] }

    @inlinable public init(minimumCapacity: Int) {
        storage = []
        storage.reserveCapacity(minimumCapacity)
    }

    /// Entries in any order; a later entry with the same key replaces an
    /// earlier one.
    @inlinable public init(_ entries: some Sequence<Element>) {
        self.init()
        for (key, value) in entries { self[key] = value }
    }

    @inlinable public init(uniqueKeysWithValues pairs: some Sequence<(String, Value)>) {
        self.init()
        for (key, value) in pairs {
            precondition(self[key] == nil, "duplicate key \(key) in FieldMap(uniqueKeysWithValues:)")
            self[key] = value
        }
    }

    @inlinable public init(_ dictionary: [String: Value]) {
        storage = dictionary.map { Entry(key: $0.key, value: $0.value) }
        storage.sort { $0.key < $1.key }
    }

    /// Entries already sorted by key, each key once (checked in debug builds).
    @inlinable init(sortedStorage: [Entry]) {
        assert(zip(sortedStorage, sortedStorage.dropFirst()).allSatisfy { $0.key < $1.key }, "FieldMap entries out of order")
        storage = sortedStorage
    }

    /// The entries as a dictionary, for the few places that want one.
    @inlinable public var dictionary: [String: Value] {
        Dictionary(uniqueKeysWithValues: storage.lazy.map { ($0.key, $0.value) })
    }

    /// Where `key` is, or where it would go.
    @inlinable func position(of key: String) -> (index: Int, found: Bool) {
        // Entries are mostly built in name order: the end first.
        if let last = storage.last {
            if last.key < key { return (storage.count, false) }
            if last.key == key { return (storage.count - 1, true) }
        }
        var low = 0
        var high = storage.count
        while low < high {
            let middle = (low + high) / 2
            let name = storage[middle].key
            if name == key { return (middle, true) }
            if name < key { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    @inlinable public subscript(key: String) -> Value? {
        get {
            let (index, found) = position(of: key)
            return found ? storage[index].value : nil
        }
        set {
            let (index, found) = position(of: key)
            switch (found, newValue) {
            case (true, let value?): storage[index].value = value
            case (true, nil): storage.remove(at: index)
            case (false, let value?): storage.insert(Entry(key: key, value: value), at: index)
            case (false, nil): break
            }
        }
    }

    /// Sets `value` for `key` and returns the value it replaced, if any.
    @discardableResult
    @inlinable public mutating func updateValue(_ value: Value, forKey key: String) -> Value? {
        let (index, found) = position(of: key)
        guard found else {
            storage.insert(Entry(key: key, value: value), at: index)
            return nil
        }
        defer { storage[index].value = value }
        return storage[index].value
    }

    @inlinable public func index(forKey key: String) -> Int? {
        let (index, found) = position(of: key)
        return found ? index : nil
    }

    @discardableResult
    @inlinable public mutating func removeValue(forKey key: String) -> Value? {
        let (index, found) = position(of: key)
        return found ? storage.remove(at: index).value : nil
    }

    @inlinable public var keys: [String] { storage.map(\.key) }
    @inlinable public var values: [Value] { storage.map(\.value) }

    @inlinable public func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> FieldMap<T> {
        FieldMap<T>(sortedStorage: try storage.map { .init(key: $0.key, value: try transform($0.value)) })
    }

    @inlinable public func compactMapValues<T>(_ transform: (Value) throws -> T?) rethrows -> FieldMap<T> {
        FieldMap<T>(sortedStorage: try storage.compactMap { entry in try transform(entry.value).map { .init(key: entry.key, value: $0) } })
    }

    @inlinable public func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> FieldMap {
        FieldMap(sortedStorage: try storage.filter { try isIncluded(($0.key, $0.value)) })
    }

    /// Adds `other`'s entries; where both have a key, `combine` picks the value.
    @inlinable public mutating func merge(_ other: FieldMap, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        for entry in other.storage {
            self[entry.key] = try self[entry.key].map { try combine($0, entry.value) } ?? entry.value
        }
    }

    @inlinable public func merging(_ other: FieldMap, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows -> FieldMap {
        var merged = self
        try merged.merge(other, uniquingKeysWith: combine)
        return merged
    }
}

extension FieldMap: RandomAccessCollection {
    @inlinable public var startIndex: Int { storage.startIndex }
    @inlinable public var endIndex: Int { storage.endIndex }
    @inlinable public subscript(position: Int) -> Element {
        let entry = storage[position]
        return (entry.key, entry.value)
    }
}

extension FieldMap: ExpressibleByDictionaryLiteral {
    @inlinable public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(uniqueKeysWithValues: elements)
    }
}

extension FieldMap.Entry: Sendable where Value: Sendable {}

extension FieldMap: Equatable where Value: Equatable {
    @inlinable public static func == (lhs: FieldMap, rhs: FieldMap) -> Bool {
        lhs.storage.count == rhs.storage.count
            && zip(lhs.storage, rhs.storage).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension FieldMap: Hashable where Value: Hashable {
    @inlinable public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.count)
        for entry in storage {
            hasher.combine(entry.key)
            hasher.combine(entry.value)
        }
    }
}

extension FieldMap: Sendable where Value: Sendable {}

/// Coded as the dictionary it replaced, through the coder's own handling
/// of a dictionary: the same object out, and the same refusals in (a key
/// given twice with a value of the wrong type among them).
extension FieldMap: Codable where Value: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([String: Value].self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dictionary)
    }
}

extension FieldMap: CustomStringConvertible {
    public var description: String {
        if storage.isEmpty { return "[:]" }
        return "[" + storage.map { "\($0.key.debugDescription): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
