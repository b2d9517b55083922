import ArgumentParser
import Foundation
import GRDB
import RemindersCore

#if canImport(Glibc)
import Glibc
#endif

/// Runs the command line and owns its one error policy: every failure is a
/// single line `reminders: <message>` on stderr and an exit code from the
/// contract (2 bad usage, unknown or ambiguous names; 3 read-only; 1 runtime).
enum CLI {
    static func main(_ arguments: [String]) async -> Never {
        // `help ad`: ArgumentParser prints the whole help for a command it
        // does not know, and succeeds; a mistyped name is bad usage here.
        if arguments.count >= 2, arguments[0] == "help", !arguments[1].hasPrefix("-"), arguments[1] != "help",
           !CommandSuggestion.allCommandNames.contains(arguments[1]) {
            let suggestion = CommandSuggestion.question(for: arguments[1]).map { ": " + $0 } ?? ""
            fail("'\(TerminalText.clean(arguments[1]))' is not a command\(suggestion)", hint: "see 'reminders --help'", code: 2)
        }
        var command: ParsableCommand
        do {
            command = try RemindersCommand.parseAsRoot(arguments)
        } catch {
            exitAfterParsing(error, arguments: arguments)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exitAfterRunning(error)
        }
        flushAndExit(0)
    }

    /// Help and version requests print as usual; every other parsing or
    /// validation error is bad usage: exit 2 (not ArgumentParser's 64).
    /// Syntax errors (a missing argument, an unknown option) point at the
    /// command's help; a refused value does not need to.
    static func exitAfterParsing(_ error: Error, arguments: [String] = []) -> Never {
        let code = RemindersCommand.exitCode(for: error)
        if code == .success {
            RemindersCommand.exit(withError: error)
        }
        var message = RemindersCommand.message(for: error)
        if message.hasPrefix("Error: ") { message.removeFirst("Error: ".count) }
        // ArgumentParser's suggestion, in the words of the program's own.
        message = message.replacingOccurrences(of: "'. Did you mean '", with: "': did you mean '")
        let details = ParseFailure(error)
        if details.isValueRefused {
            fail(message, code: 2)
        }
        let path = details.commandPath ?? ["reminders"]
        // A first word that names no command is read as an argument of the
        // default one, the app: say it is not a command.
        if path == ["reminders", "tui"], let first = arguments.first, first != "tui",
           details.unexpectedValues.first == first {
            let suggestion = CommandSuggestion.question(for: first).map { ": " + $0 } ?? ""
            fail("'\(TerminalText.clean(first))' is not a command\(suggestion)", hint: "see 'reminders --help'", code: 2)
        }
        // A mistyped option of the program itself ("--versoin") reads as
        // one of the app's, which has no such option to suggest.
        if path == ["reminders", "tui"], let option = arguments.first, option.hasPrefix("--"), !message.contains("did you mean"),
           let name = CommandSuggestion.closest(to: String(option.dropFirst(2)), among: ["version", "help"]).first {
            fail("unknown option '\(TerminalText.clean(option))': did you mean '--\(name)'?", hint: "see 'reminders --help'", code: 2)
        }
        // An option typed before its command ("reminders --due tomorrow add
        // x") reads as the app's: say where it goes.
        if path == ["reminders", "tui"], let option = arguments.first, option.hasPrefix("-"),
           let command = arguments.dropFirst().first(where: { word in
               RemindersCommand.configuration.subcommands.contains { $0.configuration.commandName == word }
           }), command != "tui" {
            fail("'\(TerminalText.clean(option))' comes before the command '\(command)': options go after it",
                 hint: "see 'reminders \(command) --help'", code: 2)
        }
        // A value that starts with '-' ("--due -1d", "--notes -urgent") reads
        // as an option, and the option it was for as missing its value.
        if message.lowercased().hasPrefix("missing value for '-"),
           let option = message.dropFirst("missing value for '".count).split(whereSeparator: { $0 == " " || $0 == "'" }).first,
           let index = arguments.firstIndex(of: String(option)), index + 1 < arguments.count,
           arguments[index + 1].hasPrefix("-"), !arguments[index + 1].hasPrefix("--"), arguments[index + 1].count > 1 {
            // (A word with two dashes is taken for the next option, the
            // value forgotten: ArgumentParser's own words say that.)
            let value = TerminalText.clean(arguments[index + 1])
            fail("\(option) has no value ('\(value)' reads as an option); a value that starts with '-' is written "
                 + "\(option)='\(value)'", hint: "see '\(path.joined(separator: " ")) --help'", code: 2)
        }
        // `add` and `edit` take --list; `show` takes the list itself.
        if path == ["reminders", "show"], message.lowercased().hasPrefix("unknown option '--list'") {
            fail("'show' takes the list itself, not --list: 'reminders show LIST'", hint: "see 'reminders show --help'", code: 2)
        }
        fail(message, hint: "see '\(path.joined(separator: " ")) --help'", code: 2)
    }

