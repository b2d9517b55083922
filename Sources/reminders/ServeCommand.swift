import ArgumentParser
import CloudClient
import CloudServer
import Foundation
import NIOCore
import Hummingbird
import CloudServerPostgres
import SyncService

/// `reminders serve`: the server as a network service, for devices on
/// other machines.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a store over HTTP to the devices of its accounts.",
        discussion: """
            Devices reach it with --server http://HOST:PORT after `reminders login`. \
            Accounts are made with `reminders serve user add NAME --store STORE`. \
            The store is a server directory, or a PostgreSQL database \
            (postgres://USER@HOST[:PORT]/DATABASE) that several servers may share. \
            It listens on loopback unless told otherwise; another address needs \
            HTTPS (--tls-cert, --tls-key), or --insecure for plain HTTP.
            """,
        subcommands: [ServeRunCommand.self, ServeUserCommand.self],
        defaultSubcommand: ServeRunCommand.self)
}

struct StoreOption: ParsableArguments {
    @Option(name: .customLong("store"), help: ArgumentHelp(
        "The store: a server directory, or a PostgreSQL database as postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE.",
        valueName: "store"))
    var store: String

    var directory: URL { URL(fileURLWithPath: Location.expand(store)) }

    /// The store, opened: a directory is made if missing, and a PostgreSQL
    /// database gets its tables.
    func open() throws -> any CloudStore {
        do {
            if PostgresAddress.isAddress(store) {
                return try PostgresStore(address: try postgresAddress())
            }
            return try DirectoryServer(directory: directory)
        } catch let error as CloudError {
            throw SyncFailure(error)
        }
    }

    /// The accounts of the store: `accounts.sqlite` in a directory, the
    /// `accounts` table of a PostgreSQL store.
    func accounts(of opened: (any CloudStore)? = nil) throws -> AccountStore {
        if PostgresAddress.isAddress(store) {
            guard let postgres = try (opened ?? open()) as? PostgresStore else {
                throw CLIFailure("\(try postgresAddress()) is not open as a PostgreSQL store")
            }
            return AccountStore(database: postgres)
        }
        do {
            return try AccountStore(directory: directory)
        } catch {
            throw CLIFailure("cannot open the accounts of \(store): \(error)")
        }
    }

    private func postgresAddress() throws -> PostgresAddress {
        do {
            return try PostgresAddress(store)
        } catch let error as PostgresStoreError {
            throw CLIFailure(error.description, code: 2)
        }
    }
}

struct ServeRunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Serve the store (the default).")

    @OptionGroup var store: StoreOption

    @Option(help: ArgumentHelp("Address and port to listen on (port 0: any free port).", valueName: "host:port"))
    var listen = "127.0.0.1:8080"

    @Option(name: .customLong("tls-cert"), help: ArgumentHelp("Serve HTTPS with this certificate (chain), PEM.", valueName: "file"))
    var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The certificate's private key, PEM.", valueName: "file"))
    var tlsKey: String?

    @Option(name: .customLong("idle-timeout"), help: ArgumentHelp(
        "Close a connection that sends nothing for this long (more than the 30 s long poll).", valueName: "seconds"))
    var idleTimeout: Int = 60

    @Flag(help: "Serve plain HTTP on an address other than loopback.")
    var insecure = false

    var tls: ServerTLS? {
        guard let tlsCert, let tlsKey else { return nil }
        return ServerTLS(certificatePath: Location.expand(tlsCert), keyPath: Location.expand(tlsKey))
    }

    func validate() throws {
        let (host, _) = try Self.split(listen)
        if idleTimeout < 1 {
            throw ValidationError("--idle-timeout takes a number of seconds, 1 or more; got \(idleTimeout)")
        }
        if (tlsCert == nil) != (tlsKey == nil) {
            throw ValidationError("--tls-cert and --tls-key go together")
        }
        if !Self.isLoopback(host), tls == nil, !insecure {
            throw ValidationError("\(host) is not a loopback address: plain HTTP there would show every secret to the network; serve HTTPS with --tls-cert and --tls-key, or pass --insecure to do it anyway")
        }
    }

    func run() async throws {
        let (host, port) = try Self.split(listen)
        // The certificate first: a refused start leaves no store behind.
        do {
            try tls?.load()
        } catch let error as ServeError {
            throw CLIFailure(error.description, code: 2)
        }
        // A store without accounts serves no one: a mistyped --store would
        // otherwise become a new, empty store that refuses every device.
        if !PostgresAddress.isAddress(store.store),
           !FileManager.default.fileExists(atPath: store.directory.appendingPathComponent("accounts.sqlite").path) {
            let what = FileManager.default.fileExists(atPath: store.directory.path)
                ? "there are no accounts in" : "there is no store at"
            throw CLIFailure("\(what) \(store.directory.path), so no device could sync; 'reminders serve user add NAME --store \(store.store)' makes one", code: 2)
        }
        let opened = try store.open()
        // A directory deleted or put back while served is opened again.
        let server: any CloudStore = (opened as? DirectoryServer).map(ServedDirectory.init) ?? opened
        let accounts = try store.accounts(of: opened)
        guard try !accounts.names().isEmpty else {
            throw CLIFailure("the store \(store.store) has no accounts, so no device could sync; 'reminders serve user add NAME --store \(store.store)' makes one", code: 2)
        }
        let service = SyncServer(store: server, accounts: accounts)
        let scheme = tls == nil ? "http" : "https"
        let storeName = store.store
        let app: Application<RouterResponder<BasicRequestContext>>
        do {
            app = try service.application(host: host, port: port, tls: tls, idleTimeout: .seconds(idleTimeout)) { bound in
                // The line scripts and tests wait for, with the port a
                // request for port 0 got.
                print("reminders: serving \(storeName) on \(scheme)://\(host):\(bound)")
                fflush(nil)
            }
        } catch let error as ServeError {
            throw CLIFailure(error.description, code: 2)
        }
        do {
            try await app.runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw CLIFailure("cannot listen on \(listen): the address is in use (another reminders serve?); stop it, or pick another port with --listen", code: 1)
        } catch let error as IOError where error.errnoCode == EADDRNOTAVAIL {
            throw CLIFailure("cannot listen on \(listen): no interface of this machine has that address", code: 2)
        }
    }

    static func split(_ address: String) throws -> (String, Int) {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]),
              (0...65535).contains(port), colon > address.startIndex else {
            throw ValidationError("--listen takes HOST:PORT, such as 127.0.0.1:8080; got '\(address)'")
        }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return (host, port)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

