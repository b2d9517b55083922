import ArgumentParser
import CloudServer
import Foundation
import GRDB
import RemindersCore
import RemindersViewModels
import SyncEngine

/// `reminders share LIST --with USER`: invites another user to a list.
struct ShareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share", abstract: "Share a list with another user (they accept with 'reminders accept').")

    @Argument(help: "The list: id, id prefix or title.", completion: ShellCompletion.lists) var list: String
    @Option(name: .customLong("with"), help: ArgumentHelp("The user to share with.", valueName: "user")) var user: String
    @Flag(help: "They may read but not change it.") var readOnly = false
    @Flag(help: "They may change it (the default).") var readWrite = false
    @OptionGroup var common: CommonOptions

    func validate() throws {
        if readOnly && readWrite { throw ValidationError("--read-only and --read-write cannot be used together") }
        try CommonOptions.checkName(user, what: "user")
    }

    func run() throws {
        let context = try RemindersContext(common)
        guard user != context.location.user else {
            throw CoreError.invalidInput("you are \(user): a list cannot be shared with its own owner")
        }
        let listID = try context.list(list)
        let title = quoted(try context.read { try Queries.listTitle($0, id: listID) } ?? list)
        try context.connect()
        let permission = readOnly ? SharePermission.readOnly : .readWrite
        // Someone in the share already (as of the last refresh) has their
        // permission changed, not an invitation.
        let before = try context.engine.localShares().first { $0.rootKey == listID }?.participant(user)
        let share = try context.withServer { engine in
            try engine.share(table: RemindersList.databaseTableName, key: listID, with: [(user, permission)])
        }
        let member = before.map { $0.status != .removed } ?? false
        let same = before?.permission == permission
        let line = switch (before?.status, permission) {
        case (.pending?, _) where same: "\(user) is invited to \(title) already (\(permission.rawValue))."
        case (.pending?, _): "\(user)'s invitation to \(title) is now \(permission.rawValue)."
        case (.accepted?, _) where same: "\(user) already \(permission == .readOnly ? "may only read" : "may change") \(title)."
        case (.accepted?, .readOnly): "\(user) may now only read \(title)."
        case (.accepted?, .readWrite): "\(user) may now change \(title)."
        default: "Invited \(user) to \(title) (\(permission.rawValue)): they accept with 'reminders accept'."
        }
        FileHandle.standardError.write(Data((TerminalText.clean(line) + "\n").utf8))
        // Only a note, for an invitation: a server that cannot answer (an
        // older one) leaves it out.
        if !member, let note = try? context.withServer({ try $0.unknownUserNote(user) }) {
            FileHandle.standardError.write(Data(("reminders: note: " + TerminalText.clean(note) + "\n").utf8))
        }
        print(share.id)
    }
}

/// `reminders unshare LIST [--user USER]`: removes one person, or stops
/// sharing the list.
struct UnshareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unshare", abstract: "Stop sharing a list, or remove one user from it.")

    @Argument(help: "The list: id, id prefix or title.", completion: ShellCompletion.lists) var list: String
    // `--with`, like `share`: `--user` already names who runs the command.
    @Option(name: .customLong("with"), help: ArgumentHelp("Remove only this user.", valueName: "user")) var user: String?
    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        let listID = try context.list(list)
        try context.connect()
        let title = quoted(try context.read { try Queries.listTitle($0, id: listID) } ?? list)
        let owner = try context.read { context.owner($0, ofList: listID) }
        guard owner == context.location.user else {
            throw CoreError.readOnly("list \(TerminalText.clean(title)) is \(owner)'s: only \(owner) can change its sharing")
        }
        let report: SyncReport
        do {
            report = try context.withServer { engine in
                try engine.unshare(table: RemindersList.databaseTableName, key: listID, user: user)
                return try engine.sync()
            }
        } catch let failure as SyncFailure where failure.message.hasPrefix("it is not shared") {
            // Not a permission: nothing to take back. Said with the list.
            throw CoreError.invalidInput(user.map { "list \(TerminalText.clean(title)) is not shared with \($0)" }
                                         ?? "list \(TerminalText.clean(title)) is not shared with anyone")
        }
        print(TerminalText.clean(user.map { "Removed \($0) from \(title)." } ?? "Stopped sharing \(title)."))
        // The sync that sent it may have found a list shared with this user
        // gone: said here, as `sync` would have (the next one will not).
        if !report.goneShares.isEmpty { print(TerminalText.clean(GoneShareWords.sentence(report.goneShares))) }
    }
}

