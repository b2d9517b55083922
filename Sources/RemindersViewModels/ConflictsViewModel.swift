import Foundation
import GRDB
import RemindersCore
import SyncEngine

/// Who won a conflict: this device's edit, the other device's, or a
/// delete over an edit.
public enum ConflictWinner: String, Equatable, Sendable {
    case thisDevice, otherDevice, delete
}

/// One side of a conflict: the value as a person reads it, when it was
/// edited and on which device.
public struct ConflictSide: Equatable, Sendable {
    /// The value as shown ("high", "flagged", “Groceries”); nil for none.
    public var value: String?
    /// The edit's time on the hybrid logical clock (milliseconds since 1970,
    /// close to the wall clock of the device that made it).
    public var time: Date?
    /// The name of the device that made the edit; nil when the log does
    /// not say.
    public var device: String?

    /// A side as the log records it.
    public init(value: String?, time: Date?, device: String?) {
        self.value = value
        self.time = time
        self.device = device
    }
}

/// A conflict log entry as the conflicts screen shows it.
public struct ConflictItem: Equatable, Sendable, Identifiable {
    /// The log's entry, as this device sees it.
    public var entry: ConflictEntry
    public var id: String { entry.id }
    /// A delete the share refused: the record stayed on the server and is
    /// back here.
    public var isRefusedDelete: Bool { entry.isRefusedDelete }
    /// "Reminder", "List", "Tag", "List cover", "Tag link".
    public var kind: String
    /// The reminder's or list's title now; once the record is gone, the
    /// title its entry kept, if any.
    public var title: String?
    /// The record is no longer here (deleted).
    public var isGone: Bool
    /// A reminder's list, for context; for a reminder a delete took, the
    /// list it was in, when that list is still here (where it goes back).
    public var listTitle: String?
    /// "Title", "Due date", …; "Whole reminder" for a delete.
    public var fieldName: String
    /// The last value both devices agreed on; nil when unknown (a delete).
    public var ancestor: String?
    /// This device's side, or the first device's for an entry between two
    /// others (see `isAboutThisDevice`).
    public var thisDevice: ConflictSide
    /// The other side.
    public var otherDevice: ConflictSide
    /// Which side the merge kept.
    public var winner: ConflictWinner
    /// Why the winner won, in words.
    public var reason: String
    /// When the merge resolved the conflict.
    public var resolvedAt: Date
    /// Dismissed, or its losing value was restored.
    public var isDismissed: Bool
    /// Whether "keep the other value" applies: a field conflict on a record
    /// that still exists, whose field does not hold the other value already.
    public var canKeepOther: Bool
    /// Whether this device was one of the two sides. An entry merged
    /// between two other devices of the user shows both by name.
    public var isAboutThisDevice: Bool = true
    /// The field's value now, as a person reads it, when it is no longer
    /// the value the merge kept: changed since, by an edit or by the app's
    /// rules after the merge (a series moved on past an occurrence the
    /// other device completed). Nil when it is still the kept value.
    public var now: String?
    /// The field holds the value that lost now (an edit since, or the
    /// app's rules after the merge, put it there): nothing to put back.
    public var holdsOtherValue = false

    /// "this device", or the device's name when this device took no part.
    public var thisSide: String {
        isAboutThisDevice ? "this device" : (thisDevice.device ?? "one device")
    }

    /// The side that lost, whose value "keep the other value" puts back.
    public var losingSide: ConflictSide? {
        switch winner {
        case .thisDevice: otherDevice
        case .otherDevice: thisDevice
        case .delete: nil
        }
    }

    /// What a delete took that can be put back whole: a reminder gone
    /// from here (deleted, or gone with its list) whose edited side the log
    /// kept as values. Nil otherwise.
    public var lostReminderValues: [(column: String, value: String)]? {
        // Not an edit a share refused: the reminder may still be the
        // owner's, and a copy here would be a second record of it.
        guard winner == .delete, isGone, entry.cause == nil, entry.recordType == Reminder.databaseTableName else { return nil }
        return ConflictEntry.keptValues(entry.local) ?? ConflictEntry.keptValues(entry.remote)
    }

