import Foundation
import Testing
@testable import CloudServer

/// Test vectors from FIPS 180-4 (and its examples document).
struct SHA256Tests {
    @Test func emptyMessage() {
        #expect(SHA256.hexDigest(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func abc() {
        #expect(SHA256.hexDigest(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func fourHundredFortyEightBitMessage() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(SHA256.hexDigest(of: Data(message.utf8)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func eightHundredNinetySixBitMessage() {
        let message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(SHA256.hexDigest(of: Data(message.utf8)) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func oneMillionA() {
        let data = Data(repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hexDigest(of: data) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalUpdatesMatchOneShot() {
        let data = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        for split in [0, 1, 55, 56, 63, 64, 65, 128, 999, 1000] {
            var hasher = SHA256()
            hasher.update(data.prefix(split))
            hasher.update(data.dropFirst(split))
            #expect(hasher.hexDigest() == SHA256.hexDigest(of: data), "split at \(split)")
        }
    }

    @Test func paddingBoundaries() {
        // Lengths around the 55/56/64-byte padding edges, checked against
        // values computed with sha256sum.
        let expected: [Int: String] = [
            55: "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318",
            56: "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a",
            64: "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb",
        ]
        for (length, digest) in expected {
            #expect(SHA256.hexDigest(of: Data(repeating: UInt8(ascii: "a"), count: length)) == digest, "length \(length)")
        }
    }
}
