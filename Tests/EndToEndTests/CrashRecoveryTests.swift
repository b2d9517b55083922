import Foundation
import RemindersCore
import Testing
import TestSupport

/// Kills `reminders sync` at many points of the send and fetch path, then
/// restarts and syncs until quiet: no local edit is lost, nothing is
/// duplicated, and every device ends with the same export.
///
/// Three devices of one user edit at random (seeded) with disjoint field
/// ownership, so the converged state is known without re-implementing the
/// merge: each reminder's title, list, status and tags belong to the device
/// that created it, its notes to the next device, its priority and flag to
/// the one after. Deletes (of a reminder, or of a list with everything in
/// it) win over everything else.
///
/// `REMINDERS_CRASH_RUNS` sets how many injected crashes the fault test
/// makes (default 100) and how many kill -9 runs the signal test makes
/// (default a third of that); `REMINDERS_CRASH_SEED` replays a seed.
@Suite("Crash recovery", .serialized)
struct CrashRecoveryTests {
    static let devices = ["a", "b", "c"]

    @Test func faultsInjectedAcrossTheSyncPathLoseNothing() throws {
        let crashes = environmentCount("REMINDERS_CRASH_RUNS", default: 100)
        let seed = UInt64(environmentCount("REMINDERS_CRASH_SEED", default: 9))
        var world = try CrashWorld(seed: seed)
        defer { world.fleet.cleanUp() }
        try world.start()

        // Where each fault is planned: the server's request transactions,
        // the engine's device transactions, or the N-th of either. A sync
        // here makes 1-2 server writes (zones, records) and 5-7 device writes
        // (confirmed saves, each fetched page, tokens, shares, last sync), so
        // these ranges cover every write of the path; a run whose N is past
        // the last write must finish cleanly.
        let plans: [(scope: String, range: ClosedRange<Int>)] = [("server", 1...2), ("device", 1...6), ("any", 1...8)]
        var injected = 0
        var fired: [String: Set<Int>] = [:]
        var runs = 0
        while injected < crashes, runs < crashes * 3 {
            runs += 1
            let (victim, _) = try world.editRound()
            let plan = plans[runs % plans.count]
            var faults = [Int.random(in: plan.range, using: &world.random)]
            // Now and then, crash the restart too.
            if Int.random(in: 0..<4, using: &world.random) == 0 {
                faults.append(Int.random(in: plan.range, using: &world.random))
            }
            for n in faults {
                let result = try world.fleet.run(victim, ["sync", "--json"], environment: [
                    "REMINDERS_FAULT_AFTER_WRITES": String(n), "REMINDERS_FAULT_SCOPE": plan.scope,
                ])
                if result.signal == SIGKILL {
                    #expect(result.stderr.contains("fault injected before"), "run \(runs): \(result)")
                    injected += 1
                    fired[plan.scope, default: []].insert(n)
                } else {
                    #expect(result.status == 0 && result.stderr.isEmpty, "run \(runs), fault \(plan.scope) \(n): \(result)")
                }
            }
            // After the first failure every later run would fail the same way.
            guard try world.recoverAndCheck(label: "run \(runs) (seed \(seed))") else { return }
        }
        #expect(injected >= crashes, "only \(injected) of \(crashes) planned faults fired in \(runs) runs")
        // The faults reached every write of each scope's range that a sync makes.
        #expect((fired["server"] ?? []).contains(1), "server faults at \(fired["server"] ?? [])")
        #expect((fired["device"] ?? []).isSuperset(of: Set(1...5)), "device faults at \(fired["device"] ?? [])")
        #expect((fired["any"] ?? []).isSuperset(of: Set(1...6)), "faults at \(fired["any"] ?? [])")
        print("crash recovery: \(runs) runs, \(injected) faults injected, \(world.edits) edits, reached writes \(fired.mapValues { $0.sorted() })")
    }

