import CloudServer
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import Synchronization

/// One PostgreSQL connection as the server's requests use it: statements
/// written for every store (`?` placeholders) run here with PostgreSQL's
/// `$1`, and every call blocks until its answer, as the requests of
/// `CloudDatabase` do. Used from one thread at a time, never from an event
/// loop.
final class StoreSession: StoreConnection {
    let connection: PostgresConnection
    private let logger: Logger
    private(set) var changesCount = 0
    private var savepoints = 0

    init(_ connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws {
        let result = try run(sql, arguments)
        changesCount = result.metadata.rows ?? 0
    }

    func rows(_ sql: String, _ arguments: [any SQLBindable]) throws -> [StoreRow] {
        try run(sql, arguments).rows.map(Self.row)
    }

    func savepoint(_ body: () throws -> Bool) throws {
        savepoints += 1
        let name = "request_\(savepoints)"
        try execute("SAVEPOINT \(name)")
        let keep: Bool
        do {
            keep = try body()
        } catch {
            try execute("ROLLBACK TO SAVEPOINT \(name)")
            throw error
        }
        try execute(keep ? "RELEASE SAVEPOINT \(name)" : "ROLLBACK TO SAVEPOINT \(name)")
    }

    private func run(_ sql: String, _ arguments: [any SQLBindable]) throws -> PostgresQueryResult {
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument.sqlValue {
            case .null: binds.appendNull()
            case .integer(let number): binds.append(number)
            case .real(let number): binds.append(number)
            case .text(let text): binds.append(text)
            case .blob(let data): try binds.append(data)
            }
        }
        // A connection the server closed takes no more statements (and one
        // sent to it might never be answered).
        guard !connection.isClosed else { throw ConnectionLost() }
        let query = PostgresQuery(unsafeSQL: Placeholders.numbered(sql), binds: binds)
        return try connection.query(query, logger: logger).wait(atMost: Self.statementTimeout)
    }

    /// The longest one statement may take before the request gives up on
    /// its connection: a safety net for an answer that never comes.
    static let statementTimeout: TimeAmount = .seconds(15)

    /// A row of values as every store reads them: booleans (from `EXISTS`
    /// and comparisons) as integers 0 and 1.
    private static func row(_ row: PostgresRow) throws -> StoreRow {
        var values: [SQLValue] = []
        for cell in row {
            guard cell.bytes != nil else {
                values.append(.null)
                continue
            }
            switch cell.dataType {
            case .int2, .int4, .int8: values.append(.integer(try cell.decode(Int64.self)))
            case .float4, .float8: values.append(.real(try cell.decode(Double.self)))
            case .bool: values.append(.integer(try cell.decode(Bool.self) ? 1 : 0))
            case .bytea: values.append(.blob(try cell.decode(Data.self)))
            default: values.append(.text(try cell.decode(String.self)))
            }
        }
        return StoreRow(values: values)
    }
}

/// Turns the `?` placeholders of store statements into PostgreSQL's
/// numbered ones: `?` takes the next number, `?N` is `$N`. Question marks
/// inside quoted text are left alone.
enum Placeholders {
    private static let cache = Mutex<[String: String]>([:])

    static func numbered(_ sql: String) -> String {
        if let known = cache.withLock({ $0[sql] }) { return known }
        var result = ""
        var next = 1
        var inQuote = false
        var characters = sql.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            if character == "'" { inQuote.toggle() }
            guard character == "?", !inQuote else {
                result.append(character)
                continue
            }
            var digits = ""
            while let digit = pending, digit.isASCII, digit.isNumber {
                digits.append(digit)
                pending = characters.next()
            }
            if digits.isEmpty {
                result += "$\(next)"
                next += 1
            } else {
                result += "$" + digits
            }
        }
        cache.withLock { $0[sql] = result }
        return result
    }
}

/// The connection was closed, by the server or the network.
struct ConnectionLost: Error, CustomStringConvertible {
    var description: String { "the connection to PostgreSQL was closed" }
}

/// No answer came in time.
struct StatementTimedOut: Error, CustomStringConvertible {
    var description: String { "PostgreSQL did not answer within \(StoreSession.statementTimeout.nanoseconds / 1_000_000_000) seconds" }
}

extension EventLoopFuture where Value: Sendable {
    /// Waits for the value, or throws `StatementTimedOut` after `limit`.
    func wait(atMost limit: TimeAmount) throws -> Value {
        let promise = eventLoop.makePromise(of: Value.self)
        let completed = NIOLockedValueBox(false)
        @Sendable func complete(_ result: Result<Value, any Error>) {
            let first = completed.withLockedValue { done in
                defer { done = true }
                return !done
            }
            if first { promise.completeWith(result) }
        }
        let timeout = eventLoop.scheduleTask(in: limit) { complete(.failure(StatementTimedOut())) }
        whenComplete { result in
            timeout.cancel()
            complete(result)
        }
        return try promise.futureResult.wait()
    }
}
