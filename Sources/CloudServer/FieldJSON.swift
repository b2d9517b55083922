import Foundation

/// The JSON of a record's fields and field times as the server stores them,
/// written and read by hand: through `Codable` it cost more than the rest of
/// a save or a fetch together.
///
/// The shape is the one `Codable` gives these types (sorted keys, an enum
/// case as `{"case":{"_0":value}}`, dates as seconds since 2001, bytes as
/// Base64, non-finite doubles as "+Infinity", "-Infinity" and "NaN"), so
/// stores written either way read the same. Whatever the quick reader does
/// not recognise goes to `JSONDecoder`, which has the last word. Devices
/// keep their pending edit times in the same form.
public enum FieldJSON {
    // MARK: Writing

    static func encode(fields: FieldMap<FieldValue>) -> String {
        // Bytes made at the usual record's size, then one string: built by
        // appending to a string, the JSON was a fifth of a server's save.
        var writer = WireJSON.Writer(capacity: fields.reduce(2) { size, field in
            if case .string(let text) = field.value { size + 32 + field.key.utf8.count + text.utf8.count } else { size + 64 + field.key.utf8.count }
        })
        writer.raw("{")
        for (index, field) in fields.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(field.key)
            writer.raw(":")
            writer.field(field.value) { writer, number in writer.storedNumber(number) }
        }
        writer.raw("}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// A JSON array of strings, for SQL's `json_each`: the keys of a batch
    /// read or noted in one statement. Written by hand like the rest of
    /// this file: `JSONEncoder` was a twentieth of a first upload.
    public static func encode(strings: some Sequence<String>) -> String {
        var writer = WireJSON.Writer(capacity: strings.underestimatedCount * 40 + 2)
        writer.raw("[")
        for (index, text) in strings.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(text)
        }
        writer.raw("]")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    public static func encode(times: FieldMap<Int64>) -> String {
        var writer = WireJSON.Writer(capacity: times.reduce(2) { $0 + 24 + $1.key.utf8.count })
        writer.raw("{")
        for (index, time) in times.enumerated() {
            if index > 0 { writer.raw(",") }
            writer.string(time.key)
            writer.raw(":")
            writer.integer(time.value)
        }
        writer.raw("}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    // MARK: Reading

    /// The fields, or nil when the text is not in the shape written above.
    static func quickFields(_ text: String) -> FieldMap<FieldValue>? {
        quickObject(text, value: fieldValue)
    }

    /// The times, or nil when the text is not a flat object of integers.
    public static func quickTimes(_ text: String) -> FieldMap<Int64>? {
        if let times = flatTimes(text) { return times }
        return quickObject(text) { json in
            guard case .number(let digits) = json else { return nil }
            return Int64(digits)
        }
    }

    /// The times as the change capture's triggers and `encode(times:)`
    /// write them (no spaces, plain integers), read in one pass: every
    /// pending row's times are read for every send, and building the
    /// general reader's tree first was a twelfth of a first upload. Nil for
    /// anything else, which the general reader then decides.
    private static func flatTimes(_ text: String) -> FieldMap<Int64>? {
        var text = text
        return text.withUTF8 { bytes -> FieldMap<Int64>? in
            guard bytes.count >= 2, bytes[0] == UInt8(ascii: "{") else { return nil }
            var index = 1
            // A member takes 16 bytes at least ("k":1 and a comma, with a
            // time of 13 digits): room enough at once, never regrown.
            var result = FieldMap<Int64>(minimumCapacity: bytes.count / 16)
            if bytes[index] == UInt8(ascii: "}") { return bytes.count == 2 ? result : nil }
            while true {
                guard let key = JSONString.read(bytes, at: &index), index < bytes.count,
                      bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
                if negative { index += 1 }
                let start = index
                var value: Int64 = 0
                while index < bytes.count, (48...57).contains(bytes[index]) {
                    let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflowAdding) = times10.addingReportingOverflow(Int64(bytes[index] - 48))
                    guard !overflow, !overflowAdding else { return nil }
                    value = sum
                    index += 1
                }
                // Digits, and no leading zero (JSON's rule).
                guard index > start, index - start == 1 || bytes[start] != UInt8(ascii: "0"), index < bytes.count,
                      result.updateValue(negative ? -value : value, forKey: key) == nil else { return nil }
                switch bytes[index] {
                case UInt8(ascii: ","): index += 1
                case UInt8(ascii: "}"): return index + 1 == bytes.count ? result : nil
                default: return nil
                }
            }
        }
    }

    /// A JSON object whose every member `value` reads, or nil: when the
    /// text is not an object, a member is refused, or a key comes twice
    /// (which JSONDecoder decides, not this reader).
    private static func quickObject<Value>(_ text: String, value: (JSON) -> Value?) -> FieldMap<Value>? {
        var text = text
        return text.withUTF8 { bytes -> FieldMap<Value>? in
            var scanner = Scanner(bytes: bytes)
            guard case .object(let members)? = scanner.document() else { return nil }
            var result = FieldMap<Value>(minimumCapacity: members.count)
            for (key, json) in members {
                guard let read = value(json), result.updateValue(read, forKey: key) == nil else { return nil }
            }
            return result
        }
    }

    private static func fieldValue(_ json: JSON) -> FieldValue? {
        guard case .object(let outer) = json, outer.count == 1,
              case .object(let inner) = outer[0].value, inner.count == 1, inner[0].key == "_0" else { return nil }
        let payload = inner[0].value
        switch (outer[0].key, payload) {
        case ("string", .string(let text)): return .string(text)
        case ("int64", .number(let digits)): return Int64(digits).map(FieldValue.int64)
        case ("double", _): return double(payload).map(FieldValue.double)
        case ("date", _): return double(payload).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case ("bytes", .string(let base64)): return Data(base64Encoded: base64).map(FieldValue.bytes)
        case ("asset", .object(let members)):
            guard members.count == 2, case .string(let sha256)? = member(members, "sha256"),
                  case .number(let digits)? = member(members, "size"), let size = Int(digits) else { return nil }
            return .asset(Asset(sha256: sha256, size: size))
        case ("reference", .object(let members)):
            guard members.count == 2, case .string(let name)? = member(members, "recordName"),
                  case .object(let zone)? = member(members, "zoneID"), zone.count == 2,
                  case .string(let zoneName)? = member(zone, "name"), case .string(let ownerName)? = member(zone, "ownerName")
            else { return nil }
            return .reference(RecordID(recordName: name, zoneID: ZoneID(name: zoneName, ownerName: ownerName)))
        case ("stringList", .array(let items)):
            var list: [String] = []
            for case .string(let item) in items { list.append(item) }
            return list.count == items.count ? .stringList(list) : nil
        default:
            return nil
        }
    }

    private static func member(_ members: [(key: String, value: JSON)], _ key: String) -> JSON? {
        members.first { $0.key == key }?.value
    }

    private static func double(_ json: JSON) -> Double? {
        switch json {
        case .number(let digits):
            // Out of range either way (1e999, 1e-999): JSONDecoder decides.
            guard let value = Double(digits), value.isFinite,
                  value != 0 || !digits.prefix { $0 != "e" && $0 != "E" }.contains(where: { ("1"..."9").contains($0) }) else { return nil }
            return value
        case .string("NaN"): return .nan
        case .string("+Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        default: return nil
        }
    }

    /// A parsed JSON value; numbers keep their text.
    private indirect enum JSON {
        case object([(key: String, value: JSON)])
        case array([JSON])
        case string(String)
        case number(String)
    }

    /// A strict JSON reader: nil on anything it does not accept.
    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        var depth = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
        }

        mutating func document() -> JSON? {
            guard let value = value() else { return nil }
            skipSpaces()
            return index == bytes.count ? value : nil
        }

        private mutating func skipSpaces() {
            while index < bytes.count, [0x20, 0x0A, 0x09, 0x0D].contains(bytes[index]) { index += 1 }
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpaces()
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func value() -> JSON? {
            skipSpaces()
            guard index < bytes.count, depth < 32 else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                depth += 1
                defer { depth -= 1 }
                var members: [(key: String, value: JSON)] = []
                if take(UInt8(ascii: "}")) { return .object(members) }
                repeat {
                    skipSpaces()
                    guard let key = string(), take(UInt8(ascii: ":")), let member = value() else { return nil }
                    members.append((key, member))
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "}")) ? .object(members) : nil
            case UInt8(ascii: "["):
                index += 1
                depth += 1
                defer { depth -= 1 }
                var items: [JSON] = []
                if take(UInt8(ascii: "]")) { return .array(items) }
                repeat {
                    guard let item = value() else { return nil }
                    items.append(item)
                } while take(UInt8(ascii: ","))
                return take(UInt8(ascii: "]")) ? .array(items) : nil
            case UInt8(ascii: "\""):
                return string().map(JSON.string)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return number()
            default:
                // true, false, null: never in these shapes.
                return nil
            }
        }

        /// A number as JSON writes it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
        private mutating func number() -> JSON? {
            let start = index
            func digits() -> Int {
                let first = index
                while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
                return index - first
            }
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let integerStart = index
            let integerDigits = digits()
            guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard digits() > 0 else { return nil }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard digits() > 0 else { return nil }
            }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        }

        /// A string at the current position (its opening quote included).
        private mutating func string() -> String? {
            JSONString.read(bytes, at: &index)
        }
    }
}

extension String {
    /// The text of some UTF-8 bytes; nil when they are not valid UTF-8.
    /// ASCII, nearly every string of a record, is taken as is:
    /// `String(validating:as:)` looks up generic metadata on every call,
    /// which cost more than reading the rest of the record.
    init?(utf8Text bytes: UnsafeBufferPointer<UInt8>) {
        var ascii = true
        for byte in bytes where byte >= 0x80 {
            ascii = false
            break
        }
        if ascii {
            self = String(decoding: bytes, as: UTF8.self)
        } else if let text = String(validating: bytes, as: UTF8.self) {
            self = text
        } else {
            return nil
        }
    }
}
