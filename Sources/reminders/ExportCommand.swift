import ArgumentParser
import Foundation
import RemindersCore

/// `reminders export --json`: the canonical dump of everything this device
/// shows; two devices that agree print identical bytes.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print everything as JSON: {\"lists\", \"reminders\", \"tags\"}, sorted by id.")

    @Flag(help: "JSON, the only format (required, so that scripts say what they expect).")
    var json = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard json else { throw ValidationError("export prints JSON only: run 'reminders export --json'") }
    }

    func run() throws {
        let context = try ReadingContext(common)
        let dump = try context.read { db in
            try ExportDump.read(db, owner: { context.owner(db, ofList: $0) })
        }
        print(try dump.json())
    }
}
