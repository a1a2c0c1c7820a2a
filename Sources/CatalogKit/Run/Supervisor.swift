import Foundation
import Synchronization

/// Contains FoundationNetworking's crash on a connection that ends after the status line ("Transfer completed, but
/// there's no response", swift-corelibs-foundation issue 5285, fixed upstream by pull request 5286 after the 6.3
/// toolchain): the command runs in a child process of its own, and a child that crashed with requests in flight
/// (`FlightLog`) is started again, so the cache and the flight log's strikes make it go on where it stopped.
public enum Supervisor {
    /// How a supervised command ended.
    public enum Outcome: Equatable, Sendable {
        /// The child exited with this status.
        case exited(Int32)
        /// The child crashed (this signal) with no request in flight, or after `maximumRestarts` restarts.
        case crashed(signal: Int32, restarts: Int)
        /// The child crashed in a stage after its commit (`FlightLog.mark`): its outputs stand, and `report` is the
        /// one it wrote before the stage (`RunReport.recordCrash` finishes it).
        case crashedInStage(String, signal: Int32, report: URL)
        /// The child was stopped by a signal that is no crash (SIGTERM, SIGKILL).
        case stopped(signal: Int32)
    }

    static let childKey = "GVINGEST_SUPERVISED"
    /// Not the budget that ends restarts: each crash strikes the URLs in flight, and one struck twice is not fetched
    /// again (`FlightLog`), so a catalog of N crashing pages restarts at most 2N times and then publishes the rest as
    /// `guards.allowFailedPages` allows. (A fixed 8 kept a catalog with five such pages from ever publishing.) This
    /// only stops a loop nobody foresaw.
    static let maximumRestarts = 10_000
    private static let crashSignals: Set<Int32> = [SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGSEGV, SIGFPE]

    /// Whether the command should run under a supervisor: not in one already, and only while the toolchain's
    /// FoundationNetworking has the crash (a toolchain with the fix pays nothing).
    public static var isNeeded: Bool {
        #if compiler(<6.4)
        return ProcessInfo.processInfo.environment[childKey] == nil
        #else
        return false
        #endif
    }

    /// In a supervised child: ends it the moment its parent ends, even by SIGKILL, as a command run alone would have
    /// ended. The parent holds the only write end of a pipe whose read end the child inherits: its end is the parent's.
    public static func followParent() {
        guard let descriptor = ProcessInfo.processInfo.environment[parentPipeKey].flatMap(Int32.init) else { return }
        Thread.detachNewThread {
            var byte: UInt8 = 0
            while read(descriptor, &byte, 1) < 0 && errno == EINTR {}
            _exit(128 + SIGKILL)
        }
    }

    static let parentPipeKey = "GVINGEST_PARENT_PIPE"

    /// Runs this executable with `arguments` as a child until it ends other than by a crash with requests in flight;
    /// `restarting` is told each restart and the URLs that were in flight.
    public static func run(arguments: [String], restarting: (Int32, Set<String>) -> Void) -> Outcome {
        removeAbandonedLogs()
        let log = logDirectory.appendingPathComponent("\(logPrefix)\(getpid()).log").path
        defer { unlink(log) }
        guard FileManager.default.createFile(atPath: log, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            return .crashed(signal: 0, restarts: 0)
        }
        var environment = ProcessInfo.processInfo.environment
        environment[childKey] = "1"
        environment[FlightLog.environmentKey] = log
        // The crash is expected and named by its fatal error line: a page of backtrace would only bury it.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        var lifeline: [Int32] = [0, 0]
        guard pipe(&lifeline) == 0 else { return .crashed(signal: 0, restarts: 0) }
        defer { lifeline.forEach { close($0) } }
        _ = fcntl(lifeline[1], F_SETFD, FD_CLOEXEC)
        environment[parentPipeKey] = String(lifeline[0])
        // Each turn ends the run or restarts the child; the restart limit ends it at last.
        var restarts = 0
        while true {
            let status = spawnAndWait(executable, [executable] + arguments, environment.map { "\($0.key)=\($0.value)" })
            guard let signal = status.signal else { return .exited(status.code) }
            guard crashSignals.contains(signal) else { return .stopped(signal: signal) }
            let logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let (stage, report) = FlightLog.stageUnderWay(logged) {
                return .crashedInStage(stage, signal: signal, report: report)
            }
            let inFlight = FlightLog.replay(logged).inFlight
            guard !inFlight.isEmpty, restarts < maximumRestarts,
                  let handle = FileHandle(forWritingAtPath: log) else { return .crashed(signal: signal, restarts: restarts) }
            handle.seekToEndOfFile()
            handle.write(Data("\(FlightLog.crashLine)\n".utf8))
            try? handle.close()
            restarting(signal, inFlight)
            restarts += 1
        }
    }

    static var logDirectory: URL { FileManager.default.temporaryDirectory }
    static let logPrefix = "gvingest-flight-"

    /// Flight logs of supervisors that were killed (their unlink never ran): each is named by its supervisor's pid,
    /// and one whose process is gone is removed, if it is ours.
    static func removeAbandonedLogs() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: logDirectory.path)) ?? []
        for name in names where name.hasPrefix(logPrefix) && name.hasSuffix(".log") {
            guard let pid = Int32(name.dropFirst(logPrefix.count).dropLast(4)), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = logDirectory.appendingPathComponent(name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_uid == getuid(), (status.st_mode & S_IFMT) == S_IFREG else { continue }
            unlink(path)
        }
    }

    /// The child's pid while it runs, for the signal handler that passes SIGINT, SIGTERM and SIGHUP on to it.
    private static let child = Atomic<Int32>(0)

    private static func spawnAndWait(_ path: String, _ arguments: [String], _ environment: [String])
        -> (code: Int32, signal: Int32?) {
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let argv = cStrings(arguments), envp = cStrings(environment)
        defer { (argv + envp).forEach { free($0) } }
        for forwarded in [SIGINT, SIGTERM, SIGHUP] {
            signal(forwarded) { received in
                let pid = Supervisor.child.load(ordering: .relaxed)
                if pid > 0 { kill(pid, received) }
            }
        }
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, nil, nil, argv, envp) == 0 else { return (71, nil) }
        child.store(pid, ordering: .relaxed)
        defer { child.store(0, ordering: .relaxed) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signal = status & 0x7F
        return signal == 0 ? ((status >> 8) & 0xFF, nil) : (128 + signal, signal)
    }
}
