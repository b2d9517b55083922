import CloudServer
import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import NIOCore
import NIOSSL
import ServiceLifecycle

/// `reminders serve`: the operations of `CloudDatabase` over HTTP, for the
/// accounts of an `AccountStore`, on any `CloudStore`. docs/API.md is the
/// API; this file is the one place that speaks it on the server side.
public struct SyncServer: Sendable {
    public let store: any CloudStore
    public let accounts: AccountStore
    /// The largest request body: a batch of 400 records under 2 MB, as JSON.
    public static let maxRequestBytes = 8 * 1024 * 1024
    /// The largest asset (a list's cover image).
    public static let maxAssetBytes = 16 * 1024 * 1024
    /// How long a long poll of the head waits at most.
    public static let maxWait: Double = 30

    public init(store: any CloudStore, accounts: AccountStore) {
        self.store = store
        self.accounts = accounts
    }

    /// The service, ready to run: plain HTTP, or HTTPS with `tls`.
    /// - Parameter onRunning: called with the port once it listens (the
    ///   one the system chose, for port 0).
    /// - Throws: `ServeError` for a certificate or key that cannot be read.
    /// - Parameter idleTimeout: how long a connection may send nothing
    ///   (between requests, or stuck in a request's head) before it is
    ///   closed, so that slow or abandoned clients cannot pile up. Longer
    ///   than the longest long poll.
    public func application(host: String, port: Int, tls: ServerTLS? = nil, idleTimeout: Duration = .seconds(60),
                            onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        throws -> Application<RouterResponder<BasicRequestContext>> {
        let http1 = HTTPServerBuilder.http1(configuration: .init(idleTimeout: TimeAmount(idleTimeout)))
        let server: HTTPServerBuilder
        if let tls {
            let (chain, key) = try tls.load()
            server = try .tls(http1, tlsConfiguration: .makeServerConfiguration(
                certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key)))
        } else {
            server = http1
        }
        return Application(
            router: router(), server: server,
            configuration: .init(address: .hostname(host, port: port), serverName: "reminders"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) })
    }

    /// The routes, for `Application` (and for tests that serve them).
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        let server = self
        router.post("/v1/db/{scope}") { request, context in
            try await server.respond(request, context) { user, device in
                guard let scope = context.parameters.get("scope").flatMap(DatabaseScope.init(rawValue:)) else {
                    throw HTTPFailure(.notFound, "no such database: use /v1/db/private or /v1/db/shared")
                }
                var request = request
                let body = try await server.body(of: &request, limit: Self.maxRequestBytes)
                let database = server.store.cloudDatabase(user: user, scope: scope, device: device)
                let brief = Self.prefersMinimal(request)
                // Reading the request and writing the answer (a page of
                // records is over a megabyte) are work too: off the loop
                // with the store's.
                let answer = try await Self.offLoop { () throws -> Data in
                    let wire: WireRequest
                    do {
                        wire = try WireRequest(jsonData: body)
                    } catch {
                        throw HTTPFailure(.badRequest, "the request is not a valid operation: \(Self.describe(error))")
                    }
                    return try wire.perform(on: database, brief: brief).jsonData()
                }
                return Response(status: .ok, headers: [.contentType: "application/json"],
                                body: .init(byteBuffer: ByteBuffer(bytes: answer)))
            }
        }
        router.put("/v1/assets") { request, context in
            try await server.respond(request, context) { user, device in
                var request = request
                let body = try await server.body(of: &request, limit: Self.maxAssetBytes)
                let database = server.store.cloudDatabase(user: user, scope: .private, device: device)
                let asset = try await Self.offLoop { try database.uploadAsset(body) }
                return try Self.json(asset)
            }
        }
        router.get("/v1/assets/{sha256}") { request, context in
            try await server.respond(request, context) { user, device in
                guard let sha = context.parameters.get("sha256"), sha.count == 64,
                      let size = request.uri.queryParameters.get("size").flatMap({ Int($0) }) else {
                    throw HTTPFailure(.badRequest, "an asset is asked for by /v1/assets/SHA256?size=BYTES")
                }
                let database = server.store.cloudDatabase(user: user, scope: .private, device: device)
                let data = try await Self.offLoop { try database.assetData(Asset(sha256: sha, size: size)) }
                return Response(status: .ok, headers: [.contentType: "application/octet-stream"],
                                body: .init(byteBuffer: ByteBuffer(bytes: data)))
            }
        }
        router.get("/v1/head") { request, context in
            try await server.respond(request, context) { _, _ in
                let after = request.uri.queryParameters.get("after").flatMap { Int64($0) }
                let wait = min(request.uri.queryParameters.get("wait").flatMap { Double($0) } ?? 0, Self.maxWait)
                let head = try await server.head(after: after, waiting: wait)
                return try Self.json(["head": head])
            }
        }
        return router
    }

    /// Whether the request asks for brief answers (`Prefer: return=minimal`,
    /// RFC 7240): saves answered with the server's values only.
    static func prefersMinimal(_ request: Request) -> Bool {
        request.headers.contains { field in
            field.name.canonicalName == "prefer"
                && field.value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == "return=minimal" }
        }
    }

    /// The head once it is not `after` any more, or after `wait` seconds,
    /// or at once when the service is stopping: a stop waits for the
    /// requests under way, and a device asks again when it is back.
    func head(after: Int64?, waiting wait: Double) async throws -> Int64 {
        let deadline = ContinuousClock.now + .milliseconds(Int(wait * 1000))
        while true {
            let head = store.head()
            if head != after || ContinuousClock.now >= deadline || Task.isShuttingDownGracefully { return head }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Checks who asks, runs `body`, and turns every failure into an HTTP
    /// answer with a JSON error: `CloudError`s as `WireError`s with their
    /// status, anything else as a 500 that names it.
    private func respond(_ request: Request, _ context: BasicRequestContext,
                         _ body: (_ user: String, _ device: String) async throws -> Response) async throws -> Response {
        do {
            let user = try authenticate(request)
            let device = request.headers.first { $0.name.canonicalName == "x-reminders-device" }?.value ?? "unnamed"
            return try await body(user, device)
        } catch let error as CloudError {
            let wire = WireError(error)
            return try Self.json(["error": wire], status: .init(code: wire.httpStatus))
        } catch let failure as HTTPFailure {
            var response = try Self.json(["error": WireError(code: failure.code, message: failure.message)],
                                         status: failure.status)
            if failure.status == .unauthorized {
                response.headers[.wwwAuthenticate] = "Basic realm=\"reminders\""
            }
            return response
        } catch {
            return try Self.json(["error": WireError(code: "internal", message: Self.describe(error))],
                                 status: .internalServerError)
        }
    }

    /// The account a request comes from (HTTP Basic: name and secret).
    private func authenticate(_ request: Request) throws -> String {
        guard let header = request.headers[.authorization], header.hasPrefix("Basic "),
              let decoded = Data(base64Encoded: String(header.dropFirst(6))).flatMap({ String(data: $0, encoding: .utf8) }),
              let colon = decoded.firstIndex(of: ":") else {
            throw HTTPFailure(.unauthorized, "sign in: this server needs an account name and secret")
        }
        let name = String(decoded[..<colon])
        let secret = String(decoded[decoded.index(after: colon)...])
        guard accounts.verify(name, secret: secret) else {
            throw HTTPFailure(.unauthorized, "unknown account or wrong secret")
        }
        return name
    }

    private func body(of request: inout Request, limit: Int) async throws -> Data {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch {
            throw HTTPFailure(.contentTooLarge, "the request is over \(limit / 1024 / 1024) MB")
        }
    }

    /// Runs store work (blocking file and database calls) off the event
    /// loop.
    static func offLoop<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try work() })
            }
        }
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONEncoder().encode(value)
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DecodingError {
            switch error {
            case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
                 .valueNotFound(_, let context):
                let path = context.codingPath.map(\.stringValue).joined(separator: ".")
                return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
            @unknown default:
                return "\(error)"
            }
        }
        return "\(error)"
    }
}

