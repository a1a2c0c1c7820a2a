import CatalogKit
import Foundation

/// `gvingest announce`: delivers the news still pending for the channels of pipeline.json's `announce` section.
enum AnnounceCommand: Command {
    static let name = "announce"
    static let summary = "Deliver pending news to Discord, Slack, email and webhooks (or test a channel)."
    static let options: [CommandOption] = [
        .configuration,
        .catalogID,
        .option("--channel", "NAME", "Deliver to this channel only."),
        .flag("--dry-run", "Print the messages that would be sent (JSON payloads, the email as sent); send nothing, change "
              + "nothing, need no secrets."),
        .flag("--json", "Print {\"channels\": [{\"channel\", \"delivered\", \"messages\", \"pending\", \"problem\"}]}; with "
              + "--dry-run, [{\"channel\", \"newsIds\", \"body\"}]."),
        .option("--test", "NAME", "Send one test message to channel NAME, to check its settings; the outbox is not touched."),
    ]
    static let usages = [
        Usage(optional: ["--config", "--catalog", "--channel", "--dry-run", "--json"]),
        Usage(required: ["--test"], optional: ["--config", "--catalog"]),
    ]
    static let discussion = """
    Sends the news that runs published and the configuration's announce channels have not yet
    received: what a run could not deliver (a channel down, a rate limit past the deadline, a
    run killed while delivering). `gvingest run` delivers by itself after each commit; this is for a
    timer to retry. Each channel's outbox (outbox.json beside the catalog's snapshots) is written
    after every message a service confirmed, so nothing is lost and a crash repeats at most one
    message. Secrets come from the environment variables the channels name; a webhook is shown
    by its host only.
    """
    static let exitStatus = """
    Exit status: 0 nothing left pending (or the test message was delivered), 64 bad usage, 65 the
    configuration has no announce section, is invalid, or the outbox is not one, 66 the configuration
    can't be read, 69 the test message was not delivered (the error says why: a secret not set, a
    refusal, no answer), 75 something stays pending (run it again later), or a run holds the
    outputs' lock.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        let (path, config, catalog) = try configuredCatalog(arguments)
        guard let settings = config.announce else { throw CommandFailure("\(path) has no announce section: no channel to announce to", .invalidData) }
        let names = settings.channels.map(\.name)
        func channel(_ option: String) throws(UsageError) -> [AnnounceChannel]? {
            guard let name = arguments.value(option) else { return nil }
            guard let channel = settings.channels.first(where: { $0.name == name }) else {
                let hint = closestName(to: name, among: names, within: 2).map { " (did you mean '\($0)'?)" } ?? ""
                throw UsageError(message: "\(option): no channel '\(name)' in \(path)\(hint); channels: \(names.joined(separator: ", "))")
            }
            return [channel]
        }
        let store = config.outputs.store(for: catalog.id)
        var announcer = Announcer(settings: settings, catalog: catalog, store: store, now: RunClock.now() ?? Date())
        (announcer.subjectNames, announcer.site) = (config.subjectNames(readIn: (try? store.latest())??.snapshot), config.site)
        announcer.userAgent = config.fetch.requestUserAgent
        if let test = try channel("--test") {
            var outbox = Outbox(queued: [])
            outbox.pending[test[0].name] = [announcer.test]
            let report = await announcer.deliver(outbox, only: test, keep: false)[0]
            if let problem = report.problem { throw CommandFailure(problem, .unavailable) }
            print("channel \(report.channel): the test message was delivered")
            return .ok
        }
        let only = try channel("--channel")
        let dryRun = arguments.has("--dry-run")
        if !dryRun, let link = CatalogRun.plantedLink(config: config, catalogID: catalog.id) {
            throw CatalogRun.linkRefused(link)
        }
        // A run must not commit (or deliver) while the outbox is read and written.
        let lock = dryRun ? nil : try RunLock(directory: config.outputs.directory)
        defer { withExtendedLifetime(lock) {} }
        let news = try Result { () throws(CommitError) in try NewsPipeline(store: store, outputDirectory: config.outputs.directory).loadNews() }
            .mapError { CommandFailure("\($0)", .invalidData) }.get()
        let outbox = try announcer.outbox(news: news)
        if dryRun {
            let messages = (only ?? settings.channels).flatMap { channel in
                announcer.messages(channel, outbox.pending[channel.name] ?? []).map { (channel.name, $0) }
            }
            if arguments.has("--json") {
                print(JSONValue.array(messages.map { name, message in
                    .object(["channel": .string(name), "newsIds": .array(message.ids.map(JSONValue.string)),
                             "body": .string(String(decoding: message.body, as: UTF8.self))])
                }).serialized())
            } else {
                for (name, message) in messages {
                    let body = (try? JSONFile.decode(JSONValue.self, from: message.body))?.serialized() ?? String(decoding: message.body, as: UTF8.self)
                    print("--- channel \(name): \(message.ids.count) news item(s) ---\n\(body)")
                }
                if messages.isEmpty { printError("gvingest announce: nothing pending") }
            }
            return .ok
        }
        try outbox.save(store)
        let reports = await announcer.deliver(outbox, only: only)
        if arguments.has("--json") {
            print(JSONValue.object(["channels": JSONValue(encoding: reports)]).serialized())
        } else {
            for report in reports {
                print("channel \(report.channel): \(report.delivered) news item(s) delivered in \(report.messages) message(s), "
                    + "\(report.pending.count) pending\(report.problem.map { ": \($0)" } ?? "")")
            }
        }
        return reports.contains { !$0.pending.isEmpty } ? .temporaryFailure : .ok
    }
}
