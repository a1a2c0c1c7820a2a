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
    /// A cause of trouble as an exit status.
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

    /// The one place an error that ends a command becomes its exit status and its one-line message (for stderr, after
    /// "gvingest COMMAND: "), with the option of `command` that overrides it when there is one. Anything not typed
    /// here is a usage mistake the parser did not foresee.
    static func report(_ error: any Error, command: any Command.Type) -> (status: ExitStatus, message: String) {
        let (status, message, remedy): (ExitStatus, String, CatalogError.Remedy?) = switch error {
        case let usage as UsageError: (.usage, usage.message, nil)
        case let failure as CommandFailure: (ExitStatus(failure.cause), failure.message, nil)
        case let trouble as DiffTrouble: (.trouble, trouble.message, nil)
        case let error as CatalogError: (ExitStatus(error.cause), error.message, error.remedy)
        case let error as CommitError: (ExitStatus(error.cause), "\(error)", error.remedy)
        default: (.usage, "\(error)", nil)
        }
        return (status, message + (remedy.flatMap { Self.remedy($0, command: command) }.map { " (\($0))" } ?? ""))
    }

    /// How `command`'s options override what `remedy` names, or nil when none of them does.
    static func remedy(_ remedy: CatalogError.Remedy, command: any Command.Type) -> String? {
        let takes = { (name: String) in command.optionNames.contains(name) }
        switch remedy {
        case .acceptRemovals: return takes("--accept-removals") ? "run again with --accept-removals" : nil
        case .tokenCommand: return takes("--token-command") ? "or --token-command CMD" : nil
        case .recordMirror: return "gvingest fetch --record DIR records one"
        case .nameSystem: return takes("--system") ? "--system names it" : nil
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

/// An end short of a command's work that is not a usage mistake: the message and what caused it.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var cause: CatalogError.Cause
    var description: String { message }

    init(_ message: String, _ cause: CatalogError.Cause) {
        self.message = message
        self.cause = cause
    }
}

/// `gvingest diff`'s trouble, as diff(1) has it: an input that can't be read or compared.
struct DiffTrouble: Error, CustomStringConvertible {
    var message: String
    var description: String { message }

    /// `body`'s value; what it throws is trouble.
    static func catching<T>(_ body: () throws -> T) throws(DiffTrouble) -> T {
        try Result(catching: body).mapError { DiffTrouble(message: "\($0)") }.get()
    }
}
