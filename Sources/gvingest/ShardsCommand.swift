import CatalogKit
import Foundation

/// `gvingest shards`: which catalogs each of N workers runs, by politeness key (`ShardPlan`).
enum ShardsCommand: Command {
    static let name = "shards"
    static let summary = "Split a configuration's catalogs into N shards by host, for N workers (gvingest run --shard)."
    static let options: [CommandOption] = [
        .configuration,
        .option("--count", "N", "How many shards (1 to 10000)."),
        .flag("--json", "Print {\"include\": [{\"shard\": \"I/N\", \"index\", \"catalogs\", \"keys\", \"pages\"}]}, a GitHub "
              + "Actions matrix as it is."),
    ]
    static let usages = [Usage(required: ["--count"])]
    static let discussion = """
    Assigns every catalog of the configuration to one of N shards, for N workers each running
    'gvingest run' on shard I/N. Catalogs that share a politeness key always land in one shard, so
    no two workers crawl one server at once: the key is the start URLs' host (with its port when
    not the scheme's), or the registered domain with fetch.politeness "registeredDomain" (the
    last two labels, three under a country's ac, co, edu, gov…), or a catalog's politenessGroup.
    Shards are balanced by the pages of each catalog's last snapshot (one never run counts as the
    median); the same catalogs, settings and snapshots always give the same assignment. A shard
    may be empty when there are fewer keys than shards.
    """
    static let exitStatus = """
    Exit status: 0 ok, 64 bad usage, 65 the configuration is invalid, 66 it can't be read.
    """

    static func run(_ words: [String]) async throws -> ExitStatus {
        let arguments = try parseArguments(words)
        guard arguments.positional.isEmpty else { throw UsageError(message: "unexpected argument '\(arguments.positional[0])'") }
        guard let count = try arguments.value("--count", "must be a whole number from 1 to 10000", { Int($0).flatMap { (1...10_000).contains($0) ? $0 : nil } }) else {
            throw UsageError(message: "--count N is needed")
        }
        let config = try loadConfiguration(arguments.value("--config") ?? "pipeline.json")
        let plan = ShardPlan(catalogs: config.catalogs, settings: config.fetch, pages: ShardPlan.lastPageCounts(config), count: count)
        if arguments.has("--json") {
            let include: [JSONValue] = plan.shards.map { shard in
                .object(["shard": .string("\(shard.index)/\(count)"), "index": .int(shard.index),
                         "catalogs": .array(shard.catalogs.map(JSONValue.string)),
                         "keys": .array(shard.groups.map { .string($0.key) }), "pages": .int(shard.pages)])
            }
            print(JSONValue.object(["include": .array(include)]).serialized(pretty: false))
        } else {
            for shard in plan.shards {
                let groups = shard.groups.map { "\($0.key) (\($0.catalogs.joined(separator: ", ")))" }
                print("shard \(shard.index)/\(count): \(shard.catalogs.count) catalog(s), \(shard.pages) page(s)"
                      + (groups.isEmpty ? "" : ": " + groups.joined(separator: "; ")))
            }
        }
        return .ok
    }
}
