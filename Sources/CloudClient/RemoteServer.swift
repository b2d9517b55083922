import AsyncHTTPClient
import CloudServer
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Synchronization

/// Who a device signs in as on a network service: an account name and its
/// secret (see `reminders login`).
public struct RemoteCredential: Sendable, Equatable {
    public var userName: String
    public var secret: String
    /// A PEM file of the certificate authority (or the self-signed
    /// certificate) an HTTPS service is trusted by, in place of the
    /// system's; nil for the system's.
    public var certificateAuthority: String?

    public init(userName: String, secret: String, certificateAuthority: String? = nil) {
        self.userName = userName
        self.secret = secret
        self.certificateAuthority = certificateAuthority
    }
}

/// A network service (`reminders serve`) as a device reaches it: every
/// `CloudDatabase` call is one HTTP request, with the same results and the
/// same errors as the directory store. A server out of reach, a cut
/// connection or an answer that is not the API's is `serverUnavailable`,
/// so the engine keeps the edits pending and tries again later.
public final class RemoteServer: Sendable {
    public let url: URL
    public let credential: RemoteCredential
    /// How long one request may take before it counts as unanswered.
    public let timeout: TimeAmount
    /// The next page of a fetch, on its way while the device applies one.
    let prefetch = PagePrefetch()

    public init(url: URL, credential: RemoteCredential, timeout: TimeAmount = .seconds(30)) {
        self.url = url
        self.credential = credential
        self.timeout = timeout
    }

    /// The user's database of `scope`, making requests as `device`.
    public func database(scope: DatabaseScope, device: String) -> RemoteDatabase {
        RemoteDatabase(server: self, scope: scope, deviceName: device)
    }

    /// The service's head: a number that moves with every commit. With
    /// `after`, waits up to `wait` seconds for it to move past that value
    /// (a long poll; how a device hears of changes at once).
    public func fetchHead(after: Int64? = nil, wait: Double = 0) throws -> Int64 {
        var query = "/v1/head"
        if let after { query += "?after=\(after)&wait=\(wait)" }
        let data = try send(.GET, query, body: nil, device: "watcher", timeout: .milliseconds(Int64((wait + 10) * 1000)))
        guard let head = (try? JSONDecoder().decode([String: Int64].self, from: data))?["head"] else {
            throw CloudError.serverUnavailable("\(url.absoluteString) answered the head request with something else")
        }
        return head
    }

    func call(_ request: WireRequest, scope: DatabaseScope, device: String) throws -> WireResponse {
        let body = try request.jsonData()
        // Saves are answered briefly: only the server's values of a record
        // saved as sent (`WireSaveStamp`).
        let data = try send(.POST, "/v1/db/\(scope.rawValue)", body: body, device: device, prefer: "return=minimal")
        do {
            return try WireResponse(jsonData: data)
        } catch {
            throw CloudError.serverUnavailable("\(url.absoluteString) sent an answer this version cannot read")
        }
    }

    func upload(_ data: Data, device: String) throws -> Asset {
        let answer = try send(.PUT, "/v1/assets", body: data, device: device, contentType: "application/octet-stream")
        guard let asset = try? JSONDecoder().decode(Asset.self, from: answer) else {
            throw CloudError.serverUnavailable("\(url.absoluteString) sent an answer this version cannot read")
        }
        return asset
    }

    func download(_ asset: Asset, device: String) throws -> Data {
        let data = try send(.GET, "/v1/assets/\(asset.sha256)?size=\(asset.size)", body: nil, device: device)
        guard Asset.digest(of: data) == asset.sha256 else {
            throw CloudError.assetUnavailable("asset \(asset.sha256) arrived altered")
        }
        return data
    }

