import Foundation
import RemindersCore
import RemindersViewModels
#if canImport(Glibc)
import Glibc
#endif

/// The user's editor on a piece of text: `$EDITOR`, else `$VISUAL`, else
/// `vi`, split into words as a shell would (`code --wait`, `emacs -nw`)
/// but never run by one, with a temporary file as its last argument.
///
/// The file is made with mode 0600 (notes can be private) and removed
/// afterwards, whatever happened. The editor shares the terminal and the
/// process group, so it reads the keyboard; meanwhile this process ignores
/// ^C and ^\ as `system(3)` does, so that interrupting the editor does not
/// end the app.
public struct ExternalEditor: ExternalEditing {
    /// The editor's words, without the file; empty when the variable
    /// cannot be split (an unterminated quote), which `problem` tells.
    public let words: [String]
    /// Why the editor cannot be run, told when the user asks for it.
    public let problem: String?
    private let environment: [String: String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let (variable, text) = Self.choice(environment: environment)
        do {
            words = try NotifyCommand.split(text, naming: variable)
            problem = nil
        } catch {
            words = []
            problem = String(describing: error)
        }
        self.environment = environment
    }

    /// The variable the editor comes from and its text.
    static func choice(environment: [String: String]) -> (variable: String, text: String) {
        for variable in ["EDITOR", "VISUAL"] {
            if let text = environment[variable], !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                return (variable, text)
            }
        }
        return ("vi", "vi")
    }

    private var name: String { words.first ?? "vi" }

    public func edit(_ text: String) -> ExternalEditOutcome {
        if let problem { return .failed(problem) }
        guard let program = words.first, let executable = NotifyCommand.resolve(program, environment: environment) else {
            return .failed("editor '\(name)' was not found\(name.contains("/") ? "" : " on PATH")")
        }
        let file: TemporaryNotesFile
        do {
            file = try TemporaryNotesFile(text: text)
        } catch {
            return .failed("cannot write a temporary file for the editor: \(error)")
        }
        defer { file.remove() }
        let status: Int32
        do {
            status = try Self.run(executable.path, arguments: Array(words.dropFirst()) + [file.path])
        } catch {
            return .failed("editor '\(name)' could not be started: \(error)")
        }
        guard status == 0 else {
            return .failed(status > 0 ? "editor '\(name)' exited with status \(status)" : "editor '\(name)' was stopped by signal \(-status)")
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            return .failed("editor '\(name)' left no file to read back")
        }
        let edited = Self.trimmingFinalNewlines(String(decoding: data, as: UTF8.self))
        return edited == Self.trimmingFinalNewlines(text) ? .unchanged : .edited(edited)
    }

    /// Editors end a file with a new line; notes do not need one.
    static func trimmingFinalNewlines(_ text: String) -> String {
        var text = text
        while text.last == "\n" || text.last == "\r\n" { text.removeLast() }
        return text
    }

    /// Runs the editor in the foreground and returns its exit status (the
    /// signal, negated, when one ended it).
    static func run(_ executable: String, arguments: [String]) throws -> Int32 {
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Ignored signals would stay ignored in the editor: it gets the
        // defaults back.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGQUIT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))

        let previousInterrupt = signal(SIGINT, SIG_IGN)
        let previousQuit = signal(SIGQUIT, SIG_IGN)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGQUIT, previousQuit)
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, nil, &attributes, argv, environ)
        guard result == 0 else { throw CoreError.invalidInput(String(cString: strerror(result))) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw CoreError.invalidInput(String(cString: strerror(errno))) }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import.
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : -signal
    }
}

/// A file of the user's text for an editor: private to the user, in the
/// temporary directory, named so editors pick plain-text settings.
private struct TemporaryNotesFile {
    let path: String

    init(text: String) throws {
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(directory)/reminders-notes-XXXXXX.txt".utf8CString)
        // mkstemps makes the file with mode 0600, failing rather than
        // reusing a name that exists.
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemps($0, 4) } ?? -1
        }
        guard descriptor >= 0 else { throw CoreError.invalidInput("\(directory): \(String(cString: strerror(errno)))") }
        path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        } catch {
            unlink(path)
            throw error
        }
    }

    func remove() {
        unlink(path)
    }
}
