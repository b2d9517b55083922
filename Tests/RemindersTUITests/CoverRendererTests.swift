import Foundation
import Testing
@testable import RemindersTUI
import RemindersCore

@Suite struct ColorMappingTests {
    @Test func pureColorsMapToTheCubeCorners() {
        #expect(XtermPalette.nearestIndex(r: 255, g: 0, b: 0) == 196)
        #expect(XtermPalette.nearestIndex(r: 0, g: 255, b: 0) == 46)
        #expect(XtermPalette.nearestIndex(r: 0, g: 0, b: 255) == 21)
        #expect(XtermPalette.nearestIndex(r: 255, g: 255, b: 255) == 231)
        #expect(XtermPalette.nearestIndex(r: 0, g: 0, b: 0) == 16)
    }

    @Test func graysMapToTheGrayRamp() {
        #expect(XtermPalette.nearestIndex(r: 128, g: 128, b: 128) == 244)
        #expect(XtermPalette.nearestIndex(r: 8, g: 8, b: 8) == 232)
        #expect(XtermPalette.nearestIndex(r: 238, g: 238, b: 238) == 255)
    }

    @Test func everyIndexMapsBackToItself() {
        for index in UInt8(16)...UInt8(255) {
            let rgb = XtermPalette.rgb(ofIndex: index)
            let back = XtermPalette.nearestIndex(r: UInt8(rgb.r), g: UInt8(rgb.g), b: UInt8(rgb.b))
            #expect(XtermPalette.rgb(ofIndex: back) == rgb, "index \(index)")
        }
    }

    @Test func listColorsStayRecognizableOnBasicTerminals() {
        // The palette's blue, red and green.
        #expect(XtermPalette.nearestBasic(r: 0x4a, g: 0x99, b: 0xef, count: 8) == 4 || XtermPalette.nearestBasic(r: 0x4a, g: 0x99, b: 0xef, count: 8) == 6)
        #expect(XtermPalette.nearestBasic(r: 0xe8, g: 0x52, b: 0x4a, count: 8) == 1)
        #expect(XtermPalette.nearestBasic(r: 0x5c, g: 0xc1, b: 0x5a, count: 8) == 2)
    }

    @Test func noColorDropsEveryColor() {
        #expect(XtermPalette.resolve(.rgb(1, 2, 3), mode: .monochrome) == .default)
        #expect(XtermPalette.resolve(.indexed(196), mode: .monochrome) == .default)
        #expect(XtermPalette.resolve(.rgb(255, 0, 0), mode: .indexed256) == .indexed(196))
        #expect(XtermPalette.resolve(.rgb(255, 0, 0), mode: .direct) == .rgb(255, 0, 0))
    }

    @Test func colorModeFollowsTheTerminalAndNoColor() {
        #expect(ColorMode.detect(colors: 256, hasColors: true, hasDirectFlag: false, environment: [:]) == .indexed256)
        #expect(ColorMode.detect(colors: 256, hasColors: true, hasDirectFlag: false, environment: ["NO_COLOR": "1"]) == .monochrome)
        #expect(ColorMode.detect(colors: 1 << 24, hasColors: true, hasDirectFlag: true, environment: [:]) == .direct)
        // Tc without a direct-color terminfo entry: ncurses still sends 256 colors.
        #expect(ColorMode.detect(colors: 256, hasColors: true, hasDirectFlag: true, environment: ["COLORTERM": "truecolor"]) == .indexed256)
        #expect(ColorMode.detect(colors: 8, hasColors: true, hasDirectFlag: false, environment: [:]) == .basic(8))
        #expect(ColorMode.detect(colors: 0, hasColors: false, hasDirectFlag: false, environment: [:]) == .monochrome)
    }
}

@Suite struct CoverRendererTests {
    /// A 2x2 image: red, green / blue, white.
    let tiny = RGBAImage(width: 2, height: 2, rgba: [
        255, 0, 0, 255, 0, 255, 0, 255,
        0, 0, 255, 255, 255, 255, 255, 255,
    ])

    @Test func halfBlocksCarryTheTopPixelAsForegroundAndTheBottomOneAsBackground() {
        let cells = CoverRenderer.cells(tiny, columns: 2, rows: 1, mode: .indexed256)
        #expect(cells.count == 1)
        #expect(cells[0].map(\.text) == ["▀", "▀"])
        #expect(cells[0][0].style.foreground == .indexed(196))
        #expect(cells[0][0].style.background == .indexed(21))
        #expect(cells[0][1].style.foreground == .indexed(46))
        #expect(cells[0][1].style.background == .indexed(231))
    }

    @Test func directColorKeepsRGB() {
        let cells = CoverRenderer.cells(tiny, columns: 2, rows: 1, mode: .direct)
        #expect(cells[0][0].style.foreground == .rgb(255, 0, 0))
        #expect(cells[0][1].style.background == .rgb(255, 255, 255))
    }

    @Test func boxFilterAveragesWhatEachTargetPixelCovers() {
        let pixels = CoverRenderer.resample(tiny, width: 1, height: 1)
        #expect(pixels == [CoverRenderer.Pixel(r: 128, g: 128, b: 128)])
    }

    @Test func theImageIsCroppedToTheTargetShapeNotStretched() {
        // 4x2: left half black, right half white. A 1x1 target sees only
        // the middle square: half black, half white.
        var rgba: [UInt8] = []
        for _ in 0..<2 {
            rgba += [0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255]
        }
        let image = RGBAImage(width: 4, height: 2, rgba: rgba)
        #expect(CoverRenderer.resample(image, width: 1, height: 1) == [CoverRenderer.Pixel(r: 128, g: 128, b: 128)])
        // A 2x1 target keeps the whole image: black, white.
        #expect(CoverRenderer.resample(image, width: 2, height: 1) == [
            CoverRenderer.Pixel(r: 0, g: 0, b: 0), CoverRenderer.Pixel(r: 255, g: 255, b: 255),
        ])
    }

    @Test func transparentPixelsBlendOverTheBackdrop() {
        let image = RGBAImage(width: 1, height: 1, rgba: [255, 255, 255, 0])
        #expect(CoverRenderer.resample(image, width: 1, height: 1) == [CoverRenderer.Pixel(r: 0, g: 0, b: 0)])
    }

    @Test func fewColorsDrawNothing() {
        #expect(CoverRenderer.cells(tiny, columns: 2, rows: 1, mode: .basic(8)).isEmpty)
        #expect(CoverRenderer.cells(tiny, columns: 2, rows: 1, mode: .monochrome).isEmpty)
    }

    @Test func sampleCoversDecodeAndRender() throws {
        for name in SampleCovers.names {
            let png = try #require(SampleCovers.png(named: name))
            let image = try CoverImage(png: png)
            let cells = CoverRenderer.cells(RGBAImage(image), columns: 80, rows: 4, mode: .indexed256)
            #expect(cells.count == 4)
            #expect(cells.allSatisfy { $0.count == 80 })
        }
    }
}
