import Foundation
import Testing
@testable import CloudServer

/// The hand-written coding of the network service's requests and answers
/// against the reference, `Codable`: each reads what the other writes to
/// the same values, the quick reader never accepts text the reference
/// reads otherwise, and a brief answer to a save makes the same records
/// whole again.
@Suite struct WireJSONTests {
    static let zone = ZoneID(name: "reminders", ownerName: "alice")

    /// Records with every kind of value and hostile text, finite numbers
    /// only (JSON has no others: both coders refuse them).
    static func records(_ count: Int, _ random: inout some RandomNumberGenerator) -> [ServerRecord] {
        RecordDecodingFuzzTests.corpus() + (0..<count).map { index in
            let fields = RecordEncodingTests.randomFields(&random).filter { _, value in
                if case .double(let number) = value { number.isFinite } else { true }
            }
            let zone = ZoneID(name: RecordEncodingTests.hostileTexts.randomElement(using: &random)!, ownerName: "bob")
            var record = ServerRecord(
                id: RecordID(recordName: "reminders/\(index) \(RecordEncodingTests.hostileTexts.randomElement(using: &random)!)", zoneID: zone),
                recordType: "reminders", fields: fields,
                fieldModificationTimes: fields.mapValues { _ in Int64.random(in: .min ... .max, using: &random) },
                parent: Bool.random(using: &random) ? RecordID(recordName: "remindersLists/x", zoneID: zone) : nil,
                changeTag: Bool.random(using: &random) ? "t\(index)" : nil,
                modificationDate: Bool.random(using: &random) ? Date(timeIntervalSinceReferenceDate: Double(index) / 3) : nil,
                modifiedByUser: Bool.random(using: &random) ? "bob" : nil, modifiedByDevice: Bool.random(using: &random) ? "" : nil)
            record.knownThrough = Bool.random(using: &random) ? Int64.random(in: 0 ... .max, using: &random) : nil
            return record
        }
    }

    static func requests(_ records: [ServerRecord]) -> [WireRequest] {
        let ids = records.map(\.id)
        let token = ChangeToken(sequence: 42, scratchHead: 40)
        return [
            .modifyRecords(saving: records, deleting: ids.suffix(3)),
            .modifyRecords(saving: [], deleting: []),
            .modifyRecords(saving: [], deleting: ids.suffix(2),
                           deletedThrough: [WireDeleteTime(id: ids[ids.count - 1], time: 1_764_000_000_123), WireDeleteTime(id: ids[ids.count - 2], time: 0)]),
            .modifyZones(saving: [zone], deleting: [ZoneID(name: "old \"one\"", ownerName: "alice")]),
            .serverIdentity(checking: nil), .serverIdentity(checking: .max),
            .fetchDatabaseChanges(since: nil), .fetchDatabaseChanges(since: ChangeToken(sequence: 0)),
            .fetchZoneChanges(zoneID: zone, since: token, limit: 2000), .fetchZoneChanges(zoneID: zone, since: nil, limit: -1),
            .fetchRecords(ids),
            // Left to Codable by the quick writer and reader.
            .fetchShares, .saveShare(rootRecordID: ids[0], participants: [WireInvitee(userName: "bob", permission: .readOnly)]),
        ]
    }

    static func responses(_ records: [ServerRecord]) -> [WireResponse] {
        let mark = HistoryMark(storeID: "store-1", sequence: 7, commit: "c7")
        let errors: [CloudError] = [.serverRecordChanged(records[0]), .zoneNotFound(zone), .unknownItem(records[1].id),
                                    .batchRequestFailed(records[2].id), .permissionFailure("read-only\n\"share\""),
                                    .changeTokenExpired, .limitExceeded("too many")]
        var saves = ModifyRecordsResult(head: mark)
        for (index, record) in records.enumerated() {
            saves.saveResults[record.id] = index < errors.count ? .failure(errors[index]) : .success(record)
        }
        saves.deleteResults[RecordID(recordName: "gone", zoneID: zone)] = .success(())
        saves.deleteResults[RecordID(recordName: "never", zoneID: zone)] = .failure(.unknownItem(RecordID(recordName: "never", zoneID: zone)))
        var briefly = WireModifyResult(saves, briefFor: records)
        briefly.saves[briefly.saves.count - 1].saved?.modifiedByDevice = nil
        return [
            .modified(WireModifyResult(saves)), .modified(briefly),
            .modified(WireModifyResult(ModifyRecordsResult())),
            .zoneChanges(WireZoneChanges(ZoneChanges(
                changed: records, deleted: [RecordDeletion(id: records[0].id, recordType: "reminders"),
                                            RecordDeletion(id: records[1].id, recordType: "reminders", deletedByUser: "bob", deletedByDevice: "phone"),
                                            RecordDeletion(id: records[2].id, recordType: "reminders", deletedThrough: 1_764_000_000_123)],
                token: ChangeToken(sequence: 9, scratchHead: 3), moreComing: true, head: mark))),
            .zoneChanges(WireZoneChanges(ZoneChanges(changed: [], deleted: [], token: ChangeToken(sequence: 0), moreComing: false))),
            .records(records.map { WireRecordOutcome(id: $0.id, .success($0)) }
                     + [WireRecordOutcome(id: RecordID(recordName: "x", zoneID: zone), .failure(.unknownItem(RecordID(recordName: "x", zoneID: zone))))]),
            .databaseChanges(WireDatabaseChanges(DatabaseChanges(changedZoneIDs: [zone], deletedZoneIDs: [], token: ChangeToken(sequence: 3),
                                                                 moreComing: false, head: HistoryMark(storeID: "s", sequence: 0, commit: nil)))),
            .identity(ServerIdentity(head: mark, checked: nil)), .identity(ServerIdentity(head: mark, checked: mark)),
            .zones([WireOutcome(zone: zone, .success(())), WireOutcome(zone: zone, .failure(.permissionFailure("no")))]),
            .done,
            .shares([]),
        ]
    }

