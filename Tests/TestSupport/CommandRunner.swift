import Foundation
import Testing

/// Runs the built `reminders` binary in a world of its own: a home folder
/// (temporary unless given), the clock pinned, UTC, and none of the
/// caller's REMINDERS_* variables.
public struct CommandRunner: Sendable {
    public let binary: URL
    public let home: URL
    /// What every command gets; a call's own variables go over it.
    public var environment: [String: String]

    /// - Parameter home: the folder the commands live in (HOME, the data
    ///   folder, the working directory); a new temporary one if nil.
    public init(now: String = "2026-03-01T10:00:00Z", home: URL? = nil) throws {
        binary = try Self.locateBinary()
        self.home = home ?? FileManager.default.temporaryDirectory.appendingPathComponent("reminders-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: self.home, withIntermediateDirectories: true)
        environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": self.home.path,
            "XDG_DATA_HOME": self.home.appendingPathComponent("data").path,
            "REMINDERS_NOW": now,
            "TZ": "UTC",
            "LANG": "C.UTF-8",
        ]
    }

    /// Removes the home folder and everything in it.
    public func cleanUp() {
        removeFolder(home)
    }

    /// The device database the defaults point at.
    public var defaultDatabase: URL {
        home.appendingPathComponent("data/reminders/devices/me-default.sqlite")
    }

    @discardableResult
    public func run(_ arguments: String..., environment extra: [String: String] = [:]) throws -> ProcessResult {
        try run(arguments, environment: extra)
    }

    @discardableResult
    public func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ProcessResult {
        try start(arguments, environment: extra).wait()
    }

    /// Starts a command without waiting for it (to be waited for or killed).
    /// - Parameter launcher: a program and arguments the binary is run
    ///   through (`ip netns exec NAME`, to run inside a network namespace).
    public func start(_ arguments: [String], environment extra: [String: String] = [:],
                      launcher: [String] = []) throws -> RunningProcess {
        try Subprocess.start(launcher + [binary.path] + arguments, environment: environment.merging(extra) { $1 },
                             directory: home)
    }

    /// Runs a command that must succeed quietly and returns its output, trimmed.
    @discardableResult
    public func ok(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let result = try run(arguments)
        #expect(result.status == 0, "reminders \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "reminders \(arguments.joined(separator: " ")): \(result)", sourceLocation: sourceLocation)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The `reminders` executable in the build products folder this test
    /// bundle was built into (`.build/<triple>/debug/`), whatever the scratch
    /// path: searched next to the running test binary and a few folders up.
    /// `REMINDERS_BINARY` overrides the search.
    public static func locateBinary() throws -> URL {
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

    public struct LocateError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}

extension ProcessResult {
    /// The single line of a `reminders` error, without its prefix and new line.
    public var errorLine: String? {
        guard stderr.hasPrefix("reminders: "), stderr.hasSuffix("\n"),
              stderr.dropLast().contains("\n") == false else { return nil }
        return String(stderr.dropFirst("reminders: ".count).dropLast())
    }
}

/// The package's root folder, found from this file's path.
public let packageRoot = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
