import Foundation

/// Messages handed from other threads to the main loop.
final class Mailbox: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func post(_ message: String) {
        lock.lock()
        messages.append(message)
        lock.unlock()
    }

    func take() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let taken = messages
        messages = []
        return taken
    }
}
