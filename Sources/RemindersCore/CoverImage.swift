import CPNG
import Foundation

/// A decoded cover image: 8-bit RGBA pixels, row by row.
public struct CoverImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var rgba: [UInt8]

    /// Decodes PNG bytes, refusing files that are not PNG, damaged or
    /// truncated, or larger than `Validation.maxCoverPixels`.
    public init(png data: Data, maxPixels: Int = Validation.maxCoverPixels) throws {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        let code = data.withUnsafeBytes { buffer -> Int32 in
            reminders_png_decode(buffer.baseAddress, buffer.count, maxPixels, &pixels, &width, &height)
        }
        defer { reminders_png_free(pixels) }
        switch Int(code) {
        case Int(REMINDERS_PNG_OK):
            guard let pixels else { throw CoreError.invalidInput("image could not be decoded") }
            self.width = Int(width)
            self.height = Int(height)
            self.rgba = Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4))
        case Int(REMINDERS_PNG_NOT_PNG):
            throw CoreError.invalidInput("not a PNG image")
        case Int(REMINDERS_PNG_TOO_LARGE):
            throw CoreError.invalidInput("image is too large (limit \(Int(Double(maxPixels).squareRoot()))x\(Int(Double(maxPixels).squareRoot())) pixels)")
        default:
            throw CoreError.invalidInput("PNG image is damaged or truncated")
        }
    }

    /// Reads and checks a cover image file: it must exist, be readable, be
    /// at most 8 MB and decode as PNG. Returns the bytes to store.
    public static func load(path: String) throws -> Data {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw CoreError.invalidInput("cover image \(path) does not exist")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CoreError.invalidInput("cover image \(path) cannot be read")
        }
        guard data.count <= Validation.maxCoverBytes else {
            throw CoreError.invalidInput("cover image \(path) is \(data.count / 1024 / 1024) MB; the limit is \(Validation.maxCoverBytes / 1024 / 1024) MB")
        }
        do {
            _ = try CoverImage(png: data)
        } catch let error as CoreError {
            throw CoreError.invalidInput("cover image \(path): \(error.description)")
        }
        return data
    }
}
