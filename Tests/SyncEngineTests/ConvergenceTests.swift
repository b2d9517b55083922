import CloudServer
import DeviceRuntime
import Foundation
import GRDB
import RemindersCore
import Testing
import TestSupport
@testable import SyncEngine


/// The latest edit of each field seen anywhere, by hybrid-clock time.
struct EditLedger {
    struct Entry { var time: Int64; var value: FieldValue?; var tied: Bool }
    var entries: [String: Entry] = [:]
    /// The devices that created each record ("table/key") before the
    /// server confirmed it. A tag's key comes from its title, so two
    /// devices can create one tag before either has seen the other's; the
    /// merge takes those creations as concurrent edits in which an equal
    /// value is no change, and no single edit of such a record is "the
    /// latest" one the result must hold.
    var creators: [String: Set<String>] = [:]

    /// Reminders a rule of the app may rewrite after a merge (`SyncedRules`):
    /// subtasks, their parents, and repeating reminders. The repair's
    /// writes are local edits sent within a sync, so the ledger, which
    /// reads what is pending between steps, does not see them; the fields
    /// it rewrites are checked by `ConvergenceProperty.checkRules` instead.
    var governedByRules: Set<String> = []
    static let ruleFields: Set<String> = ["parentID", "remindersListID", "position", "dueDate", "repeatRule", "status", "completedAt", "occurrence"]

    /// Notes the reminders of `device` that the rules govern.
    mutating func noteRules(_ device: Device) throws {
        let ids = try device.db.read { db in
            try String.fetchAll(db, sql: """
                SELECT id FROM reminders WHERE parentID IS NOT NULL OR repeatRule IS NOT NULL OR repeatOf IS NOT NULL
                UNION SELECT parentID FROM reminders WHERE parentID IS NOT NULL
                """)
        }
        governedByRules.formUnion(ids.map { "reminders/" + $0 })
    }

    /// Whether a field's latest edit must be what the rows hold.
    func isGoverned(_ record: String, column: String) -> Bool {
        governedByRules.contains(record) && Self.ruleFields.contains(column)
    }

    /// Whether the record "table/key" has a latest edit to check.
    func isChecked(_ record: String) -> Bool {
        (creators[record]?.count ?? 0) <= 1
    }

    /// Reads the device's pending edits (their times and current values).
    mutating func record(_ device: Device) throws {
        let tables = Dictionary(uniqueKeysWithValues: device.engine.tables.map { ($0.name, $0) })
        try device.db.read { db in
            for row in try Row.fetchAll(db, sql: "SELECT \(Metadata.columns) FROM sync_metadata WHERE isPendingSave") {
                let meta = try Metadata(row: row)
                guard let table = tables[meta.recordType],
                      let current = try device.engine.fetchRow(db, table: table, key: meta.recordName)
                else { continue }
                if meta.lastKnown == nil {
                    creators["\(table.name)/\(meta.recordName)", default: []].insert(device.name)
                }
                let values = RecordCoder.values(of: current, table: table).values
                for (column, time) in meta.editTimes where table.columns.contains(column) {
                    let key = "\(table.name)/\(meta.recordName)/\(column)"
                    let value = values[column]
                    if let existing = entries[key] {
                        if time > existing.time {
                            entries[key] = Entry(time: time, value: value, tied: false)
                        } else if time == existing.time, existing.value != value {
                            entries[key]?.tied = true
                        }
                    } else {
                        entries[key] = Entry(time: time, value: value, tied: false)
                    }
                }
            }
        }
    }
}

/// How the devices of a convergence run reach their server, and what may
/// happen to the server while they work. The random edits, interleavings
/// and checks of `ConvergenceProperty` are the same whatever the server.
protocol ConvergenceServer {
    /// What every device's engine connects to.
    var connection: any ServerConnection { get }
    /// Runs before each random step, with the device that takes it: may
    /// crash the server (while that device syncs, say) or bring it back.
    /// Returns what it did, for the run's log.
    mutating func disrupt(before step: Int, device: Device) throws -> String?
    /// Whether `error`, thrown by a step, is what a disruption explains
    /// (the server was down), so the run goes on.
    func excuses(_ error: any Error) -> Bool
    /// Brings the server back, if it is down, for the final syncs.
    mutating func recover() throws
    /// The record names of the user's tags on the server.
    func tagRecordNames() throws -> [String]
}

