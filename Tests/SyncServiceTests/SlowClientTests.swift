import CloudClient
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Clients that misbehave at the socket: one that stops halfway through a
/// request's head, one that closes its sending side after its request, one
/// that sends bytes that are not HTTP. None of them wedges `reminders
/// serve`: others are answered meanwhile, the stalled connection is closed
/// after the idle timeout, and the half-closed one gets its answer.
@Suite struct SlowClientTests {
    @Test func stalledHalfClosedAndGarbledConnectionsNeverWedgeTheServer() async throws {
        let world = try await ServiceWorld(.directory)
        let (server, url) = try await ServiceWorld.serve(
            store: world.storeArgument, home: world.folder, secret: world.secret("alice"), options: ["--idle-timeout", "2"])
        defer {
            server.signal(SIGTERM)
            _ = try? server.wait(timeout: 10)
        }
        let port = try #require(url.port)
        let remote = RemoteServer(url: url, credential: RemoteCredential(userName: "alice", secret: world.secret("alice")))
        let authorization = "Basic " + Data("alice:\(world.secret("alice"))".utf8).base64EncodedString()

        try await blocking {
            // Half a request head, then nothing.
            let stalled = try RawConnection(port: port)
            try stalled.send("POST /v1/db/private HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le")
            // Others are answered meanwhile.
            #expect(try remote.fetchHead() >= 0)
            // And the stalled connection is closed once idle for 2 s.
            let started = Date()
            let leftover = try stalled.receiveAll(timeout: 15)
            #expect(Date().timeIntervalSince(started) < 10)
            #expect(!leftover.contains("200 OK"))

            // A whole request, then the sending side closed: still answered.
            let halfClosed = try RawConnection(port: port)
            try halfClosed.send("GET /v1/head HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: \(authorization)\r\n\r\n")
            halfClosed.closeSending()
            let answer = try halfClosed.receiveAll(timeout: 15)
            #expect(answer.hasPrefix("HTTP/1.1 200"))
            #expect(answer.contains("\"head\""))

            // Bytes that are not HTTP: refused, and the server goes on.
            let garbled = try RawConnection(port: port)
            try garbled.send("\u{1}\u{2}not http at all\r\n\r\n")
            let refusal = try garbled.receiveAll(timeout: 15)
            #expect(refusal.isEmpty || refusal.hasPrefix("HTTP/1.1 4"))
            #expect(try remote.fetchHead() >= 0)
        }
    }
}

/// A TCP connection to the service on loopback, driven byte by byte.
private final class RawConnection {
    private let socket: Int32

    init(port: Int) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw SocketFailure(what: "connect") }
    }

    deinit { close(socket) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(socket, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw SocketFailure(what: "send")
        }
    }

    func closeSending() {
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Everything the server sends until it closes the connection, or until
    /// `timeout` passes with nothing more.
    func receiveAll(timeout: Int) throws -> String {
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count > 0 {
                received += buffer[0..<count]
                // A complete answer that keeps the connection open is enough.
                if let text = String(bytes: received, encoding: .utf8), Self.isComplete(text) { break }
                continue
            }
            if count == 0 || errno == ECONNRESET { break }
            throw SocketFailure(what: "recv (nothing within \(timeout) s)")
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A response whose body, by its Content-Length, has all arrived.
    private static func isComplete(_ text: String) -> Bool {
        guard let split = text.range(of: "\r\n\r\n") else { return false }
        let head = text[..<split.lowerBound].lowercased()
        guard let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
              let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) else { return false }
        return text[split.upperBound...].utf8.count >= length
    }

    struct SocketFailure: Error, CustomStringConvertible {
        var what: String
        var description: String { "\(what) failed: \(String(cString: strerror(errno)))" }
    }
}
