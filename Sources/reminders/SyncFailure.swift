import CloudServer
import SyncEngine

/// A sync or server error as the command line reports it: exit 4 when the
/// server cannot be used (unreachable, damaged, too new, an asset file lost),
/// 3 when the user may not do it, 1 otherwise.
struct SyncFailure: Error, CommandLineError {
    let message: String
    let exitCode: Int32

    init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    init(_ error: CloudError) {
        let code: Int32
        let message = error.description
        switch error {
        case .serverUnavailable, .incompatibleVersion: code = 4
        case .assetUnavailable:
            // A damaged server: its asset files are lost or changed.
            code = 4
        case .permissionFailure: code = 3
        case .shareNotFound: code = 2
        default: code = 1
        }
        self.init(message: message, exitCode: code)
    }

    /// A sync that received everything but records whose asset the server
    /// could not give (a list's cover): the server is damaged, so exit 4,
    /// naming the first and the repair.
    init(waiting: [WaitingAsset]) {
        let first = waiting[0]
        let list = first.subject.map { "“\(TerminalText.clean($0))”" } ?? "a list"
        let more = waiting.count > 1 ? " (and \(TerminalText.count(waiting.count - 1, "other cover")))" : ""
        let argument = first.subject.map { "\"\(TerminalText.clean($0))\"" } ?? "LIST"
        self.init(message: "the cover of \(list)\(more) could not be downloaded, everything else synced: \(first.problem)"
                  + " (on a device that shows the cover, run 'reminders list cover \(argument) --clear', sync, then set the cover again)",
                  exitCode: 4)
    }

    init(_ error: SyncError) {
        switch error {
        case .server(let cloud): self.init(cloud)
        case .permissionDenied(let why): self.init(message: why, exitCode: 3)
        default: self.init(message: error.description, exitCode: 1)
        }
    }

    /// Runs `body`, turning sync and server errors into command-line ones.
    static func mapping<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SyncError {
            throw SyncFailure(error)
        } catch let error as CloudError {
            throw SyncFailure(error)
        }
    }
}
