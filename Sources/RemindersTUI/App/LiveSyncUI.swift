import Foundation
import RemindersViewModels

/// Live sync on screen: the offline switch, the toast that announces
/// conflicts as the merge resolves them, the sync part of the status bar
/// and the server error line. Sync itself runs on the sync layer's queue;
/// nothing here waits for it.
extension AppController {
    /// Calls to the sync layer that write (the offline switch) go through
    /// this queue, so that a key press never waits for a merge holding the
    /// database.
    static let syncControlQueue = DispatchQueue(label: "reminders.tui.sync-controls")

    /// How long a conflict toast stays: it comes unasked.
    static let conflictToastDuration: TimeInterval = 8

    // MARK: Offline switch

    func toggleOffline() {
        guard let controls = environment.syncControls else {
            showMessage("Sync is not set up on this device")
            return
        }
        let goOffline = !controls.isOffline
        Self.syncControlQueue.async { controls.setOffline(goOffline) }
        if goOffline {
            let back = keyMap.key(for: .toggleOffline, in: [.global]).map { " · \($0) back online" } ?? ""
            showMessage("Offline: edits stay on this device" + back)
        } else {
            let pending = statusBar.state.sync.pendingCount
            showMessage(pending == 0 ? "Online" : "Online: sending \(pending == 1 ? "1 pending edit" : "\(pending) pending edits")")
        }
    }

    // MARK: Conflict toasts

    /// Asks the sync layer for news of conflicts; the text is made on its
    /// queue (it reads titles) and handed to the main loop.
    func watchConflicts() {
        guard let controls = environment.syncControls else { return }
        let environment = self.environment
        let notices = syncNotices
        let wake = self.wake
        let reviewKey = keyMap.key(for: .openConflicts, in: [.global])
        controls.onNewConflicts { entries in
            let items = ConflictsViewModel.items(for: entries, environment: environment)
            guard !items.isEmpty else { return }
            notices.post(Self.conflictMessage(items, reviewKey: reviewKey))
            wake()
        }
    }

    /// Shows the latest conflict news. Returns true when something changed.
    func announceConflicts() -> Bool {
        guard let message = syncNotices.take().last else { return false }
        showMessage(message, duration: Self.conflictToastDuration, isNews: true)
        return true
    }

    /// "Conflict on “Milk” (Title): the other device's edit won · C review",
    /// or "3 conflicts resolved · C review".
    static func conflictMessage(_ items: [ConflictItem], reviewKey: String?) -> String {
        var text: String
        if items.count == 1, let item = items.first, item.entry.cause != nil {
            // "Refused: “Groceries” is now read-only (alice changed your permission)"
            text = item.reason.prefix(1).uppercased() + item.reason.dropFirst()
        } else if items.count == 1, let item = items.first {
            let name = item.title.map { "“" + DisplayWidth.truncate(TextSanitizer.firstLine($0), to: 30) + "”" } ?? item.kind.lowercased()
            let outcome: String
            switch item.winner {
            case .thisDevice: outcome = "\(item.thisSide)'s edit won"
            case .otherDevice:
                // Another person's device is named ("bob@laptop").
                outcome = item.entry.remotePerson.map { "\($0)'s edit won" } ?? "the other device's edit won"
            case .delete: outcome = "the delete won"
            }
            text = "Conflict on \(name) (\(item.fieldName)): \(outcome)"
        } else {
            text = "\(items.count) conflicts resolved"
        }
        if let reviewKey { text += " · \(reviewKey) review" }
        return text
    }

    // MARK: A server reset, replaced or put back

    /// How long the re-join toast stays: it explains a burst of sending.
    static let rejoinToastDuration: TimeInterval = 12

    /// Until when the status bar says the server was re-joined.
    var rejoinMarkExpires: Date? {
        statusBar.state.sync.rejoin.map { $0.at.addingTimeInterval(Self.rejoinToastDuration * 5) }
    }

    /// Tells the user once that the server was not the one this device
    /// synced with. Returns true when something changed.
    func announceRejoin() -> Bool {
        guard let rejoin = statusBar.state.sync.rejoin, rejoin.at != announcedRejoin else { return false }
        announcedRejoin = rejoin.at
        showMessage(TextSanitizer.firstLine(rejoin.sentence), duration: Self.rejoinToastDuration, isNews: true)
        return true
    }

    /// Tells the user once that lists shared with them went (their owner
    /// deleted them or stopped sharing): they left Home without a word.
    func announceGoneShares() -> Bool {
        guard let gone = statusBar.state.sync.goneShares, gone.at != announcedGoneShares else { return false }
        announcedGoneShares = gone.at
        showMessage(TextSanitizer.firstLine(gone.sentence), duration: Self.rejoinToastDuration, isNews: true)
        return true
    }

    // MARK: Status bar and error line

    /// The sync part of the status bar: "synced 10:42", "offline · last
    /// sync 10:42", "syncing…" or "server error", then pending edits and the
    /// conflicts badge. As space runs short, parts go in this order: the
    /// time of the last sync, a state that asks nothing of the user
    /// ("synced", "online", "syncing…", "local only"), the pending count,
    /// the passing "re-joined server" mark. The conflicts badge, and a state
    /// that does ask (offline, server error), stay whole.
    func syncSpans(_ status: SyncStatus, maxWidth: Int) -> [Span] {
        var shortest: [Span] = []
        for dropped in 0...4 {
            let spans = syncSpans(status, withTime: dropped < 1, withQuietState: dropped < 2, withPending: dropped < 3,
                                  withRejoinMark: dropped < 4)
            // Never nothing at all: what the last step left stays, cut if
            // need be (a quiet state alone).
            if spans.isEmpty { break }
            shortest = spans
            if spans.reduce(0, { $0 + DisplayWidth.of($1.text) }) <= maxWidth { break }
        }
        return shortest
    }

