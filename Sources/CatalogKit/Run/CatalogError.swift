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

    /// What a person can change to get past it, when the data or the setup is right after all. The message says it in
    /// words; the command line adds the option that does it, which CatalogKit does not know.
    public enum Remedy: Sendable, Equatable, CaseIterable {
        /// The removals are real: accept them.
        case acceptRemovals
        /// Give a command that prints an access token.
        case tokenCommand
        /// Record a mirror of the source first.
        case recordMirror
        /// Name the catalog's system instead of recognizing it.
        case nameSystem
    }

    public var message: String
    public var cause: Cause
    public var remedy: Remedy?
    public var description: String { message }

    public init(_ message: String, _ cause: Cause, remedy: Remedy? = nil) {
        self.message = message
        self.cause = cause
        self.remedy = remedy
    }
}
