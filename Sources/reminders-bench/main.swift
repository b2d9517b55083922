import Foundation
import RemindersCore

// reminders-bench: see BenchOptions.usage. The first argument may select a
// hidden child mode that the benchmark starts itself in.
let startedAt = monotonicNanoseconds()
Progress.start = startedAt
let arguments = Array(CommandLine.arguments.dropFirst())
// Every figure in UTC, whatever this machine's zone, with the app's own
// clock: the local zone, as the app reads it (children inherit it).
setenv("TZ", "UTC", 1)
tzset()
// Before any connection, the floor's bare one included: every figure is
// taken with SQLite set up as the app sets it up.
AppDatabase.setUpSQLite()

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("reminders-bench: \(message)\n".utf8))
    exit(1)
}

do {
    switch arguments.first {
    case "--follower":
        try Follower.run(keyedOptions(arguments))
        exit(0)
    case "--sync-once":
        try SyncOnce.run(keyedOptions(arguments))
        exit(0)
    case "--serve":
        try LoopbackService.serve(keyedOptions(arguments))
    case "--first-frame":
        try AppChild.firstFrame(keyedOptions(arguments), startedAt: startedAt)
        exit(0)
    case "--memory":
        try AppChild.memory(keyedOptions(arguments))
        exit(0)
    default:
        let options = try BenchOptions.parse(arguments)
        let report = try BenchRun(options: options).run()
        print(options.json ? try report.json() : report.table())
    }
} catch {
    fail("\(error)")
}
