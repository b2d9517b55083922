import Crypto
import Foundation
import GRDB

/// The accounts of a network service: a name and the hash of a secret.
///
/// A secret is 32 random bytes, shown once when the account is made; the
/// file keeps only a salted SHA-256 of it. (A fast hash is enough for a
/// secret this long and this random: it cannot be guessed, only stolen, and
/// a stolen hash does not give it back.)
public final class AccountStore: Sendable {
    private let writer: DatabaseQueue
    public let path: String

    /// The accounts file of a store: `accounts.sqlite` in its directory.
    public init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("accounts.sqlite").path
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        writer = try DatabaseQueue(path: path, configuration: configuration)
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS accounts (
                  name TEXT PRIMARY KEY NOT NULL,
                  salt BLOB NOT NULL,
                  secretHash BLOB NOT NULL,
                  createdAt TEXT NOT NULL)
                """)
        }
        // Hashes only, but nobody else needs to read them.
        chmod(path, 0o600)
    }

    /// Makes an account and returns its secret, which nothing keeps.
    /// Throws `AccountError.exists` for a name taken, `.badName` for one a
    /// device could not send.
    public func add(_ name: String) throws -> String {
        try Self.check(name)
        let secret = Self.randomBytes(32).base64URL
        let salt = Self.randomBytes(16)
        let hash = Self.hash(secret: secret, salt: salt)
        try writer.write { db in
            if try String.fetchOne(db, sql: "SELECT name FROM accounts WHERE name = ?", arguments: [name]) != nil {
                throw AccountError.exists(name)
            }
            try db.execute(sql: "INSERT INTO accounts (name, salt, secretHash, createdAt) VALUES (?, ?, ?, ?)",
                           arguments: [name, salt, hash, ISO8601DateFormatter().string(from: Date())])
        }
        return secret
    }

    /// Removes an account: its devices are refused from then on. Its data
    /// stays in the store.
    public func remove(_ name: String) throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM accounts WHERE name = ?", arguments: [name])
            if db.changesCount == 0 { throw AccountError.unknown(name) }
        }
    }

    /// The account names, sorted.
    public func names() throws -> [String] {
        try writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM accounts ORDER BY name") }
    }

    /// Whether `secret` is the secret of `name`.
    public func verify(_ name: String, secret: String) -> Bool {
        guard let row = try? writer.read({ db in
            try Row.fetchOne(db, sql: "SELECT salt, secretHash FROM accounts WHERE name = ?", arguments: [name])
        }) else { return false }
        let salt: Data = row["salt"]
        let stored: Data = row["secretHash"]
        return Self.constantTimeEqual(Self.hash(secret: secret, salt: salt), stored)
    }

    static func check(_ name: String) throws {
        guard !name.isEmpty, name.count <= 64,
              name.unicodeScalars.allSatisfy({ !CharacterSet.controlCharacters.contains($0) && $0 != ":" && $0 != "/" }),
              name.trimmingCharacters(in: .whitespaces) == name
        else { throw AccountError.badName(name) }
    }

    static func hash(secret: String, salt: Data) -> Data {
        Data(SHA256.hash(data: salt + Data(secret.utf8)))
    }

    static func constantTimeEqual(_ a: Data, _ b: Data) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}

public enum AccountError: Error, CustomStringConvertible, Equatable {
    case exists(String)
    case unknown(String)
    case badName(String)

    public var description: String {
        switch self {
        case .exists(let name): "an account named \(name) exists already"
        case .unknown(let name): "no account named \(name)"
        case .badName(let name): "'\(name)' cannot be an account name (1 to 64 characters, no ':', '/', control characters, or spaces around)"
        }
    }
}

extension Data {
    /// Base64 with the URL alphabet and no padding: a secret that pastes
    /// into a shell and a header without quoting.
    var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
