import CloudServer
import Testing
@testable import SyncEngine

/// The seven-field table of the conflict resolution model.
@Test func sevenFieldTable() {
    let columns = (1...7).map { "field\($0)" }
    func version(_ pairs: [(String, Int64)]) -> RowVersion {
        var values: FieldMap<FieldValue> = [:]
        var times: FieldMap<Int64> = [:]
        for (index, pair) in pairs.enumerated() {
            values["field\(index + 1)"] = .string(pair.0)
            times["field\(index + 1)"] = pair.1
        }
        return RowVersion(values: values, times: times)
    }
    let ancestor = version(Array(repeating: ("foo", 0), count: 7))
    let client = version([("foo", 0), ("bar", 100), ("foo", 0), ("bar", 100), ("bar", 100), ("bar", 100), ("bar", 100)])
    let server = version([("foo", 0), ("foo", 0), ("baz", 200), ("baz", 200), ("baz", 50), ("baz", 100), ("bar", 200)])
    let conflict = MergeConflict(columns: columns, ancestor: ancestor, client: client, server: server)
    let resolved = conflict.resolved()
    let merged = columns.map { column -> String in
        guard case .string(let s)? = resolved.version.values[column] else { return "?" }
        return s
    }
    #expect(merged == ["foo", "bar", "baz", "baz", "bar", "bar", "bar"])
    #expect(columns.map { resolved.outcomes[$0]! } == [.unchanged, .clientOnly, .serverOnly, .serverWon, .clientWon, .clientWon, .bothSame])
}

@Test func clientVersionStampsOnlyEditedFields() {
    let ancestor = RowVersion(values: ["a": .int64(1), "b": .int64(1)], times: ["a": 5, "b": 5])
    let client = RowVersion(clientValues: ["a": .int64(2), "b": .int64(1)], editTimes: ["a": 9], ancestor: ancestor, columns: ["a", "b"])
    #expect(client.time("a") == 9)
    #expect(client.time("b") == 5)
}

/// Completed then uncompleted here (back to the ancestor's value) after the
/// other side completed it: the later edit, here, still wins.
@Test func editBackToTheAncestorValueIsStillTheLatestEdit() {
    let ancestor = RowVersion(values: ["status": .string("incomplete")], times: ["status": 5])
    let client = RowVersion(clientValues: ["status": .string("incomplete")], editTimes: ["status": 30], ancestor: ancestor, columns: ["status"])
    let server = RowVersion(values: ["status": .string("completed")], times: ["status": 20])
    let resolved = MergeConflict(columns: ["status"], ancestor: ancestor, client: client, server: server).resolved()
    #expect(resolved.outcomes["status"] == .clientWon)
    #expect(resolved.version.values["status"] == .string("incomplete"))
}

@Test func withoutAncestorEveryFieldIsAConflictDecidedByTime() {
    let client = RowVersion(values: ["a": .string("x"), "b": .string("same")], times: ["a": 10, "b": 10])
    let server = RowVersion(values: ["a": .string("y"), "b": .string("same")], times: ["a": 20, "b": 1])
    let resolved = MergeConflict(columns: ["a", "b"], ancestor: nil, client: client, server: server).resolved()
    #expect(resolved.outcomes["a"] == .serverWon)
    #expect(resolved.outcomes["b"] == .bothSame)
    #expect(resolved.version.values["a"] == .string("y"))
}

@Test func nullCountsAsAValue() {
    let ancestor = RowVersion(values: ["due": .string("2026-01-01")], times: ["due": 1])
    let client = RowVersion(values: [:], times: ["due": 5])
    let server = RowVersion(values: ["due": .string("2026-01-01")], times: ["due": 1])
    let resolved = MergeConflict(columns: ["due"], ancestor: ancestor, client: client, server: server).resolved()
    #expect(resolved.outcomes["due"] == .clientOnly)
    #expect(resolved.version.values["due"] == nil)
}
