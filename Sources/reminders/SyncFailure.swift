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
        var message = error.description
        switch error {
        case .serverUnavailable, .incompatibleVersion: code = 4
        case .assetUnavailable:
            // A damaged server: its asset files are lost or changed.
            code = 4
            // The engine names the record it belongs to: "the image of “Work”: …".
            let list = message.range(of: #"the image of “([^”]*)”"#, options: .regularExpression)
                .map { String(message[$0].dropFirst("the image of “".count).dropLast()) }
            message += " (for a list's cover: on a device that shows it, run 'reminders list cover \(list.map { "\"\($0)\"" } ?? "LIST") --clear', sync, then set the cover again)"
        case .permissionFailure: code = 3
        case .shareNotFound: code = 2
        default: code = 1
        }
        self.init(message: message, exitCode: code)
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
