import Foundation
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL store is: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
/// with `?host=/DIRECTORY` for a Unix socket (then HOST may be left out)
/// and `?sslmode=require` for TLS (the default is no TLS, for a database on
/// loopback or a socket).
public struct PostgresAddress: Sendable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    /// The directory of the server's Unix socket, if it is reached by one.
    public var socketDirectory: String?
    public var requiresTLS: Bool

    /// Whether `text` names a PostgreSQL store rather than a directory.
    public static func isAddress(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Parses a `postgres://` URL; throws `PostgresStoreError.badAddress`
    /// with what is wrong.
    public init(_ text: String) throws {
        guard Self.isAddress(text), let components = URLComponents(string: text) else {
            throw PostgresStoreError.badAddress(text, "write it as postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        for name in query.keys where !["host", "sslmode", "user", "password"].contains(name) {
            throw PostgresStoreError.badAddress(text, "unknown parameter '\(name)' (host, sslmode, user and password are understood)")
        }
        user = components.user ?? query["user"] ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password ?? query["password"]
        port = components.port ?? 5432
        database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PostgresStoreError.badAddress(text, "name the database after the host: postgres://HOST/DATABASE")
        }
        if let directory = query["host"], directory.hasPrefix("/") {
            socketDirectory = directory
            host = components.host ?? "localhost"
        } else {
            socketDirectory = nil
            host = query["host"] ?? components.host ?? ""
            if host.isEmpty {
                socketDirectory = "/var/run/postgresql"
                host = "localhost"
            }
        }
        switch query["sslmode"] ?? "disable" {
        case "disable": requiresTLS = false
        case "require", "verify-full": requiresTLS = true
        case let mode: throw PostgresStoreError.badAddress(text, "sslmode '\(mode)' is not understood (disable or require)")
        }
    }

    /// The address without its password, for messages (and, with no
    /// password needed, for `--store`).
    public var description: String {
        let socket = socketDirectory.map { "?host=\($0)" } ?? ""
        return "postgres://\(user)@\(host):\(port)/\(database)\(socket)"
    }

    func configuration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketDirectory {
            configuration = .init(unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user,
                                  password: password, database: database)
        } else {
            let tls: PostgresConnection.Configuration.TLS = requiresTLS
                ? .require(try NIOSSLContext(configuration: .makeClientConfiguration())) : .disable
            configuration = .init(host: host, port: port, username: user, password: password, database: database, tls: tls)
        }
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }
}

public enum PostgresStoreError: Error, CustomStringConvertible {
    case badAddress(String, String)

    public var description: String {
        switch self {
        case .badAddress(let text, let problem): "'\(text)' is not a PostgreSQL address: \(problem)"
        }
    }
}
