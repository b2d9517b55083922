import Foundation
import Testing

/// `reminders-bench --quick` runs every phase at a tiny size: run here so the
/// benchmark cannot rot. The figures of a debug build on a busy machine mean
/// nothing; only that every phase ran and reported does.
@Suite("Benchmark smoke test", .serialized)
struct BenchSmokeTests {
    @Test func aQuickRunMeasuresEveryPhaseAndPrintsTheTable() throws {
        let result = try runBench(["--quick"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "| Figure | Reminders | Median | Spread (min–max) | p95 | Goal | |", "\(result)")
        for section in ["Initial sync:", "Incremental sync:", "Queries:", "TUI:", "Memory:"] {
            #expect(lines.contains { $0.hasPrefix("| \(section)") }, "no \(section) figure in\n\(result.stdout)")
        }
        #expect(lines.contains { $0.hasPrefix("Goals met: ") }, "\(result)")
    }

    @Test func jsonOutputIsOneObjectWithTheMachineAndTheFigures() throws {
        let result = try runBench(["--quick", "--json", "--only", "queries"])
        #expect(result.status == 0, "\(result)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let machine = object?["machine"] as? [String: Any]
        #expect((machine?["cores"] as? Int ?? 0) > 0)
        let figures = object?["figures"] as? [[String: Any]] ?? []
        #expect(figures.count == 5, "\(result.stdout)")
        #expect(figures.allSatisfy { ($0["median"] as? Double ?? -1) > 0 }, "\(result.stdout)")
    }

    @Test func aBadArgumentIsRefusedWithUsage() throws {
        let result = try runBench(["--sizes", "ten"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--sizes takes numbers"), "\(result)")
    }

    /// Runs `reminders-bench` (next to the `reminders` binary, or
    /// `REMINDERS_BENCH_BINARY`) with its work files in a temporary folder.
    func runBench(_ arguments: [String]) throws -> CommandRunner.Result {
        let binary: URL
        if let override = ProcessInfo.processInfo.environment["REMINDERS_BENCH_BINARY"], !override.isEmpty {
            binary = URL(fileURLWithPath: override)
        } else {
            binary = try CommandRunner.locateBinary().deletingLastPathComponent().appendingPathComponent("reminders-bench")
        }
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("reminders-bench-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments + ["--work", home.appendingPathComponent("work").path]
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TMPDIR": home.path,
                               "LANG": "C.UTF-8"]
        let out = home.appendingPathComponent("stdout"), err = home.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A hung phase must fail the test, not stall the run.
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            Issue.record("reminders-bench \(arguments.joined(separator: " ")) took more than 300 s")
        }
        return CommandRunner.Result(status: process.terminationStatus,
                                    stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                                    stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
