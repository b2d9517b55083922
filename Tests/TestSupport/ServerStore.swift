import CloudServerPostgres
import Foundation
import Testing

/// The kinds of store a test's `reminders serve` can keep its data in.
/// Tests of the network service take one as an argument and run on each
/// kind in `available`, so that every store is held to the same checks.
public enum ServerStoreKind: String, Sendable, CustomTestStringConvertible {
    /// A server directory (`DirectoryServer`) in the test's folder.
    case directory
    /// A new database in the test run's PostgreSQL cluster (`TestPostgres`).
    case postgres

    /// The kinds this machine can run: PostgreSQL where it is installed,
    /// and always in CI.
    public static var available: [ServerStoreKind] {
        TestPostgres.isEnabled ? [.directory, .postgres] : [.directory]
    }

    public var testDescription: String { rawValue }

    /// A new, empty store for one test; `folder` is the test's own folder.
    public func make(in folder: URL) throws -> ServerStore {
        switch self {
        case .directory:
            let directory = folder.appendingPathComponent("store")
            // `reminders serve` makes the directory; nothing to remove but
            // the test's folder.
            return ServerStore(kind: self, argument: directory.path, remove: {})
        case .postgres:
            // Through the socket, which servers in network namespaces of
            // their own reach too. The database goes with the cluster when
            // the test run ends.
            return ServerStore(kind: self, argument: "\(try TestPostgres.database(throughSocket: true))", remove: {})
        }
    }
}

/// One test's store: what `reminders serve --store` and `reminders serve
/// user add --store` are given, and how to remove it afterwards.
public struct ServerStore: Sendable {
    public let kind: ServerStoreKind
    /// The `--store` argument: a directory's path, or a database URL.
    public let argument: String
    private let removal: @Sendable () -> Void

    public init(kind: ServerStoreKind, argument: String, remove: @escaping @Sendable () -> Void) {
        self.kind = kind
        self.argument = argument
        removal = remove
    }

    /// Removes what the store holds outside the test's folder.
    public func remove() { removal() }

    /// A copy of the store as it is now, as a backup put back would be: the
    /// directory copied into `folder`, or the database copied into a new
    /// one. No server may be running on the store meanwhile.
    public func backup(in folder: URL) throws -> ServerStore {
        switch kind {
        case .directory:
            let copy = folder.appendingPathComponent("backup-\(UUID().uuidString)")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: argument), to: copy)
            return ServerStore(kind: kind, argument: copy.path, remove: {})
        case .postgres:
            let copy = try TestPostgres.copy(of: try PostgresAddress(argument))
            return ServerStore(kind: kind, argument: "\(copy)", remove: {})
        }
    }
}
