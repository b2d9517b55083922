import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import NIOPosix
import PostgresNIO

/// A PostgreSQL cluster of its own, made in a folder and served on
/// loopback, from the programs of Debian's `postgresql` package: what the
/// tests, the benchmark and the demos run the PostgreSQL store on, so
/// that none of them needs a database set up beforehand.
///
/// PostgreSQL refuses to run as root; run as root (as CI does), the cluster
/// belongs to the `postgres` user and its programs run through `runuser`.
public final class LocalCluster: Sendable {
    public let directory: URL
    public let port: Int
    private let binaries: URL
    private let runAs: String?

    /// The folder of `initdb` and `pg_ctl`: the newest under
    /// /usr/lib/postgresql, or the one on the PATH. Nil if PostgreSQL's
    /// server programs are not installed.
    public static func binaries() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
            .compactMap(Int.init).sorted(by: >)
        for version in versions {
            let bin = root.appendingPathComponent("\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let bin = URL(fileURLWithPath: String(folder))
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        return nil
    }

    /// Makes a cluster in `directory` (which must not exist) and starts it
    /// on 127.0.0.1:`port` (a free one if nil), with its socket in
    /// `directory`.
    ///
    /// - parameter durable: false turns off fsync, for tests: a server
    ///   killed still loses nothing, only a machine that loses power does.
    public init(directory: URL, port: Int? = nil, durable: Bool = true) throws {
        guard let binaries = Self.binaries() else {
            throw LocalClusterError.failed("PostgreSQL's server programs (initdb, pg_ctl) are not installed; apt-get install postgresql")
        }
        self.binaries = binaries
        self.directory = directory
        let port = try port ?? Self.freeLoopbackPort()
        self.port = port
        runAs = getuid() == 0 ? "postgres" : nil
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let runAs {
            try run("/bin/chown", [runAs, directory.path], asUser: nil)
        }
        try run(binaries.appendingPathComponent("initdb").path,
                ["-D", dataDirectory, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        var settings = [
            "listen_addresses = '127.0.0.1'", "port = \(port)", "unix_socket_directories = '\(directory.path)'",
            "max_connections = 200", "shared_buffers = 32MB",
        ]
        // Commits still write their WAL before they answer (a killed server
        // loses nothing); only the flush to the disk itself is skipped.
        if !durable { settings += ["fsync = off"] }
        let configuration = URL(fileURLWithPath: dataDirectory).appendingPathComponent("postgresql.conf")
        let handle = try FileHandle(forWritingTo: configuration)
        handle.seekToEndOfFile()
        handle.write(Data(("\n" + settings.joined(separator: "\n") + "\n").utf8))
        try handle.close()
        try start()
    }

    private var dataDirectory: String { directory.appendingPathComponent("data").path }

    /// Starts the server and waits until it takes connections.
    public func start() throws {
        try run(binaries.appendingPathComponent("pg_ctl").path,
                ["-D", dataDirectory, "-l", directory.appendingPathComponent("server.log").path, "-w", "-t", "60", "start"])
    }

    /// Stops the server: `fast` rolls back open transactions and shuts down
    /// cleanly, `immediate` is a crash (recovery runs at the next start).
    public func stop(immediately: Bool = false) throws {
        try run(binaries.appendingPathComponent("pg_ctl").path,
                ["-D", dataDirectory, "-m", immediately ? "immediate" : "fast", "-w", "-t", "60", "stop"])
    }

    /// Makes an empty database (or a copy of `template`) and returns its address.
    public func createDatabase(_ name: String, template: String? = nil) throws -> PostgresAddress {
        let connection = try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.any(),
            configuration: .init(host: "127.0.0.1", port: port, username: "postgres", password: nil, database: "postgres", tls: .disable),
            id: 0, logger: Logger(label: "reminders.postgres.cluster")
        ).wait()
        defer { try? connection.close().wait() }
        let copying = template.map { " TEMPLATE \"\($0)\"" } ?? ""
        _ = try connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \"\(name)\"\(copying)"),
                                 logger: Logger(label: "reminders.postgres.cluster")).wait()
        return try PostgresAddress("postgres://postgres@127.0.0.1:\(port)/\(name)")
    }

    /// A copy of database `source` as it is now, as a backup restored into
    /// a new database would be. Nothing may be connected to `source`.
    public func copyDatabase(_ source: String, to name: String) throws -> PostgresAddress {
        try createDatabase(name, template: source)
    }

    /// The address of database `name` through the cluster's Unix socket,
    /// which a process in another network namespace reaches too.
    public func socketAddress(of name: String) throws -> PostgresAddress {
        try PostgresAddress("postgres://postgres@localhost:\(port)/\(name)?host=\(directory.path)")
    }

    private func run(_ program: String, _ arguments: [String]) throws {
        try run(program, arguments, asUser: runAs)
    }

    /// Runs a program to its end (as `user`, through `runuser`, if given).
    /// It is spawned and waited for directly, not through Foundation's
    /// `Process`, whose reaping of children a process that spawns others
    /// itself (a test run) can take away from it.
    private func run(_ program: String, _ arguments: [String], asUser user: String?) throws {
        let command = user.map { ["/usr/sbin/runuser", "-u", $0, "--", program] } ?? [program]
        // Output goes to a file, not a pipe: the server that `pg_ctl start`
        // leaves running would hold a pipe open.
        let outputFile = directory.appendingPathComponent("command-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (command + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw LocalClusterError.failed("cannot run \(command[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        // Exited (low 7 bits 0) with status 0.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw LocalClusterError.failed("\((program as NSString).lastPathComponent) \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }
}

extension LocalCluster {
    /// A loopback port nothing listens on now.
    public static func freeLoopbackPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw LocalClusterError.failed("no free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

public enum LocalClusterError: Error, CustomStringConvertible {
    case failed(String)

    public var description: String {
        switch self {
        case .failed(let message): message
        }
    }
}
