/// A JSON string read from UTF-8 bytes, for the hand-written readers of
/// records (`FieldJSON`) and of requests (`WireJSONReader`): one reading
/// of quotes, escapes and surrogate pairs, strict where `JSONDecoder` is.
enum JSONString {
    /// The string whose opening quote is at `index`; `index` ends past its
    /// closing quote. Nil for anything that is not a JSON string (a control
    /// character, a bad escape, a lone surrogate, bytes that are not UTF-8),
    /// with `index` left wherever reading stopped.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        index += 1
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\"), bytes[index] >= 0x20 {
            index += 1
        }
        guard index < bytes.count,
              let prefix = String(utf8Text: UnsafeBufferPointer(rebasing: bytes[start..<index])) else { return nil }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return prefix
        }
        // Escapes (notes of several lines): the slow path.
        var scalars = prefix.unicodeScalars
        var pending: [UInt8] = []
        func flush() -> Bool {
            guard !pending.isEmpty else { return true }
            guard let text = String(validating: pending, as: UTF8.self) else { return false }
            scalars.append(contentsOf: text.unicodeScalars)
            pending.removeAll(keepingCapacity: true)
            return true
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return flush() ? String(scalars) : nil
            case UInt8(ascii: "\\"):
                guard flush(), index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    guard let unit = hex4(bytes, at: &index) else { return nil }
                    if (0xD800..<0xDC00).contains(unit) {
                        // The low half must follow at once, as `\uDC00`.
                        guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else { return nil }
                        index += 2
                        guard let low = hex4(bytes, at: &index), (0xDC00..<0xE000).contains(low),
                              let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else { return nil }
                        scalars.append(scalar)
                    } else {
                        guard let scalar = Unicode.Scalar(unit) else { return nil }
                        scalars.append(scalar)
                    }
                default:
                    return nil
                }
            case 0..<0x20:
                return nil
            default:
                pending.append(byte)
            }
        }
        return nil
    }

    /// Four hex digits at `index`.
    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = Character(Unicode.Scalar(bytes[index])).hexDigitValue else { return nil }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
