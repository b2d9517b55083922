import CloudClient
import CloudServer
import Crypto
import Foundation
import SwiftASN1
import SyncService
import Testing
import X509

/// HTTPS: a device that trusts the service's certificate talks to it; one
/// that does not is refused before any secret is sent.
@Suite struct TLSTests {
    @Test func aDeviceTrustingTheCertificateSyncsAndOneThatDoesNotIsRefused() async throws {
        let world = try await ServiceWorld(.directory)
        let (certificate, key) = try Self.selfSigned(in: world.folder)
        let (server, url) = try await ServiceWorld.serve(
            store: world.storeArgument, home: world.folder, secret: world.secret("alice"),
            options: ["--tls-cert", certificate, "--tls-key", key], scheme: "https", certificateAuthority: certificate)
        defer {
            server.signal(SIGTERM)
            _ = try? server.wait(timeout: 10)
        }
        let port = try #require(url.port)

        let trusting = RemoteServer(url: url, credential: RemoteCredential(
            userName: "alice", secret: world.secret("alice"), certificateAuthority: certificate))
        let zone = try await blocking { try trusting.database(scope: .private, device: "laptop").createZone("Reminders") }
        #expect(zone.ownerName == "alice")

        let stranger = RemoteServer(url: url, credential: RemoteCredential(userName: "alice", secret: world.secret("alice")))
        await #expect(throws: CloudError.self) { try await blocking { try stranger.fetchHead() } }

        let plain = RemoteServer(url: try #require(URL(string: "http://127.0.0.1:\(port)")),
                                 credential: RemoteCredential(userName: "alice", secret: world.secret("alice")))
        await #expect(throws: CloudError.self) { try await blocking { try plain.fetchHead() } }
    }

    /// A self-signed certificate for localhost and 127.0.0.1, and its key,
    /// as PEM files.
    static func selfSigned(in folder: URL) throws -> (certificate: String, key: String) {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("localhost") }
        let now = Date()
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(3600),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
            },
            issuerPrivateKey: .init(key))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let certificatePath = folder.appendingPathComponent("server.pem").path
        let keyPath = folder.appendingPathComponent("server.key").path
        try certificate.serializeAsPEM().pemString.write(toFile: certificatePath, atomically: true, encoding: .utf8)
        try key.pemRepresentation.write(toFile: keyPath, atomically: true, encoding: .utf8)
        return (certificatePath, keyPath)
    }
}
