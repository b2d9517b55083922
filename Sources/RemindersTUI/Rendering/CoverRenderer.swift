import Foundation
import RemindersCore

/// 8-bit RGBA pixels, row by row: what the renderer reads (a decoded
/// `CoverImage`, or pixels made up by a test).
struct RGBAImage: Sendable, Equatable {
    var width: Int
    var height: Int
    var rgba: [UInt8]

    init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }

    init(_ image: CoverImage) {
        self.init(width: image.width, height: image.height, rgba: image.rgba)
    }
}

/// Draws a cover image with upper half blocks: each cell shows two square
/// pixels, the top one as the foreground color of "▀" and the bottom one as
/// its background.
enum CoverRenderer {
    /// One RGB pixel.
    struct Pixel: Hashable, Sendable {
        var r: UInt8
        var g: UInt8
        var b: UInt8

        init(r: UInt8, g: UInt8, b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }
    }

    /// The image scaled to `width` x `height` pixels: cropped around its
    /// center to that aspect ratio (like a cover photo, never stretched),
    /// then box-filtered (each target pixel averages the source pixels it
    /// covers, weighted by coverage). Transparent pixels are blended over
    /// `backdrop`.
    static func resample(_ image: RGBAImage, width: Int, height: Int,
                                backdrop: Pixel = Pixel(r: 0, g: 0, b: 0)) -> [Pixel] {
        guard width > 0, height > 0, image.width > 0, image.height > 0,
              image.rgba.count >= image.width * image.height * 4 else { return [] }
        // Crop: the largest centered region of the target's aspect ratio.
        let sourceAspect = Double(image.width) / Double(image.height)
        let targetAspect = Double(width) / Double(height)
        var cropWidth = Double(image.width), cropHeight = Double(image.height)
        if sourceAspect > targetAspect {
            cropWidth = Double(image.height) * targetAspect
        } else {
            cropHeight = Double(image.width) / targetAspect
        }
        let cropX = (Double(image.width) - cropWidth) / 2
        let cropY = (Double(image.height) - cropHeight) / 2
        let stepX = cropWidth / Double(width)
        let stepY = cropHeight / Double(height)

        var result: [Pixel] = []
        result.reserveCapacity(width * height)
        for y in 0..<height {
            let top = cropY + Double(y) * stepY
            let bottom = top + stepY
            for x in 0..<width {
                let left = cropX + Double(x) * stepX
                let right = left + stepX
                var sum = (r: 0.0, g: 0.0, b: 0.0), total = 0.0
                var sy = Int(top)
                while Double(sy) < bottom, sy < image.height {
                    let coverY = min(bottom, Double(sy + 1)) - max(top, Double(sy))
                    var sx = Int(left)
                    while Double(sx) < right, sx < image.width {
                        let coverX = min(right, Double(sx + 1)) - max(left, Double(sx))
                        let weight = coverX * coverY
                        if weight > 0 {
                            let offset = (sy * image.width + sx) * 4
                            let alpha = Double(image.rgba[offset + 3]) / 255
                            sum.r += weight * (Double(image.rgba[offset]) * alpha + Double(backdrop.r) * (1 - alpha))
                            sum.g += weight * (Double(image.rgba[offset + 1]) * alpha + Double(backdrop.g) * (1 - alpha))
                            sum.b += weight * (Double(image.rgba[offset + 2]) * alpha + Double(backdrop.b) * (1 - alpha))
                            total += weight
                        }
                        sx += 1
                    }
                    sy += 1
                }
                if total > 0 {
                    result.append(Pixel(r: channel(sum.r / total), g: channel(sum.g / total), b: channel(sum.b / total)))
                } else {
                    result.append(backdrop)
                }
            }
        }
        return result
    }

    static func channel(_ value: Double) -> UInt8 {
        UInt8(max(0, min(255, value.rounded())))
    }

    /// The cover as rows of cells, `columns` wide and `rows` high, in the
    /// colors `mode` can show (RGB on direct-color terminals, the nearest
    /// xterm-256 index elsewhere). Empty when the mode cannot draw images.
    static func cells(_ image: RGBAImage, columns: Int, rows: Int, mode: ColorMode) -> [[Cell]] {
        guard mode.canDrawImages, columns > 0, rows > 0 else { return [] }
        let pixels = resample(image, width: columns, height: rows * 2)
        guard pixels.count == columns * rows * 2 else { return [] }
        func color(_ pixel: Pixel) -> TermColor {
            mode == .direct
                ? .rgb(pixel.r, pixel.g, pixel.b)
                : .indexed(XtermPalette.nearestIndex(r: pixel.r, g: pixel.g, b: pixel.b))
        }
        return (0..<rows).map { row in
            (0..<columns).map { column in
                let top = pixels[(row * 2) * columns + column]
                let bottom = pixels[(row * 2 + 1) * columns + column]
                return Cell(text: "▀", width: 1, style: Style(foreground: color(top), background: color(bottom)))
            }
        }
    }
}

/// Decoded covers and their rendered cells, so that a redraw (a key press,
/// a toast tick) does not decode or resample again.
final class CoverCache {
    private struct Key: Hashable {
        var listID: String
        var columns: Int
        var rows: Int
        var mode: ColorMode
    }

    private var images: [String: (data: Data, image: RGBAImage?)] = [:]
    private var rendered: [Key: (data: Data, cells: [[Cell]])] = [:]

    /// The cover of a list drawn at a size; nil when it does not decode.
    func cells(listID: String, png: Data, columns: Int, rows: Int, mode: ColorMode) -> [[Cell]]? {
        let key = Key(listID: listID, columns: columns, rows: rows, mode: mode)
        if let hit = rendered[key], hit.data == png { return hit.cells }
        let image: RGBAImage?
        if let known = images[listID], known.data == png {
            image = known.image
        } else {
            image = (try? CoverImage(png: png)).map(RGBAImage.init)
            images[listID] = (png, image)
        }
        guard let image else { return nil }
        let cells = CoverRenderer.cells(image, columns: columns, rows: rows, mode: mode)
        if rendered.count > 64 { rendered.removeAll() }
        rendered[key] = (png, cells)
        return cells
    }
}