struct ServeUserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Make, remove and list the accounts of a store.",
        subcommands: [ServeUserAdd.self, ServeUserRemove.self, ServeUserList.self])
}

struct ServeUserAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Make an account; its secret is printed once, as the last line.")

    @Argument(help: "The account's name.") var name: String
    @OptionGroup var store: StoreOption

    func run() throws {
        let secret: String
        do {
            secret = try store.accounts().add(name)
        } catch let error as AccountError {
            throw CLIFailure(error.description, code: 2)
        }
        print("Made account \(name). Its secret, shown this once (give it to `reminders login`):")
        print(secret)
    }
}

struct ServeUserRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove an account: its devices are refused from then on; its data stays.")

    @Argument(help: "The account's name.") var name: String
    @OptionGroup var store: StoreOption

    func run() throws {
        do {
            try store.accounts().remove(name)
        } catch let error as AccountError {
            throw CLIFailure(error.description, code: 2)
        }
        print("Removed account \(name).")
    }
}

struct ServeUserList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the accounts.")

    @OptionGroup var store: StoreOption

    func run() throws {
        for name in try store.accounts().names() { print(name) }
    }
}

/// `reminders login URL --user NAME`: stores the secret of an account for
/// this user's devices.
struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a network service: reads the account's secret from standard input and keeps it.",
        discussion: "The secret is kept in $XDG_CONFIG_HOME/reminders/credentials.json, readable by you only.")

    @Argument(help: "The service's URL, such as http://127.0.0.1:8080.") var url: String
    @Option(help: "The account's name.") var user: String
    @Option(name: .customLong("secret-file"), help: ArgumentHelp(
        "Read the secret from this file (its first line) instead of standard input.", valueName: "file"))
    var secretFile: String?
    @Option(name: .customLong("ca-cert"), help: ArgumentHelp(
        "Trust an HTTPS service by this certificate authority (or its self-signed certificate), PEM.", valueName: "file"))
    var caCert: String?

    func run() throws {
        let address = try Credentials.serviceURL(url)
        let secret: String
        if let secretFile {
            guard let text = try? String(contentsOfFile: Location.expand(secretFile), encoding: .utf8) else {
                throw CLIFailure("cannot read \(secretFile)", code: 2)
            }
            secret = String(text.split(separator: "\n").first ?? "").trimmingCharacters(in: .whitespaces)
        } else {
            if isatty(STDIN_FILENO) != 0 {
                FileHandle.standardError.write(Data("Secret for \(user) at \(address.absoluteString): ".utf8))
            }
            secret = Self.readSecret()
        }
        guard !secret.isEmpty else { throw CLIFailure("no secret given", code: 2) }
        let authority = caCert.map { URL(fileURLWithPath: Location.expand($0)).standardizedFileURL.path }
        if let authority, !FileManager.default.isReadableFile(atPath: authority) {
            throw CLIFailure("cannot read \(authority)", code: 2)
        }
        let credential = RemoteCredential(userName: user, secret: secret, certificateAuthority: authority)
        // Checked before it is kept: a typo is caught now, not at the first sync.
        do {
            _ = try RemoteServer(url: address, credential: credential, timeout: .seconds(10)).fetchHead()
        } catch let error as CloudError {
            throw SyncFailure(error)
        }
        var credentials = try Credentials.load()
        credentials.store(url: address.absoluteString, user: user, secret: secret, certificateAuthority: authority)
        try credentials.save()
        print("Signed in to \(address.absoluteString) as \(user).")
    }

    /// One line from standard input, not echoed when it is a terminal.
    static func readSecret() -> String {
        var original = termios()
        let isTerminal = tcgetattr(STDIN_FILENO, &original) == 0
        if isTerminal {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        }
        defer {
            if isTerminal {
                tcsetattr(STDIN_FILENO, TCSANOW, &original)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        return (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces)
    }
}
