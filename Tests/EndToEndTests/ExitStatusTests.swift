import CatalogKit
import Foundation
@testable import gvingest
import Testing

/// gvingest's, not Swift Testing's exit-test status.
private typealias ExitStatus = gvingest.ExitStatus

/// Every error a command can end with, through the one function that makes it an exit status and a line.
@Suite struct ExitStatusTests {
    @Test func everyErrorCaseMapsToItsStatusAndLine() {
        let causes: [(CatalogError.Cause, ExitStatus)] = [(.invalidData, .dataError), (.missingInput, .noInput),
                                                          (.unavailable, .unavailable), (.cannotWrite, .cannotCreate),
                                                          (.temporary, .temporaryFailure), (.noCredentials, .noPermission)]
        for (cause, status) in causes {
            let failure = ExitStatus.report(CommandFailure("went wrong", cause), command: RunCommand.self)
            #expect(failure.status == status && failure.message == "went wrong", "\(cause)")
            let catalog = ExitStatus.report(CatalogError("went wrong", cause), command: RunCommand.self)
            #expect(catalog.status == status && catalog.message == "went wrong", "\(cause)")
        }
        #expect(ExitStatus.report(UsageError(message: "name a file"), command: ParseCommand.self) == (.usage, "name a file"))
        #expect(ExitStatus.report(DiffTrouble(message: "a.json: cannot read"), command: DiffCommand.self) == (.trouble, "a.json: cannot read"))
        let news = ExitStatus.report(CommitError.corruptNews(path: "news.json", reason: "not JSON"), command: RunCommand.self)
        #expect(news.status == .dataError && news.message.hasPrefix("news.json: not a news file (not JSON)"))
        #expect(ExitStatus.report(CommitError.cannotWrite(path: "out", reason: "full").self, command: RunCommand.self).status == .cannotCreate)
        struct Unforeseen: Error {}
        #expect(ExitStatus.report(Unforeseen(), command: RunCommand.self).status == .usage)
    }

    /// CatalogKit says what overrides a refusal in words; the line adds the option of the command at hand, and none
    /// when the command has no such option (the message names the setting instead).
    @Test func aRemedyBecomesTheCommandsOption() {
        let removals = CommitError.refused([.tooManyRemovals(removed: 3, previous: 21, maximumFraction: 0.1)])
        let run = ExitStatus.report(removals, command: RunCommand.self)
        #expect(run.status == .dataError)
        #expect(run.message.hasSuffix("if the removals are real, accept them (run again with --accept-removals)"), "\(run.message)")
        let firestore = CatalogError("3 of 21 course documents would be deleted; if the removals are real, accept them", .invalidData,
                                     remedy: .acceptRemovals)
        #expect(ExitStatus.report(firestore, command: PublishCommand.self).message.hasSuffix("(run again with --accept-removals)"))
        let token = CatalogError("no credentials", .noCredentials, remedy: .tokenCommand)
        #expect(ExitStatus.report(token, command: PublishCommand.self) == (.noPermission, "no credentials (or --token-command CMD)"))
        #expect(ExitStatus.report(token, command: RunCommand.self) == (.noPermission, "no credentials"))
        let mirror = CatalogError("x: not a mirror", .missingInput, remedy: .recordMirror)
        #expect(ExitStatus.report(mirror, command: FetchCommand.self).message == "x: not a mirror (gvingest fetch --record DIR records one)")
        for remedy in CatalogError.Remedy.allCases {
            let offered = GVIngest.commands.compactMap { command in ExitStatus.remedy(remedy, command: command).map { (command.name, $0) } }
            #expect(!offered.isEmpty, "\(remedy)")
            // A command offers only its own options; recording a mirror is another command's job, named in full.
            for (name, text) in offered where remedy != .recordMirror {
                let options = Set(GVIngest.commands.first { $0.name == name }?.optionNames ?? [])
                #expect(text.matches(of: /--[a-z-]+/).allSatisfy { options.contains(String($0.output)) }, "\(name): \(text)")
            }
        }
    }

    /// CatalogKit's messages name no command-line option: no option any command declares appears in its sources
    /// outside comments (CSS custom properties such as --ink are not options).
    @Test func catalogKitNamesNoOption() throws {
        let names = Set(GVIngest.commands.flatMap { $0.optionNames })
        let root = Binary.packageRoot.appendingPathComponent("Sources/CatalogKit")
        let files = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : line.split(separator: "//").first.map(String.init) ?? ""
                for match in code.matches(of: /--[a-z][a-z-]*/) where names.contains(String(match.output)) {
                    found.append("\(file):\(number + 1): \(match.output)")
                }
            }
        }
        #expect(found.isEmpty, "\(found)")
    }
}