/// `reminders shares`: outgoing and incoming shares with their status.
struct SharesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shares", abstract: "List the shares you own and the ones you were invited to.")

    @Flag(help: "Print as JSON.") var json = false
    @OptionGroup var common: CommonOptions

    struct Participant: Encodable {
        var user: String
        var permission: String
        var status: String
    }

    struct Outgoing: Encodable {
        var id: String
        var listID: String
        var listTitle: String
        var participants: [Participant]
    }

    struct Incoming: Encodable {
        var id: String
        var listID: String
        var listTitle: String
        var owner: String
        var permission: String
        var status: String
    }

    struct Output: Encodable {
        var outgoing: [Outgoing]
        var incoming: [Incoming]
    }

    func run() throws {
        let context = try RemindersContext(common)
        try context.connect()
        try context.withServer { try $0.refreshShares() }
        let shares = try context.engine.localShares().filter { $0.rootTable == RemindersList.databaseTableName }
        let me = context.location.user
        let titles = try context.read { db in try Queries.listTitles(db) }
        func title(_ share: LocalShare) -> String {
            // Not accepted yet: the title the server showed the invitee.
            titles[share.rootKey] ?? share.rootPreview["title"] ?? ""
        }
        let outgoing = shares.filter { $0.ownerName == me }.map { share in
            Outgoing(id: share.id, listID: share.rootKey, listTitle: title(share),
                     participants: share.participants.sorted { $0.userName < $1.userName }
                        .map { Participant(user: $0.userName, permission: $0.permission.rawValue, status: $0.status.rawValue) })
        }.sorted { $0.id < $1.id }
        let incoming = shares.filter { $0.ownerName != me }.compactMap { share -> Incoming? in
            guard let mine = share.participant(me) else { return nil }
            return Incoming(id: share.id, listID: share.rootKey, listTitle: title(share), owner: share.ownerName,
                            permission: mine.permission.rawValue, status: mine.status.rawValue)
        }.sorted { $0.id < $1.id }
        if json {
            try JSONOutput.print(Output(outgoing: outgoing, incoming: incoming))
            return
        }
        if outgoing.isEmpty && incoming.isEmpty {
            print("No shares.")
        }
        for share in outgoing {
            // Those removed no longer have it: named apart, after the ones who do.
            let removed = share.participants.filter { $0.status == ParticipantStatus.removed.rawValue }.map(\.user)
            let people = share.participants.filter { !removed.contains($0.user) }
                .map { "\($0.user) (\($0.permission), \($0.status))" }.joined(separator: ", ")
            let gone = removed.isEmpty ? "" : "; removed: " + removed.joined(separator: ", ")
            print(TerminalText.clean("\(share.id.prefix(8))  \(share.listTitle)  shared with \(people.isEmpty ? "nobody" : people)\(gone)"))
        }
        for share in incoming {
            print(TerminalText.clean("\(share.id.prefix(8))  \(share.listTitle)  shared by \(share.owner) (\(share.permission), \(share.status))"))
        }
    }
}

/// `reminders accept SHARE`: accepts an invitation by its id (or a unique
/// prefix of 4+ characters) or by the list's title.
struct AcceptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept", abstract: "Accept a share someone invited you to (ids and titles from 'reminders shares').")

    @Argument(help: "The share id, a unique prefix of it, or the shared list's title.") var share: String
    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        try context.connect()
        try context.withServer { try $0.refreshShares() }
        let me = context.location.user
        let invitations = try context.engine.localShares().filter { $0.ownerName != me && $0.participant(me) != nil }
        let match = try Self.invitation(named: share, among: invitations, me: me)
        try context.withServer { try $0.acceptShare(id: match.id) }
        let title = try context.read { db in
            try Queries.listTitle(db, id: match.rootKey)
        }
        print("Accepted: \(TerminalText.clean(title ?? match.rootKey)), shared by \(match.ownerName).")
    }

    /// The invitation `name` means: the list's title (as the server showed
    /// it, any case), else an id or a prefix of 4 or more characters.
    static func invitation(named name: String, among invitations: [LocalShare], me: String) throws -> LocalShare {
        let byTitle = invitations.filter { share in
            (share.rootPreview["title"] ?? "").compare(name, options: [.caseInsensitive]) == .orderedSame
        }
        if byTitle.count > 1 {
            let owners = byTitle.map(\.ownerName).sorted().joined(separator: ", ")
            throw CoreError.ambiguous("'\(name)' is the title of \(byTitle.count) shared lists (shared by \(owners)); give the share id from 'reminders shares'")
        }
        if let only = byTitle.first { return only }
        let byID = invitations.filter { $0.id.hasPrefix(name.lowercased()) }
        guard name.count >= 4 || byID.first?.id == name else {
            throw CoreError.invalidInput("share id '\(name)' is too short, and no shared list has that title; give at least 4 characters of the id")
        }
        guard let match = byID.first else {
            throw CoreError.notFound("no invitation is for a list titled '\(name)' or has an id starting with it (see 'reminders shares')")
        }
        guard byID.count == 1 else { throw CoreError.ambiguous("share id prefix '\(name)' is ambiguous; type more of it") }
        return match
    }
}

/// `reminders leave LIST`: leaves a list someone shared with you.
struct LeaveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave", abstract: "Leave a list someone else shared with you.")

    @Argument(help: "The list: id, id prefix or title.", completion: ShellCompletion.lists) var list: String
    @OptionGroup var common: CommonOptions

    func run() throws {
        let context = try RemindersContext(common)
        let listID = try context.list(list)
        try context.connect()
        let title = try context.read { try Queries.listTitle($0, id: listID) } ?? list
        guard let share = try context.withServer({ try $0.leaveShare(ofRoot: RemindersList.databaseTableName, key: listID) }) else {
            throw CoreError.invalidInput("list '\(list)' is not shared with you by someone else")
        }
        print("Left “\(TerminalText.clean(title))”, shared by \(share.ownerName).")
    }
}
