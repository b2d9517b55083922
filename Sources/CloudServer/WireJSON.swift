import Foundation

/// The JSON of `WireRequest` and `WireResponse` (docs/API.md), written and
/// read by hand: through `Codable` the coding of a batch of records, on
/// both sides of the network service, cost more than the store's work on
/// it.
///
/// The text is the one `JSONEncoder` writes for these types (an enum case
/// as `{"case":{"label":value}}`, `_0` for an unlabelled value, absent
/// optionals left out, dates as seconds since 2001, bytes as Base64), so
/// either side may use either coder. What the quick writer does not cover
/// (the sharing operations, a non-finite double) goes to `JSONEncoder`, and
/// whatever the quick reader does not recognise (an unknown member, a key
/// that comes twice, a number it cannot read exactly) goes to
/// `JSONDecoder`, which has the last word: both read the same values and
/// refuse the same text with the same error.
extension WireRequest {
    /// The request as docs/API.md writes it.
    public func jsonData() throws -> Data {
        if let bytes = WireJSON.write({ try $0.request(self) }) { return Data(bytes) }
        return try JSONEncoder().encode(self)
    }

    /// Reads a request; throws `JSONDecoder`'s error for text that is not
    /// one.
    public init(jsonData data: Data) throws {
        if let request = WireJSON.quickRequest(data) {
            self = request
        } else {
            self = try JSONDecoder().decode(WireRequest.self, from: data)
        }
    }
}

extension WireResponse {
    /// The answer as docs/API.md writes it.
    public func jsonData() throws -> Data {
        if let bytes = WireJSON.write({ try $0.response(self) }) { return Data(bytes) }
        return try JSONEncoder().encode(self)
    }

    /// Reads an answer; throws `JSONDecoder`'s error for text that is not
    /// one.
    public init(jsonData data: Data) throws {
        if let response = WireJSON.quickResponse(data) {
            self = response
        } else {
            self = try JSONDecoder().decode(WireResponse.self, from: data)
        }
    }
}

/// The quick writer and reader of the network service's JSON, and where
/// each hands over to `Codable`.
enum WireJSON {
    /// What the quick coders leave to `Codable`.
    struct NotCovered: Error {}

    /// The bytes `body` writes, or nil when it leaves the value to
    /// `JSONEncoder`.
    static func write(_ body: (inout Writer) throws -> Void) -> [UInt8]? {
        var writer = Writer()
        do {
            try body(&writer)
        } catch {
            return nil
        }
        return writer.bytes
    }

    static func quickRequest(_ data: Data) -> WireRequest? {
        read(data) { try $0.request() }
    }

    static func quickResponse(_ data: Data) -> WireResponse? {
        read(data) { try $0.response() }
    }

    private static func read<T>(_ data: Data, _ body: (inout Reader) throws -> T) -> T? {
        data.withUnsafeBytes { raw -> T? in
            var reader = Reader(bytes: raw.bindMemory(to: UInt8.self))
            guard let value = try? body(&reader), reader.atEnd() else { return nil }
            return value
        }
    }
}
