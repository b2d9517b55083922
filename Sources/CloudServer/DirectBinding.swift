import GRDB
import GRDBSQLite

extension Statement {
    /// Runs the statement with `values` bound to its parameters in order,
    /// straight into SQLite: without the argument list GRDB would build,
    /// copy and check first, which cost a fifth of writing a page of rows
    /// many per statement.
    ///
    /// Throws, and runs nothing, unless there is exactly one value per
    /// parameter.
    package func execute(binding values: [DatabaseValue]) throws {
        try bind(CollectionOfOne(values))
        try execute()
    }

    /// Runs the statement with the values of `rows`, row after row, bound
    /// as `execute(binding:)` binds them: a statement that writes many rows.
    package func execute(bindingRows rows: ArraySlice<[DatabaseValue]>) throws {
        try bind(rows)
        try execute()
    }

    private func bind(_ rows: some Collection<[DatabaseValue]>) throws {
        // Marks the arguments as set (to none), so that running the
        // statement only resets it, which keeps the bindings below.
        setUncheckedArguments(StatementArguments())
        var index: CInt = 0
        for row in rows {
            for value in row {
                index += 1
                let code: CInt
                if case .string(let text) = value.storage {
                    code = Self.bind(text, to: sqliteStatement, at: index)
                } else {
                    code = value.bind(to: sqliteStatement, at: index)
                }
                guard code == SQLITE_OK else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: code), message: "cannot bind value \(index)", sql: sql)
                }
            }
        }
        let expected = sqlite3_bind_parameter_count(sqliteStatement)
        guard index == expected else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "\(index) values for \(expected) parameters", sql: sql)
        }
    }

    /// Binds text from the string's own UTF-8 bytes, with their length, so
    /// all of it goes in (a NUL inside too). Passing a `String` where C
    /// wants a pointer, as GRDB's binding does, first copies it into a new
    /// NUL-terminated array, and SQLite then measures it again: 7% of
    /// writing a first download's rows at 100,000 reminders.
    private static func bind(_ text: String, to statement: SQLiteStatement, at index: CInt) -> CInt {
        var text = text
        return text.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, transient) }
            return sqlite3_bind_text(statement, index, start, CInt(bytes.count), transient)
        }
    }

    /// SQLite's "copy the value now" destructor.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
