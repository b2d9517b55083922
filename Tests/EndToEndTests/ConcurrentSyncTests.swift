import Foundation
import RemindersCore
import Testing
import TestSupport

/// Devices that sync at the same moment, and commands that write a device's
/// database while a sync of that same database runs: every command succeeds
/// (no "database is locked" reaches the user), and nothing is lost.
///
/// `REMINDERS_CONCURRENCY_ROUNDS` scales it (default 15 rounds).
@Suite("Concurrent syncs", .serialized)
struct ConcurrentSyncTests {
    @Test func threeDevicesSyncingAtOnceWhileEditingLoseNothing() throws {
        let rounds = environmentCount("REMINDERS_CONCURRENCY_ROUNDS", default: 15)
        let fleet = try DeviceFleet()
        defer { fleet.cleanUp() }
        let devices = ["a", "b", "c"]
        var lists: [String: String] = [:]
        for device in devices {
            lists[device] = try fleet.ok(device, "list", "add", "List \(device)")
        }
        try fleet.syncUntilQuiet(devices.map { ($0, "me") })

        var expected: [String: (title: String, completed: Bool)] = [:]
        var random = SeededGenerator(seed: 42)
        var processes = 0
        for round in 1...rounds {
            // Three syncs start together; meanwhile each device's database
            // gets edits from other processes.
            let syncs = try devices.map { try fleet.start($0, ["sync", "--json"]) }
            processes += syncs.count
            for device in devices {
                for step in 0..<2 {
                    let title = "\(device)-\(round)-\(step)"
                    let list = lists.values.sorted().randomElement(using: &random)!
                    let id = try fleet.ok(device, "add", title, "--list", list)
                    expected[id] = (title, false)
                    processes += 1
                }
                let mine = expected.filter { $0.value.title.hasPrefix("\(device)-") }.keys.sorted()
                if let id = mine.randomElement(using: &random) {
                    let retitled = "\(device)-\(round)-retitled-\(id.prefix(4))"
                    try fleet.ok(device, "edit", id, "--title", retitled)
                    try fleet.ok(device, "complete", id)
                    expected[id] = (retitled, true)
                    processes += 2
                }
            }
            for (device, sync) in zip(devices, syncs) {
                let result = try sync.wait()
                #expect(result.signal == nil && result.status == 0 && result.stderr.isEmpty, "round \(round), \(device): \(result)")
                #expect(!result.stderr.contains("locked") && !result.stderr.contains("busy"), "round \(round), \(device): \(result)")
            }
        }
        try fleet.syncUntilQuiet(devices.map { ($0, "me") })
        let texts = try devices.map { try fleet.exportText($0) }
        #expect(Set(texts).count == 1, "the devices' exports differ")
        let dump = try JSONDecoder().decode(ExportDump.self, from: Data(texts[0].utf8))
        let actual = Dictionary(dump.reminders.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(dump.reminders.count == expected.count)
        for (id, item) in expected {
            #expect(actual[id]?.title == item.title && (actual[id]?.status == "completed") == item.completed,
                    "reminder \(id.prefix(8)): expected \(item), found \(String(describing: actual[id]))")
        }
        print("concurrent syncs: \(rounds) rounds, \(processes) processes, \(expected.count) reminders")
    }
}
