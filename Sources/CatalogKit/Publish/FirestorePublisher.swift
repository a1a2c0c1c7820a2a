import Foundation

/// What one collection needs so that Firestore holds exactly the outputs: a pure function of both sides.
public struct FirestoreCollectionPlan: Sendable, Equatable {
    public var writes: [FirestoreDocument]
    /// Ids to delete, sorted.
    public var deletes: [String]
    public var unchanged: Int

    /// Compares the documents wanted with `existing` (nil fields: unreadable, rewritten); `ignoring` fields are no
    /// difference, but a document missing one is rewritten.
    public static func make(desired: [FirestoreDocument], existing: [String: [String: FirestoreValue]?], deleteMissing: Bool,
                            ignoring: Set<String> = []) -> FirestoreCollectionPlan {
        func same(_ held: [String: FirestoreValue], _ wanted: [String: FirestoreValue]) -> Bool {
            guard !ignoring.isEmpty else { return held == wanted }
            return held.count == wanted.count && wanted.allSatisfy { key, value in ignoring.contains(key) ? held[key] != nil : held[key] == value }
        }
        var writes: [FirestoreDocument] = []
        var unchanged = 0
        var wanted = Set<String>()
        for document in desired where wanted.insert(document.id).inserted {
            if case let held?? = existing[document.id], same(held, document.fields) {
                unchanged += 1
            } else {
                writes.append(document)
            }
        }
        let deletes = deleteMissing ? existing.keys.filter { !wanted.contains($0) }.sorted() : []
        return FirestoreCollectionPlan(writes: writes, deletes: deletes, unchanged: unchanged)
    }

    public var json: JSONValue {
        .object(["written": .int(writes.count), "deleted": .int(deletes.count), "unchanged": .int(unchanged)])
    }
}

/// How a publish behaves (where it goes and how long it may take are its `FirestoreSettings`).
public struct FirestorePublishOptions: Sendable, Equatable {
    /// More deletions than this fraction of the course documents held means trouble upstream, unless `acceptRemovals`.
    public var maximumRemovalFraction = GuardSettings().maximumRemovalFraction
    public var acceptRemovals = false
    /// Commits in flight at once. Each touches documents no other commit touches, so their order does not matter.
    public var parallelCommits = 8
    public var dryRun = false
    /// Sent with every request: `fetch.userAgent` with gvingest's version.
    public var userAgent = FetchSettings().requestUserAgent

    public init() {}
}

/// What a publish did (or, in a dry run, would do).
public struct FirestorePublishSummary: Sendable, Equatable {
    public var courses: FirestoreCollectionPlan
    public var news: FirestoreCollectionPlan
    public var retries: Int

    /// `{"courses": {"written": N, "deleted": N, "unchanged": N}, "news": {…}}`.
    public var json: JSONValue { .object(["courses": courses.json, "news": news.json]) }

    /// The counts a run report keeps.
    public var counts: [String: Int] {
        ["coursesWritten": courses.writes.count, "coursesDeleted": courses.deletes.count, "coursesUnchanged": courses.unchanged,
         "newsWritten": news.writes.count, "newsUnchanged": news.unchanged, "retries": retries]
    }

    public var line: String {
        func counts(_ plan: FirestoreCollectionPlan) -> String { "\(plan.writes.count) written, \(plan.deletes.count) deleted, \(plan.unchanged) unchanged" }
        return "courses: \(counts(courses)); news: \(counts(news))"
    }
}

/// Syncs a run's outputs into Firestore: writes only what differs, deletes courses gone from the catalog (never news).
public enum FirestorePublisher {
    /// Firestore allows 500 writes and 10 MiB a commit; a little under the size keeps the estimate safe.
    static let writesPerCommit = 500
    static let bytesPerCommit = 8 << 20

    /// Reads the outputs in `directory` (see `FirestoreDocuments.outputs`), resolves the credentials and publishes.
    public static func publish(directory: URL, checkReport: Bool, settings: FirestoreSettings,
                               options: FirestorePublishOptions) async throws(CatalogError) -> FirestorePublishSummary {
        do {
            let inputs = try FirestoreDocuments.outputs(in: directory, checkReport: checkReport)
            let target = try FirestoreCredentials.target(project: settings.project, database: settings.database,
                                                         environment: ProcessInfo.processInfo.environment,
                                                         tokenCommand: settings.tokenCommand)
            let client = FirestoreClient(target: target, deadlineSeconds: settings.deadlineSeconds, userAgent: options.userAgent)
            async let heldCourses = client.list(collection: settings.coursesCollection)
            let heldNews = try await client.list(collection: settings.newsCollection)
            let held = try await heldCourses
            let courses = FirestoreCollectionPlan.make(desired: inputs.courses, existing: held, deleteMissing: true,
                                                      ignoring: FirestoreDocuments.editionFields)
            let news = FirestoreCollectionPlan.make(desired: inputs.news, existing: heldNews, deleteMissing: false)
            if !options.acceptRemovals, !courses.deletes.isEmpty,
               Double(courses.deletes.count) > options.maximumRemovalFraction * Double(held.count) {
                throw CatalogError("\(courses.deletes.count) of the \(held.count) course documents in Firestore would be deleted, "
                    + "more than guards.maximumRemovalFraction (\(options.maximumRemovalFraction)) allows; nothing written; "
                    + "if the removals are real, accept them", .invalidData, remedy: .acceptRemovals)
            }
            if !options.dryRun {
                // Writes before deletions: a publish cut short leaves the app extra courses rather than missing ones.
                let updates = updates(courses.writes, settings.coursesCollection, target)
                    + updates(news.writes, settings.newsCollection, target)
                try await commitAll(updates, client, parallel: options.parallelCommits)
                let deletes = courses.deletes.map { id in
                    let name = target.documentName(collection: settings.coursesCollection, id: id)
                    return (JSONValue.object(["delete": .string(name)]), 64)
                }
                try await commitAll(deletes, client, parallel: options.parallelCommits)
            }
            return FirestorePublishSummary(courses: courses, news: news, retries: client.retries)
        } catch let failure as CatalogError {
            throw failure
        } catch {
            throw CatalogError("\(error)", .temporary)
        }
    }

    /// Each write's JSON with its estimated size.
    private static func updates(_ documents: [FirestoreDocument], _ collection: String,
                                _ target: FirestoreTarget) -> [(JSONValue, Int)] {
        documents.map { document in
            let name = target.documentName(collection: collection, id: document.id)
            let write = JSONValue.object(["update": .object(["name": .string(name), "fields": .object(document.fields.mapValues(\.rest))])])
            return (write, name.utf8.count + 64 + document.fields.reduce(0) { $0 + $1.key.utf8.count + $1.value.restSize })
        }
    }

    /// Sends the writes in commits within Firestore's limits, `parallel` at once; the first failure stops the rest.
    private static func commitAll(_ writes: [(JSONValue, Int)], _ client: FirestoreClient, parallel: Int) async throws {
        var batches: [[JSONValue]] = []
        var bytes = 0
        for (write, size) in writes {
            if let last = batches.last, last.count < writesPerCommit, bytes + size <= bytesPerCommit {
                batches[batches.count - 1].append(write)
                bytes += size
            } else {
                batches.append([write])
                bytes = size
            }
        }
        // Throwing out of the group cancels the commits still in flight.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, batch) in batches.enumerated() {
                if index >= max(1, parallel) { _ = try await group.next() }
                group.addTask { try await client.commit(batch) }
            }
            try await group.waitForAll()
        }
    }
}
