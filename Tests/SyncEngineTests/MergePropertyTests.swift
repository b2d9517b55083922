import CloudServer
import Foundation
@testable import SyncEngine
import Testing
import TestSupport

/// The three-way merge on random (ancestor, client, server) triples, with
/// values and times drawn from small pools so that equal values and equal
/// times (ties) are common. For a bounded time (`REMINDERS_FUZZ_SECONDS`,
/// default 2 s, and at least 20,000 triples):
/// - it is deterministic;
/// - each field takes the client's or the server's value, never another;
/// - a field changed on one side takes that side; changed on both to
///   different values takes the newer edit, the client's on a tie; a server
///   whose time is behind the ancestor's (a copy put back) changed nothing,
///   and the client's value stands;
/// - merging again (the same server record against the merged row, with
///   the same ancestor or with the server record as the new ancestor)
///   changes nothing: the merge is idempotent and stable once confirmed.
@Suite struct MergePropertyTests {
    static let budget = ProcessInfo.processInfo.environment["REMINDERS_FUZZ_SECONDS"].flatMap(Double.init) ?? 2
    static let pool: [FieldValue?] = [nil, .string("a"), .string("b"), .string(""), .int64(0), .int64(1), .double(0.5),
                                      .stringList(["x"]), .bytes(Data([1]))]

    static func version(_ columns: [String], random: inout SeededGenerator, base: RowVersion? = nil) -> RowVersion {
        var values: FieldMap<FieldValue> = [:]
        var times: FieldMap<Int64> = [:]
        for column in columns {
            // Often keep the base's value or time, so "unchanged" happens.
            if let base, Bool.random(using: &random) {
                values[column] = base.values[column]
            } else {
                values[column] = pool.randomElement(using: &random)!
            }
            if let base, Int.random(in: 0..<3, using: &random) == 0 {
                times[column] = base.times[column]
            } else {
                times[column] = Int64.random(in: 0...6, using: &random)
            }
        }
        return RowVersion(values: values, times: times)
    }

    @Test func theMergeIsDeterministicPicksAWrittenValueBreaksTiesForTheClientAndIsIdempotent() throws {
        let seed = ProcessInfo.processInfo.environment["REMINDERS_FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64(Date().timeIntervalSince1970)
        var random = SeededGenerator(seed: seed)
        let allColumns = ["title", "notes", "dueDate", "priority", "isFlagged", "status", "position"]
        let deadline = Date().addingTimeInterval(Self.budget)
        var triples = 0, conflicts = 0, ties = 0
        while Date() < deadline || triples < 20_000 {
            triples += 1
            let columns = Array(allColumns.prefix(Int.random(in: 1...allColumns.count, using: &random)))
            let ancestor = Int.random(in: 0..<5, using: &random) == 0 ? nil : Self.version(columns, random: &random)
            let client = Self.version(columns, random: &random, base: ancestor)
            let server = Self.version(columns, random: &random, base: ancestor)
            let conflict = MergeConflict(columns: columns, ancestor: ancestor, client: client, server: server)
            let merged = conflict.resolved()
            let label = "seed \(seed), ancestor \(String(describing: ancestor)), client \(client), server \(server)"

            #expect(conflict.resolved() == merged, "not deterministic: \(label)")
            for column in columns {
                let value = merged.version.values[column]
                let outcome = merged.outcomes[column]
                #expect(value == client.values[column] || value == server.values[column], "\(column) took another value: \(label)")
                let clientChanged = ancestor.map { $0.values[column] != client.values[column] || client.time(column) > $0.time(column) } ?? true
                // A server behind the ancestor (a copy put back) changed nothing.
                let serverBehind = ancestor.map { server.time(column) < $0.time(column) } ?? false
                let serverChanged = !serverBehind
                    && (ancestor.map { $0.values[column] != server.values[column] || server.time(column) > $0.time(column) } ?? true)
                switch (clientChanged, serverChanged) {
                case (true, false): #expect(value == client.values[column], "\(column): only the client changed it: \(label)")
                case (false, true): #expect(value == server.values[column], "\(column): only the server changed it: \(label)")
                case (false, false) where serverBehind:
                    #expect(value == client.values[column] && outcome == .clientOnly, "\(column): the server is behind: \(label)")
                case (false, false): #expect(value == server.values[column], "\(column): nobody changed it: \(label)")
                case (true, true) where client.values[column] != server.values[column]:
                    conflicts += 1
                    #expect(outcome?.isConflict == true, "\(column): a true conflict not reported: \(label)")
                    if client.time(column) == server.time(column) {
                        ties += 1
                        #expect(value == client.values[column] && outcome == .clientWon, "\(column): a tie must go to the client: \(label)")
                    } else {
                        let newer = client.time(column) > server.time(column) ? client.values[column] : server.values[column]
                        #expect(value == newer, "\(column): the newer edit must win: \(label)")
                    }
                case (true, true):
                    #expect(value == client.values[column] && outcome == .bothSame, "\(column): same value both sides: \(label)")
                }
                switch outcome {
                case .clientOnly?, .clientWon?: #expect(value == client.values[column])
                case .serverOnly?, .serverWon?, .unchanged?: #expect(value == server.values[column])
                default: break
                }
            }
            // Merging the merged row again against the same server record.
            let again = MergeConflict(columns: columns, ancestor: ancestor, client: merged.version, server: server).resolved()
            #expect(again.version.values == merged.version.values, "not idempotent: \(label)")
            // Once the server confirmed (it becomes the ancestor), the merged
            // row stays as it is.
            let confirmed = MergeConflict(columns: columns, ancestor: server, client: merged.version, server: server).resolved()
            #expect(confirmed.version.values == merged.version.values, "not stable after confirmation: \(label)")
        }
        #expect(ties > 0 && conflicts > ties)
        print("merge property test: \(triples) triples, \(conflicts) true conflicts, \(ties) ties")
    }
}

