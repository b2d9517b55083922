import Foundation
import GRDB
import RemindersCore

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
struct RemindersContext {
    typealias WriteGuard = @Sendable (Database, Set<String>) throws -> Void

    let location: Location
    let clock: AppClock
    let database: DatabasePool
    let store: RemindersStore

    /// Opens (creating if needed) the device's database. The write guard is
    /// where sharing refuses writes to read-only lists.
    init(_ options: CommonOptions, writeGuard: @escaping WriteGuard = { _, _ in }) throws {
        location = try options.resolve()
        clock = try AppClock.fromEnvironment()
        database = try AppDatabase.open(path: location.databasePath)
        store = RemindersStore(writer: database, clock: clock, writeGuard: writeGuard)
    }

    /// A read transaction whose SQLite errors become `CoreError.database`.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try database.read(body)
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

    /// Who owns each list in exports. Without sharing, this user owns them all.
    func owner(ofList id: String) -> String {
        location.user
    }
}
