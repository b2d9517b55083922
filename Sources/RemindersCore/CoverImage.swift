import CJPEG
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
        self = try Self.decode(data, format: "PNG", maxPixels: maxPixels, with: reminders_png_decode, free: reminders_png_free)
    }

    /// Decodes JPEG bytes (a photo), refusing files that are not JPEG,
    /// damaged or truncated, or larger than `maxPixels`.
    public init(jpeg data: Data, maxPixels: Int = Validation.maxCoverPixels) throws {
        self = try Self.decode(data, format: "JPEG", maxPixels: maxPixels, with: reminders_jpeg_decode, free: reminders_jpeg_free)
    }

    /// A C decoder's signature: bytes, their length, the pixel limit, then
    /// the RGBA pixels and size it makes. Both shims answer with the same
    /// codes: 0 done, 1 not this format, 2 too large, 3 damaged, 4 no memory.
    typealias Decoder = (UnsafeRawPointer?, Int, Int, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
                         UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?) -> Int32

    private static func decode(_ data: Data, format: String, maxPixels: Int, with decoder: Decoder,
                               free: (UnsafeMutablePointer<UInt8>?) -> Void) throws -> CoverImage {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        let code = data.withUnsafeBytes { buffer -> Int32 in
            decoder(buffer.baseAddress, buffer.count, maxPixels, &pixels, &width, &height)
        }
        defer { free(pixels) }
        switch code {
        case 0:
            guard let pixels else { throw CoreError.invalidInput("image could not be decoded") }
            return CoverImage(width: Int(width), height: Int(height),
                              rgba: Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4)))
        case 1:
            throw CoreError.invalidInput("not a \(format) image")
        case 2:
            let side = Int(Double(maxPixels).squareRoot())
            throw CoreError.invalidInput("image is too large (limit \(side)x\(side) pixels)")
        default:
            throw CoreError.invalidInput("\(format) image is damaged or truncated")
        }
    }

    init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    /// The image as PNG bytes, the form covers are stored and synced in.
    public func png() throws -> Data {
        var bytes: UnsafeMutablePointer<UInt8>?
        var length = 0
        let code = rgba.withUnsafeBufferPointer { pixels in
            reminders_png_encode(pixels.baseAddress, UInt32(width), UInt32(height), &bytes, &length)
        }
        defer { reminders_png_free(bytes) }
        guard Int(code) == Int(REMINDERS_PNG_OK), let bytes else { throw CoreError.invalidInput("image could not be encoded as PNG") }
        return Data(bytes: bytes, count: length)
    }

    /// The image shrunk (by averaging boxes of pixels) so that its longer
    /// side is at most `side`; itself when it already fits.
    public func fitting(within side: Int) -> CoverImage {
        let longer = max(width, height)
        guard longer > side, side > 0 else { return self }
        let newWidth = max(1, width * side / longer)
        let newHeight = max(1, height * side / longer)
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        for y in 0..<newHeight {
            let top = y * height / newHeight, bottom = max(top + 1, (y + 1) * height / newHeight)
            for x in 0..<newWidth {
                let left = x * width / newWidth, right = max(left + 1, (x + 1) * width / newWidth)
                var sums = (0, 0, 0, 0)
                for sy in top..<bottom {
                    var index = (sy * width + left) * 4
                    for _ in left..<right {
                        sums.0 += Int(rgba[index]); sums.1 += Int(rgba[index + 1])
                        sums.2 += Int(rgba[index + 2]); sums.3 += Int(rgba[index + 3])
                        index += 4
                    }
                }
                let count = (bottom - top) * (right - left)
                let at = (y * newWidth + x) * 4
                out[at] = UInt8(sums.0 / count); out[at + 1] = UInt8(sums.1 / count)
                out[at + 2] = UInt8(sums.2 / count); out[at + 3] = UInt8(sums.3 / count)
            }
        }
        return CoverImage(width: newWidth, height: newHeight, rgba: out)
    }

    /// The longer side a photo is shrunk to when it becomes a cover: far
    /// more than any terminal shows, and a PNG small enough to sync.
    public static let photoSide = 1024

    /// Reads and checks a cover image file: it must exist, be readable, be
    /// at most 8 MB and decode as PNG or JPEG. Returns the bytes to store:
    /// a PNG as it is, a JPEG (people's photos) shrunk to `photoSide` and
    /// made a PNG, since covers are synced as PNG.
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
            if data.starts(with: [0xFF, 0xD8, 0xFF]) {
                return try CoverImage(jpeg: data).fitting(within: photoSide).png()
            }
            guard data.starts(with: [0x89, 0x50, 0x4E, 0x47]) else { throw CoreError.invalidInput("not a PNG or JPEG image") }
            _ = try CoverImage(png: data)
        } catch let error as CoreError {
            throw CoreError.invalidInput("cover image \(path): \(error.description)")
        }
        return data
    }
}
