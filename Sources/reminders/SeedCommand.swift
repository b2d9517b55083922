import ArgumentParser
import Foundation
import RemindersCore

/// `reminders seed`: sample lists and reminders on an empty database.
struct SeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Fill an empty database with sample lists, reminders, tags and covers.",
        discussion: "Due dates are relative to today. A database that already has lists is left alone.")

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        if try SampleData.seed(context.store) {
            let lists = try context.read { try Queries.lists($0) }
            let names = lists.map { TerminalText.clean($0.list.title) }.joined(separator: ", ")
            print("Added sample data: \(names).")
        } else {
            print("The database already has lists; nothing added.")
        }
    }
}