    /// One request; the body of a 200 answer, or the error the server sent
    /// (its `CloudError` when it is one).
    private func send(_ method: HTTPMethod, _ path: String, body: Data?, device: String,
                      contentType: String = "application/json", prefer: String? = nil,
                      timeout: TimeAmount? = nil) throws -> Data {
        let address = url.absoluteString.hasSuffix("/") ? String(url.absoluteString.dropLast()) : url.absoluteString
        var headers = HTTPHeaders()
        let token = Data("\(credential.userName):\(credential.secret)".utf8).base64EncodedString()
        headers.add(name: "Authorization", value: "Basic \(token)")
        headers.add(name: "X-Reminders-Device", value: device)
        if body != nil { headers.add(name: "Content-Type", value: contentType) }
        if let prefer { headers.add(name: "Prefer", value: prefer) }
        var response: HTTPClient.Response?
        let client = try Self.client(trusting: credential.certificateAuthority)
        // A pooled connection the server closed while idle (its idle
        // timeout) fails the next request sent on it before any answer:
        // such a failure is tried once more, on a new connection. Every
        // request may be sent twice: saves carry change tags, assets are
        // keyed by their hash, shares and accepts are the same request again.
        for attempt in 1...2 where response == nil {
            do {
                let request = try HTTPClient.Request(url: address + path, method: method, headers: headers,
                                                     body: body.map { .bytes($0) })
                response = try client.execute(request: request, deadline: .now() + (timeout ?? self.timeout)).wait()
            } catch {
                guard attempt == 1, Self.isClosedBeforeAnswer(error) else {
                    throw CloudError.serverUnavailable("cannot reach the server at \(address): \(Self.describe(error))")
                }
            }
        }
        guard let response else { throw CloudError.serverUnavailable("cannot reach the server at \(address)") }
        let data = response.body.map { Data($0.readableBytesView) } ?? Data()
        guard response.status == .ok else {
            let wire = (try? JSONDecoder().decode([String: WireError].self, from: data))?["error"]
            if let error = wire?.cloudError { throw error }
            switch response.status {
            case .unauthorized:
                // What to do first: a narrow line cuts the rest.
                throw CloudError.permissionFailure(
                    "sign in again (reminders login \(address) --user \(credential.userName)): the server refused "
                    + "\(credential.userName)'s credentials (\(wire?.message ?? "no explanation"))")
            default:
                throw CloudError.serverUnavailable(
                    "the server at \(address) answered \(response.status.code): \(wire?.message ?? "no explanation")")
            }
        }
        return data
    }

    /// One client for the process (it pools connections).
    static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration())

    /// A server that is down should read as down at once, with the edits
    /// left pending: a refused connection fails the request (the client
    /// would otherwise try again and again until the connect timeout), and
    /// a connection that gets no answer gives up after 3 seconds.
    static func configuration(tls: TLSConfiguration? = nil) -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, timeout: .init(connect: .seconds(3)))
        configuration.connectionPool.retryConnectionEstablishment = false
        return configuration
    }

    /// Clients that trust a certificate authority of their own, one per
    /// file, kept for the process.
    private static let trustingClients = Mutex<[String: HTTPClient]>([:])

    static func client(trusting authority: String?) throws -> HTTPClient {
        guard let authority else { return client }
        return try trustingClients.withLock { clients in
            if let client = clients[authority] { return client }
            let certificates: [NIOSSLCertificate]
            do {
                certificates = try NIOSSLCertificate.fromPEMFile(authority)
            } catch {
                throw CloudError.serverUnavailable("cannot read the certificate authority \(authority) (PEM expected)")
            }
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.trustRoots = .certificates(certificates)
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration(tls: tls))
            clients[authority] = client
            return client
        }
    }

    /// Whether the connection was closed before any answer came.
    static func isClosedBeforeAnswer(_ error: any Error) -> Bool {
        if let error = error as? ChannelError { return error == .ioOnClosedChannel || error == .eof }
        if let error = error as? HTTPClientError { return error == .remoteConnectionClosed }
        return false
    }

    /// A transport failure in a few words: "connection refused", "no
    /// answer in time".
    static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        // A server that died while the request was being written.
        if error is ChannelError, isClosedBeforeAnswer(error) { return "the connection was closed before the answer" }
        if let error = error as? NIOSSLError { return "TLS: \(error)" }
        if let error = error as? BoringSSLError { return "TLS: \(error)" }
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout: return "no answer to the connection within 3 seconds"
            case .deadlineExceeded, .readTimeout: return "no answer in time"
            case .remoteConnectionClosed: return "the connection was closed before the answer"
            default: return "\(error)"
            }
        }
        return "\(error)"
    }
}

/// One user's database on a network service.
public struct RemoteDatabase: CloudDatabase {
    public let server: RemoteServer
    public let scope: DatabaseScope
    public let deviceName: String
    public var userName: String { server.credential.userName }

    private func call(_ request: WireRequest) throws -> WireResponse {
        try server.call(request, scope: scope, device: deviceName)
    }

    private func unexpected(_ response: WireResponse) -> CloudError {
        .serverUnavailable("the server at \(server.url.absoluteString) answered with the wrong kind of result")
    }

