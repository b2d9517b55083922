import CloudClient
import CloudServer
import CloudServerPostgres
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import SyncEngine

/// One device, opened: where its files are, its clock, its database and the
/// store that makes every change. A subcommand that touches data builds one
/// from its `CommonOptions` and throws whatever goes wrong; `CLI.main`
/// turns the error into one line on stderr and an exit code.
///
///     struct Frobnicate: ParsableCommand {
///         @OptionGroup var common: CommonOptions
///         func run() throws {
///             let context = try RemindersContext(common)
///             let listID = try context.list("Groceries")
///             try context.store.updateList(id: listID, title: "Food")
///         }
///     }
struct RemindersContext: DeviceReading {
    typealias WriteGuard = @Sendable (Database, Set<String>) throws -> Void

    let location: Location
    let clock: AppClock
    /// Why the server cannot be asked (not signed in to its URL): thrown by
    /// the first command that asks it, so that the commands that stay on
    /// the device (`show`, `add`, `status`) still work.
    let serverProblem: CLIFailure?
    /// The device: database with the sync engine attached (so every write is
    /// captured for sync), store (which refuses writes to read-only shared
    /// lists), and the server's location.
    let session: DeviceSession
    var database: DatabasePool { session.writer }
    var reader: any DatabaseReader { session.writer }
    var store: RemindersStore { session.store }
    var engine: SyncEngine { session.engine }

    /// Opens (creating if needed) the device's database. Does not touch the
    /// server; `connect()` does.
    init(_ options: CommonOptions) throws {
        try self.init(location: options.resolve())
    }

    /// Opens the device at a location already resolved from the options.
    /// `readersToWarm`: see `DeviceSession`.
    init(location: Location, readersToWarm: Int = 0) throws {
        self.location = location
        clock = try AppClock.fromEnvironment()
        let server: ServerAddress
        do {
            server = try location.serverAddress()
            serverProblem = nil
        } catch let failure as CLIFailure where Credentials.isURL(location.server)
                    && FileManager.default.fileExists(atPath: location.databasePath) {
            // Only for a device that exists: without a sign-in the user may
            // be the default one, whose database is not the one meant.
            server = .signedOut(try Credentials.serviceURL(location.server), why: failure.message)
            serverProblem = failure
        }
        session = try DeviceSession(
            databasePath: location.databasePath, server: server,
            userName: location.user, deviceName: location.device, clock: clock, readersToWarm: readersToWarm)
    }

    /// Reads typed due dates relative to this command's clock.
    var naturalDates: NaturalDate { NaturalDate(clock: clock, order: .fromEnvironment()) }

    /// Opens the server and connects the engine to it; errors exit 4.
    @discardableResult
    func connect() throws -> any ServerConnection {
        if let serverProblem { throw serverProblem }
        do {
            return try session.connect()
        } catch let error as CloudError {
            throw SyncFailure(error)
        }
    }

    /// Runs a sync or share call with the server: its errors become
    /// command-line ones, and a re-join of the server it brought about is
    /// told once, on standard error (standard output stays the command's).
    func withServer<T>(_ body: (SyncEngine) throws -> T) throws -> T {
        if let serverProblem { throw serverProblem }
        defer {
            if let rejoin = try? session.takeRejoin() {
                FileHandle.standardError.write(Data((TerminalText.clean(rejoin.sentence) + ".\n").utf8))
            }
        }
        return try SyncFailure.mapping { try body(engine) }
    }

    /// Resolves the reminder a user named, makes one change to it, and
    /// returns the line that confirms it, with `detail` after the id. The
    /// title is read after the change, so that a new title is the one shown.
    func changeReminder(_ text: String, done: String, detail: String? = nil,
                        _ change: (_ id: String) throws -> Void) throws -> String {
        let id = try reminder(text)
        try change(id)
        let row = try reminderRow(id: id)
        return confirmation(done, row.reminder.title, id: id, detail: detail)
    }

}

/// What commands that only read need of a device: its location, clock and
/// a connection to read with, and the names a user types resolved to ids.
protocol DeviceReading {
    var location: Location { get }
    var clock: AppClock { get }
    var reader: any DatabaseReader { get }
}