    /// A reminder the share refused that is gone from here (one made in a
    /// list that became read-only, or whose list is no longer shared),
    /// with the text its entry kept: put back as a copy in one of this
    /// user's lists, under an id of its own (`putBackID`: the refused
    /// record may be the owner's, and come back if the list is shared
    /// again). Nil otherwise.
    public var refusedReminderValues: [(column: String, value: String)]? {
        guard entry.cause != nil, isGone, !isRefusedDelete, entry.recordType == Reminder.databaseTableName,
              let values = ConflictEntry.keptValues(entry.local),
              // An entry that kept only the edited fields (a share that
              // ended on an edit of notes) has no reminder to make.
              values.contains(where: { $0.column == "title" && !$0.value.isEmpty }) else { return nil }
        return values
    }

    /// What "put back" makes a reminder of again: a reminder a delete took
    /// (under its id), or one the share refused (a copy).
    public var putBackValues: [(column: String, value: String)]? {
        lostReminderValues ?? refusedReminderValues
    }

    /// The id "put back" makes the reminder under: its own for one a delete
    /// took; for a copy of one the share refused, an id derived from the
    /// entry (which syncs), so that this user's devices, which all see it,
    /// put back one copy between them, not one each, and two entries of
    /// one refused reminder (edits of two devices) make a copy each.
    public var putBackID: String? {
        if lostReminderValues != nil { return entry.recordID }
        if refusedReminderValues != nil { return derivedID(entry.id, "copy put back") }
        return nil
    }

    /// The list a reminder a delete took was in, as its entry kept it (nil
    /// for an entry from before it was kept); it may be gone too.
    public var lostReminderListID: String? {
        lostReminderValues?.first { $0.column == "remindersListID" }?.value
    }

    /// Why "keep the other value" does not apply, when it does not.
    public var whyNoOtherValue: String {
        // A refusal first: it may also read as a delete (a new reminder
        // refused in a list that is gone).
        if entry.cause != nil {
            return isRefusedDelete
                ? "The delete was refused by the share: the reminder is back already"
                : "The edit that lost was refused by the share, not merged: there is no value to put back"
        }
        if winner == .delete {
            if entry.recordType != Reminder.databaseTableName { return "A deleted \(kind.lowercased()) cannot be put back from here" }
            if !isGone { return "\(subject) is here: there is nothing to put back" }
            return "The log kept none of \(subject)'s values to put back"
        }
        if isGone { return "\(subject) no longer exists" }
        if holdsOtherValue, let losing = losingSide {
            return "\(fieldName) of \(subject) is \(ConflictText.quoted(losing.value)) already: there is nothing to put back"
        }
        return "A whole-record entry has no single value to put back"
    }

    /// "Reminder “Buy milk”"; once deleted, "Reminder “Buy milk”
    /// (deleted)", or "Reminder 1a2b3c4d (deleted)" when its title is not
    /// known.
    public var subject: String {
        guard let title else { return "\(kind) \(entry.recordID.prefix(8)) (deleted)" }
        return isGone ? "\(kind) “\(title)” (deleted)" : "\(kind) “\(title)”"
    }
}

/// The state of `ConflictsViewModel`: the conflict log.
public struct ConflictsState: ViewState {
    /// Every entry of the conflict log, newest first.
    public var items: [ConflictItem]
    /// Entries not dismissed yet (the status bar's badge).
    public var newCount: Int
    /// False on a device without sync: there is no conflict log.
    public var isAvailable: Bool
    /// False until the first read arrived.
    public var isLoaded: Bool
    public var errorMessage: String?

    /// The defaults are the state before the first read.
    public init(items: [ConflictItem] = [], newCount: Int = 0, isAvailable: Bool = false, isLoaded: Bool = false,
                errorMessage: String? = nil) {
        self.items = items
        self.newCount = newCount
        self.isAvailable = isAvailable
        self.isLoaded = isLoaded
        self.errorMessage = errorMessage
    }
}

