import CloudServer

/// One version of a row: its field values and, per field, the hybrid
/// logical clock time of the edit that produced the value.
public struct RowVersion: Hashable, Sendable {
    /// Field values; an absent key is NULL.
    public var values: FieldMap<FieldValue>
    public var times: FieldMap<Int64>

    public init(values: FieldMap<FieldValue>, times: FieldMap<Int64>) {
        self.values = values
        self.times = times
    }

    /// A server record's fields and per-field times.
    public init(record: ServerRecord) {
        self.init(values: record.fields, times: record.fieldModificationTimes)
    }

    /// The client's version: the local row's values, where a field edited
    /// here carries the time of its local edit (even an edit back to the
    /// ancestor's value: it is still the latest edit) and any other field
    /// keeps the ancestor's time. Without an ancestor every field counts as
    /// a local edit.
    public init(clientValues: FieldMap<FieldValue>, editTimes: FieldMap<Int64>, ancestor: RowVersion?, columns: [String]) {
        var times: FieldMap<Int64> = [:]
        for column in columns {
            times[column] = editTimes[column] ?? ancestor?.time(column) ?? 0
        }
        self.init(values: clientValues, times: times)
    }

    public func time(_ column: String) -> Int64 { times[column] ?? 0 }
}

/// How the merge decided one field.
public enum FieldOutcome: String, Hashable, Sendable {
    /// Nobody changed it.
    case unchanged
    /// Only this device changed it: keep the local value.
    case clientOnly
    /// Only the other side changed it: take the server value.
    case serverOnly
    /// Both changed it to the same value.
    case bothSame
    /// Both changed it; the local edit is newer (or as new: ties go to the client).
    case clientWon
    /// Both changed it; the server's edit is newer.
    case serverWon

    /// A true conflict: both sides changed the field to different values.
    public var isConflict: Bool { self == .clientWon || self == .serverWon }
}

/// The outcome of a three-way merge.
public struct ResolvedRow: Hashable, Sendable {
    public var version: RowVersion
    public var outcomes: [String: FieldOutcome]

    /// Fields whose merged value is the local one although the server has
    /// another: they must be sent again.
    public var clientWins: [String] {
        outcomes.filter { $0.value == .clientOnly || $0.value == .clientWon }.map(\.key).sorted()
    }

    /// Fields whose merged value is the server's and differs locally.
    public var serverWins: [String] {
        outcomes.filter { $0.value == .serverOnly || $0.value == .serverWon }.map(\.key).sorted()
    }
}

/// A conflict between this device's row and the server's record, with the
/// last version both agreed on (the last-known server record) as ancestor.
///
/// Merged field by field, "last edit wins": a field changed on one side
/// takes that side's value; changed on both to the same value keeps it;
/// changed on both to different values takes the one with the newer time,
/// the client's on a tie.
public struct MergeConflict: Hashable, Sendable {
    public var columns: [String]
    /// Nil when this device never saw a server version (both sides created
    /// the same row): every field then counts as changed on both sides.
    public var ancestor: RowVersion?
    public var client: RowVersion
    public var server: RowVersion

    public init(columns: [String], ancestor: RowVersion?, client: RowVersion, server: RowVersion) {
        self.columns = columns
        self.ancestor = ancestor
        self.client = client
        self.server = server
    }

    public func outcome(for column: String) -> FieldOutcome {
        let clientValue = client.values[column]
        let serverValue = server.values[column]
        // A side changed a field if its value or its edit time moved past the
        // ancestor's: an edit back to the old value is an edit too. A server
        // whose edit time is behind the ancestor's holds an older version (a
        // copy put back, met by a re-join): it changed nothing. (Within one
        // history a field's time on the server never goes back, and a
        // client's is never behind its ancestor.)
        let clientChanged = ancestor.map { $0.values[column] != clientValue || client.time(column) > $0.time(column) } ?? true
        let serverChanged = ancestor.map {
            server.time(column) >= $0.time(column) && ($0.values[column] != serverValue || server.time(column) > $0.time(column))
        } ?? true
        switch (clientChanged, serverChanged) {
        case (false, false):
            // A server behind the ancestor lacks what both once agreed on:
            // the local value stands and goes back up.
            if let ancestor, server.time(column) < ancestor.time(column) { return .clientOnly }
            return .unchanged
        case (true, false): return .clientOnly
        case (false, true): return .serverOnly
        case (true, true):
            if clientValue == serverValue { return .bothSame }
            return Self.clientWins(clientTime: client.time(column), serverTime: server.time(column)) ? .clientWon : .serverWon
        }
    }

    /// Of two edits of one field to different values, whether the
    /// client's wins: the newer one does, the client's on a tie.
    public static func clientWins(clientTime: Int64, serverTime: Int64) -> Bool {
        serverTime <= clientTime
    }

    public func resolved() -> ResolvedRow {
        var values: FieldMap<FieldValue> = [:]
        var times: FieldMap<Int64> = [:]
        var outcomes: [String: FieldOutcome] = [:]
        for column in columns {
            let outcome = outcome(for: column)
            outcomes[column] = outcome
            let side: RowVersion
            switch outcome {
            case .unchanged, .serverOnly, .serverWon: side = server
            case .clientOnly, .clientWon: side = client
            case .bothSame: side = client.time(column) >= server.time(column) ? client : server
            }
            values[column] = side.values[column]
            times[column] = side.time(column)
        }
        return ResolvedRow(version: RowVersion(values: values, times: times), outcomes: outcomes)
    }
}
