import CloudClient
import Foundation

/// The accounts this user signed in to on network services, kept in
/// `$XDG_CONFIG_HOME/reminders/credentials.json` (or
/// `~/.config/reminders/credentials.json`), readable by the owner only.
struct Credentials: Codable, Equatable {
    struct Entry: Codable, Equatable {
        var url: String
        var user: String
        var secret: String
        /// The certificate authority an HTTPS service is trusted by.
        var certificateAuthority: String?
    }

    var servers: [Entry] = []

    static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return "\(xdg)/reminders/credentials.json"
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return "\(home)/.config/reminders/credentials.json"
    }

    static func load(from path: String = path()) throws -> Credentials {
        guard let data = FileManager.default.contents(atPath: path) else { return Credentials() }
        do {
            return try JSONDecoder().decode(Credentials.self, from: data)
        } catch {
            throw CLIFailure("\(path) is not a credentials file this version can read; remove it and sign in again")
        }
    }

    /// Writes the file whole, by rename, created readable by the owner only.
    func save(to path: String = path()) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let temporary = path + ".tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: try encoder.encode(self),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw CLIFailure("cannot write \(temporary)")
        }
        guard rename(temporary, path) == 0 else {
            throw CLIFailure("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The credential for `url`: the one of `user` if given, else the only
    /// one there is for that server.
    func credential(for url: String, user: String?) throws -> RemoteCredential {
        let key = Self.normalize(url)
        let matches = servers.filter { Self.normalize($0.url) == key && (user == nil || $0.user == user) }
        guard let entry = matches.first else {
            let who = user.map { " as \($0)" } ?? ""
            // Signed in elsewhere: most likely a mistyped --server (another
            // port, localhost for 127.0.0.1), which names no server here.
            let elsewhere = Array(Set(servers.map { Self.normalize($0.url) })).sorted()
            guard elsewhere.isEmpty else {
                throw CLIFailure("not signed in to \(key)\(who); signed in to \(elsewhere.joined(separator: ", ")). "
                                 + "Point --server there, or run `reminders login \(key) --user \(user ?? "NAME")` to use this one", code: 4)
            }
            throw CLIFailure("not signed in to \(key)\(who): run `reminders login \(key) --user \(user ?? "NAME")` first", code: 3)
        }
        guard matches.count == 1 else {
            throw CLIFailure("signed in to \(key) as \(matches.map(\.user).joined(separator: ", ")): say which with --user")
        }
        return RemoteCredential(userName: entry.user, secret: entry.secret,
                                certificateAuthority: entry.certificateAuthority)
    }

    mutating func store(url: String, user: String, secret: String, certificateAuthority: String?) {
        let key = Self.normalize(url)
        servers.removeAll { Self.normalize($0.url) == key && $0.user == user }
        servers.append(Entry(url: key, user: user, secret: secret, certificateAuthority: certificateAuthority))
    }

    static func normalize(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// The URL of a network service, without a trailing slash; exit 2 for
    /// text that is not an http(s) URL with a host.
    static func serviceURL(_ text: String) throws -> URL {
        guard isURL(text), let url = URL(string: normalize(text)), url.host != nil else {
            throw CLIFailure("'\(text)' is not a server URL (http://HOST:PORT or https://HOST:PORT)", code: 2)
        }
        return url
    }

    /// Whether `server` names a network service rather than a directory.
    static func isURL(_ server: String) -> Bool {
        server.hasPrefix("http://") || server.hasPrefix("https://")
    }
}

/// A failure of the command line's own (a credential missing, a file it
/// cannot write): one line, and its exit code (1 unless told).
struct CLIFailure: Error, CommandLineError {
    var message: String
    var exitCode: Int32

    init(_ message: String, code: Int32 = 1) {
        self.message = message
        exitCode = code
    }
}
