import Foundation

/// Everything deleting a list took away: the list, its cover and every one
/// of its reminders with their tags, so that the delete can be undone.
public struct DeletedList: Codable, Hashable, Sendable {
    public var list: RemindersList
    /// PNG bytes of the cover, if it had one.
    public var coverPNG: Data?
    /// In the list's own order.
    public var reminders: [DeletedReminder]

    public init(list: RemindersList, coverPNG: Data?, reminders: [DeletedReminder]) {
        self.list = list
        self.coverPNG = coverPNG
        self.reminders = reminders
    }
}