    @Test func bothCodersReadWhatTheOtherWrites() throws {
        var random = SystemRandomNumberGenerator()
        let records = Self.records(60, &random)
        for request in Self.requests(records) {
            let quick = try request.jsonData()
            #expect(try JSONDecoder().decode(WireRequest.self, from: quick) == request)
            #expect(try WireRequest(jsonData: quick) == request)
            let reference = try JSONEncoder().encode(request)
            #expect(try WireRequest(jsonData: reference) == request)
            if case .fetchShares = request { continue }
            if case .saveShare = request { continue }
            #expect(WireJSON.quickRequest(quick) == request, "the quick reader refused its own text")
            #expect(WireJSON.quickRequest(reference) == request, "the quick reader refused Codable's text")
        }
        for response in Self.responses(records) {
            let quick = try response.jsonData()
            #expect(try JSONDecoder().decode(WireResponse.self, from: quick) == response)
            let reference = try JSONEncoder().encode(response)
            #expect(try WireResponse(jsonData: reference) == response)
            if case .shares = response { continue }
            #expect(WireJSON.quickResponse(quick) == response, "the quick reader refused its own text")
            #expect(WireJSON.quickResponse(reference) == response, "the quick reader refused Codable's text")
        }
    }

    /// The `knownUsers` operation reads as docs/API.md writes it.
    @Test func knownUsersTravelsAsTheAPIDocumentSays() throws {
        let request = WireRequest.knownUsers(names: ["Bob", "bob"])
        #expect(try WireRequest(jsonData: Data(#"{"knownUsers": {"names": ["Bob", "bob"]}}"#.utf8)) == request)
        #expect(try WireRequest(jsonData: request.jsonData()) == request)
        let response = WireResponse.users(["bob"])
        #expect(try WireResponse(jsonData: Data(#"{"users": {"_0": ["bob"]}}"#.utf8)) == response)
        #expect(try WireResponse(jsonData: response.jsonData()) == response)
    }

    @Test func aNonFiniteNumberIsRefusedAsCodableRefusesIt() throws {
        let record = ServerRecord(id: RecordID(recordName: "r", zoneID: Self.zone), recordType: "reminders",
                                  fields: ["ratio": .double(.infinity)])
        #expect(throws: EncodingError.self) { try WireRequest.modifyRecords(saving: [record], deleting: []).jsonData() }
    }

