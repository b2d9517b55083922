import ArgumentParser
import CloudServer
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import SyncEngine

/// `reminders sync`: one full round with the server: send everything
/// pending, fetch everything new, until nothing is pending.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Send everything pending and fetch everything new.")

    @Flag(help: "Print what was sent, received and merged as JSON.")
    var json = false

    @Flag(help: "Take this device offline (no sends, no fetches) and stop.")
    var offline = false

    @Flag(help: "Bring this device back online, then sync.")
    var online = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if offline && online { throw ValidationError("--offline and --online cannot be used together") }
    }

    func run() throws {
        let context = try RemindersContext(common)
        if offline {
            try context.engine.setOffline(true)
            print("This device is offline: edits wait until 'reminders sync --online'.")
            return
        }
        if online { try context.engine.setOffline(false) }
        if context.engine.isOffline {
            throw CoreError.database("this device is offline; run 'reminders sync --online' to go back online")
        }
        try context.connect()
        let report = try context.withServer { try $0.sync() }
        if json {
            try JSONOutput.print(report)
        } else {
            let count = TerminalText.count
            let sent = "Sent \(count(report.sentSaves, "save")) and \(count(report.sentDeletes, "delete"))"
            let received = "received \(count(report.receivedSaves, "save")) and \(count(report.receivedDeletes, "delete"))"
            let conflicts = report.conflicts > 0 ? " (\(count(report.conflicts, "conflict")): see 'reminders conflicts')" : ""
            // Changes the server did not take: their record was deleted
            // elsewhere meanwhile (the delete won), or the share became
            // read-only or ended (the server's version was put back).
            // What they lost is in the log, which can put it back.
            let dropped = report.dropped > 0
                ? "; \(count(report.dropped, "change")) not taken (deleted elsewhere, or refused by a share"
                    + (report.conflicts > 0 ? ")" : ": see 'reminders conflicts')") : ""
            print("\(sent); \(received); merged \(report.merged)\(conflicts)\(dropped).")
            if !report.goneShares.isEmpty {
                print(TerminalText.clean(GoneShareWords.sentence(report.goneShares)))
            }
        }
        let waiting = try context.engine.waitingAssets()
        if !waiting.isEmpty { throw SyncFailure(waiting: waiting) }
    }
}

/// `reminders status`: pending changes, last sync, offline, conflicts.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show pending changes, the last sync, offline state and conflicts.")

    @Flag(help: "Print as JSON.")
    var json = false

    @OptionGroup var common: CommonOptions

    struct Output: Encodable {
        var user: String
        var device: String
        var server: String
        var pendingSaves: Int
        var pendingDeletes: Int
        var lastSyncAt: String?
        var isOffline: Bool
        var conflicts: Int
        /// Covers the server could not give at the last sync (`WaitingAsset`).
        var unavailableCovers: [UnavailableCover]

        struct UnavailableCover: Encodable {
            var list: String?
            var problem: String
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(user, forKey: .user)
            try c.encode(device, forKey: .device)
            try c.encode(server, forKey: .server)
            try c.encode(pendingSaves, forKey: .pendingSaves)
            try c.encode(pendingDeletes, forKey: .pendingDeletes)
            try c.encode(lastSyncAt, forKey: .lastSyncAt)
            try c.encode(isOffline, forKey: .isOffline)
            try c.encode(conflicts, forKey: .conflicts)
            try c.encode(unavailableCovers, forKey: .unavailableCovers)
        }

        enum CodingKeys: String, CodingKey {
            case user, device, server, pendingSaves, pendingDeletes, lastSyncAt, isOffline, conflicts, unavailableCovers
        }
    }

    func run() throws {
        let context = try RemindersContext(common)
        let status = try context.engine.status()
        let output = Output(
            user: context.location.user, device: context.location.device, server: context.location.server,
            pendingSaves: status.pendingSaves, pendingDeletes: status.pendingDeletes,
            lastSyncAt: status.lastSyncAt.map { Timestamps.iso($0) }, isOffline: status.isOffline,
            conflicts: status.conflicts,
            unavailableCovers: try context.engine.waitingAssets().map { .init(list: $0.subject, problem: $0.problem) })
        if json {
            try JSONOutput.print(output)
            return
        }
        print("\(output.user)@\(output.device) · server \(TerminalText.clean(output.server))")
        // A directory is looked at (no request): a mistyped --server shows here.
        var isDirectory: ObjCBool = false
        if !Credentials.isURL(output.server), !FileManager.default.fileExists(atPath: output.server, isDirectory: &isDirectory) {
            if let refusal = context.session.server.refusal(knownLocation: try context.engine.knownServerLocation()) {
                print("The server directory does not exist, and 'reminders sync' refuses it: \(TerminalText.clean(refusal)).")
            } else {
                print("The server directory does not exist: 'reminders sync' makes it.")
            }
        } else if !Credentials.isURL(output.server), !isDirectory.boolValue {
            print("The server is a file, not a directory: 'reminders sync' refuses it.")
        }
        // The device's switch, not the server's health: status reads only
        // this device's database, and says so.
        print(status.isOffline ? "Offline: edits wait until 'reminders sync --online'."
              : "Online: 'reminders sync' sends and fetches (status itself does not ask the server).")
        print("Pending: \(TerminalText.count(status.pendingSaves, "save")), \(TerminalText.count(status.pendingDeletes, "delete")).")
        let never = status.hasReachedServer ? "none finished yet ('reminders sync' goes on from where the last one stopped)" : "never"
        print("Last sync: \(status.lastSyncAt.map { Timestamps.local($0) } ?? never).")
        print("Conflicts: \(status.conflicts)\(status.conflicts > 0 ? " (see 'reminders conflicts')" : "").")
        for cover in output.unavailableCovers {
            let list = cover.list.map { "“\(TerminalText.clean($0))”" } ?? "a list"
            print("Not downloaded: the cover of \(list): \(TerminalText.clean(cover.problem))")
        }
    }
}