    static func exitAfterRunning(_ error: Error) -> Never {
        switch error {
        case let error as CommandLineError:
            fail(error.message, code: error.exitCode)
        case let error as ExitCode:
            flushAndExit(error.rawValue)
        case let error as ValidationError:
            fail(error.message, code: 2)
        case let error as DatabaseError:
            fail("database error: \(error.message ?? "\(error.resultCode)")", code: 1)
        default:
            if RemindersCommand.exitCode(for: error) == .success {
                RemindersCommand.exit(withError: error)
            }
            fail(RemindersCommand.message(for: error), code: 1)
        }
    }

    /// Prints one line on stderr (control characters removed, lines joined)
    /// and exits.
    static func fail(_ message: String, hint: String? = nil, code: Int32) -> Never {
        var line = message.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
        line = TerminalText.clean(line)
        if let first = line.first, first.isUppercase, line.dropFirst().first?.isLowercase == true {
            line = first.lowercased() + line.dropFirst()
        }
        if let hint { line += " (\(hint))" }
        FileHandle.standardError.write(Data("reminders: \(line)\n".utf8))
        flushAndExit(code)
    }

    static func flushAndExit(_ code: Int32) -> Never {
        fflush(nil)
        exit(code)
    }
}

/// An error that knows its one-line message and its exit code. Errors of
/// other modules join the policy by conforming here (a server error would
/// answer 4), with no change to `CLI`.
protocol CommandLineError: Error {
    var message: String { get }
    var exitCode: Int32 { get }
}

extension CoreError: CommandLineError {
    var message: String { description }
}

/// A due date that cannot be read is bad usage.
extension NaturalDateError: CommandLineError {
    var message: String { "--due: \(description)" }
    var exitCode: Int32 { 2 }
}

/// A quick-add line that cannot be read is bad usage; `--literal` is the
/// way out when the text was meant as it is.
extension QuickAddError: CommandLineError {
    var message: String {
        switch self {
        case .invalidTitle, .noSuchList: description
        case .ambiguousList: description + ": use --list with an id"
        default: description + " (--literal keeps the text as the title)"
        }
    }

    var exitCode: Int32 { 2 }
}

/// What ArgumentParser's (internal) error type says about a parse failure,
/// read through reflection: which command failed, and whether it was a
/// value our `validate()` refused rather than a syntax error.
struct ParseFailure {
    var commandPath: [String]?
    var isValueRefused = false
    /// The words no argument or option took, in order.
    var unexpectedValues: [String] = []

    init(_ error: Error) {
        for child in Mirror(reflecting: error).children {
            switch child.label {
            case "commandStack":
                if let stack = child.value as? [ParsableCommand.Type] {
                    commandPath = stack.map { $0.configuration.commandName ?? "" }.filter { !$0.isEmpty }
                }
            case "parserError":
                let error = Mirror(reflecting: child.value).children.first
                isValueRefused = error?.label == "userValidationError"
                if error?.label == "unexpectedExtraValues" {
                    // [(InputOrigin, String)]: each word is its pair's last part.
                    unexpectedValues = Mirror(reflecting: error?.value ?? []).children.compactMap { pair in
                        Mirror(reflecting: pair.value).children.compactMap { $0.value as? String }.last
                    }
                }
            default:
                break
            }
        }
    }
}
