/// An end short of the work: the message (for stderr, after "gvingest COMMAND: ") and the status the command exits with.
public struct CommandFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public var status: ExitStatus
    public var description: String { message }

    public init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }
}
