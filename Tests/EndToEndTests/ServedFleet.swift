import Foundation
import TestSupport

/// `reminders serve` on a new store of one kind, its accounts, and a fleet
/// of devices that reach it by URL through the `reminders` binary, each
/// with its own database and credentials. The service and its devices may
/// each run through a launcher (`ip netns exec NAME`).
final class ServedFleet {
    let folder = TemporaryDirectory(prefix: "reminders-served")
    let store: ServerStore
    let service: ServiceProcess
    let fleet: DeviceFleet
    /// Each account's secret, by user name.
    let secrets: [String: String]

    /// Makes the store and its accounts, and starts the service.
    /// - Parameters:
    ///   - host: the address the service listens on.
    ///   - launcher: what the service runs through.
    ///   - options: more options of `reminders serve`.
    init(store kind: ServerStoreKind, users: [String] = ["me"], host: String = "127.0.0.1",
         launcher: [String] = [], options: [String] = []) throws {
        store = try kind.make(in: folder.url)
        service = try ServiceProcess(store: store, host: host, home: folder.url, launcher: launcher, options: options)
        var secrets: [String: String] = [:]
        for user in users { secrets[user] = try service.addUser(user) }
        self.secrets = secrets
        try service.start()
        fleet = try DeviceFleet(service: service.url)
    }

    /// Stops the service and removes the store and the devices' files.
    func cleanUp() {
        service.stop()
        store.remove()
        fleet.cleanUp()
    }

    /// Signs `device` in as `user`; the sign-in must succeed.
    func login(_ device: String, user: String = "me") throws {
        let result = try fleet.login(device, user: user, secret: secrets[user] ?? "")
        guard result.status == 0 else { throw LoginFailure(description: "\(user)@\(device): login: \(result)") }
    }

    struct LoginFailure: Error, CustomStringConvertible {
        var description: String
    }
}
