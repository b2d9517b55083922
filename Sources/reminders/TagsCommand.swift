import ArgumentParser
import Foundation
import RemindersCore

/// `reminders tags [--json]`: every tag with its count of open reminders.
struct TagsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tags", abstract: "Show your tags with how many open reminders carry each.")

    @Flag(help: "Print an array of {title, openCount}.")
    var json = false

    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try ReadingContext(common)
        let tags = try context.read { try Queries.allTags($0) }
        if json {
            try JSONOutput.print(tags.map { TagJSON(title: $0.title, openCount: $0.openCount) })
            return
        }
        guard !tags.isEmpty else {
            print("No tags yet. Add one with 'reminders add TITLE --list LIST --tag NAME'.")
            return
        }
        var table = TextTable([.left, .right])
        for tag in tags {
            table.add(["#" + tag.title, "\(tag.openCount) open"])
        }
        print(table.render())
    }
}
