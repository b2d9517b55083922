/// What is wrong with the config file, and where: `reminders` prints it as
/// one line, `path:line: message`, and exits 2.
public struct ConfigError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file's path.
    public var path: String
    /// The line the problem is on, when known.
    public var line: Int?
    /// What is wrong, in words for the user.
    public var message: String

    public init(path: String, line: Int?, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): \(message)"
    }
}