    public func modifyZones(saving: [ZoneID], deleting: [ZoneID]) throws -> [ZoneID: Result<Void, CloudError>] {
        guard case .zones(let outcomes) = try call(.modifyZones(saving: saving, deleting: deleting)) else {
            throw unexpected(.done)
        }
        return Dictionary(outcomes.map { ($0.zone, $0.result) }, uniquingKeysWith: { first, _ in first })
    }

    public func modifyRecords(saving: [ServerRecord], deleting: [RecordID], deletedThrough: [RecordID: Int64]) throws -> ModifyRecordsResult {
        let response = try call(.modifyRecords(saving: saving, deleting: deleting,
                                               deletedThrough: WireDeleteTime.list(deleting, deletedThrough)))
        guard case .modified(let result) = response else { throw unexpected(response) }
        return result.result(sent: saving)
    }

    public func serverIdentity(checking sequence: Int64?) throws -> ServerIdentity {
        let response = try call(.serverIdentity(checking: sequence))
        guard case .identity(let identity) = response else { throw unexpected(response) }
        return identity
    }

    public func fetchDatabaseChanges(since token: ChangeToken?) throws -> DatabaseChanges {
        let response = try call(.fetchDatabaseChanges(since: token))
        guard case .databaseChanges(let changes) = response else { throw unexpected(response) }
        return changes.changes
    }

    public func fetchZoneChanges(zoneID: ZoneID, since token: ChangeToken?, limit: Int) throws -> ZoneChanges {
        try server.prefetch.page(since: token, key: { prefetchKey(zoneID, $0, limit) },
                                 fetch: { [self] token in try fetchZonePage(zoneID, since: token, limit: limit) })
    }

    private func fetchZonePage(_ zoneID: ZoneID, since token: ChangeToken?, limit: Int) throws -> ZoneChanges {
        let response = try call(.fetchZoneChanges(zoneID: zoneID, since: token, limit: limit))
        guard case .zoneChanges(let changes) = response else { throw unexpected(response) }
        return changes.changes
    }

    private func prefetchKey(_ zoneID: ZoneID, _ token: ChangeToken, _ limit: Int) -> PagePrefetch.Key {
        PagePrefetch.Key(scope: scope, device: deviceName, zone: zoneID, token: token, limit: limit)
    }

    public func fetchRecords(_ ids: [RecordID]) throws -> [RecordID: Result<ServerRecord, CloudError>] {
        let response = try call(.fetchRecords(ids))
        guard case .records(let outcomes) = response else { throw unexpected(response) }
        return Dictionary(outcomes.map { ($0.id, $0.result) }, uniquingKeysWith: { first, _ in first })
    }

    public func uploadAsset(_ data: Data) throws -> Asset {
        try server.upload(data, device: deviceName)
    }

    public func assetData(_ asset: Asset) throws -> Data {
        try server.download(asset, device: deviceName)
    }

    public func saveShare(rootRecordID: RecordID, participants: [(userName: String, permission: SharePermission)]) throws -> Share {
        let invitees = participants.map { WireInvitee(userName: $0.userName, permission: $0.permission) }
        let response = try call(.saveShare(rootRecordID: rootRecordID, participants: invitees))
        guard case .share(let share) = response else { throw unexpected(response) }
        return share
    }

    public func removeParticipant(shareID: String, userName: String) throws -> Share {
        let response = try call(.removeParticipant(shareID: shareID, userName: userName))
        guard case .share(let share) = response else { throw unexpected(response) }
        return share
    }

    public func deleteShare(shareID: String) throws {
        let response = try call(.deleteShare(shareID: shareID))
        guard case .done = response else { throw unexpected(response) }
    }

    public func fetchShares() throws -> [Share] {
        let response = try call(.fetchShares)
        guard case .shares(let shares) = response else { throw unexpected(response) }
        return shares
    }

    public func knownUsers(among names: [String]) throws -> Set<String> {
        let response = try call(.knownUsers(names: names))
        guard case .users(let users) = response else { throw unexpected(response) }
        return Set(users)
    }

    public func acceptShare(shareID: String) throws -> Share {
        let response = try call(.acceptShare(shareID: shareID))
        guard case .share(let share) = response else { throw unexpected(response) }
        return share
    }

    public func leaveShare(shareID: String) throws {
        let response = try call(.leaveShare(shareID: shareID))
        guard case .done = response else { throw unexpected(response) }
    }
}
