import Foundation

/// A new folder under the system's temporary folder, removed with
/// everything in it when the value goes away. Keep the value alive (a
/// stored property, or `withExtendedLifetime`) for as long as the folder
/// is used.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    /// - Parameter prefix: the start of the folder's name, to tell whose it
    ///   is when one is left behind by a crash.
    public init(prefix: String = "reminders-tests") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { removeFolder(url) }
}

/// Removes a folder and everything in it. A process still ending (an app
/// in a tmux session just killed, a sync's child) can write a file into a
/// folder after the removal listed it, which stops the removal there; so
/// it is tried again, for up to two seconds.
public func removeFolder(_ url: URL) {
    for _ in 0..<40 {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        guard (try? FileManager.default.removeItem(at: url)) == nil else { return }
        usleep(50_000)
    }
}