/// The conflicts screen: the log of conflicts the merge resolved (both
/// devices changed a field, or a delete beat an edit), newest first, with
/// both values, their times and devices, who won and why. Keeping the other
/// value is a new edit that syncs; dismissing marks the entry as seen.
public final class ConflictsViewModel: ViewModel {
    public let core: ViewModelCore<ConflictsState>
    /// Starts observing the conflict log at once.
    public init(environment: AppEnvironment) {
        core = ViewModelCore(environment: environment, initial: ConflictsState(), label: "conflicts")
        let device = environment.deviceName
        observe({ db in try Self.fetch(db, device: device) }, apply: { state, fetched in
            state.items = fetched.items
            state.newCount = fetched.items.filter { !$0.isDismissed }.count
            state.isAvailable = fetched.isAvailable && environment.syncControls != nil
            state.isLoaded = true
        })
    }

    /// Puts the value that lost back, as a new edit that syncs to every
    /// device, and marks the entry as seen.
    @discardableResult
    public func keepOtherValue(id: String) -> ActionResult {
        guard let controls = environment.syncControls else { return .failed("Sync is not set up on this device") }
        guard let item = state.items.first(where: { $0.id == id }) else { return .failed("That conflict is gone") }
        guard item.canKeepOther, let losing = item.losingSide else { return .failed(item.whyNoOtherValue) }
        return perform {
            guard try controls.restoreLosingValue(conflictID: id) else {
                return .failed("\(item.subject) no longer exists")
            }
            let value = ConflictText.quoted(losing.value)
            return ActionResult(message: "\(item.fieldName) of \(item.subject) is \(value) again; syncing")
        }
    }

    /// Puts back a reminder a delete took (`ConflictItem.lostReminderValues`)
    /// into `listID`, else the list it was in if that is here, else the
    /// default list, as a new reminder that syncs; or a copy of one the
    /// share refused (`refusedReminderValues`) into `listID`, else the
    /// default list, else the first list this user may change. Marks the
    /// entry as seen.
    @discardableResult
    public func restoreLost(id: String, listID: String? = nil) -> ActionResult {
        guard let controls = environment.syncControls else { return .failed("Sync is not set up on this device") }
        guard let item = state.items.first(where: { $0.id == id }) else { return .failed("That conflict is gone") }
        guard let values = item.putBackValues, let reminderID = item.putBackID else { return .failed(item.whyNoOtherValue) }
        let defaultList = environment.defaultList
        let refused = item.lostReminderValues == nil
        return perform {
            if let copy = try environment.writer.read({ db in try ConflictsViewModel.copyPutBack(db, id: reminderID) }) {
                // Put back on another device of this user's: what was asked for is here.
                try controls.dismissConflict(id: id)
                return ActionResult(message: copy)
            }
            let lists = try environment.writer.read(Queries.listsInOrder)
            let writable = lists.filter { !environment.isReadOnly(listID: $0.id) }
            let chosen = listID.flatMap { id in lists.first { $0.id == id } }
                ?? (refused ? nil : item.lostReminderListID.flatMap { id in lists.first { $0.id == id } })
                ?? ReminderFormViewModel.defaultList(in: writable, named: defaultList)
            guard let list = chosen else { return .failed("There is no list to put it in: make one on Home first") }
            if case .hereAlready(let copy) = try Self.putBack(store, id: reminderID, values: values, listID: list.id) {
                try controls.dismissConflict(id: id)
                return ActionResult(message: copy)
            }
            try controls.dismissConflict(id: id)
            return ActionResult(message: "“\(item.title ?? "The reminder")” is back, \(refused ? "as a copy " : "")in \(list.title); syncing")
        }
    }

    /// What a put-back did: made the reminder, or found it here already.
    public enum PutBack: Equatable {
        case made(Reminder)
        /// What to say of it (`copyPutBack`).
        case hereAlready(String)
    }

    /// Puts a reminder back (`RemindersStore.restoreLost`), or, when a
    /// sync brought it back meanwhile (put back on another device of this
    /// user's, between the caller's look and this write), says where it is.
    public static func putBack(_ store: RemindersStore, id: String, values: [(column: String, value: String)],
                               listID: String) throws -> PutBack {
        do {
            return .made(try store.restoreLost(id: id, values: values, listID: listID))
        } catch CoreError.invalidInput(let message) {
            guard let copy = try store.writer.read({ db in try copyPutBack(db, id: id) }) else {
                throw CoreError.invalidInput(message)
            }
            return .hereAlready(copy)
        }
    }

