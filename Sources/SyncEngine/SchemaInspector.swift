import GRDB

/// A synced table as the engine understands it, read from the schema.
public struct TableSchema: Hashable, Sendable {
    public struct ForeignKey: Hashable, Sendable {
        public var column: String
        public var parentTable: String
        public var parentColumn: String
        public var onDelete: String
    }

    public var name: String
    public var primaryKey: String
    /// Every column except the primary key, in declaration order.
    public var columns: [String] {
        didSet { nameOrder = Self.nameOrder(columns) }
    }
    /// Positions in `columns`, in the order of the columns' names: a
    /// record's fields set in this order are each appended to its
    /// `FieldMap`, never inserted between others.
    public private(set) var nameOrder: [Int]
    /// Declared types (upper case), by column.
    public var types: [String: String]
    public var foreignKeys: [ForeignKey]
    /// The foreign key that makes a row a child of another: its parent is
    /// sent first, and a child fetched before its parent waits for it.
    public var parent: ForeignKey?
    /// Whether a row lives in its parent's zone and share (a reminder in a
    /// shared list) or always in the user's own zone (a private tag link).
    public var sharesWithParent: Bool

    /// Whether a row holds text a person wrote: a text column that refers
    /// to no other row (a reminder's title, not a tag link's references).
    /// Only such a row that went with its parent is worth a log entry.
    /// The column a row is named by in messages: its first text column
    /// other than its parent's reference (a list's or a reminder's title).
    var nameColumn: String? {
        columns.first { $0 != parent?.column && types[$0] == "TEXT" }
    }

    var holdsWrittenText: Bool {
        columns.contains { column in types[column] == "TEXT" && !foreignKeys.contains { $0.column == column } }
    }

    public init(name: String, primaryKey: String, columns: [String], types: [String: String], foreignKeys: [ForeignKey],
                parent: ForeignKey?, sharesWithParent: Bool) {
        self.name = name
        self.primaryKey = primaryKey
        self.columns = columns
        self.nameOrder = Self.nameOrder(columns)
        self.types = types
        self.foreignKeys = foreignKeys
        self.parent = parent
        self.sharesWithParent = sharesWithParent
    }

    private static func nameOrder(_ columns: [String]) -> [Int] {
        columns.indices.sorted { columns[$0] < columns[$1] }
    }

    /// Columns holding blobs: they travel as server assets.
    public var assetColumns: Set<String> { Set(columns.filter { types[$0] == "BLOB" }) }

    /// Every column, primary key first.
    public var allColumns: [String] { [primaryKey] + columns }

    /// Foreign keys from the table to itself (a subtask's parent): a row
    /// new to the server is sent after the row it refers to.
    public var selfReferences: [ForeignKey] { foreignKeys.filter { $0.parentTable == name } }

    /// How rows of another table are tied to this one's through a table
    /// of links (a reminder's tags through `remindersTags`): the links'
    /// reference to this table's row, and to the named row.
    struct Link: Hashable, Sendable {
        /// The table of links, its primary key, its reference to this
        /// table's row and to the named row.
        var links: String
        var linksKey: String
        var ownColumn: String
        var namedColumn: String
        /// The named table, its primary key and the column it is named by.
        var named: String
        var namedKey: String
        var nameColumn: String
    }

    /// The links to this table among `schemas`: a table of nothing but
    /// references, deleted with the rows it ties (ON DELETE CASCADE), one
    /// of them to this table, as the links' parent (a tag link is a
    /// reminder's, not a tag's), and one to a table whose rows have names.
    /// A row the log keeps whole keeps those names too
    /// (`SyncEngine.linkedNames`), so that putting it back ties it again.
    func links(among schemas: [TableSchema]) -> [Link] {
        schemas.compactMap { table in
            guard !table.holdsWrittenText, table.foreignKeys.count == 2, table.columns.count == 2,
                  table.foreignKeys.allSatisfy({ $0.onDelete == "CASCADE" }),
                  let own = table.parent, own.parentTable == name,
                  let other = table.foreignKeys.first(where: { $0.parentTable != name }),
                  let named = schemas.first(where: { $0.name == other.parentTable }),
                  other.parentColumn == named.primaryKey, let nameColumn = named.nameColumn else { return nil }
            return Link(links: table.name, linksKey: table.primaryKey, ownColumn: own.column, namedColumn: other.column,
                        named: named.name, namedKey: named.primaryKey, nameColumn: nameColumn)
        }
    }
}