/// The directory server itself, as the engine's own tests use it: nothing
/// happens to it.
struct DirectoryConvergenceServer: ConvergenceServer {
    let server: DirectoryServer
    var connection: any ServerConnection { server }

    func disrupt(before step: Int, device: Device) throws -> String? { nil }
    func excuses(_ error: any Error) -> Bool { false }
    func recover() throws {}

    func tagRecordNames() throws -> [String] {
        try server.dump().records.filter { $0.recordType == "tags" }.map(\.recordName)
    }
}

/// Random devices, random edits, random send/fetch interleavings; then
/// sync until quiet: every device shows the same data, every field holds
/// its latest edit, and nothing is duplicated. Tags are spelled in case and
/// accent variants, and respelled: every device and the server end with one
/// tag per folded title.
enum ConvergenceProperty {
    /// Spellings of three tags: Work, Café and home.
    static let tagPool = ["Work", "work", "WORK", "Café", "CAFÉ", "cafe\u{301}", "home", "Home"]

    /// What one run did, for its summary line.
    struct Run {
        var devices: Int
        var steps: Int
        /// Every step and disruption, in order.
        var log: [String]
    }

    /// One run with `seed` on `server`; failures are recorded as issues
    /// that name the seed and carry the run's log.
    @discardableResult
    static func check(seed: Int, on server: inout some ConvergenceServer) throws -> Run {
        var rng = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 17)
        let deviceCount = Int.random(in: 2...4, using: &rng)
        let devices = try (0..<deviceCount).map { index in
            // Some clocks run behind by up to an hour.
            let skew = Int64.random(in: -3_600_000...0, using: &rng)
            return try Device("D\(index)", server: server.connection, clock: TestClock(1_800_000_000_000 + skew))
        }
        var ledger = EditLedger()
        let steps = Int.random(in: 20...45, using: &rng)
        var log: [String] = []
        do {
            for step in 0..<steps {
                let device = devices[Int.random(in: 0..<deviceCount, using: &rng)]
                if let disruption = try server.disrupt(before: step, device: device) {
                    log.append("\(step) \(disruption)")
                    try ledger.record(device)
                }
                do {
                    try randomStep(step, device: device, log: &log, using: &rng)
                } catch let error where server.excuses(error) {
                    log.append("\(step) \(device.name) failed, the server being down: \(error)")
                }
                try ledger.record(device)
                try ledger.noteRules(device)
            }
            // Sync until quiet.
            try server.recover()
            for _ in 0..<6 {
                for device in devices {
                    try device.sync()
                    try ledger.record(device)
                    try ledger.noteRules(device)
                }
            }
        } catch {
            Issue.record("seed \(seed): \(error)\n\(log.joined(separator: "\n"))")
            return Run(devices: deviceCount, steps: steps, log: log)
        }
        let exports = try devices.map { try $0.export() }
        for (index, export) in exports.enumerated().dropFirst() where export != exports[0] {
            Issue.record("seed \(seed): device D\(index) differs from D0: \(difference(exports[0], export))\n\(log.joined(separator: "\n"))")
        }
        for device in devices {
            #expect(try device.pending() == 0, "seed \(seed): \(device.name) still has pending changes")
            try checkRules(device, seed: seed, log: log)
        }
        // Every field of every surviving row holds its latest edit.
        let d0 = devices[0]
        let tables = Dictionary(uniqueKeysWithValues: d0.engine.tables.map { ($0.name, $0) })
        try d0.db.read { db in
            for (key, entry) in ledger.entries where !entry.tied {
                let parts = key.split(separator: "/", maxSplits: 2).map(String.init)
                guard ledger.isChecked("\(parts[0])/\(parts[1])"), !ledger.isGoverned("\(parts[0])/\(parts[1])", column: parts[2]),
                      let table = tables[parts[0]],
                      let row = try d0.engine.fetchRow(db, table: table, key: parts[1])
                else { continue }
                let value = RecordCoder.values(of: row, table: table).values[parts[2]]
                #expect(value == entry.value, "seed \(seed): \(key) is \(String(describing: value)), latest edit was \(String(describing: entry.value))\n\(log.joined(separator: "\n"))")
            }
            // Nothing duplicated: one link per reminder and tag.
            let duplicates = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM (SELECT reminderID, tagID FROM remindersTags GROUP BY 1, 2 HAVING count(*) > 1)
                """)
            #expect(duplicates == 0, "seed \(seed): duplicated tag links")
        }
        // One tag per folded title, under its key, on every device and on
        // the server.
        for device in devices {
            let tags = try device.db.read { try Tag.fetchAll($0) }
            #expect(Set(tags.map { TagKey.of($0.title) }).count == tags.count, "seed \(seed): \(device.name) holds \(tags.map(\.title))")
            #expect(tags.allSatisfy { $0.id == TagKey.of($0.title) }, "seed \(seed): \(device.name) holds \(tags)")
        }
        let keys = try d0.db.read { try String.fetchAll($0, sql: "SELECT id FROM tags ORDER BY id") }
        let tagRecords = try server.tagRecordNames().sorted()
        #expect(tagRecords == keys.map { "tags/" + $0 }.sorted(), "seed \(seed): the server holds \(tagRecords)\n\(log.joined(separator: "\n"))")
        return Run(devices: deviceCount, steps: steps, log: log)
    }

    /// One random step of `device`: an edit of its data, or a send, a
    /// fetch or a sync. Logs the step before it runs.
    static func randomStep(_ step: Int, device: Device, log: inout [String], using rng: inout SeededGenerator) throws {
        device.clock.advance(Int64.random(in: 1...5_000, using: &rng))
        let lists = try device.db.read { try RemindersList.fetchAll($0) }
        let reminders = try device.db.read { try Reminder.fetchAll($0) }
        let roll = Int.random(in: 0..<130, using: &rng)
        // Moves among a few reminders, so that devices move the same ones
        // under each other while apart (chains and cycles to repair).
        let few = Array(reminders.sorted { $0.id < $1.id }.prefix(4))
        switch roll {
        case 0..<8:
            log.append("\(step) \(device.name) create list")
            try device.store.createList(title: "List \(step)", color: RemindersStore.palette.randomElement(using: &rng))
        case 8..<12 where !lists.isEmpty:
            let list = lists.randomElement(using: &rng)!
            log.append("\(step) \(device.name) rename list \(list.id.prefix(4))")
            try device.store.updateList(id: list.id, title: "Renamed \(step)")
        case 12..<14 where !lists.isEmpty:
            let list = lists.randomElement(using: &rng)!
            log.append("\(step) \(device.name) delete list \(list.id.prefix(4))")
            try device.store.deleteList(id: list.id)
        case 14..<30 where !lists.isEmpty:
            let list = lists.randomElement(using: &rng)!
            log.append("\(step) \(device.name) create reminder in \(list.id.prefix(4))")
            try device.store.createReminder(ReminderDraft(
                listID: list.id, title: "R\(step)", priority: Priority.allCases.randomElement(using: &rng)!,
                tags: Array(tagPool.shuffled(using: &rng).prefix(Int.random(in: 0...2, using: &rng)))))
        case 30..<55 where !reminders.isEmpty:
            let r = reminders.randomElement(using: &rng)!
            var changes = ReminderChanges()
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: changes.title = "T\(step)"
            case 1: changes.notes = "N\(step)"
            case 2: changes.priority = Priority.allCases.randomElement(using: &rng)!
            case 3: changes.isFlagged = Bool.random(using: &rng)
            default: changes.dueDate = .some(Bool.random(using: &rng) ? DueDate("2026-0\(Int.random(in: 1...9, using: &rng))-1\(step % 10)") : nil)
            }
            log.append("\(step) \(device.name) edit \(r.id.prefix(4)) \(changes)")
            try device.store.updateReminder(id: r.id, changes)
        case 55..<62 where !reminders.isEmpty:
            let r = reminders.randomElement(using: &rng)!
            log.append("\(step) \(device.name) toggle complete \(r.id.prefix(4))")
            if r.status == .completed { try device.store.uncomplete(id: r.id) } else { try device.store.complete(id: r.id) }
        case 62..<67 where !reminders.isEmpty:
            let r = reminders.randomElement(using: &rng)!
            log.append("\(step) \(device.name) delete reminder \(r.id.prefix(4))")
            try device.store.deleteReminder(id: r.id)
        case 67..<72 where !reminders.isEmpty && lists.count > 1:
            let r = reminders.randomElement(using: &rng)!
            let list = lists.randomElement(using: &rng)!
            log.append("\(step) \(device.name) move \(r.id.prefix(4)) to \(list.id.prefix(4))")
            try device.store.updateReminder(id: r.id, ReminderChanges(listID: list.id))
        case 72..<75 where !reminders.isEmpty:
            let r = reminders.randomElement(using: &rng)!
            let tags = Array(tagPool.shuffled(using: &rng).prefix(2))
            log.append("\(step) \(device.name) tags \(r.id.prefix(4)) \(tags)")
            try device.store.updateReminder(id: r.id, ReminderChanges(tags: tags))
        case 75..<76:
            let tags = try device.db.read { try Tag.fetchAll($0) }
            guard let tag = tags.randomElement(using: &rng) else { break }
            let spelling = tagPool.filter { TagKey.of($0) == tag.id }.randomElement(using: &rng) ?? tag.title
            log.append("\(step) \(device.name) respell \(tag.title) as \(spelling)")
            try device.store.renameTag(tag.title, to: spelling)
        case 76..<84:
            log.append("\(step) \(device.name) send")
            try device.engine.sendChanges()
        case 84..<92:
            log.append("\(step) \(device.name) fetch")
            try device.engine.fetchChanges()
        case 100..<115 where few.count > 1:
            let child = few.randomElement(using: &rng)!
            let parent = few.randomElement(using: &rng)!
            log.append("\(step) \(device.name) subtask \(child.id.prefix(4)) under \(parent.id.prefix(4))")
            try refusable(log: &log) { try device.store.setParent(id: child.id, parentID: parent.id) }
        case 115..<117 where !few.isEmpty:
            let child = few.randomElement(using: &rng)!
            log.append("\(step) \(device.name) top-level \(child.id.prefix(4))")
            try device.store.setParent(id: child.id, parentID: nil)
        case 117..<121 where !few.isEmpty:
            let r = few.randomElement(using: &rng)!
            let rule = rulePool.randomElement(using: &rng)!
            log.append("\(step) \(device.name) repeat \(r.id.prefix(4)) \(rule ?? "never")")
            try device.store.updateReminder(id: r.id, ReminderChanges(
                dueDate: r.dueDate == nil ? .some(DueDate("2027-01-1\(step % 10)T09:00")) : nil, repeatRule: .some(rule)))
        case 121..<130:
            let series = reminders.filter { $0.repeatRule != nil && $0.status != .completed }
            guard let r = series.randomElement(using: &rng) else { break }
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                log.append("\(step) \(device.name) complete occurrence \(r.dueDate?.description ?? "-") of \(r.id.prefix(4))")
                try device.store.complete(id: r.id)
            case 1:
                log.append("\(step) \(device.name) undo the last completion of \(r.id.prefix(4))")
                try device.store.uncomplete(id: r.id)
            default:
                // Done early or put off: the due date moved off the schedule.
                guard let due = r.dueDate else { break }
                let moved = due.adding(days: Int.random(in: -3...9, using: &rng))
                log.append("\(step) \(device.name) move occurrence \(due) of \(r.id.prefix(4)) to \(moved)")
                try device.store.updateReminder(id: r.id, ReminderChanges(dueDate: .some(moved)))
            }
        default:
            log.append("\(step) \(device.name) sync")
            try device.sync()
        }
    }

    /// The first thing two dumps disagree on, in words.
    static func difference(_ a: ExportDump, _ b: ExportDump) -> String {
        if a.lists != b.lists { return "lists \(a.lists.map { "\($0.id.prefix(4)) \($0.title)" }) against \(b.lists.map { "\($0.id.prefix(4)) \($0.title)" }); reminders \(a.reminders.map { "\($0.id.prefix(4)) in \($0.listID.prefix(4)) under \($0.parentID?.prefix(4) ?? "-")" }) against \(b.reminders.map { "\($0.id.prefix(4)) in \($0.listID.prefix(4)) under \($0.parentID?.prefix(4) ?? "-")" })" }
        let left = Dictionary(uniqueKeysWithValues: a.reminders.map { ($0.id, $0) })
        let right = Dictionary(uniqueKeysWithValues: b.reminders.map { ($0.id, $0) })
        for id in Set(left.keys).union(right.keys).sorted() where left[id] != right[id] {
            return "reminder \(id.prefix(4)): \(left[id].map { "\($0)" } ?? "absent") against \(right[id].map { "\($0)" } ?? "absent")"
        }
        return "tags \(a.tags.map(\.title)) against \(b.tags.map(\.title))"
    }

    /// Repeat rules the runs set, and stop (nil).
    static let rulePool: [String?] = ["FREQ=DAILY", "FREQ=WEEKLY;COUNT=3", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=DAILY;INTERVAL=2;FROM=COMPLETION", nil]

    /// Runs an edit the store may refuse by the app's rules (a subtask of
    /// a subtask); a refusal is logged, anything else fails the run.
    static func refusable(log: inout [String], _ edit: () throws -> Void) throws {
        do {
            try edit()
        } catch let error as CoreError {
            guard case .invalidInput = error else { throw error }
            log.append("  refused: \(error)")
        }
    }

    /// The app's rules hold on `device` once it is quiet: no subtask under
    /// a subtask, every subtask in its parent's list, no open series due at
    /// an occurrence already completed (the one a moved due date stands
    /// for, else the due date's own).
    static func checkRules(_ device: Device, seed: Int, log: [String]) throws {
        try device.db.read { db in
            let nested = try Int.fetchOne(db, sql: """
                SELECT count(*) FROM reminders AS child JOIN reminders AS parent ON parent.id = child.parentID
                WHERE parent.parentID IS NOT NULL OR parent.remindersListID != child.remindersListID OR child.id = parent.id
                """) ?? 0
            #expect(nested == 0, "seed \(seed): \(device.name) holds \(nested) subtasks breaking the rules\n\(log.joined(separator: "\n"))")
            for series in try Reminder.filter(sql: "repeatRule IS NOT NULL AND status != 'completed'").fetchAll(db) {
                guard let due = series.dueDate, let standing = Repeats.standing(series) else { continue }
                let copy = try Reminder.fetchOne(db, key: Repeats.occurrenceID(series: series.id, due: standing))
                #expect(copy?.status != .completed,
                        "seed \(seed): \(device.name) has \(series.id.prefix(4)) due at \(due) for \(standing), an occurrence completed already\n\(log.joined(separator: "\n"))")
            }
        }
    }
}

@Suite struct ConvergenceTests {
    /// The property on a server directory the devices open themselves.
    @Test(arguments: Self.seeds)
    func convergesUnderRandomInterleavings(seed: Int) throws {
        let directory = TemporaryDirectory()
        var server = DirectoryConvergenceServer(server: try makeServer(directory))
        try ConvergenceProperty.check(seed: seed, on: &server)
    }

    /// 200 seeds; `REMINDERS_CONVERGENCE_SEEDS=N` runs N, and
    /// `REMINDERS_CONVERGENCE_SEED=S` replays seed S alone.
    static let seeds: [Int] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["REMINDERS_CONVERGENCE_SEED"].flatMap(Int.init) { return [seed] }
        return Array(0..<(environment["REMINDERS_CONVERGENCE_SEEDS"].flatMap(Int.init) ?? 200))
    }()
}