    /// What to say of a put-back whose reminder is here already (put back
    /// on another of this user's devices, and synced): nil if it is not.
    public static func copyPutBack(_ db: Database, id: String) throws -> String? {
        guard let reminder = try Reminder.fetchOne(db, key: id) else { return nil }
        let list = try RemindersList.fetchOne(db, key: reminder.remindersListID)?.title ?? reminder.remindersListID
        return "“\(reminder.title)” was put back already, in \(list)"
    }

    /// Marks the entry as seen; it stays in the log, dimmed.
    @discardableResult
    public func dismiss(id: String) -> ActionResult {
        guard let controls = environment.syncControls else { return .failed("Sync is not set up on this device") }
        return perform {
            try controls.dismissConflict(id: id)
            return ActionResult(message: "Dismissed")
        }
    }

    /// Marks every entry as seen.
    @discardableResult
    public func dismissAll() -> ActionResult {
        guard let controls = environment.syncControls else { return .failed("Sync is not set up on this device") }
        let open = state.items.filter { !$0.isDismissed }
        guard !open.isEmpty else { return ActionResult(message: "Nothing to dismiss") }
        return perform {
            for item in open { try controls.dismissConflict(id: item.id) }
            return ActionResult(message: open.count == 1 ? "Dismissed 1 conflict" : "Dismissed \(open.count) conflicts")
        }
    }

    // MARK: Reading

    struct Fetched: Sendable {
        var items: [ConflictItem]
        var isAvailable: Bool
    }

    /// Reads the log with each record's title as it is now. Runs inside an
    /// observation, so title changes redraw the screen too.
    static func fetch(_ db: Database, device: String) throws -> Fetched {
        guard try db.hasTable(SyncEngine.conflictTable) else { return Fetched(items: [], isAvailable: false) }
        return Fetched(items: try SyncEngine.conflicts(db).map { try item($0, db, device: device) }, isAvailable: true)
    }

    /// Describes entries for a toast ("“Buy milk” (title)"), reading titles
    /// in one read.
    public static func items(for entries: [ConflictEntry], environment: AppEnvironment) -> [ConflictItem] {
        (try? environment.writer.read { db in try entries.map { try item($0, db, device: environment.deviceName) } }) ?? []
    }

    /// An entry as `device` sees it (see `ConflictEntry.seen(from:)`).
    public static func item(_ logged: ConflictEntry, _ db: Database, device: String) throws -> ConflictItem {
        let entry = logged.seen(from: device)
        let isAboutThisDevice = entry.localDevice == nil || entry.localDevice == device
        let (title, listTitle, isGone) = try titles(of: entry, db)
        let isWhole = entry.field == "*"
        let winner: ConflictWinner = switch entry.winner {
        case "local": .thisDevice
        case "remote": .otherDevice
        default: .delete
        }
        func side(_ value: String?, _ time: Int64?, _ device: String?) throws -> ConflictSide {
            ConflictSide(value: isWhole ? try ConflictText.kept(value, table: entry.recordType, db)
                                        : try ConflictText.value(value, field: entry.field, table: entry.recordType, db),
                         time: time.map { Date(timeIntervalSince1970: Double($0) / 1000) }, device: device)
        }
        let current = isWhole || isGone || entry.cause != nil ? nil : try changedSince(entry, db)
        let holdsOther = entry.sides.map { sides in current.map { $0 == sides.losing } == true } ?? false
        var item = ConflictItem(
            entry: entry,
            kind: ConflictText.kind(entry.recordType),
            title: title,
            isGone: isGone,
            listTitle: listTitle,
            fieldName: isWhole ? "Whole \(ConflictText.kind(entry.recordType).lowercased())" : ConflictText.field(entry.field),
            ancestor: isWhole ? nil : try ConflictText.value(entry.ancestor, field: entry.field, table: entry.recordType, db),
            thisDevice: try side(entry.local, entry.localTime, entry.localDevice),
            otherDevice: entry.isRefusedDelete && entry.remote == nil
                // A delete the share refused: the server kept the record, and it is back.
                ? ConflictSide(value: "as it was", time: nil, device: nil)
                : try side(entry.remote, entry.remoteTime, entry.remoteDevice),
            winner: winner,
            reason: reason(entry, isAboutThisDevice: isAboutThisDevice),
            resolvedAt: Date(timeIntervalSince1970: Double(entry.resolvedAt) / 1000),
            isDismissed: entry.isDismissed,
            canKeepOther: !isWhole && winner != .delete && !isGone && entry.cause == nil && !holdsOther,
            isAboutThisDevice: isAboutThisDevice,
            now: try current.map { try ConflictText.value($0, field: entry.field, table: entry.recordType, db) ?? "none" },
            holdsOtherValue: holdsOther)
        // A reminder a delete took goes back to the list it was in, when
        // that list is here: named, as where "put back" puts it.
        if item.listTitle == nil, let listID = item.lostReminderListID {
            item.listTitle = try Queries.listTitle(db, id: listID)
        }
        return item
    }