    /// Mutated requests and answers: whatever the quick reader accepts, the
    /// reference reads to the same value; the rest goes to the reference.
    @Test func theQuickReaderNeverAcceptsWhatTheReferenceReadsOtherwise() throws {
        var random = SystemRandomNumberGenerator()
        let records = Self.records(8, &random)
        let requests = try Self.requests(records).map { try $0.jsonData() }
        let responses = try Self.responses(records).map { try $0.jsonData() }
        var accepted = 0, tried = 0
        let deadline = Date().addingTimeInterval(RecordDecodingFuzzTests.budget)
        while Date() < deadline || tried < 4_000 {
            tried += 1
            let request = RecordDecodingFuzzTests.mutate(requests[tried % requests.count], corpus: requests, random: &random)
            if let quick = WireJSON.quickRequest(request) {
                accepted += 1
                #expect((try? JSONDecoder().decode(WireRequest.self, from: request)) == quick,
                        "quick reader accepted \(String(decoding: request, as: UTF8.self))")
            }
            let response = RecordDecodingFuzzTests.mutate(responses[tried % responses.count], corpus: responses, random: &random)
            if let quick = WireJSON.quickResponse(response) {
                accepted += 1
                #expect((try? JSONDecoder().decode(WireResponse.self, from: response)) == quick,
                        "quick reader accepted \(String(decoding: response, as: UTF8.self))")
            }
        }
        print("fuzz WireJSON: \(tried * 2) mutated inputs, \(accepted) accepted by the quick reader, all read the same by JSONDecoder")
    }

    /// A key this version does not know (one a newer program sends) is read
    /// past, in a request, an answer, a record and a deletion: the program
    /// and a newer service, or a newer program and this service, still
    /// understand each other in what they share.
    @Test func aMemberFromANewerVersionIsReadPast() throws {
        let id = RecordID(recordName: "reminders:r1", zoneID: Self.zone)
        var record = ServerRecord(id: id, recordType: "reminders", fields: ["title": .string("Milk")])
        record.fieldModificationTimes = ["title": 5]
        let request = WireRequest.modifyRecords(saving: [record], deleting: [id],
                                                deletedThrough: [WireDeleteTime(id: id, time: 5)])
        let changes = ZoneChanges(changed: [record], deleted: [RecordDeletion(id: id, recordType: "reminders", deletedThrough: 5)],
                                  token: ChangeToken(sequence: 7), moreComing: false)
        let response = WireResponse.zoneChanges(WireZoneChanges(changes))
        func withNewerKeys(_ data: Data) -> Data {
            var text = String(decoding: data, as: UTF8.self)
            for key in ["\"recordType\":", "\"deletedThrough\":", "\"saving\":", "\"token\":"] {
                text = text.replacingOccurrences(of: key, with: "\"addedLater\":{\"a\":[1,\"x\"]}," + key)
            }
            return Data(text.utf8)
        }
        let newerRequest = withNewerKeys(try request.jsonData())
        let newerResponse = withNewerKeys(try response.jsonData())
        #expect(String(decoding: newerRequest, as: UTF8.self).contains("addedLater"))
        #expect(try WireRequest(jsonData: newerRequest) == request)
        #expect(try WireResponse(jsonData: newerResponse) == response)
    }

    @Test func aBriefAnswerGivesBackTheRecordsTheServerSaved() throws {
        var random = SystemRandomNumberGenerator()
        let sent = Self.records(20, &random).map { record -> ServerRecord in
            var record = record
            record.changeTag = nil
            return record
        }
        var result = ModifyRecordsResult()
        for (index, record) in sent.enumerated() {
            var saved = record
            saved.changeTag = "tag-\(index)"
            saved.modificationDate = Date(timeIntervalSinceReferenceDate: 1_000 + Double(index))
            saved.modifiedByUser = "alice"
            saved.modifiedByDevice = "laptop"
            saved.knownThrough = nil  // a store keeps none
            // A store that changes more than its own values: sent whole.
            if index == 3 { saved.fields["added"] = .int64(1) }
            result.saveResults[record.id] = index == 5 ? .failure(.serverRecordChanged(saved)) : .success(saved)
        }
        let brief = WireModifyResult(result, briefFor: sent)
        #expect(brief.saves.filter { $0.saved != nil }.count == sent.count - 2)
        #expect(brief.saves.first { $0.id == sent[3].id }?.record != nil)
        let answer = try WireResponse(jsonData: WireResponse.modified(brief).jsonData())
        guard case .modified(let read) = answer else {
            Issue.record("not a modify answer: \(answer)")
            return
        }
        let whole = read.result(sent: sent)
        #expect(whole.saveResults.count == sent.count)
        for (id, expected) in result.saveResults {
            switch (whole.saveResults[id], expected) {
            case (.success(let got)?, .success(let saved)): #expect(got == saved)
            case (.failure(let got)?, .failure(let error)): #expect(got == error)
            default: Issue.record("\(id): \(String(describing: whole.saveResults[id])) for \(expected)")
            }
        }
        // An answer for a record that was not sent is no record.
        let stray = WireModifyResult(saves: [WireRecordOutcome(id: RecordID(recordName: "stray", zoneID: Self.zone), record: nil, error: nil,
                                                               saved: WireSaveStamp(changeTag: "t", modificationDate: nil,
                                                                                    modifiedByUser: nil, modifiedByDevice: nil))],
                                     deletes: [], head: nil)
        guard case .failure(.serverUnavailable)? = stray.result(sent: sent).saveResults.values.first else {
            Issue.record("a stray brief answer was taken for a record")
            return
        }
    }
}
