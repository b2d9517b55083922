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

    deinit { try? FileManager.default.removeItem(at: url) }
}