    /// A reminder's or list's field as stored now, when it is not the value
    /// the merge kept (see `ConflictItem.now`); nil when it is (or when the
    /// entry is not about such a field). The inner nil is no value.
    public static func changedSince(_ entry: ConflictEntry, _ db: Database) throws -> String?? {
        guard let kept = entry.sides?.kept, [Reminder.databaseTableName, RemindersList.databaseTableName].contains(entry.recordType),
              try db.columns(in: entry.recordType).contains(where: { $0.name == entry.field }),
              let row = try Row.fetchOne(db, sql: "SELECT \(entry.field.quotedDatabaseIdentifier) AS value FROM \(entry.recordType.quotedDatabaseIdentifier) WHERE id = ?",
                                         arguments: [entry.recordID]) else { return nil }
        let value: DatabaseValue = row["value"]
        let current: String? = switch value.storage {
        case .null: nil
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): text
        case .blob: kept  // a cover's image: not compared, never "now"
        }
        guard current != kept else { return nil }
        return .some(current)
    }

    /// The engine's reason, made specific where the log says more: what
    /// happened to an edit that was dropped, and whose edit won as seen
    /// from this device.
    public static func reason(_ entry: ConflictEntry, isAboutThisDevice: Bool = true) -> String {
        let shared = entry.subject.map { "“\($0)”" } ?? "the list"
        let owner = entry.byUser
        switch entry.cause {
        case .readOnly?:
            return "refused: \(shared) is now read-only" + (owner.map { " (\($0) changed your permission)" } ?? "")
        case .noLongerShared?:
            return "refused: \(shared) is no longer shared with you"
                + (owner.map { " (\($0) deleted it, removed you, ended the share or moved it out)" } ?? "")
        case .shareLost?:
            return "refused: \(shared) is not shared on the server this device now syncs with (it was reset or replaced)"
                + (owner.map { "; ask \($0) to share it again" } ?? "")
        case nil:
            break
        }
        let thisSide = isAboutThisDevice ? "this device" : (entry.localDevice ?? "one device")
        let person = entry.remotePerson
        let otherSide = isAboutThisDevice ? (person ?? "the other device") : (entry.remoteDevice ?? "the other device")
        if entry.winner == "local", let localTime = entry.localTime, let remoteTime = entry.remoteTime, localTime == remoteTime {
            return "both edits have the same time; \(thisSide)'s wins the tie"
        }
        if !isAboutThisDevice, entry.winner == "local" || entry.winner == "remote" {
            return "\(entry.winner == "local" ? thisSide : otherSide)'s edit is the later one"
        }
        if entry.winner == "remote", entry.remoteTime != nil, entry.remoteTime == entry.localTime {
            return "both edits have the same time; \(otherSide) merged them and its edit wins the tie"
        }
        if entry.winner == "remote", person != nil, entry.remote?.hasPrefix("refused") != true {
            return "\(otherSide)'s edit is the later one"
        }
        // Entries logged before causes were kept say it in their values. A
        // device that took no part reads a delete's sides by name: the one
        // that logged it may not know which device deleted.
        return switch (entry.winner, entry.local, entry.remote) {
        case ("delete", "deleted", _): "\(thisSide) deleted it, and a delete wins over a concurrent edit"
        case ("delete", _, "deleted") where isAboutThisDevice:
            "\(otherSide) deleted it, and a delete wins over a concurrent edit"
        case ("delete", _, "deleted"):
            entry.remoteDevice.map { "\($0) deleted it, and a delete wins over \(thisSide)'s concurrent edit" }
                ?? "\(thisSide)'s edit lost to a delete made on another device: a delete wins over a concurrent edit"
        case ("delete", "deleted with its parent", _):
            "\(thisSide) deleted what it was in (its list, or the reminder it was a subtask of), and \(entry.remoteDevice ?? otherSide)'s \(ConflictText.kind(entry.recordType).lowercased()) went with it"
        case ("delete", _, "deleted with its parent") where entry.remoteDevice != nil && isAboutThisDevice:
            "it went with what it was in (its list, or the reminder it was a subtask of), deleted on \(entry.remoteDevice!)"
        case ("delete", _, "deleted with its parent"):
            "\(isAboutThisDevice ? "it" : "\(thisSide)'s \(ConflictText.kind(entry.recordType).lowercased())") went with what it was in (its list, or the reminder it was a subtask of), deleted on another device"
        case ("delete", _, "no longer shared with you"): "the list is no longer shared with you"
        case ("remote", _, "refused: read-only"): "the list is shared with you read-only"
        default: entry.reason
        }
    }

    /// The record's title now, and a reminder's list title. A record no
    /// longer here is named by the title its entry kept, if any: the
    /// winning value of a title conflict, or the title among a lost row's
    /// values (a subtask made here under a reminder deleted elsewhere).
    public static func titles(of entry: ConflictEntry, _ db: Database) throws -> (title: String?, listTitle: String?, isGone: Bool) {
        let found = try Queries.recordTitles(db, table: entry.recordType, key: entry.recordID)
        if let title = found.title { return (title, found.listTitle, false) }
        let kept: String?
        if entry.field == "title" {
            kept = entry.winner == "local" ? entry.local : entry.winner == "remote" ? entry.remote : entry.local ?? entry.remote
        } else if entry.field == "*" {
            kept = [entry.local, entry.remote].lazy.compactMap { ConflictEntry.keptValues($0)?.first { $0.column == "title" }?.value }
                .first
        } else {
            kept = nil
        }
        return (kept.flatMap { $0.isEmpty ? nil : $0 }, found.listTitle, true)
    }
}

