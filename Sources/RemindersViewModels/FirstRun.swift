/// What answering the first start's "Start empty / Add sample lists"
/// did.
public enum SampleDataOutcome: Equatable, Sendable {
    case startedEmpty
    /// The sample lists were added on this device and go to the server.
    case added
    /// Another device of the user added them first; they arrive by sync.
    case addedByAnotherDevice
}

/// The question a new user is asked on the first start, and how to answer
/// it. The app shows it only when the device finds nothing of the user's
/// anywhere (see `DeviceSession.firstStart()`).
public struct FirstRunOffer: Sendable {
    /// Answers: true adds the sample lists. Throws when the server could
    /// not be asked (nothing is added then, and the next start asks again).
    public let answer: @Sendable (_ addSampleData: Bool) throws -> SampleDataOutcome

    public init(answer: @escaping @Sendable (_ addSampleData: Bool) throws -> SampleDataOutcome) {
        self.answer = answer
    }
}
