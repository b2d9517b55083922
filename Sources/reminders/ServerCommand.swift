import ArgumentParser
import CloudServer
import Foundation

/// `reminders server dump`: the server's store, for people.
struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server", abstract: "Look at the server directory.", subcommands: [ServerDumpCommand.self])
}

struct ServerDumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print users, zones, records (fields, times, change tags), tombstones and shares.")

    @Flag(help: "Print as JSON.") var json = false
    @OptionGroup var common: CommonOptions

    func run() throws {
        let location = try common.resolve()
        guard !Credentials.isURL(location.server) else {
            throw CLIFailure("`server dump` reads a server directory; \(location.server) is a network service "
                             + "(dump its store with --server DIR where it runs)", code: 2)
        }
        let directory = URL(fileURLWithPath: location.server)
        guard FileManager.default.fileExists(atPath: directory.appendingPathComponent("server.sqlite").path) else {
            throw SyncFailure(.serverUnavailable("no server at \(location.server) (nothing has synced there yet)"))
        }
        let dump = try SyncFailure.mapping { try DirectoryServer(directory: directory).dump() }
        if json {
            print(String(decoding: try dump.jsonData(), as: UTF8.self))
        } else {
            print(dump.text, terminator: dump.text.hasSuffix("\n") ? "" : "\n")
        }
    }
}
