import Foundation
import Testing
import TestSupport

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
        for section in ["Initial sync:", "Initial sync over HTTP:", "Incremental sync:", "Queries:", "TUI:", "Memory:"] {
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
        #expect(figures.count == 6, "\(result.stdout)")
        #expect(figures.allSatisfy { ($0["median"] as? Double ?? -1) > 0 }, "\(result.stdout)")
    }

    @Test func aBadArgumentIsRefusedWithUsage() throws {
        let result = try runBench(["--sizes", "ten"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("--sizes takes numbers"), "\(result)")
    }

    /// Runs `reminders-bench` (next to the `reminders` binary, or
    /// `REMINDERS_BENCH_BINARY`) with its work files in a temporary folder.
    func runBench(_ arguments: [String]) throws -> ProcessResult {
        let binary: URL
        if let override = ProcessInfo.processInfo.environment["REMINDERS_BENCH_BINARY"], !override.isEmpty {
            binary = URL(fileURLWithPath: override)
        } else {
            binary = try CommandRunner.locateBinary().deletingLastPathComponent().appendingPathComponent("reminders-bench")
        }
        let home = TemporaryDirectory(prefix: "reminders-bench-test")
        // A hung phase must fail the test, not stall the run.
        return try withExtendedLifetime(home) {
            try Subprocess.run(
                [binary.path] + arguments + ["--work", home.url.appendingPathComponent("work").path],
                environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TMPDIR": home.url.path,
                              "LANG": "C.UTF-8"],
                timeout: 300)
        }
    }
}