    @Test func killMinusNineAtRandomMomentsLosesNothing() throws {
        let kills = max(10, environmentCount("REMINDERS_CRASH_RUNS", default: 100) / 3)
        let seed = UInt64(environmentCount("REMINDERS_CRASH_SEED", default: 9)) &+ 1_000
        var world = try CrashWorld(seed: seed)
        defer { world.fleet.cleanUp() }
        try world.start()

        // How long a sync of this size takes here, so the kills land inside.
        var durations: [TimeInterval] = []
        for _ in 0..<3 {
            let (victim, _) = try world.editRound()
            let start = Date()
            try world.fleet.sync(victim)
            durations.append(Date().timeIntervalSince(start))
            try world.recoverAndCheck(label: "calibration")
        }
        // The middle of three: one sync slowed by other work on the machine
        // (the suites run side by side) made the window several syncs long,
        // and most kills then came after the sync had ended.
        let window = durations.sorted()[durations.count / 2]
        var killed = 0
        for run in 1...kills {
            let (victim, _) = try world.editRound()
            let delay = Double.random(in: 0...window, using: &world.random)
            let running = try world.fleet.start(victim, ["sync", "--json"])
            Thread.sleep(forTimeInterval: delay)  // on purpose: a random moment of the sync to kill it at
            running.kill()
            let result = try running.wait()
            if result.signal == SIGKILL {
                killed += 1
            } else {
                #expect(result.status == 0 && result.stderr.isEmpty, "kill run \(run): \(result)")
            }
            guard try world.recoverAndCheck(label: "kill run \(run) after \(Int(delay * 1000)) ms (seed \(seed))") else { return }
        }
        #expect(killed >= kills / 2, "only \(killed) of \(kills) syncs were still running when killed")
        print("kill -9: \(kills) runs, \(killed) syncs killed mid-run (window \(Int(window * 1000)) ms), \(world.edits) edits")
    }
}

/// The devices, their random edits, and the state they must converge to.
struct CrashWorld {
    struct Item: Equatable, CustomStringConvertible {
        var listID: String
        var title: String
        var notes = ""
        var priority = "none"
        var isFlagged = false
        var status = "incomplete"
        var tags: [String] = []
        var creator: Int

        var description: String {
            "\(title) in \(listID.prefix(8)) notes '\(notes)' \(priority)\(isFlagged ? " flagged" : "") \(status) tags \(tags)"
        }
    }

    let fleet: DeviceFleet
    var random: SeededGenerator
    var lists: [String: (title: String, creator: Int)] = [:]
    var items: [String: Item] = [:]
    var counter = 0
    var edits = 0
    /// What was created in this round, by whom: only its creator has it
    /// before the round's syncs.
    var bornThisRound: [String: Int] = [:]
    /// The device that deleted a list in this round: its reminders are gone
    /// there already.
    var doomer: Int?
    let devices = CrashRecoveryTests.devices

    init(seed: UInt64) throws {
        fleet = try DeviceFleet()
        random = SeededGenerator(seed: seed)
    }

    /// One list per device, synced everywhere.
    mutating func start() throws {
        for (index, device) in devices.enumerated() {
            try addList(on: index, device: device)
        }
        try recoverAndCheck(label: "start")
    }

    mutating func addList(on index: Int, device: String) throws {
        let title = "\(device)-list-\(nextNumber())"
        let id = try fleet.ok(device, "list", "add", title)
        lists[id] = (title, index)
        bornThisRound[id] = index
        edits += 1
    }

    /// Edits on every device: the first syncs cleanly afterwards, the
    /// second is left with unsent edits and unfetched changes (the one to
    /// crash), the third keeps its edits for later. Returns (victim, other).
    mutating func editRound() throws -> (victim: String, other: String) {
        var order = Array(devices.indices)
        order.shuffle(using: &random)
        let (other, victim, idle) = (order[0], order[1], order[2])
        var doomedLists: Set<String> = []
        bornThisRound = [:]
        doomer = nil
        // A list delete comes first in a round, so nobody adds to it or
        // moves into it afterwards; its reminders (whoever made them) go.
        let owned = lists.filter { $0.value.creator == other }.keys.sorted()
        if owned.count > 1, Int.random(in: 0..<12, using: &random) == 0, let doomed = owned.randomElement(using: &random) {
            try fleet.ok(devices[other], "list", "delete", doomed)
            doomedLists.insert(doomed)
            doomer = other
            lists[doomed] = nil
            edits += 1
        }
        for _ in 0..<Int.random(in: 1...2, using: &random) { try edit(on: other, avoiding: doomedLists) }
        try fleet.sync(devices[other])
        for _ in 0..<Int.random(in: 0...1, using: &random) { try edit(on: idle, avoiding: doomedLists) }
        for _ in 0..<Int.random(in: 1...3, using: &random) { try edit(on: victim, avoiding: doomedLists) }
        items = items.filter { !doomedLists.contains($0.value.listID) }
        return (devices[victim], devices[other])
    }

    /// A number not used before, for titles and notes.
    mutating func nextNumber() -> Int {
        counter += 1
        return counter
    }