    private func syncSpans(_ status: SyncStatus, withTime: Bool, withQuietState: Bool, withPending: Bool,
                           withRejoinMark: Bool) -> [Span] {
        let separator = Span(" · ", theme.statusBar)
        var spans: [Span] = []
        let time = withTime ? status.lastSync.map { Self.clockTime($0, timeZone: environment.clock.timeZone) } : nil
        switch status.connection {
        case _ where serverError(status) != nil:
            // The server failed on the last attempt: that is the state.
            spans.append(Span("server error", theme.statusError))
        case .localOnly:
            if withQuietState { spans.append(Span("local only", theme.statusBar)) }
        case .online:
            if withQuietState {
                spans.append(Span(time.map { "synced " + $0 } ?? (status.lastSync == nil ? "online" : "synced"), theme.statusOnline))
            }
        case .syncing:
            if withQuietState { spans.append(Span("syncing…", theme.statusOnline)) }
        case .offline:
            spans.append(Span("offline", theme.statusOffline))
            if let time { spans += [separator, Span("last sync " + time, theme.statusBar)] }
        }
        if withRejoinMark, let expires = rejoinMarkExpires, now() < expires {
            spans += [separator, Span("re-joined server", theme.statusBadge)]
        }
        if withPending, status.pendingCount > 0 {
            spans += [separator, Span("\(status.pendingCount) pending", theme.statusBar)]
        }
        if status.conflictsCount > 0 {
            spans += [separator, Span(status.conflictsCount == 1 ? "1 conflict" : "\(status.conflictsCount) conflicts", theme.statusBadge)]
        }
        // A part dropped from the front leaves its separator behind.
        if spans.first?.text == separator.text { spans.removeFirst() }
        return spans
    }

    /// The server's error while this device is online and keeps working
    /// alone; nil when all is well or the user chose to be offline.
    func serverError(_ status: SyncStatus) -> String? {
        guard status.connection != .offline, status.connection != .localOnly else { return nil }
        return status.errorMessage
    }

    /// The line above the status bar while the server fails: what waits
    /// first, so that a narrow line cuts the server's words, not that.
    /// Or, while a list's cover waits for an image the server cannot give,
    /// that.
    var serverErrorLine: String? {
        guard let error = serverError(statusBar.state.sync) else {
            // Synced, all but a cover the server could not give.
            return statusBar.state.sync.unavailableCover.map { "⚠ " + $0 }
        }
        let pending = statusBar.state.sync.pendingCount
        let waiting = pending == 0 ? "working on this device" : (pending == 1 ? "1 edit waits here" : "\(pending) edits wait here")
        return "⚠ Cannot sync · \(waiting) · \(error)"
    }

    func drawServerError(_ line: String, into buffer: inout CellBuffer, row: Int) {
        let rect = Rect(row: row, column: 0, width: size.width, height: 1)
        buffer.fill(rect, style: theme.statusError)
        buffer.draw(" " + Self.fitting(line, width: size.width - 1), row: row, column: 0, maxWidth: size.width, style: theme.statusError)
    }

    /// A line made to fit `width` by its paths first, so that the words
    /// after a long server directory are not the ones cut: the home
    /// directory as `~`, then each path's middle left out.
    static func fitting(_ line: String, width: Int, home: String = NSHomeDirectory()) -> String {
        func columns(_ text: String) -> Int { text.reduce(0) { $0 + TextArea.width(of: $1) } }
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard columns(line) > width else { return line }
        for index in words.indices where words[index].contains("/") {
            if home.count > 1, words[index].hasPrefix(home + "/") { words[index] = "~" + words[index].dropFirst(home.count) }
        }
        while columns(words.joined(separator: " ")) > width,
              let index = words.indices.filter({ words[$0].contains("/") && words[$0].count > 10 }).max(by: { words[$0].count < words[$1].count }) {
            // "/home/me/…/server": its start and its last part.
            let path = words[index]
            let last = path.split(separator: "/").last.map(String.init) ?? path
            let keep = max(2, path.count - (columns(words.joined(separator: " ")) - width) - last.count - 2)
            let shortened = String(path.prefix(keep)) + "…/" + last
            guard shortened.count < path.count else { break }
            words[index] = shortened
        }
        return words.joined(separator: " ")
    }

    static func clockTime(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }
}

extension Theme {
    /// Parts of the status bar that carry the sync state.
    var statusOnline: Style { colored ? Style(foreground: .indexed(114), background: .indexed(236)) : statusBar }
    var statusOffline: Style { colored ? Style(foreground: .indexed(214), background: .indexed(236), attributes: [.bold]) : statusBar.with(.bold) }
    var statusBadge: Style { colored ? Style(foreground: .indexed(16), background: .indexed(214), attributes: [.bold]) : Style(attributes: [.bold]) }
    var statusError: Style { colored ? Style(foreground: .indexed(231), background: .indexed(124), attributes: [.bold]) : Style(attributes: [.reverse, .bold]) }
}