/// Reads and checks the schema of the tables to sync.
///
/// Rules, each checked with an error naming the table and column: a single
/// TEXT primary key; no UNIQUE constraint besides it (two devices could
/// create rows that collide, and no merge could repair that); foreign keys
/// only to synced tables, with ON DELETE CASCADE or SET NULL; no cycles
/// among different tables, so that parents can always be sent before
/// children. A table may refer to itself (a reminder's parent reminder):
/// its rows are ordered row by row when sent (`outgoingBatch`).
enum SchemaInspector {
    static let supportedOnDelete: Set<String> = ["CASCADE", "SET NULL"]

    /// The most columns a synced table may have besides its primary key.
    /// The insert trigger passes every column's name and time, the key's
    /// too, to one `json_object` call, and SQLite (3.40) takes at most 127
    /// arguments a call.
    static let maximumColumns = 62

    /// Reads `tables` (with an optional parent column each) and returns them
    /// ordered parents before children.
    static func inspect(_ db: Database, tables: [SyncedTable]) throws -> [TableSchema] {
        let names = Set(tables.map(\.name))
        var schemas: [String: TableSchema] = [:]
        for table in tables {
            guard try db.hasTable(table.name) else {
                throw SyncError.unsupportedSchema(table: table.name, column: nil, reason: "no such table")
            }
            let columns = try Row.fetchAll(db.cachedStatement(sql: "SELECT name, type, pk FROM pragma_table_info(?) ORDER BY cid"), arguments: [table.name])
            let pkColumns = columns.filter { ($0["pk"] as Int) > 0 }
            guard pkColumns.count == 1 else {
                throw SyncError.unsupportedSchema(table: table.name, column: nil, reason: "needs a single-column primary key, found \(pkColumns.count)")
            }
            guard columns.count - 1 <= maximumColumns else {
                throw SyncError.unsupportedSchema(
                    table: table.name, column: nil,
                    reason: "has \(columns.count - 1) columns besides its primary key; a synced table may have at most \(maximumColumns) "
                        + "(the change triggers pass two values a column to one SQL function, which takes at most 127)")
            }
            let primaryKey: String = pkColumns[0]["name"]
            let pkType: String = pkColumns[0]["type"]
            guard pkType.uppercased() == "TEXT" else {
                throw SyncError.unsupportedSchema(table: table.name, column: primaryKey, reason: "primary key must be TEXT, is \(pkType)")
            }
            for index in try Row.fetchAll(db.cachedStatement(sql: "SELECT name, origin FROM pragma_index_list(?) WHERE \"unique\""), arguments: [table.name]) {
                let origin: String = index["origin"]
                if origin == "pk" { continue }
                let indexName: String = index["name"]
                let indexColumns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [indexName])
                throw SyncError.unsupportedSchema(
                    table: table.name, column: indexColumns.joined(separator: ", "),
                    reason: "UNIQUE constraints cannot be kept across devices; remove index \(indexName)")
            }
            var foreignKeys: [TableSchema.ForeignKey] = []
            let fkRows = try Row.fetchAll(db.cachedStatement(sql: """
                SELECT id, seq, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id DESC, seq
                """), arguments: [table.name])
            for row in fkRows {
                let column: String = row["from"]
                let parentTable: String = row["table"]
                let seq: Int = row["seq"]
                guard seq == 0, fkRows.filter({ ($0["id"] as Int) == (row["id"] as Int) }).count == 1 else {
                    throw SyncError.unsupportedSchema(table: table.name, column: column, reason: "composite foreign keys are not supported")
                }
                guard names.contains(parentTable) else {
                    throw SyncError.unsupportedSchema(table: table.name, column: column, reason: "references \(parentTable), which is not synced")
                }
                let onDelete = (row["on_delete"] as String).uppercased()
                guard supportedOnDelete.contains(onDelete) else {
                    throw SyncError.unsupportedSchema(table: table.name, column: column, reason: "ON DELETE \(onDelete) is not supported; use CASCADE or SET NULL")
                }
                let parentColumn: String? = row["to"]
                foreignKeys.append(.init(column: column, parentTable: parentTable, parentColumn: parentColumn ?? "", onDelete: onDelete))
            }
            var parent: TableSchema.ForeignKey?
            if let parentColumn = table.parentColumn {
                guard let key = foreignKeys.first(where: { $0.column == parentColumn }) else {
                    throw SyncError.unsupportedSchema(table: table.name, column: parentColumn, reason: "parent column is not a foreign key")
                }
                parent = key
            } else if foreignKeys.count == 1 {
                parent = foreignKeys[0]
            }
            var types: [String: String] = [:]
            for column in columns { types[column["name"]] = (column["type"] as String).uppercased() }
            schemas[table.name] = TableSchema(
                name: table.name, primaryKey: primaryKey,
                columns: columns.map { $0["name"] as String }.filter { $0 != primaryKey },
                types: types, foreignKeys: foreignKeys, parent: parent, sharesWithParent: table.sharesWithParent)
        }
        return try topologicalOrder(schemas, declared: tables.map(\.name))
    }

    /// Parents before children; a cycle between tables is an error naming a
    /// table in it. A table's references to itself are no such cycle.
    static func topologicalOrder(_ schemas: [String: TableSchema], declared: [String]) throws -> [TableSchema] {
        var ordered: [TableSchema] = []
        var state: [String: Int] = [:] // 1 visiting, 2 done
        func visit(_ name: String) throws {
            if state[name] == 2 { return }
            guard let schema = schemas[name] else { return }
            if state[name] == 1 {
                throw SyncError.unsupportedSchema(table: name, column: nil, reason: "foreign keys form a cycle")
            }
            state[name] = 1
            for key in schema.foreignKeys where key.parentTable != name {
                try visit(key.parentTable)
            }
            state[name] = 2
            ordered.append(schema)
        }
        for name in declared { try visit(name) }
        return ordered
    }
}