    /// One random edit on a device, of something it may change.
    mutating func edit(on index: Int, avoiding doomed: Set<String>) throws {
        let device = devices[index]
        func visible(_ id: String) -> Bool {
            if index == doomer, let list = items[id]?.listID, doomed.contains(list) { return false }
            return bornThisRound[id].map { $0 == index } ?? true
        }
        let live = items.filter { !doomed.contains($0.value.listID) }
        let mine = live.filter { $0.value.creator == index }.keys.sorted()
        let notesOf = items.filter { ($0.value.creator + 1) % 3 == index && visible($0.key) }.keys.sorted()
        let flagsOf = items.filter { ($0.value.creator + 2) % 3 == index && visible($0.key) }.keys.sorted()
        let targets = lists.keys.filter { !doomed.contains($0) && visible($0) }.sorted()
        edits += 1
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<4 where lists.filter({ $0.value.creator == index }).count < 3:
            try addList(on: index, device: device)
        case 0..<30 where !targets.isEmpty, 30..<100 where mine.isEmpty && !targets.isEmpty:
            let title = "\(device)-\(nextNumber())"
            let list = targets.randomElement(using: &random)!
            let id = try fleet.ok(device, "add", title, "--list", list)
            items[id] = Item(listID: list, title: title, creator: index)
            bornThisRound[id] = index
        case 30..<42 where !mine.isEmpty:
            let id = mine.randomElement(using: &random)!
            let title = "\(device)-\(nextNumber())"
            try fleet.ok(device, "edit", id, "--title", title)
            items[id]?.title = title
        case 42..<52 where !notesOf.isEmpty:
            let id = notesOf.randomElement(using: &random)!
            let notes = "note \(nextNumber()) from \(device)"
            try fleet.ok(device, "edit", id, "--notes", notes)
            items[id]?.notes = notes
        case 52..<62 where !flagsOf.isEmpty:
            let id = flagsOf.randomElement(using: &random)!
            let priority = ["none", "low", "medium", "high"].randomElement(using: &random)!
            let flag = Bool.random(using: &random)
            try fleet.ok(device, "edit", id, "--priority", priority, flag ? "--flag" : "--unflag")
            items[id]?.priority = priority
            items[id]?.isFlagged = flag
        case 62..<72 where !mine.isEmpty:
            let id = mine.randomElement(using: &random)!
            if items[id]?.status == "completed" {
                try fleet.ok(device, "uncomplete", id)
                items[id]?.status = "incomplete"
            } else {
                try fleet.ok(device, "complete", id)
                items[id]?.status = "completed"
            }
        case 72..<82 where !mine.isEmpty:
            let id = mine.randomElement(using: &random)!
            let tags = ["home", "work", "soon", "later"].filter { _ in Bool.random(using: &random) }
            try fleet.ok(device, "edit", id, "--tags", tags.joined(separator: ","))
            items[id]?.tags = tags.sorted()
        case 82..<90 where !mine.isEmpty && targets.count > 1:
            let id = mine.randomElement(using: &random)!
            let list = targets.randomElement(using: &random)!
            try fleet.ok(device, "edit", id, "--list", list)
            items[id]?.listID = list
        case 90..<100 where !mine.isEmpty:
            let id = mine.randomElement(using: &random)!
            try fleet.ok(device, "delete", id)
            items[id] = nil
        default:
            edits -= 1
        }
    }

    /// Syncs every device until quiet, then checks that every export is
    /// the same and holds exactly the expected lists and reminders. Returns
    /// whether all of that held.
    @discardableResult
    func recoverAndCheck(label: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        try fleet.syncUntilQuiet(devices.map { ($0, "me") }, sourceLocation: sourceLocation)
        let texts = try devices.map { try fleet.exportText($0, sourceLocation: sourceLocation) }
        var ok = true
        func check(_ condition: Bool, _ message: String) {
            if !condition {
                ok = false
                Issue.record(Comment(rawValue: "\(label): \(message)"), sourceLocation: sourceLocation)
            }
        }
        check(Set(texts).count == 1, "the devices' exports differ")
        let dump = try JSONDecoder().decode(ExportDump.self, from: Data(texts[0].utf8))
        check(Dictionary(dump.lists.map { ($0.id, $0.title) }, uniquingKeysWith: { a, _ in a }) == lists.mapValues(\.title),
              "lists \(dump.lists.map(\.title).sorted()) instead of \(lists.values.map(\.title).sorted())")
        check(dump.reminders.count == Set(dump.reminders.map(\.title)).count, "a reminder is duplicated")
        var actual: [String: Item] = [:]
        for reminder in dump.reminders {
            actual[reminder.id] = Item(listID: reminder.listID, title: reminder.title, notes: reminder.notes,
                                       priority: reminder.priority, isFlagged: reminder.isFlagged, status: reminder.status,
                                       tags: reminder.tags.sorted(), creator: items[reminder.id]?.creator ?? -1)
        }
        for id in Set(actual.keys).union(items.keys).sorted() where actual[id] != items[id] {
            check(false, "reminder \(id.prefix(8)): expected \(items[id].map(String.init(describing:)) ?? "none"), found \(actual[id].map(String.init(describing:)) ?? "none")")
        }
        return ok
    }
}
