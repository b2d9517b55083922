import ArgumentParser
import Foundation
import RemindersCore

/// The options `add` and `edit` share for repeats, early alerts and
/// subtasks. `--no-repeat` and `--no-parent` only mean something to `edit`
/// (`AddCommand.validate` refuses them).
struct ScheduleOptions: ParsableArguments {
    @Option(name: .customLong("repeat"), help: ArgumentHelp(
        "Repeat: daily, every 2 weeks on mon,thu, every month on the last fri, yearly, every 3 days after completion, … until DATE, … 5 times.",
        valueName: "rule"))
    var repeatText: String?

    @Option(name: .customLong("repeat-rule"), help: ArgumentHelp(
        "Repeat, as an RFC 5545 RRULE: FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH (see docs/REPEATS.md for the subset).",
        valueName: "rrule"))
    var repeatRule: String?

    @Flag(name: .customLong("no-repeat"), help: "Stop repeating.")
    var noRepeat = false

    @Option(name: .customLong("alert-before"), help: ArgumentHelp(
        "Alert this long before the due time: 5m, 15m, 1h, 1d, 1h30m…, or none (at the due time).", valueName: "time"))
    var alertBefore: String?

    @Option(help: ArgumentHelp("Make it a subtask of this reminder (id, id prefix or title); it goes to that reminder's list.",
                               valueName: "reminder"), completion: ShellCompletion.reminders)
    var parent: String?

    @Flag(name: .customLong("no-parent"), help: "Make a subtask a top-level reminder again.")
    var noParent = false

    var isEmpty: Bool {
        repeatText == nil && repeatRule == nil && !noRepeat && alertBefore == nil && parent == nil && !noParent
    }

    func validate() throws {
        let repeats = [repeatText != nil, repeatRule != nil, noRepeat].filter { $0 }.count
        if repeats > 1 { throw ValidationError("give one of --repeat, --repeat-rule and --no-repeat") }
        if parent != nil, noParent { throw ValidationError("give --parent or --no-parent, not both") }
        try usage {
            _ = try rule(dates: NaturalDate.forCommandLine())
            _ = try alert()
        }
    }

    /// The rule to set (RRULE text): nil leaves it, `.some(nil)` removes it.
    func rule(dates: NaturalDate) throws -> String?? {
        if noRepeat { return .some(nil) }
        if let repeatRule { return .some(try Self.named("--repeat-rule", replacing: "repeat rule: ") { try Validation.repeatRule(repeatRule) }) }
        guard let repeatText else { return nil }
        do {
            return .some(try RepeatRule(parsing: repeatText, untilDate: { try? dates.parse($0) }).rrule)
        } catch {
            throw CoreError.invalidInput("--repeat: \(error.description)")
        }
    }

    /// The alert lead to set: nil leaves it, `.some(nil)` alerts at the due time.
    func alert() throws -> Int?? {
        guard let alertBefore else { return nil }
        return .some(try Self.named("--alert-before", replacing: "alert-before: ") { try AlertBefore.parse(alertBefore) })
    }

    /// Runs `body`, its bad input named by the option, as `--due` and
    /// `--repeat` name theirs (the core names the field: "repeat rule: ").
    private static func named<T>(_ option: String, replacing field: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch CoreError.invalidInput(let message) {
            throw CoreError.invalidInput("\(option): " + (message.hasPrefix(field) ? String(message.dropFirst(field.count)) : message))
        }
    }
}
