import Foundation
import GRDB
import Testing
@testable import RemindersCore
import TestSupport

/// How the app opens its database file, and the files it must refuse
/// without crashing and without touching them.
@Suite("Database files")
struct DatabaseFileTests {
    /// A commit the user saw must survive a power cut, not only a crash of
    /// the process: the log is synced at every commit.
    @Test func aDeviceDatabaseUsesWALWithFullSynchronous() throws {
        let folder = TemporaryDirectory()
        let pool = try AppDatabase.open(path: folder.url.appendingPathComponent("device.sqlite").path)
        let (mode, synchronous) = try pool.writeWithoutTransaction { db in
            (try String.fetchOne(db, sql: "PRAGMA journal_mode"), try Int.fetchOne(db, sql: "PRAGMA synchronous"))
        }
        #expect(mode == "wal")
        #expect(synchronous == 2) // FULL
    }

    @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAlone() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("notes.sqlite").path
        let contents = Data("These are my notes, not a database.\n".utf8)
        try contents.write(to: URL(fileURLWithPath: path))

        let error = expectErrorKind(.database("")) { _ = try AppDatabase.open(path: path) }
        #expect(error?.exitCode == 1)
        #expect(error?.description.contains(path) ?? false)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
    }

    /// Another program's SQLite database (tables, and no record of our
    /// migrations) is refused, for writing and for reading, and its file
    /// left byte for byte as it was; an empty file becomes ours.
    @Test func anotherProgramsDatabaseIsRefusedAndLeftAlone() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("other.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: "CREATE TABLE foo (x); INSERT INTO foo VALUES (1); CREATE TABLE bar (y)")
            }
            try queue.close()
        }
        let contents = try Data(contentsOf: URL(fileURLWithPath: path))
        let error = expectErrorKind(.database("")) { _ = try AppDatabase.open(path: path) }
        #expect(error?.exitCode == 1)
        #expect(error?.description.contains("is not a reminders database (it holds another program's tables: bar, foo)") == true,
                "\(String(describing: error))")
        expectErrorKind(.database("")) { _ = try AppDatabase.openReadOnly(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["other.sqlite"])

        let empty = folder.url.appendingPathComponent("empty.sqlite").path
        FileManager.default.createFile(atPath: empty, contents: Data())
        try AppDatabase.open(path: empty).close()
    }

    /// Another program's database that happens to carry our version stamp,
    /// or keeps GRDB's record of migrations too, or marks itself with an
    /// application id of its own: refused, byte for byte as it was.
    @Test func anotherProgramsDatabaseIsRefusedWhateverItsHeaderSays() throws {
        let folder = TemporaryDirectory()
        let cases: [(name: String, sql: String, says: String)] = [
            ("stamped.sqlite", "CREATE TABLE foo (x); PRAGMA user_version = \(AppDatabase.versionStamp)",
             "it holds another program's tables: foo"),
            ("migrated.sqlite", """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('createNotes'); CREATE TABLE notes (body)
                """, "it holds another program's tables: notes"),
            ("marked.sqlite", "PRAGMA application_id = 1179602510", "application id 0x464f4e4e"),
        ]
        for (name, sql, says) in cases {
            let path = folder.url.appendingPathComponent(name).path
            let queue = try DatabaseQueue(path: path)
            try queue.writeWithoutTransaction { db in try db.execute(sql: sql) }
            try queue.close()
            let contents = try Data(contentsOf: URL(fileURLWithPath: path))
            let error = expectErrorKind(.database("")) { _ = try AppDatabase.open(path: path) }
            #expect(error?.description.contains("is not a reminders database (") == true, "\(name): \(String(describing: error))")
            #expect(error?.description.contains(says) == true, "\(name): \(String(describing: error))")
            expectErrorKind(.database("")) { _ = try AppDatabase.openReadOnly(path: path) }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents, "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
                == cases.map(\.name).sorted())
    }

    /// The header is read through SQLite's file layer (which keeps this
    /// process's locks): a database given by a symbolic link still opens,
    /// and a file of one byte is no empty database.
    @Test func aLinkedDatabaseOpensAndAOneByteFileIsRefused() throws {
        let folder = TemporaryDirectory()
        let real = folder.url.appendingPathComponent("real.sqlite").path
        try AppDatabase.open(path: real).close()
        let link = folder.url.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: real)
        #expect(try AppDatabase.checkHeader(path: link).application == AppDatabase.applicationID)
        try AppDatabase.open(path: link).close()

        let byte = folder.url.appendingPathComponent("byte.sqlite").path
        _ = FileManager.default.createFile(atPath: byte, contents: Data("x".utf8))
        let error = expectErrorKind(.database("")) { _ = try AppDatabase.open(path: byte) }
        #expect(error?.description.contains("not an SQLite file") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: byte)) == Data("x".utf8))
    }

    @Test func aFolderGivenAsTheDatabaseIsNamedSo() throws {
        let folder = TemporaryDirectory()
        let error = expectErrorKind(.database("")) { _ = try AppDatabase.open(path: folder.url.path) }
        #expect(error?.description.contains("is a directory; --db takes the path of a file") == true, "\(String(describing: error))")
    }

    @Test func aDamagedDatabaseIsRefusedAndLeftAlone() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("damaged.sqlite").path
        var contents = Data("SQLite format 3\u{0}".utf8)
        contents.append(Data(repeating: 0xAB, count: 4096))
        try contents.write(to: URL(fileURLWithPath: path))

        expectErrorKind(.database("")) { _ = try AppDatabase.open(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
    }

    @Test func aDatabaseFromANewerVersionIsRefusedAndLeftAlone() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("future.sqlite").path
        do {
            let pool = try AppDatabase.open(path: path)
            try RemindersStore(writer: pool).createList(title: "From the future")
            // As a newer version migrates: a migration this one does not
            // know, and the stamp in the header raised with it.
            try pool.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from a newer version')")
                try db.execute(sql: "PRAGMA user_version = 99")
            }
            try pool.close()
        }
        let contents = try Data(contentsOf: URL(fileURLWithPath: path))

        let error = expectErrorKind(.database("")) { _ = try AppDatabase.open(path: path) }
        #expect(error?.description.contains("newer version") ?? false)
        #expect(error?.exitCode == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
    }

    /// The stamp saves a start its own connection for the version check;
    /// it is not what the refusal rests on.
    @Test func theHeaderStampsTheVersionAndAnUnknownMigrationIsRefusedWhateverTheStamp() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("stamped.sqlite").path
        do {
            let pool = try AppDatabase.open(path: path)
            try pool.close()
        }
        #expect(try AppDatabase.checkHeader(path: path)
                == AppDatabase.Header(version: Schema.migrator.migrations.count, application: 0x524D_4452))
        #expect(AppDatabase.versionStamp == Schema.migrator.migrations.count)
        // Stamped as this version's, yet migrated further (the log holds it).
        do {
            let pool = try AppDatabase.open(path: path)
            try pool.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from a newer version')")
            }
            let error = expectErrorKind(.database("")) { _ = try AppDatabase.open(path: path) }
            #expect(error?.description.contains("newer version") ?? false)
            try pool.close()
        }
        // Written before the stamp: read through the version check, then stamped.
        let old = folder.url.appendingPathComponent("unstamped.sqlite").path
        do {
            let queue = try DatabaseQueue(path: old)
            try Schema.migrator.migrate(queue)
            try queue.close()
        }
        #expect(try AppDatabase.checkHeader(path: old) == AppDatabase.Header(version: 0, application: 0))
        try AppDatabase.open(path: old).close()
        #expect(try AppDatabase.checkHeader(path: old)
                == AppDatabase.Header(version: Schema.migrator.migrations.count, application: AppDatabase.applicationID))
    }

    @Test func aDatabaseFromANewerVersionInRollbackModeIsLeftAlone() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("future.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path, configuration: AppDatabase.configuration())
            try Schema.migrator.migrate(queue)
            try queue.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from a newer version')")
            }
            try queue.close()
        }
        let contents = try Data(contentsOf: URL(fileURLWithPath: path))
        expectErrorKind(.database("")) { _ = try AppDatabase.open(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == contents)
    }

    @Test func reopeningKeepsTheData() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("nested/folders/me-default.sqlite").path
        do {
            let pool = try AppDatabase.open(path: path)
            try RemindersStore(writer: pool).createList(title: "Kept")
            try pool.close()
        }
        let pool = try AppDatabase.open(path: path)
        #expect(try pool.read { try Queries.lists($0) }.map(\.list.title) == ["Kept"])
        #expect(try pool.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == true)
    }

    @Test func anEmptyFileBecomesADatabase() throws {
        let folder = TemporaryDirectory()
        let path = folder.url.appendingPathComponent("empty.sqlite").path
        FileManager.default.createFile(atPath: path, contents: Data())
        let pool = try AppDatabase.open(path: path)
        #expect(try pool.read { try Queries.lists($0) }.isEmpty)
    }
}

@Suite("Sample covers")
struct SampleCoversTests {
    /// SampleCovers.swift embeds Assets/covers/*.png (make-covers.py writes
    /// both); the two copies must not drift apart.
    @Test func embeddedCoversMatchTheAssets() throws {
        let folder = packageRoot.appendingPathComponent("Assets/covers")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".png") }
        #expect(Set(files.map { String($0.dropLast(4)) }) == Set(SampleCovers.names))
        for name in SampleCovers.names {
            let asset = try Data(contentsOf: folder.appendingPathComponent("\(name).png"))
            #expect(SampleCovers.png(named: name) == asset, "\(name).png differs from SampleCovers.swift")
            _ = try CoverImage(png: asset)
        }
        #expect(SampleCovers.png(named: "missing") == nil)
    }
}
