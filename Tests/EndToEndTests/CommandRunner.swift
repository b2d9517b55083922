import Foundation
import Testing

/// Runs the built `reminders` binary in a world of its own: a temporary data
/// directory, the clock pinned, UTC, and none of the caller's REMINDERS_*
/// variables.
struct CommandRunner {
    struct Result: CustomStringConvertible {
        var status: Int32
        var stdout: String
        var stderr: String

        var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }

        /// The single line of an error, without its prefix and new line.
        var errorLine: String? {
            guard stderr.hasPrefix("reminders: "), stderr.hasSuffix("\n"),
                  stderr.dropLast().contains("\n") == false else { return nil }
            return String(stderr.dropFirst("reminders: ".count).dropLast())
        }
    }

    let binary: URL
    let home: URL
    var environment: [String: String]

    init(now: String = "2026-03-01T10:00:00Z") throws {
        binary = try Self.locateBinary()
        home = FileManager.default.temporaryDirectory.appendingPathComponent("reminders-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home.path,
            "XDG_DATA_HOME": home.appendingPathComponent("data").path,
            "REMINDERS_NOW": now,
            "TZ": "UTC",
            "LANG": "C.UTF-8",
        ]
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: home)
    }

    /// The device database the defaults point at.
    var defaultDatabase: URL {
        home.appendingPathComponent("data/reminders/devices/me-default.sqlite")
    }

    @discardableResult
    func run(_ arguments: String..., environment extra: [String: String] = [:]) throws -> Result {
        try run(arguments, environment: extra)
    }

    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment.merging(extra) { $1 }
        process.currentDirectoryURL = home
        // Files rather than pipes, so a chatty command cannot fill a pipe and stall.
        let out = home.appendingPathComponent("stdout-\(UUID().uuidString)")
        let err = home.appendingPathComponent("stderr-\(UUID().uuidString)")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// Runs a command that must succeed and returns its output, trimmed.
    @discardableResult
    func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments)
        #expect(result.status == 0, "reminders \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "reminders \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The `reminders` executable in the build products folder this test
    /// bundle was built into (`.build/<triple>/debug/`), whatever the scratch
    /// path: searched next to the running test binary and a few folders up.
    /// `REMINDERS_BINARY` overrides the search.
    static func locateBinary() throws -> URL {
        let fileManager = FileManager.default
        if let override = ProcessInfo.processInfo.environment["REMINDERS_BINARY"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        var starts: [URL] = []
        if let executable = Bundle.main.executableURL { starts.append(executable) }
        starts.append(Bundle.main.bundleURL)
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first, relativeTo: URL(fileURLWithPath: fileManager.currentDirectoryPath)))
        }
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            starts.append(bundle.bundleURL)
        }
        var tried: [String] = []
        for start in starts {
            var folder = start.standardizedFileURL.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = folder.appendingPathComponent("reminders")
                tried.append(candidate.path)
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   fileManager.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                folder = folder.deletingLastPathComponent()
            }
        }
        throw LocateError(message: "the reminders binary was not found next to the test bundle (tried \(tried.joined(separator: ", "))); build it with `swift build` or set REMINDERS_BINARY")
    }

    struct LocateError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

/// The package's root folder, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