/// How the conflict log's raw values read on screen.
public enum ConflictText {
    public static func kind(_ recordType: String) -> String {
        switch recordType {
        case Reminder.databaseTableName: "Reminder"
        case RemindersList.databaseTableName: "List"
        case RemindersListCover.databaseTableName: "List cover"
        case Tag.databaseTableName: "Tag"
        case ReminderTag.databaseTableName: "Tag link"
        default: recordType
        }
    }

    public static func field(_ column: String) -> String {
        switch column {
        case "title": "Title"
        case "notes": "Notes"
        case "dueDate": "Due date"
        case "priority": "Priority"
        case "isFlagged": "Flag"
        case "status": "Status"
        case "completedAt": "Completed at"
        case "position": "Position"
        case "remindersListID": "List"
        case "color": "Color"
        case "image": "Cover image"
        case "tagID": "Tag"
        case "reminderID": "Reminder"
        case "repeatRule": "Repeat"
        case "alertBefore": "Alert"
        case "parentID": "Parent"
        case "repeatOf": "Repeat of"
        case "occurrence": "Moved from"
        case Tag.databaseTableName: "Tags"
        default: column
        }
    }

    /// Values a dropped edit kept, as a person reads them ("Title “Pears”,
    /// Priority high"); text logged plainly stays as it is.
    public static func kept(_ text: String?, table: String, _ db: Database) throws -> String? {
        guard let pairs = ConflictEntry.keptValues(text) else { return text }
        // A row's place in its list is no one's words, and a reminder not
        // completed is what one is unless said.
        return try pairs.filter { $0.column != "position" && ($0.column, $0.value) != ("status", "incomplete") }.map { column, raw in
            let shown = try value(raw, field: column, table: table, db)
            return "\(field(column)) " + (isWorded(field: column, table: table) ? shown ?? "none" : quoted(shown))
        }.joined(separator: ", ")
    }

