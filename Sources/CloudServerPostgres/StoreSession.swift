import CloudServer
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO
import Synchronization

/// One PostgreSQL connection as the server's requests use it: statements
/// written for every store (`?` placeholders) run here with PostgreSQL's
/// `$1`. Used from one thread at a time, never from an event loop.
///
/// Statements that return nothing are sent without waiting for their
/// answers (they queue on the connection, in order), and the answers are
/// collected before the next query that returns rows, before a savepoint
/// ends and at the end of the transaction: a batch of saves costs one
/// round trip per read instead of one per statement. An error in any of
/// them fails the request at the next collection, and the transaction is
/// rolled back as it would be at once.
final class StoreSession: StoreConnection {
    let connection: PostgresConnection
    private let logger: Logger
    private var lastChanges = 0
    private var savepoints = 0
    private var unanswered: [EventLoopFuture<PostgresQueryResult>] = []
    /// How many statements may wait for their answers at once.
    private static let pipelineDepth = 256

    init(_ connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    var changesCount: Int {
        _ = try? collect()
        return lastChanges
    }

    func execute(_ sql: String, _ arguments: [any SQLBindable]) throws {
        unanswered.append(try send(sql, arguments))
        if unanswered.count >= Self.pipelineDepth { try collect() }
    }

    func rows(_ sql: String, _ arguments: [any SQLBindable]) throws -> [StoreRow] {
        try collect()
        return try send(sql, arguments).wait(atMost: Self.statementTimeout).rows.map(Self.row)
    }

    /// Waits for the answers of the statements sent so far; throws the
    /// first error among them.
    func collect() throws {
        let waiting = unanswered
        unanswered = []
        var failure: (any Error)?
        for answer in waiting {
            do {
                lastChanges = try answer.wait(atMost: Self.statementTimeout).metadata.rows ?? 0
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
    }

    func savepoint(_ body: () throws -> Bool) throws {
        savepoints += 1
        let name = "request_\(savepoints)"
        try execute("SAVEPOINT \(name)")
        let keep: Bool
        do {
            keep = try body()
            try collect()
        } catch {
            try execute("ROLLBACK TO SAVEPOINT \(name)")
            try collect()
            throw error
        }
        try execute(keep ? "RELEASE SAVEPOINT \(name)" : "ROLLBACK TO SAVEPOINT \(name)")
        try collect()
    }

    /// Sends a statement; its answer is the future's.
    private func send(_ sql: String, _ arguments: [any SQLBindable]) throws -> EventLoopFuture<PostgresQueryResult> {
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
        return connection.query(query, logger: logger)
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