/// `reminders conflicts`: the conflict log, newest first.
struct ConflictsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts", abstract: "List conflicts the merge resolved, newest first.")

    @Flag(help: "Print as JSON.")
    var json = false

    @Option(name: .customLong("dismiss"), help: ArgumentHelp("Mark a conflict as seen, on every device of yours (an id, or a unique prefix of 4+ characters).", valueName: "ID"))
    var dismissID: String?

    @Flag(help: "Mark every conflict as seen, on every device of yours.")
    var dismissAll = false

    @Option(name: .customLong("keep-other"), help: ArgumentHelp(
        "Put back the value that lost a field conflict, or a reminder a delete took, as a new edit that syncs, and mark the conflict as seen (an id, or a unique prefix of 4+ characters).",
        valueName: "ID"))
    var keepOtherID: String?

    @Option(help: ArgumentHelp("With --keep-other on a reminder a delete took: the list to put it back in (default: the list it was in, if it is still here, else the default list).",
                               valueName: "LIST"))
    var list: String?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        let chosen = [dismissID.map { _ in "--dismiss" }, dismissAll ? "--dismiss-all" : nil, keepOtherID.map { _ in "--keep-other" }]
            .compactMap { $0 }
        if chosen.count > 1 { throw ValidationError("\(chosen.joined(separator: " and ")) cannot be used together") }
        if list != nil, keepOtherID == nil { throw ValidationError("--list goes with --keep-other") }
        for (option, id) in [("--dismiss", dismissID), ("--keep-other", keepOtherID)] where (id?.count ?? 4) < 4 {
            throw ValidationError("\(option) needs an id or a prefix of 4 or more characters")
        }
    }

    /// Puts back a reminder a delete took, in `--list`, else the list it
    /// was in if that is here, else the default list; or a copy of one the
    /// share refused, under an id of its own (`ConflictItem.putBackID`), in `--list`, else the default
    /// list (its own list is the one that refused it).
    private func restore(_ item: ConflictItem, values: [(column: String, value: String)], context: RemindersContext) throws {
        let refused = item.lostReminderValues == nil
        guard let reminderID = item.putBackID else { throw CoreError.invalidInput(item.whyNoOtherValue.lowercasingFirst) }
        if let copy = try context.read({ db in try ConflictsViewModel.copyPutBack(db, id: reminderID) }) {
            // Put back on another device of this user's: what was asked for is here.
            try context.engine.dismissConflict(id: item.entry.id)
            print(TerminalText.clean(copy) + ".")
            return
        }
        // A copy goes to a list this user may change: `defaultListID`
        // passes over the read-only ones.
        let lists = try context.read(Queries.listsInOrder)
        let listID = try list.map { try context.list($0) }
            ?? (refused ? nil : item.lostReminderListID.flatMap { id in lists.first { $0.id == id }?.id })
            ?? context.defaultListID(try EffectiveSettings(common: common), lists: lists)
        let reminder: Reminder
        switch try ConflictsViewModel.putBack(context.store, id: reminderID, values: values, listID: listID) {
        case .made(let made):
            reminder = made
        case .hereAlready(let copy):
            // Put back on another device of this user's, and synced meanwhile.
            try context.engine.dismissConflict(id: item.entry.id)
            print(TerminalText.clean(copy) + ".")
            return
        }
        try context.engine.dismissConflict(id: item.entry.id)
        let listTitle = try context.read { db in try RemindersList.fetchOne(db, key: listID)?.title } ?? listID
        print(TerminalText.clean("“\(reminder.title)” is back, \(refused ? "as a copy " : "")in \(listTitle) "
                                 + "(a new reminder: 'reminders sync' sends it)."))
    }

    /// The one entry `prefix` names.
    private static func entry(_ prefix: String, in entries: [ConflictEntry]) throws -> ConflictEntry {
        let chosen = entries.filter { $0.id.hasPrefix(prefix.lowercased()) }
        guard chosen.count == 1, let entry = chosen.first else {
            let id = TerminalText.clean(prefix)
            throw chosen.isEmpty
                ? CoreError.notFound("no conflict '\(id)'; 'reminders conflicts' lists their ids first on each line")
                : CoreError.ambiguous("'\(id)' names \(chosen.count) conflicts; give more of the id")
        }
        return entry
    }

    struct Entry: Encodable {
        var id, recordType, recordID, field: String
        var ancestor, local, remote: String?
        var winner: String
        var localDevice, remoteDevice: String?
        var resolvedAt: String
        /// Seen and dismissed, on this device or another of the user's.
        var dismissed: Bool

        init(_ entry: ConflictEntry) {
            id = entry.id
            recordType = entry.recordType
            recordID = entry.recordID
            field = entry.field
            ancestor = entry.ancestor
            local = entry.local
            remote = entry.remote
            winner = entry.winner
            localDevice = entry.localDevice
            remoteDevice = entry.remoteDevice
            resolvedAt = Timestamps.iso(entry.resolvedAt)
            dismissed = entry.isDismissed
        }

        enum CodingKeys: String, CodingKey {
            case id, recordType, recordID, field, ancestor, local, remote, winner, localDevice, remoteDevice, resolvedAt, dismissed
        }

        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(recordType, forKey: .recordType)
            try c.encode(recordID, forKey: .recordID)
            try c.encode(field, forKey: .field)
            try c.encode(ancestor, forKey: .ancestor)
            try c.encode(local, forKey: .local)
            try c.encode(remote, forKey: .remote)
            try c.encode(winner, forKey: .winner)
            try c.encode(localDevice, forKey: .localDevice)
            try c.encode(remoteDevice, forKey: .remoteDevice)
            try c.encode(resolvedAt, forKey: .resolvedAt)
            try c.encode(dismissed, forKey: .dismissed)
        }
    }

    func run() throws {
        let context = try RemindersContext(common)
        let entries = try context.engine.conflicts()
        if let keepOtherID {
            let entry = try Self.entry(keepOtherID, in: entries)
            let device = context.location.device
            let item = try context.read { db in try ConflictsViewModel.item(entry, db, device: device) }
            if let values = item.putBackValues {
                try restore(item, values: values, context: context)
                return
            }
            if list != nil {
                throw CoreError.invalidInput("--list is for a reminder a delete took or the share refused; \(item.subject) is neither")
            }
            guard item.canKeepOther, let losing = item.losingSide else { throw CoreError.invalidInput(item.whyNoOtherValue.lowercasingFirst) }
            guard try context.engine.restoreLosingValue(conflictID: entry.id) else {
                throw CoreError.notFound("\(item.subject) no longer exists")
            }
            print(TerminalText.clean("\(item.fieldName) of \(item.subject) is \(ConflictText.quoted(losing.value)) again "
                                     + "(a new edit: 'reminders sync' sends it)."))
            return
        }
        if dismissAll || dismissID != nil {
            let chosen = try dismissID.map { [try Self.entry($0, in: entries)] } ?? entries
            let open = chosen.filter { !$0.isDismissed }
            for entry in open { try context.engine.dismissConflict(id: entry.id) }
            if open.isEmpty {
                print(!dismissAll ? "Already dismissed." : chosen.isEmpty ? "No conflicts." : "Every conflict was dismissed already.")
            } else {
                print(open.count == 1 ? "Dismissed 1 conflict." : "Dismissed \(open.count) conflicts.")
            }
            return
        }
        if json {
            // As the lines are: "local" is this device's side.
            let device = context.location.device
            try JSONOutput.print(entries.map { Entry($0.seen(from: device)) })
            return
        }
        if entries.isEmpty {
            print("No conflicts.")
            return
        }
        let device = context.location.device
        // Every entry's titles and values in one read.
        let lines = try context.read { db in try entries.map { try line($0, device: device, db) } }
        // On a terminal a long entry wraps at its words, under its text
        // (past the id); piped, each entry is one line.
        let columns = ReminderTable.terminalColumns()
        for line in lines {
            guard let columns, columns >= 20 else {
                print(line)
                continue
            }
            for part in TerminalText.wrap(line, to: columns, indent: columns >= 40 ? 10 : 2) { print(part) }
        }
    }

    /// An entry as `device` sees it ("here" is this device when it took
    /// part), its record named as the Conflicts screen names it: `Reminder
    /// “Milk” (58366c12) notes: …`, the title the record has now (once
    /// deleted, the one its entry kept, if any).
    private func line(_ logged: ConflictEntry, device: String, _ db: Database) throws -> String {
        let entry = logged.seen(from: device)
        let isHere = entry.localDevice == nil || entry.localDevice == device
        let (title, _, isGone) = try ConflictsViewModel.titles(of: entry, db)
        let record = "\(ConflictText.kind(entry.recordType)) \(title.map { "“\(Self.short($0))” " } ?? "")"
            + "(\(entry.recordID.prefix(8))\(isGone ? ", deleted" : ""))"
        let field = ConflictText.field(entry.field)
        // A column the app has no name for keeps its own spelling.
        let what = entry.field == "*" ? record : "\(record) \(field == entry.field ? field : field.lowercased())"
        let reason = ConflictsViewModel.reason(entry, isAboutThisDevice: isHere)
        let line: String
        if entry.cause != nil {
            let kept = try ConflictText.kept(entry.local, table: entry.recordType, db)
            line = entry.local == "deleted"
                ? "your delete was not taken, it is back: \(reason)"
                : "your edit (\(kept ?? "none")) was not saved: \(reason)"
        } else {
            let (here, there) = isHere ? ("here", "there") : (entry.localDevice ?? "a device", entry.remoteDevice ?? "another device")
            // Text as it was typed goes in quotes; a value put in words
            // ("high", “Work”, "no due date") as it reads.
            func shown(_ raw: String?) throws -> String {
                guard ConflictText.isWorded(field: entry.field, table: entry.recordType) else { return quoted(raw) }
                return try ConflictText.value(raw, field: entry.field, table: entry.recordType, db) ?? "none"
            }
            let local, remote, ancestor: String
            if entry.field == "*" {
                // A whole record's entry keeps its sides as the values a
                // person wrote ("Notes “rye”") or a word ("deleted"), and
                // has no ancestor.
                local = try ConflictText.kept(entry.local, table: entry.recordType, db) ?? "none"
                remote = try ConflictText.kept(entry.remote, table: entry.recordType, db) ?? "none"
                ancestor = ""
            } else {
                (local, remote, ancestor) = (try shown(entry.local), try shown(entry.remote), "ancestor \(try shown(entry.ancestor)), ")
            }
            // A side names its device once, and not at all when the log
            // does not know it (a delete's: a tombstone does not say).
            func side(_ label: String, _ value: String, _ device: String?) -> String {
                guard let device, device != label else { return "\(label) \(value)" }
                return "\(label) \(value) (\(device))"
            }
            let values = "\(ancestor)\(side(here, local, entry.localDevice)), \(side(there, remote, entry.remoteDevice))"
            // The kept value changed since (an edit, or the app's rules after
            // the merge): what it is now.
            let now = entry.field == "*" || isGone ? nil : try ConflictsViewModel.changedSince(entry, db)
            // A device that took no part names the winner; "local" would
            // read as itself.
            let winner = isHere ? entry.winner
                : (entry.winner == "local" ? entry.localDevice : entry.winner == "remote" ? entry.remoteDevice : nil) ?? entry.winner
            line = "\(values); \(winner) won: \(reason)" + (try now.map { "; now \(try shown($0))" } ?? "")
        }
        // The conflict's own id first: `--dismiss` takes it.
        let seen = entry.isDismissed ? " (dismissed)" : ""
        return TerminalText.clean("\(entry.id.prefix(8))  \(Timestamps.local(entry.resolvedAt))  \(what): \(line)\(seen)")
    }

    func quoted(_ value: String?) -> String {
        guard let value else { return "none" }
        return "\"\(Self.short(value))\""
    }

    static func short(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}

/// Formats the engine's millisecond timestamps.
enum Timestamps {
    static func iso(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    static func local(_ milliseconds: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = LocalZone.current
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}

private extension String {
    /// A sentence of the app's made into the rest of a "reminders: …" line.
    var lowercasingFirst: String { prefix(1).lowercased() + dropFirst() }
}
