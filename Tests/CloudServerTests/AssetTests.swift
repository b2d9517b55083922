import Foundation
import Testing
@testable import CloudServer

struct AssetTests {
    @Test func anAssetRoundTripsAndIsStoredOnce() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let asset = try alice.uploadAsset(bytes)
        #expect(asset == Asset(sha256: Asset.digest(of: bytes), size: bytes.count))
        #expect(try world.database("bob", .shared).assetData(asset) == bytes)
        #expect(try alice.uploadAsset(bytes) == asset)
        let files = try FileManager.default.contentsOfDirectory(atPath: world.directory.appendingPathComponent("assets").path)
        #expect(files == [asset.sha256])
    }

    @Test func anEmptyAssetWorks() throws {
        let world = try ServerWorld()
        let asset = try world.database("alice").uploadAsset(Data())
        #expect(asset.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(try world.database("alice").assetData(asset) == Data())
    }

    @Test func anAlteredAssetIsDetected() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let asset = try alice.uploadAsset(Data("original cover".utf8))
        let file = world.directory.appendingPathComponent("assets").appendingPathComponent(asset.sha256)
        try Data("tampered cover".utf8).write(to: file)
        let error = cloudError { _ = try alice.assetData(asset) }
        guard case .assetUnavailable(let message)? = error else {
            Issue.record("expected assetUnavailable, got \(String(describing: error))")
            return
        }
        #expect(message.contains(file.path))
        #expect(message.contains("altered"))
        // Uploading the bytes again repairs it.
        _ = try alice.uploadAsset(Data("original cover".utf8))
        #expect(try alice.assetData(asset) == Data("original cover".utf8))
    }

    @Test func aMissingAssetFileIsReported() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        let asset = try alice.uploadAsset(Data("cover".utf8))
        try FileManager.default.removeItem(at: world.directory.appendingPathComponent("assets").appendingPathComponent(asset.sha256))
        #expect(cloudError { _ = try alice.assetData(asset) }?.isAssetUnavailable == true)
    }

    @Test func assetNamesCannotEscapeTheFolder() throws {
        let world = try ServerWorld()
        let sneaky = Asset(sha256: "../server.sqlite", size: 10)
        #expect(cloudError { _ = try world.database("alice").assetData(sneaky) }?.isAssetUnavailable == true)
        let zone = try world.database("alice").createZone("Z")
        #expect(try world.database("alice").saveError(record("r", in: zone, fields: ["f": .asset(sneaky)]))?.isAssetUnavailable == true)
    }

    @Test func noTemporaryFilesAreLeftBehind() throws {
        let world = try ServerWorld()
        let alice = world.database("alice")
        for index in 0..<5 {
            _ = try alice.uploadAsset(Data("asset \(index)".utf8))
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: world.directory.appendingPathComponent("assets").path)
        #expect(files.count == 5)
        #expect(files.allSatisfy { AssetStore.isValidName($0) })
    }
}
