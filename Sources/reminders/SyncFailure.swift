import CloudServer
import SyncEngine

/// A sync or server error as the command line reports it: exit 4 when the
/// server cannot be used, 3 when the user may not do it, 1 otherwise.
struct SyncFailure: Error, CommandLineError {
    let message: String
    let exitCode: Int32

    init(message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    init(_ error: CloudError) {
        let code: Int32
        switch error {
        case .serverUnavailable, .incompatibleVersion: code = 4
        case .permissionFailure: code = 3
        case .shareNotFound: code = 2
        default: code = 1
        }
        self.init(message: error.description, exitCode: code)
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
