import CloudServerPostgres
import Foundation

/// A loopback port nothing listens on now, for a server a test starts.
public func freeLoopbackPort() throws -> Int {
    try LocalCluster.freeLoopbackPort()
}
