import Foundation
import CloudServerPostgres
import Synchronization

/// The PostgreSQL cluster of a test run: started the first time a test asks
/// for a database (in a temporary folder, on a free loopback port, from
/// Debian's programs), and stopped when the test process exits. Every test
/// gets a database of its own.
public enum TestPostgres {
    /// Whether tests that need PostgreSQL run: where its programs are
    /// installed, and always in CI (`CI` set), where a missing PostgreSQL
    /// must fail those tests rather than skip them.
    public static var isEnabled: Bool {
        LocalCluster.binaries() != nil || ProcessInfo.processInfo.environment["CI"] != nil
    }

    private static let shared = Mutex<LocalCluster?>(nil)

    /// The cluster, started if it is not yet.
    public static func cluster() throws -> LocalCluster {
        try shared.withLock { cluster in
            if let cluster { return cluster }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reminders-postgres-\(UUID().uuidString)")
            let started = try LocalCluster(directory: folder, port: try freeLoopbackPort(), durable: false)
            cluster = started
            atexit {
                TestPostgres.shared.withLock { cluster in
                    try? cluster?.stop(immediately: true)
                    if let folder = cluster?.directory { try? FileManager.default.removeItem(at: folder) }
                }
            }
            return started
        }
    }

    /// A new empty database in the cluster, as a `postgres://` address over
    /// TCP, or through the cluster's Unix socket (which a server in another
    /// network namespace reaches too).
    public static func database(throughSocket: Bool = false) throws -> PostgresAddress {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let address = try cluster().createDatabase(name)
        return throughSocket ? try cluster().socketAddress(of: name) : address
    }

    /// A copy of the database at `address` as it is now (a backup, put
    /// back as a database of its own), reached the same way.
    public static func copy(of address: PostgresAddress) throws -> PostgresAddress {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let copied = try cluster().copyDatabase(address.database, to: name)
        return address.socketDirectory == nil ? copied : try cluster().socketAddress(of: name)
    }
}
