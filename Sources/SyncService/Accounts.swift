import CSQLiteSetup
import CloudServer
import Crypto
import Foundation
import GRDB
import Synchronization

/// The accounts of a network service: a name and the hash of a secret.
///
/// A secret is 32 random bytes, shown once when the account is made; the
/// file keeps only a salted SHA-256 of it. (A fast hash is enough for a
/// secret this long and this random: it cannot be guessed, only stolen, and
/// a stolen hash does not give it back.)
public final class AccountStore: Sendable {
    private let database: any StoreTransactions

    /// The accounts file of a directory store: `accounts.sqlite` in its
    /// directory.
    public convenience init(directory: URL) throws {
        try self.init(database: try AccountFile(directory: directory))
    }

    /// The `accounts` table of another store's database (the PostgreSQL
    /// store makes it with its other tables).
    package init(database: any StoreTransactions) {
        self.database = database
    }

    /// Makes an account and returns its secret, which nothing keeps.
    /// Throws `AccountError.exists` for a name taken, `.badName` for one a
    /// device could not send.
    public func add(_ name: String) throws -> String {
        try Self.check(name)
        let secret = Self.randomBytes(32).base64URL
        let salt = Self.randomBytes(16)
        let hash = Self.hash(secret: secret, salt: salt)
        try database.transaction { db in
            if try db.text("SELECT name FROM accounts WHERE name = ?", [name]) != nil {
                throw AccountError.exists(name)
            }
            try db.execute("INSERT INTO accounts (name, salt, secretHash, createdAt) VALUES (?, ?, ?, ?)",
                           [name, salt, hash, ISO8601DateFormatter().string(from: Date())])
        }
        return secret
    }

    /// Removes an account: its devices are refused from then on. Its data
    /// stays in the store.
    public func remove(_ name: String) throws {
        try database.transaction { db in
            try db.execute("DELETE FROM accounts WHERE name = ?", [name])
            if db.changesCount == 0 { throw AccountError.unknown(name) }
        }
    }

    /// The account names, sorted.
    public func names() throws -> [String] {
        try database.transaction { db in try db.texts("SELECT name FROM accounts ORDER BY name") }
    }

    /// Whether `secret` is the secret of `name`.
    public func verify(_ name: String, secret: String) -> Bool {
        guard let row = try? database.transaction({ db in
            try db.row("SELECT salt, secretHash FROM accounts WHERE name = ?", [name])
        }), case .blob(let salt) = row.values[0], case .blob(let stored) = row.values[1] else { return false }
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

/// `accounts.sqlite`, the accounts of a directory store. A file put back
/// while a service runs (a backup restored, the directory replaced) is
/// opened again at the next request, as the store is (`ServedDirectory`):
/// an account removed since is refused, and one made since let in,
/// instead of the service reading the file it opened until it restarts.
private final class AccountFile: StoreTransactions, Sendable {
    private let path: String
    /// The file open, and which file it is.
    private let opened: Mutex<(queue: DatabaseQueue, identity: FileIdentity?)>

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("accounts.sqlite").path
        let queue = try Self.open(path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS accounts (
                  name TEXT PRIMARY KEY NOT NULL,
                  salt BLOB NOT NULL,
                  secretHash BLOB NOT NULL,
                  createdAt TEXT NOT NULL)
                """)
        }
        opened = Mutex((queue, FileIdentity(path: path)))
        // Hashes only, but nobody else needs to read them.
        chmod(path, 0o600)
    }

    private static func open(_ path: String) throws -> DatabaseQueue {
        _ = reminders_sqlite_setup()
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The file the path names now. One that is missing, or cannot be read
    /// as an accounts file (still being copied), leaves the one open.
    private var current: DatabaseQueue {
        opened.withLock { opened in
            guard let now = FileIdentity(path: path), now != opened.identity,
                  let reopened = try? Self.open(path),
                  (try? reopened.read({ db in try db.tableExists("accounts") })) == true
            else { return opened.queue }
            opened = (reopened, now)
            return reopened
        }
    }

    func transaction<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try current.write { db in try body(SQLiteConnection(db)) }
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
