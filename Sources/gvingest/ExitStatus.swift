import CatalogKit

/// Exit statuses, after sysexits(3), so schedulers and CI can tell failures apart.
enum ExitStatus: Int32, Sendable {
    case ok = 0
    /// `gvingest diff` only, as diff(1): the catalogs differ.
    case differences = 1
    /// `gvingest diff` only, as diff(1): trouble (an input can't be read or is not a catalog).
    case trouble = 2
    /// Bad usage: unknown command or option, missing argument.
    case usage = 64
    /// The input was read but is not what it should be (a page with no course).
    case dataError = 65
    /// An input file could not be opened or read.
    case noInput = 66
    /// A source (server, directory) is unavailable.
    case unavailable = 69
    /// An output could not be written.
    case cannotCreate = 73
    /// A temporary failure: running again later may succeed.
    case temporaryFailure = 75
    /// No credentials, or credentials refused (`gvingest publish` without an access token).
    case noPermission = 77
}

extension ExitStatus {
    /// The one place a cause of trouble becomes an exit status.
    init(_ cause: CatalogError.Cause) {
        switch cause {
        case .invalidData: self = .dataError
        case .missingInput: self = .noInput
        case .unavailable: self = .unavailable
        case .cannotWrite: self = .cannotCreate
        case .temporary: self = .temporaryFailure
        case .noCredentials: self = .noPermission
        }
    }
}

extension ExitStatus {
    /// Which of several catalogs' statuses a shard exits with: the one a scheduler must act on first. 75 asks for the
    /// retry that may fix it; 65 fails for good (a guard refused); unwritable outputs and unreachable sources follow.
    static let urgency: [ExitStatus] = [.temporaryFailure, .dataError, .cannotCreate, .unavailable, .noInput, .noPermission, .usage]

    static func mostUrgent(_ statuses: [ExitStatus]) -> ExitStatus {
        urgency.first(where: statuses.contains) ?? statuses.first { $0 != .ok } ?? .ok
    }
}

/// An end short of a command's work: the message (for stderr, after "gvingest COMMAND: ") and the status it exits with.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var status: ExitStatus
    var description: String { message }

    init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    init(_ error: CatalogError) {
        self.init(error.message, status: ExitStatus(error.cause))
    }
}
