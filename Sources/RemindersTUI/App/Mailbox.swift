import Synchronization

/// Messages handed from other threads to the main loop.
final class Mailbox: Sendable {
    private let messages = Mutex<[String]>([])

    func post(_ message: String) {
        messages.withLock { $0.append(message) }
    }

    /// Every message posted since the last take, oldest first.
    func take() -> [String] {
        messages.withLock { messages in
            let taken = messages
            messages = []
            return taken
        }
    }
}