extension DeviceReading {
    /// A read transaction whose SQLite errors become `CoreError.database`.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try reader.read(body)
        } catch let error as CoreError {
            throw error
        } catch let error as DatabaseError {
            throw CoreError.database("database \(location.databasePath): \(error.message ?? "\(error.resultCode)")")
        }
    }

    /// The id of the list a user named: full id, unique id prefix (4+), or
    /// unique title.
    func list(_ text: String) throws -> String {
        try read { try Resolver.list($0, text) }
    }

    /// A tag a user named, spelled any way that has its key, as the tag is
    /// spelled; a name no tag has is refused, with the nearest one.
    func tag(_ text: String) throws -> String {
        let title = try Validation.tag(text)
        return try read { db in
            if let shown = try Queries.tagTitle(db, title) { return shown }
            let near = NearestWords.closest(to: title, among: try Queries.tagTitles(db))
            let guess = near.count == 1 ? "did you mean '\(TerminalText.clean(near[0]))'? " : ""
            throw CoreError.notFound("no tag matches '\(TerminalText.clean(text))'; \(guess)'reminders tags' lists them")
        }
    }

    /// The id of the reminder a user named, as for `list(_:)`.
    func reminder(_ text: String) throws -> String {
        try read { try Resolver.reminder($0, text) }
    }

    /// The reminder with its list and tags, for confirmations.
    func reminderRow(id: String) throws -> ReminderRow {
        guard let row = try read({ try Queries.reminder($0, id: id, clock: clock) }) else {
            throw CoreError.notFound("reminder \(id) not found")
        }
        return row
    }

    /// Who owns a list: the owner of the zone it syncs in; this user for
    /// lists of their own and lists never synced.
    func owner(_ db: Database, ofList id: String) -> String {
        (try? SyncEngine.owner(db, table: RemindersList.databaseTableName, key: id, defaultOwner: location.user)) ?? location.user
    }
}

/// A device opened by a command that only reads (`lists`, `show`,
/// `search`, `export`, `tags`, `due`): on a database this process may
/// write, the device as every command opens it (made and migrated if new);
/// on one it may not (a read-only file or folder), a read-only connection,
/// so that reading works where writing cannot. A database given by path
/// that is not there is not made: a mistyped `--db` is refused.
struct ReadingContext: DeviceReading {
    let location: Location
    let clock: AppClock
    let reader: any DatabaseReader

    init(_ options: CommonOptions) throws {
        let settings = try EffectiveSettings(common: options)
        let location = try options.resolve(settings)
        if settings.database.origin != .standard, !FileManager.default.fileExists(atPath: location.databasePath) {
            throw CoreError.database("database \(location.databasePath) does not exist, and a command that only reads does not "
                                     + "make one: check the path ('reminders sync' or 'reminders add' starts a new one)")
        }
        if AppDatabase.isWritable(path: location.databasePath) {
            let context = try RemindersContext(location: location)
            self.location = context.location
            clock = context.clock
            reader = context.reader
        } else {
            self.location = location
            clock = try AppClock.fromEnvironment()
            reader = try AppDatabase.openReadOnly(path: location.databasePath)
        }
    }
}

extension Location {
    /// Where the server is and how to reach it: a directory, or a network
    /// service with the credential `reminders login` stored for this user.
    func serverAddress(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ServerAddress {
        if PostgresAddress.isAddress(server) {
            throw CLIFailure(
                "'\(server)' is a PostgreSQL store, which devices reach through reminders serve: run `reminders serve --store \(server)` and point --server at its http(s):// URL", code: 2)
        }
        if !Credentials.isURL(server), server.range(of: "^[A-Za-z][A-Za-z0-9+.-]*://", options: .regularExpression) != nil {
            throw CLIFailure("'\(server)' is not a server directory or URL (http://HOST:PORT or https://HOST:PORT)", code: 2)
        }
        guard Credentials.isURL(server) else {
            // The default server is made with the folders above it (a new
            // machine's data directory); one given is made only where its
            // folder exists (`ServerAddress.refusal`).
            if server == "\(dataDirectory)/server" {
                try? FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
            }
            return .directory(URL(fileURLWithPath: server))
        }
        let url = try Credentials.serviceURL(server)
        let credential = try Credentials.load(from: Credentials.path(environment: environment))
            .credential(for: server, user: user)
        return .remote(url, credential)
    }
}

extension RemindersContext {
    /// The list a reminder goes to when none is named: the config file's
    /// default list, else the first of `lists` (Home's order), else, on a
    /// device with no list yet, a list "Reminders" made for it
    /// (`RemindersStore.firstList`), which stderr announces.
    func defaultListID(_ settings: EffectiveSettings, lists: [RemindersList]) throws -> String {
        if !settings.defaultList.value.isEmpty {
            return try settings.blamingFile(settings.defaultList) { try list(settings.defaultList.value) }
        }
        let sharing = session.sharing
        let usable: (Database, String) throws -> Bool = { db, id in try !sharing.isReadOnly(db, listID: id) }
        if let first = try read({ db in try lists.first { try usable(db, $0.id) } }) { return first.id }
        let (made, isNew) = try store.firstList(user: location.user, usable: usable)
        if isNew {
            FileHandle.standardError.write(Data("No list to add to: made “\(made.title)”.\n".utf8))
        }
        return made.id
    }
}

