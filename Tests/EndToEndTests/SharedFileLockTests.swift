import CloudServer
import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport

/// A process that holds a database open (the app: its device database,
/// and the server's store through its live sync) and opens it a second
/// time (the app's first start opens the server again to add the sample
/// lists) must keep the locks that tell other processes the file is in
/// use. A header read with a descriptor of its own used to drop them: the
/// next `reminders` command to close the file then took it for unused and
/// deleted its write-ahead log and index, and the app went on reading a
/// store frozen at that moment (and took it for a server put back from an
/// older copy) while writing into a log nobody else read.
@Suite("Files held open by one process, written by another")
struct SharedFileLockTests {
    @Test func aSecondOpenInOneProcessKeepsTheFirstOnesViewOfOtherProcessesWrites() throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        try cli.ok("seed")
        try cli.ok("sync")
        let serverDirectory = cli.home.appendingPathComponent("data/reminders/server")

        // The server: one open, then a second one in the same process.
        let held = try DirectoryServer(directory: serverDirectory)
        let before = try held.currentSequence()
        do { _ = try DirectoryServer(directory: serverDirectory) }
        // The device database: the same.
        let device = try AppDatabase.open(path: cli.defaultDatabase.path)
        try AppDatabase.open(path: cli.defaultDatabase.path).close()

        // Another process writes both, and closes them.
        try cli.ok("add", "Written elsewhere", "--list", "Groceries")
        try cli.ok("sync")

        // Both files are still shared: their logs are where they were...
        for file in [serverDirectory.appendingPathComponent("server.sqlite").path, cli.defaultDatabase.path] {
            for suffix in ["-wal", "-shm"] {
                #expect(FileManager.default.fileExists(atPath: file + suffix), "\(file)\(suffix)")
            }
        }
        // ...and the first opens see what the other process wrote.
        #expect(try held.currentSequence() > before)
        #expect(try device.read { db in
            try Reminder.filter(Column("title") == "Written elsewhere").fetchCount(db)
        } == 1)
        try device.close()
    }
}