/// A request refused before it reached the store.
struct HTTPFailure: Error {
    var status: HTTPResponse.Status
    var code: String
    var message: String

    init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
        code = switch status {
        case .unauthorized: "unauthorized"
        case .contentTooLarge: "tooLarge"
        case .notFound: "notFound"
        default: "badRequest"
        }
    }
}

/// The certificate (chain) and private key HTTPS is served with, as PEM
/// files.
public struct ServerTLS: Sendable {
    public var certificatePath: String
    public var keyPath: String

    public init(certificatePath: String, keyPath: String) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
    }

    /// Reads both files; `ServeError` names the one that cannot be used.
    @discardableResult
    public func load() throws -> ([NIOSSLCertificate], NIOSSLPrivateKey) {
        let chain: [NIOSSLCertificate]
        let key: NIOSSLPrivateKey
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificatePath)
        } catch {
            throw ServeError("cannot read the certificate \(certificatePath) (PEM expected): \(error)")
        }
        do {
            key = try NIOSSLPrivateKey(file: keyPath, format: .pem)
        } catch {
            throw ServeError("cannot read the private key \(keyPath) (PEM expected): \(error)")
        }
        guard !chain.isEmpty else { throw ServeError("\(certificatePath) holds no certificate") }
        return (chain, key)
    }
}

/// Why the service cannot start, in one line.
public struct ServeError: Error, CustomStringConvertible {
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
