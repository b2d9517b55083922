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
                let code = value.bind(to: sqliteStatement, at: index)
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
}
