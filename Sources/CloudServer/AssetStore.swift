import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `assets/` folder of a server: one file per distinct content, named by
/// its SHA-256.
///
/// Files are written so that a crash never leaves a partial asset under its
/// final name (temp file, fsync, rename, fsync of the folder), and are
/// checked against their name on every read, so that a file altered on disk
/// is reported instead of served.
struct AssetStore: AssetStoring {
    let directory: URL
    var location: String { directory.path }

    /// Creates the folder if needed.
    init(directory: URL) throws {
        self.directory = directory
        if let problem = StoreFailure.makeFolders(directory) {
            throw CloudError.serverUnavailable(
                "cannot create the asset folder \(directory.path) (\(problem)); check the permissions of the server directory")
        }
    }

    /// Stores bytes under their hash; storing the same bytes again is a no-op.
    func upload(_ data: Data) throws -> Asset {
        let hash = Asset.digest(of: data)
        let asset = Asset(sha256: hash, size: data.count)
        let final = directory.appendingPathComponent(hash)
        if (try? read(asset)) != nil { return asset }
        let temporary = directory.appendingPathComponent(".tmp-\(hash.prefix(16))-\(StoreMeta.randomHex(bytes: 8))")
        do {
            try FileSync.writeDurably(data, to: temporary)
            try FileSync.rename(temporary, to: final)
            try FileSync.syncDirectory(directory)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CloudError.serverUnavailable("cannot store asset \(final.path): \(error)")
        }
        return asset
    }

    /// Whether the server holds the asset's file with the right size. Cheap:
    /// used to refuse records that reference assets never uploaded.
    func contains(_ asset: Asset) -> Bool {
        guard Self.isValidName(asset.sha256) else { return false }
        let path = directory.appendingPathComponent(asset.sha256).path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let size = attributes[.size] as? NSNumber else { return false }
        return size.intValue == asset.size
    }

    /// The asset's bytes, verified against its hash.
    func read(_ asset: Asset) throws -> Data {
        guard Self.isValidName(asset.sha256) else {
            throw CloudError.assetUnavailable("\"\(asset.sha256)\" is not a SHA-256 asset name")
        }
        let file = directory.appendingPathComponent(asset.sha256)
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw CloudError.assetUnavailable(
                "the server's asset file \(file.path) is missing or unreadable; restore it from a backup of the server directory, or upload it again from a device that has it")
        }
        let actual = Asset.digest(of: data)
        guard actual == asset.sha256 else {
            throw CloudError.assetUnavailable(
                "the server's asset file \(file.path) was altered (its content hashes to \(actual)); restore it from a backup of the server directory, or upload it again from a device that has it")
        }
        return data
    }

    /// Asset names are 64 lower-case hex digits; anything else could name a
    /// file outside the folder.
    static func isValidName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}