    /// Whether `value` puts `field`'s values in words ("high", "no due
    /// date", "2026-12-02 10:00", “Work” for a list), which read as they
    /// are, rather than giving text as it was typed, which goes in quotes.
    public static func isWorded(field: String, table: String) -> Bool {
        switch field {
        case "priority", "isFlagged", "dueDate", "completedAt": true
        case "remindersListID", "occurrence", "repeatRule", "alertBefore", "parentID", "status": table == Reminder.databaseTableName
        case "tagID": table == ReminderTag.databaseTableName
        case Tag.databaseTableName: table == Reminder.databaseTableName
        default: false
        }
    }

    /// A raw logged value as a person reads it; nil stays nil ("none").
    public static func value(_ raw: String?, field: String, table: String, _ db: Database) throws -> String? {
        switch field {
        case "priority":
            guard let raw, let number = Int(raw), let priority = Priority(rawValue: number) else { return raw }
            return priority.name
        case "isFlagged":
            guard let raw else { return nil }
            return raw == "1" ? "flagged" : "not flagged"
        case "dueDate":
            guard let raw else { return "no due date" }
            return raw.replacingOccurrences(of: "T", with: " ")
        case "remindersListID" where table == Reminder.databaseTableName:
            guard let raw else { return nil }
            let title = try Queries.listTitle(db, id: raw)
            return title.map { "“\($0)”" } ?? "a deleted list"
        case "completedAt":
            return raw?.replacingOccurrences(of: "T", with: " ")
        case "status" where table == Reminder.databaseTableName:
            // "completing" is the moment before a tick takes: completed.
            guard let raw else { return nil }
            return raw == "incomplete" ? "not completed" : (raw == "completing" || raw == "completed" ? "completed" : raw)
        case "occurrence" where table == Reminder.databaseTableName:
            // The scheduled date a moved due date stands for.
            guard let raw else { return "not moved" }
            return raw.replacingOccurrences(of: "T", with: " ")
        case "tagID" where table == ReminderTag.databaseTableName:
            // A link names its tag by key; the tag's title reads better.
            guard let raw else { return nil }
            return try Queries.tagTitle(db, raw) ?? raw
        case "repeatRule" where table == Reminder.databaseTableName:
            guard let raw else { return "no repeat" }
            return (try? RepeatRule(rrule: raw))?.description ?? raw
        case "alertBefore" where table == Reminder.databaseTableName:
            guard let raw else { return AlertBefore.describe(nil).lowercased() }
            return Int(raw).map { AlertBefore.describe($0).lowercased() } ?? raw
        case Tag.databaseTableName where table == Reminder.databaseTableName:
            // A lost reminder's tags, kept as a JSON array (`SyncEngine.linkedNames`).
            guard let raw else { return nil }
            return RemindersStore.keptTags(raw).map { "#" + $0 }.joined(separator: " ")
        case "parentID" where table == Reminder.databaseTableName:
            guard let raw else { return "no parent" }
            return try Queries.recordTitles(db, table: Reminder.databaseTableName, key: raw).title.map { "“\($0)”" } ?? "a deleted reminder"
        default:
            return raw
        }
    }

    /// “value”, or "none" for no value, "empty" for an empty text.
    public static func quoted(_ value: String?) -> String {
        guard let value else { return "none" }
        if value.isEmpty { return "empty" }
        if value.hasPrefix("“") { return value }
        return "“\(value)”"
    }
}

extension ConflictEntry {
    /// A delete the share refused (the entry's own side is "deleted").
    var isRefusedDelete: Bool { cause != nil && local == "deleted" }
}
