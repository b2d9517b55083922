import Foundation
import Synchronization
import RemindersCore
import RemindersViewModels

/// The user's notify command (`--notify-command` / `REMINDERS_NOTIFY_COMMAND`,
/// e.g. `notify-send -u critical`), run for every due alert with the
/// reminder's title and due time appended as two more arguments.
///
/// It is never run through a shell: the text is split into words the way
/// a shell splits them (quotes and backslashes, no expansions), and the
/// words are handed to the program directly, so a title such as
/// `"; rm -rf / #$(reboot)` arrives as one harmless argument.
public enum NotifyCommand {
    /// Splits a command line into words like a POSIX shell, without any
    /// expansion: blanks separate words; '…' keeps everything literally;
    /// "…" keeps everything but lets a backslash escape " \ $ and `;
    /// outside quotes a backslash keeps the next character. `$`, `~`, `*`
    /// and the like are plain characters. Throws `CoreError.invalidInput`
    /// for an unterminated quote or an empty command; `what` names the
    /// command in those errors ("notify command", "EDITOR").
    public static func split(_ text: String, naming what: String = "notify command") throws -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var iterator = Array(text).makeIterator()
        while let character = iterator.next() {
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "'":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "'" { closed = true; break }
                    word.append(next)
                }
                guard closed else { throw CoreError.invalidInput("\(what) '\(text)' has an unterminated ' quote") }
            case "\"":
                inWord = true
                var closed = false
                while let next = iterator.next() {
                    if next == "\"" { closed = true; break }
                    if next == "\\" {
                        guard let escaped = iterator.next() else { break }
                        if !["\"", "\\", "$", "`", "\n"].contains(escaped) { word.append("\\") }
                        if escaped != "\n" { word.append(escaped) }
                        continue
                    }
                    word.append(next)
                }
                guard closed else { throw CoreError.invalidInput("\(what) '\(text)' has an unterminated \" quote") }
            case "\\":
                guard let escaped = iterator.next() else {
                    throw CoreError.invalidInput("\(what) '\(text)' ends with a lone backslash")
                }
                // A backslash before a new line joins lines, as in a shell.
                if escaped != "\n" {
                    word.append(escaped)
                    inWord = true
                }
            default:
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        guard !words.isEmpty else { throw CoreError.invalidInput("\(what) must not be empty") }
        return words
    }

    /// What `reminders alerts --watch` runs when the user set no notify
    /// command: `notify-send` (libnotify's desktop notifications, the
    /// title as the summary and the due time as the body) when it is on
    /// `PATH`; nil when it is not. A notify command set empty turns this
    /// off too; the caller decides that.
    public static func desktop(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String]? {
        resolve("notify-send", environment: environment) == nil ? nil : ["notify-send", "--app-name=Reminders"]
    }

    /// The program to run for a command's first word: a path when it
    /// contains a slash, otherwise the first executable of that name on
    /// `PATH`; nil when there is none.
    static func resolve(_ program: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let fileManager = FileManager.default
        if program.contains("/") {
            return fileManager.isExecutableFile(atPath: program) ? URL(fileURLWithPath: program) : nil
        }
        let path = environment["PATH"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + program
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue,
               fileManager.isExecutableFile(atPath: candidate) {
                return URL(fileURLWithPath: candidate)
            }
        }
        return nil
    }
}

/// Runs the notify command for alerts, in the background, and reports the
/// first failure (not found, non-zero exit, killed, hung) once: a broken
/// command must not raise an error toast on every alert.
public final class NotifyRunner: AlertNotifier, Sendable {
    /// The command and its first arguments.
    public let words: [String]
    /// Seconds a command may run before it is stopped and reported.
    public let timeout: TimeInterval
    private let hasReported = Atomic(false)
    private let running = Mutex<[Int32: SpawnedProcess]>([:])

    /// A runner for a command already split into words
    /// (`NotifyCommand.split(_:)`).
    /// - Parameters:
    ///   - words: the command and its first arguments (already split).
    ///   - timeout: a command still running after this long is stopped and
    ///     reported.
    public init(words: [String], timeout: TimeInterval = 30) {
        self.words = words
        self.timeout = timeout
    }

    private var name: String { words.first ?? "" }

    /// Starts the command with `title` and `due` as its last two
    /// arguments; returns at once. `failed` is called, from any thread,
    /// for the first failure of this runner only.
    public func announce(title: String, due: String, failed: @escaping @Sendable (String) -> Void) {
        guard let program = words.first else { return }
        guard let executable = NotifyCommand.resolve(program) else {
            fail(report: failed, "notify command '\(program)' was not found\(program.contains("/") ? "" : " on PATH")")
            return
        }
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess(executable: executable.path, arguments: Array(words.dropFirst()) + [title, due])
        } catch {
            fail(report: failed, "notify command '\(program)' could not be started: \(error)")
            return
        }
        running.withLock { $0[process.pid] = process }
        process.onExit { [weak self] outcome in
            guard let self else { return }
            _ = self.running.withLock { $0.removeValue(forKey: process.pid) }
            switch outcome {
            case .exited(0):
                break
            case .exited(let status):
                self.fail(report: failed, "notify command '\(self.name)' failed with exit status \(status)")
            case .signalled(let signal):
                self.fail(report: failed, "notify command '\(self.name)' was stopped by signal \(signal)")
            }
        }
        let timeout = self.timeout
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [weak self] in
            guard let self, process.isRunning else { return }
            self.fail(report: failed, "notify command '\(self.name)' did not finish within \(String(format: "%g", timeout)) seconds")
            process.stop()
        }
    }

    /// Whether every command started has finished.
    public var isIdle: Bool { running.withLock { $0.isEmpty } }

    private func fail(report: @Sendable (String) -> Void, _ message: String) {
        let first = !hasReported.exchange(true, ordering: .acquiringAndReleasing)
        if first { report(message + "; later failures are not reported") }
    }
}
