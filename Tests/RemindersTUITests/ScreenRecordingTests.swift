import Foundation
import Testing
@testable import RemindersTUI

/// Every frame of seeded random sessions (ScreenRecorder.swift), compared
/// with the recording kept in Recordings/: a change that is meant to leave
/// every screen as it was must leave every frame byte for byte as it was.
///
/// After a change that is meant to alter what screens draw, record again:
/// `RECORD_SCREENS=1 swift test --filter ScreenRecordingTests`, and review
/// the recordings' diff.
@Suite struct ScreenRecordingTests {
    @Test(arguments: RecordingRun.all)
    func framesMatchTheRecording(_ run: RecordingRun) throws {
        let (frames, buffers) = try ScreenRecorder.play(run)
        let url = RecordingFile.folder.appendingPathComponent(run.name + ".txt")
        if ProcessInfo.processInfo.environment["RECORD_SCREENS"].map({ !$0.isEmpty }) == true {
            try RecordingFile.encode(frames, run: run).write(to: url, atomically: true, encoding: .utf8)
            print("screen recording \(run.name): \(frames.count) frames recorded")
            return
        }
        guard FileManager.default.fileExists(atPath: url.path) else {
            Issue.record("No recording \(run.name).txt: record it with RECORD_SCREENS=1 swift test --filter ScreenRecordingTests")
            return
        }
        let recorded = try RecordingFile.decode(String(contentsOf: url, encoding: .utf8))
        if let mismatch = RecordingFile.firstDifference(recorded: recorded, played: frames, buffers: buffers, run: run) {
            Issue.record(Comment(rawValue: mismatch))
            return
        }
        print("screen recording \(run.name) (\(run)): \(frames.count) frames as recorded")
    }

    /// Two plays of a run draw the same frames: the recording is no lottery.
    @Test func aRunPlaysTheSameTwice() throws {
        let run = RecordingRun(seed: 0x5EED_0042, entry: .personalList, width: 80, height: 24, colorMode: .indexed256, steps: 120)
        let first = try ScreenRecorder.play(run).frames
        let second = try ScreenRecorder.play(run).frames
        #expect(first.map(\.hash) == second.map(\.hash))
    }

    /// The file format reads back what it wrote.
    @Test func theRecordingFileReadsBackWhatItWrote() throws {
        let run = RecordingRun(seed: 7, entry: .newReminder, width: 80, height: 24, colorMode: .indexed256, steps: 30)
        let frames = try ScreenRecorder.play(run).frames
        let decoded = try RecordingFile.decode(RecordingFile.encode(frames, run: run))
        #expect(decoded == frames)
    }
}

/// The recording's text format, one file per run. A frame is a line
/// `@ <step> <hash> <width>x<height> <input>`, then the rows that differ
/// from the previous frame, `| <row> <signature> <text>`, and the cursor
/// when it moved, `^ <row>,<column>` (or `^ -`). Text only for people
/// reading a diff; the signatures and hashes cover colors and attributes.
enum RecordingFile {
    /// Read where it is kept, not from a copy in the build, so that a
    /// recording made a moment ago counts without a rebuild.
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Recordings")

    struct FormatError: Error, CustomStringConvertible {
        var line: Int
        var text: String
        var description: String { "Recording line \(line) is not in the format: \(text)" }
    }

    static func encode(_ frames: [RecordedFrame], run: RecordingRun) -> String {
        var lines = [
            "# Screen recording: \(run).",
            "# Record again: RECORD_SCREENS=1 swift test --filter ScreenRecordingTests",
        ]
        var previous: RecordedFrame?
        for (step, frame) in frames.enumerated() {
            lines.append("@ \(step) \(frame.hash) \(frame.width)x\(frame.height) \(frame.label)")
            let sameSize = previous.map { $0.width == frame.width && $0.height == frame.height } ?? false
            for (index, row) in frame.rows.enumerated() where !sameSize || previous?.rows[index] != row {
                lines.append("| \(index) \(row.signature)" + (row.text.isEmpty ? "" : " " + row.text))
            }
            if !sameSize || previous?.cursor != frame.cursor {
                lines.append("^ \(frame.cursor)")
            }
            previous = frame
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func decode(_ text: String) throws -> [RecordedFrame] {
        var frames: [RecordedFrame] = []
        var current: RecordedFrame?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fail = FormatError(line: number + 1, text: String(line))
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
            switch parts.first {
            case "@":
                guard parts.count == 4 else { throw fail }
                let header = parts[3].split(separator: " ", maxSplits: 1).map(String.init)
                let size = header[0].split(separator: "x").compactMap { Int($0) }
                guard size.count == 2 else { throw fail }
                if let current { frames.append(current) }
                let label = header.count > 1 ? header[1] : ""
                if let last = frames.last, last.width == size[0], last.height == size[1] {
                    current = RecordedFrame(label: label, width: size[0], height: size[1], rows: last.rows, cursor: last.cursor)
                } else {
                    current = RecordedFrame(label: label, width: size[0], height: size[1],
                                            rows: Array(repeating: .init(signature: "", text: ""), count: size[1]), cursor: "-")
                }
            case "|":
                guard parts.count >= 3, let row = Int(parts[1]), row >= 0, row < current?.rows.count ?? 0 else { throw fail }
                current?.rows[row] = .init(signature: parts[2], text: parts.count > 3 ? parts[3] : "")
            case "^":
                guard parts.count == 2, current != nil else { throw fail }
                current?.cursor = parts[1]
            default:
                throw fail
            }
        }
        if let current { frames.append(current) }
        return frames
    }

    /// The first frame that differs, said so that it reads without tools:
    /// the inputs before it, each differing row as recorded and as drawn
    /// now, and the whole frame drawn now. Nil when all match.
    static func firstDifference(recorded: [RecordedFrame], played: [RecordedFrame], buffers: [CellBuffer],
                                run: RecordingRun) -> String? {
        for step in 0..<max(recorded.count, played.count) {
            guard step < recorded.count, step < played.count else {
                return "Screen recording \(run.name) (\(run)) has \(recorded.count) frames; the play drew \(played.count)."
            }
            let expected = recorded[step], actual = played[step]
            guard expected != actual else { continue }
            var lines = ["Screen recording \(run.name) (\(run)): frame \(step) of \(played.count - 1) differs."]
            let inputs = played[max(0, step - 8)...step].map(\.label)
            lines.append("Inputs up to it: " + inputs.joined(separator: " · "))
            if expected.label != actual.label {
                lines.append("The input differs: recorded “\(expected.label)”, played “\(actual.label)”")
            }
            if expected.width != actual.width || expected.height != actual.height {
                lines.append("Size: recorded \(expected.width)x\(expected.height), drawn \(actual.width)x\(actual.height)")
            } else {
                for (row, pair) in zip(expected.rows, actual.rows).enumerated() where pair.0 != pair.1 {
                    if pair.0.text != pair.1.text {
                        lines.append("row \(row) recorded: |\(pair.0.text)|")
                        lines.append("row \(row) drawn:    |\(pair.1.text)|")
                    } else {
                        lines.append("row \(row): same text, other colors or attributes; drawn now: "
                                     + RecordedFrame.styleRuns(buffers[step], row: row))
                    }
                }
            }
            if expected.cursor != actual.cursor {
                lines.append("cursor recorded at \(expected.cursor), now at \(actual.cursor)")
            }
            lines.append("The frame drawn now:")
            lines += actual.rows.map { "|" + $0.text }
            lines.append("If the change is meant: RECORD_SCREENS=1 swift test --filter ScreenRecordingTests")
            return lines.joined(separator: "\n")
        }
        return nil
    }
}
