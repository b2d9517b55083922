import Foundation
import GRDB
import RemindersCore
import Testing
@testable import SyncEngine

/// Attaching an engine installs its triggers and marks rows written before
/// them once; attaching again redoes that only when something changed.
@Suite struct AttachTests {
    func attach(_ db: DatabaseQueue, tables: [SyncedTable] = RemindersTables.all) throws -> SyncEngine {
        try SyncEngine(writer: db, userName: "me", deviceName: "laptop", tables: tables)
    }

    func pendingNames(_ db: DatabaseQueue) throws -> Set<String> {
        try db.read { db in
            Set(try String.fetchAll(db, sql: "SELECT recordType || '/' || recordName FROM sync_metadata WHERE isPendingSave"))
        }
    }

    @Test func rowsFromBeforeTheTriggersArePendingAndASecondAttachChangesNothing() throws {
        let db = try AppDatabase.inMemory()
        try db.write { db in
            try db.execute(sql: "INSERT INTO remindersLists (id, title) VALUES ('l1', 'Early')")
        }
        _ = try attach(db)
        #expect(try pendingNames(db) == ["remindersLists/l1"])
        let triggers = try db.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_%' ORDER BY name")
        }
        try db.write { db in try db.execute(sql: "UPDATE sync_metadata SET isPendingSave = 0") }
        let schemaVersion = try db.read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") }
        _ = try attach(db)
        // Nothing installed again (every start did, and scanned every table).
        #expect(try db.read { db in try Int.fetchOne(db, sql: "PRAGMA schema_version") } == schemaVersion)
        #expect(try pendingNames(db).isEmpty, "a second attach marked rows again")
        #expect(try db.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync_%' ORDER BY name")
        } == triggers)
    }

    /// Engine tables a newer version wrote (whose last-known records this
    /// one may not read) are refused with one line, and left as they were.
    @Test func engineTablesOfANewerVersionAreRefused() throws {
        let db = try AppDatabase.inMemory()
        _ = try attach(db)
        try db.write { db in
            try db.execute(sql: "UPDATE sync_state SET value = ? WHERE key = 'schemaVersion'", arguments: [SyncSchema.version + 1])
        }
        #expect {
            _ = try attach(db)
        } throws: { error in
            "\(error)".contains("written by a newer version of reminders; upgrade reminders")
        }
        #expect(try db.read { db in try Int.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'schemaVersion'") } == SyncSchema.version + 1)
    }

    /// A database whose engine tables were written by the first version
    /// gains the share preview column, and keeps its shares.
    @Test func engineTablesOfTheFirstVersionAreUpgraded() throws {
        let db = try AppDatabase.inMemory()
        _ = try attach(db)
        try db.write { db in
            try db.execute(sql: """
                ALTER TABLE sync_shares DROP COLUMN rootPreview;
                UPDATE sync_state SET value = 1 WHERE key = 'schemaVersion';
                INSERT INTO sync_shares (id, rootRecordType, rootRecordName, zoneName, ownerName, participants)
                VALUES ('s1', 'remindersLists', 'l1', 'reminders', 'alice', '[]');
                """)
        }
        _ = try attach(db)
        #expect(try db.read { db in try Int.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = 'schemaVersion'") } == SyncSchema.version)
        let shares = try db.read { db in try SyncEngine.localShares(db) }
        #expect(shares.map(\.id) == ["s1"])
        #expect(shares.first?.rootPreview == [:])
        #expect(try db.read { db in try db.columns(in: "sync_shares").map(\.name) }.contains("rootPreview"))
    }

    @Test func aMissingTriggerOrANewSyncedTableInstallsAndBackfillsAgain() throws {
        let db = try AppDatabase.inMemory()
        let lists = [SyncedTable("remindersLists")]
        _ = try attach(db, tables: lists)
        // A trigger gone (a table rebuilt by a migration, say): rows written
        // meanwhile were not captured, and the next attach catches them.
        try db.write { db in
            try db.execute(sql: "DROP TRIGGER sync_remindersLists_insert")
            try db.execute(sql: "INSERT INTO remindersLists (id, title) VALUES ('l2', 'Uncaptured')")
        }
        _ = try attach(db, tables: lists)
        #expect(try pendingNames(db) == ["remindersLists/l2"])
        #expect(try db.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'sync_remindersLists_insert'")
        } == 1)
        // A table newly synced: its rows, written while it was not, become pending.
        try db.write { db in try db.execute(sql: "INSERT INTO tags (id, title) VALUES ('home', 'Home')") }
        #expect(try !pendingNames(db).contains("tags/home"))
        _ = try attach(db)
        #expect(try pendingNames(db).contains("tags/home"))
    }

    func state(_ db: DatabaseQueue, _ key: String) throws -> String? {
        try db.read { db in try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE key = ?", arguments: [key]) }
    }

    /// The build of the running code can be read here (the test binary is
    /// linked with a build ID), so the notes below are not a dead path.
    @Test func theRunningBuildHasAnIdentity() throws {
        #if os(Linux)
        let build = try #require(BuildIdentity.current)
        #expect(build.count >= 16 && build.allSatisfy(\.isHexDigit))
        #endif
    }

    /// A start of the build that found the triggers current trusts its
    /// note instead of building every trigger's SQL again; a start of
    /// another build, or one after the schema changed, checks the long way.
    @Test func aStartTrustsOnlyItsOwnBuildsNoteOnAnUnchangedSchema() throws {
        guard let build = BuildIdentity.current else { return }
        let db = try AppDatabase.inMemory()
        let engine = try attach(db)
        let tables = engine.tables
        let signature = try #require(try state(db, "captureSignature"))
        #expect(try db.read { db in try ChangeCapture.isNoted(db, tables: tables) })
        #expect(try db.read { db in try !ChangeCapture.isNoted(db, tables: tables, build: "another build") })

        // Trusted: a signature the note vouches for is not checked again.
        try db.write { db in
            try SyncState.set(db, "captureSignature", "tampered")
            try SyncState.set(db, "captureNote", ChangeCapture.note(db, tables: tables, build: build, signature: "tampered"))
        }
        _ = try attach(db)
        #expect(try state(db, "captureSignature") == "tampered")

        // Another build's note: checked, found wrong, installed again.
        try db.write { db in
            try SyncState.set(db, "captureNote", ChangeCapture.note(db, tables: tables, build: "another build", signature: "tampered"))
        }
        _ = try attach(db)
        #expect(try state(db, "captureSignature") == signature)
        #expect(try db.read { db in try ChangeCapture.isNoted(db, tables: tables) })

        // GRDB's start of a write-ahead log moves the schema's version
        // (it creates and drops a table): the note still holds.
        try db.write { db in try db.execute(sql: "CREATE TABLE grdb_issue_102 (id INTEGER PRIMARY KEY); DROP TABLE grdb_issue_102") }
        #expect(try db.read { db in try ChangeCapture.isNoted(db, tables: tables) })

        // A capture trigger dropped by hand: the next start checks, and
        // puts it back.
        try db.write { db in try db.execute(sql: "DROP TRIGGER sync_tags_update") }
        #expect(try db.read { db in try !ChangeCapture.isNoted(db, tables: tables) })
        _ = try attach(db)
        #expect(try db.read { db in try ChangeCapture.isNoted(db, tables: tables) })
        #expect(try db.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'sync_tags_update'")
        } == 1)

        // A capture trigger rewritten under its own name: the note no
        // longer holds, and the long check compares each trigger's SQL, so
        // the start puts it back as this version writes it.
        let original = try db.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'sync_tags_update'")
        }
        try db.write { db in
            try db.execute(sql: "DROP TRIGGER sync_tags_update")
            try db.execute(sql: "CREATE TRIGGER sync_tags_update AFTER UPDATE ON tags BEGIN SELECT 1; END")
        }
        #expect(try db.read { db in try !ChangeCapture.isNoted(db, tables: tables) })
        #expect(try db.read { db in try !ChangeCapture.isCurrent(db, tables: tables) })
        _ = try attach(db)
        #expect(try db.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'sync_tags_update'")
        } == original)
        #expect(try db.read { db in try ChangeCapture.isNoted(db, tables: tables) })

        // A column added by a migration changes what the next start
        // inspects: it checks, and the update trigger watches the column.
        try db.write { db in try db.execute(sql: "ALTER TABLE remindersLists ADD COLUMN flavour TEXT") }
        let inspected = try db.read { db in try SchemaInspector.inspect(db, tables: RemindersTables.all) }
        #expect(try db.read { db in try !ChangeCapture.isNoted(db, tables: inspected) })
        _ = try attach(db)
        let update = try db.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'sync_remindersLists_update'")
        }
        #expect(update?.contains("flavour") == true)
        #expect(try state(db, "captureSignature") != signature)
    }
}
