import Foundation

/// What each channel has yet to receive, kept beside a catalog's snapshots (`outbox.json`) and written atomically
/// after each delivery a service confirmed: a run killed in between repeats at most that one message.
public struct Outbox: Codable, Sendable, Equatable {
    public static let schemaVersion = 1
    public var schemaVersion = Outbox.schemaVersion
    /// The ids of every news item queued so far (or there before the outbox): what is not among them is news to queue.
    public var queued: Set<String>
    /// Per channel, the announcements it has yet to receive.
    public var pending: [String: [Announcement]] = [:]

    public init(queued: Set<String>) {
        self.queued = queued
    }

    private enum CodingKeys: String, CodingKey { case schemaVersion, queued, pending }

    /// The ids sorted: a set's order changes from process to process, and the same outbox should be the same bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(queued.sorted(), forKey: .queued)
        try container.encode(pending, forKey: .pending)
    }

    public static func file(of store: SnapshotStore) -> URL { store.directory.appendingPathComponent("outbox.json") }

    /// The store's outbox; when it has none, a new one that counts every item of `news` as queued, so news from before
    /// the channels were set up is not announced (and a first run, the baseline, has none).
    public static func load(_ store: SnapshotStore, news: [NewsItem]) throws(CatalogError) -> (outbox: Outbox, isNew: Bool) {
        let file = file(of: store)
        guard FileManager.default.fileExists(atPath: file.path) else { return (Outbox(queued: Set(news.map(\.id))), true) }
        do {
            let outbox = try JSONFile.decode(Outbox.self, from: try FileBytes.read(file, limit: FileBytes.Limit.document))
            guard outbox.schemaVersion == schemaVersion else { throw FormatError(message: "schemaVersion \(outbox.schemaVersion)") }
            return (outbox, false)
        } catch {
            throw CatalogError("\(file.path): not an outbox (\((error as? FormatError)?.message ?? "\(error)")); it was left as it is: "
                + "repair it or move it away (nothing pending is announced then)", .invalidData)
        }
    }

    public func save(_ store: SnapshotStore) throws(CatalogError) {
        do {
            try AtomicFile.write(JSONFile.fileBytes(self), to: Self.file(of: store))
        } catch {
            throw CatalogError("\(error); what it would record is delivered again next time", .cannotWrite)
        }
    }

    /// Queues, for every channel, the catalog's news not queued before (the course facts from `snapshot`, where the
    /// course still is).
    public mutating func queue(_ news: [NewsItem], catalogID: String, snapshot: Snapshot?, channels: [String]) {
        let fresh = news.filter { $0.id.hasPrefix("\(catalogID):") && !queued.contains($0.id) }.reversed()
        let courses = Dictionary((snapshot?.courses ?? []).map { ($0.id, $0) }) { first, _ in first }
        for channel in channels {
            pending[channel, default: []] += fresh.map { Announcement($0, course: courses[$0.courseId]) }
        }
        pending = pending.filter { channels.contains($0.key) && !$0.value.isEmpty }
        queued.formUnion(fresh.map(\.id))
    }
}
