/// Why a stage could not do its work: words for the log, and what kind of trouble it is, which decides whether
/// running again later may help (the command line makes an exit status of it).
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    public enum Cause: String, Sendable, Equatable, Codable {
        /// Read, but not what it should be (a catalog.json record of the wrong type, a guard refused).
        case invalidData
        /// An input file could not be opened or read.
        case missingInput
        /// A source (server, directory, mirror) cannot be used.
        case unavailable
        /// An output could not be written.
        case cannotWrite
        /// Passing trouble: running again later may succeed.
        case temporary
        /// No credentials, or credentials refused.
        case noCredentials
    }

    public var message: String
    public var cause: Cause
    public var description: String { message }

    public init(_ message: String, _ cause: Cause) {
        self.message = message
        self.cause = cause
    }
}