/// A table the engine syncs, with the foreign key column that makes its rows
/// children of another table's rows (for sharing and send order). With nil,
/// a table with exactly one foreign key uses that one.
public struct SyncedTable: Hashable, Sendable {
    public var name: String
    public var parentColumn: String?
    /// False for rows that stay the user's own even when their parent is
    /// shared: they live in the user's private zone and carry no parent
    /// reference to the server, so no share covers them.
    public var sharesWithParent: Bool
    /// Groups of columns the app writes as one edit (a due date and the
    /// occurrence it stands for): putting back the losing value of one of
    /// them after a conflict puts back the others the same edits conflicted
    /// on (`SyncEngine.restoreLosingValue`).
    public var editedTogether: [[String]]
    /// Columns the conflict log keeps of a row a delete takes, edited or
    /// not, where they hold a value (text not empty, a number not 0): put
    /// back from the log, the row has them again (a reminder's due date
    /// and priority, not only the notes that were edited).
    public var keptWhole: [String]

    public init(_ name: String, parentColumn: String? = nil, sharesWithParent: Bool = true, editedTogether: [[String]] = [],
                keptWhole: [String] = []) {
        self.editedTogether = editedTogether
        self.keptWhole = keptWhole
        self.name = name
        self.parentColumn = parentColumn
        self.sharesWithParent = sharesWithParent
    }
}

extension String {
    /// The string as an SQL string literal, for identifiers that the engine
    /// writes into trigger bodies (table and column names).
    var databaseLiteral: String {
        "'" + replacingOccurrences(of: "'", with: "''") + "'"
    }
}
