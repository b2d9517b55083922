import ArgumentParser
import Foundation
import RemindersCore

/// The options `add` and `edit` share for repeats, early alerts and
/// subtasks. `--no-repeat` and `--no-parent` only mean something to `edit`
/// (`AddCommand.validate` refuses them).
struct ScheduleOptions: ParsableArguments {
    @Option(name: .customLong("repeat"), help: ArgumentHelp(
        "Repeat: daily, every 2 weeks on mon,thu, every month on the last fri, yearly, every 3 days after completion, … until DATE, … 5 times; a time at the end is the due date's (every tue at 9).",
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
        return .some(try repeatWithTime(dates: dates).rule.rrule)
    }

    /// `--repeat`'s rule and the time its words end with (`every tuesday
    /// at 9`), if any.
    private func repeatWithTime(dates: NaturalDate) throws -> (rule: RepeatRule, time: (hour: Int, minute: Int)?) {
        guard let repeatText else { throw CoreError.invalidInput("--repeat: no rule given") }
        do {
            return try dates.repeatWithTime(repeatText)
        } catch {
            throw CoreError.invalidInput("--repeat: \(error.description)")
        }
    }

    /// The time `--repeat` ends with, if it names one.
    func repeatTime(dates: NaturalDate) throws -> (hour: Int, minute: Int)? {
        repeatText == nil ? nil : try repeatWithTime(dates: dates).time
    }

    /// The due date once a time in `--repeat` is applied: `due` (the one
    /// given, or the reminder's) at that time, or the rule's first day at
    /// it; `due` itself when the repeat names no time. A due date with a
    /// time of its own and a repeat with another is a mistake.
    func due(_ due: DueDate?, dates: NaturalDate) throws -> DueDate? {
        guard repeatText != nil, case let (rule, time?) = try repeatWithTime(dates: dates) else { return due }
        switch dates.due(due, repeating: rule, at: time) {
        case .success(let combined): return combined
        case .failure(let clash): throw CoreError.invalidInput(clash.message(repeatName: "--repeat", dueName: "the due date"))
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
