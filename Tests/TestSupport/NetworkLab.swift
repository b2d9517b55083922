import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A small network of Linux network namespaces for one test, so that a
/// server and its devices talk across real interfaces, as on machines of
/// their own, and a device's link can be cut:
///
///     device a: eth0 10.77.0.2 ─┐
///     device b: eth0 10.77.0.3 ─┤ veth pairs ── bridge br0 10.77.0.1: the server's namespace
///
/// Every namespace name starts with `remindertest-`, then the test
/// process's id and a number of its own, so that runs at the same time do
/// not meet. `remove()` deletes them (and the links with them); one left
/// behind by a run that was killed is deleted by the next run, once its
/// process is gone. Needs root (CAP_NET_ADMIN) and iproute2's `ip`.
public final class NetworkLab: Sendable {
    /// The server's address, on its namespace's bridge.
    public let serverAddress = "10.77.0.1"
    public let serverNamespace: String
    /// The devices, in order; device N has address 10.77.0.(N + 2).
    public let devices: [String]
    private let prefix: String
    private let ip: String

    /// Why namespaces cannot be made here (not root, no `ip`, or the
    /// kernel refuses), or nil when they can. Found once per process, by
    /// making a namespace and deleting it.
    public static let unavailableReason: String? = {
        guard geteuid() == 0 else { return "network namespaces need root (CAP_NET_ADMIN); this runs as uid \(geteuid())" }
        guard let ip = findIP() else { return "iproute2's ip is not installed (apt-get install iproute2)" }
        let probe = "remindertest-\(getpid())-probe"
        do {
            try run(ip, ["netns", "add", probe])
            try run(ip, ["netns", "delete", probe])
            return nil
        } catch {
            return "cannot make a network namespace: \(error)"
        }
    }()

    /// The namespaces of a server and of `devices` (short names: they name
    /// interfaces too), linked and up.
    public init(devices: [String]) throws {
        if let reason = Self.unavailableReason { throw LabError(description: reason) }
        guard let ip = Self.findIP() else { throw LabError(description: "iproute2's ip is not installed") }
        self.ip = ip
        self.devices = devices
        Self.removeLeftovers(ip: ip)
        prefix = "remindertest-\(getpid())-\(Self.nextNumber.add(1, ordering: .relaxed).newValue)"
        serverNamespace = "\(prefix)-server"
        do {
            try build()
        } catch {
            remove()
            throw error
        }
    }

    deinit {
        remove()
    }

    public func namespace(of device: String) -> String { "\(prefix)-\(device)" }

    public func address(of device: String) -> String {
        "10.77.0.\((devices.firstIndex(of: device) ?? 0) + 2)"
    }

    /// What runs a program inside `namespace`: put it before the command.
    public func launcher(_ namespace: String) -> [String] {
        [ip, "netns", "exec", namespace]
    }

    /// Which end of a device's link to cut: the device's own interface
    /// (its route goes: connections fail at once, "network is
    /// unreachable"), or the server's end (the device's side stays up but
    /// nothing gets through: connections wait until they time out).
    public enum LinkEnd: Sendable {
        case device, server
    }

    /// Takes a device's link down or up again.
    public func setLink(of device: String, up: Bool, end: LinkEnd = .device) throws {
        let (namespace, interface) = switch end {
        case .device: (self.namespace(of: device), "eth0")
        case .server: (serverNamespace, serverInterface(of: device))
        }
        try Self.run(ip, ["-n", namespace, "link", "set", interface, up ? "up" : "down"])
    }

    /// The bytes a device's interface has sent so far: proof that its
    /// traffic crossed the link, not a shortcut.
    public func bytesSent(by device: String) throws -> Int {
        struct Link: Decodable {
            struct Statistics: Decodable { struct Direction: Decodable { var bytes: Int }; var tx: Direction }
            var stats64: Statistics
        }
        let text = try Self.run(ip, ["-n", namespace(of: device), "-s", "-j", "link", "show", "eth0"])
        guard let link = try JSONDecoder().decode([Link].self, from: Data(text.utf8)).first else {
            throw LabError(description: "ip link show eth0 in \(namespace(of: device)) listed no link")
        }
        return link.stats64.tx.bytes
    }

    /// Deletes the namespaces, and the links with them. Processes still
    /// running inside keep theirs alive until they end: stop them first.
    public func remove() {
        for namespace in [serverNamespace] + devices.map(namespace(of:)) {
            _ = try? Self.run(ip, ["netns", "delete", namespace])
        }
    }

    /// Names the kernel gives no trouble: `veth-` and the device's index.
    private func serverInterface(of device: String) -> String {
        "veth-\(devices.firstIndex(of: device) ?? 0)"
    }

    private func build() throws {
        let server = serverNamespace
        try Self.run(ip, ["netns", "add", server])
        try Self.run(ip, ["-n", server, "link", "set", "lo", "up"])
        try Self.run(ip, ["-n", server, "link", "add", "br0", "type", "bridge"])
        try Self.run(ip, ["-n", server, "addr", "add", "\(serverAddress)/24", "dev", "br0"])
        try Self.run(ip, ["-n", server, "link", "set", "br0", "up"])
        for device in devices {
            let namespace = namespace(of: device)
            let peer = serverInterface(of: device)
            try Self.run(ip, ["netns", "add", namespace])
            try Self.run(ip, ["-n", namespace, "link", "set", "lo", "up"])
            // Both ends are made inside their namespaces: no name is taken
            // in the machine's own, even for a moment.
            try Self.run(ip, ["link", "add", "eth0", "netns", namespace, "type", "veth", "peer", "name", peer, "netns", server])
            try Self.run(ip, ["-n", server, "link", "set", peer, "master", "br0"])
            try Self.run(ip, ["-n", server, "link", "set", peer, "up"])
            try Self.run(ip, ["-n", namespace, "addr", "add", "\(address(of: device))/24", "dev", "eth0"])
            try Self.run(ip, ["-n", namespace, "link", "set", "eth0", "up"])
        }
    }

    /// Namespaces of earlier runs whose process is gone (killed before its
    /// clean-up ran).
    private static func removeLeftovers(ip: String) {
        guard let listing = try? run(ip, ["netns", "list"]) else { return }
        for line in listing.split(separator: "\n") {
            guard let name = line.split(separator: " ").first, name.hasPrefix("remindertest-") else { continue }
            let parts = name.split(separator: "-")
            guard parts.count >= 3, let pid = pid_t(parts[1]), pid != getpid() else { continue }
            if Glibc.kill(pid, 0) != 0, errno == ESRCH {
                _ = try? run(ip, ["netns", "delete", String(name)])
            }
        }
    }

    private static let nextNumber = Atomic(0)

    private static func findIP() -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/ip" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @discardableResult
    private static func run(_ ip: String, _ arguments: [String]) throws -> String {
        let result = try Subprocess.run([ip] + arguments, environment: ["PATH": "/usr/sbin:/sbin:/usr/bin:/bin"],
                                        timeout: 30)
        guard result.status == 0 else {
            throw LabError(description: "ip \(arguments.joined(separator: " ")): \(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return result.stdout
    }

    public struct LabError: Error, CustomStringConvertible {
        public var description: String
    }
}
