import Foundation

/// One Firestore document: its id in its collection and its fields.
public struct FirestoreDocument: Sendable, Equatable {
    public var id: String
    public var fields: [String: FirestoreValue]
}

/// The documents the GVCourse app reads. The app's fields always have the app's types (`""` for nothing), because
/// `CourseStore.parseCourseDocument` drops a course whose field is missing or null; richer fields follow.
public enum FirestoreDocuments {
    /// Fields naming the catalog's edition, which, like the diff, a publish counts as no change; written with any
    /// real change, they name the edition the course's content was last read from.
    public static let editionFields: Set<String> = ["url", "catalog"]

    /// A course's document: a function of its record, which decoding catalog.json has already checked.
    public static func course(_ record: CourseRecord, path: String) throws(CatalogError) -> FirestoreDocument {
        try checkID(record.id, path: path)
        func text(_ value: String?) -> FirestoreValue { value.map(FirestoreValue.string) ?? .null }
        func codes(_ values: [String]) -> FirestoreValue { .array(values.map(FirestoreValue.string)) }
        // Whole credits stay integers, as catalog.json writes them.
        func number(_ value: Double) -> FirestoreValue { value.exactWholeNumber.map(FirestoreValue.integer) ?? .double(value) }
        let fields: [String: FirestoreValue] = [
            "subject": .string(record.subject), "name": .string(record.name), "title": .string(record.title),
            "description": .string(record.description), "level": .string(record.level ?? ""),
            "prerequisiteString": .string(record.prerequisiteString ?? ""), "rubricsUrl": .string(record.rubricsUrl ?? ""),
            "transitionPlanUrl": .string(record.transitionPlanUrl ?? ""), "number": .integer(record.number), "credits": .integer(record.credits),
            "createdAt": try timestamp(record.createdAt, path: "\(path).createdAt"),
            "updatedAt": try timestamp(record.updatedAt, path: "\(path).updatedAt"),
            // For other readers; left out: what changes while the course does not (file, sources, stamps' fingerprint).
            "id": .string(record.id), "numberText": .string(record.numberText), "creditsText": text(record.creditsText),
            "creditRange": record.creditRange.map { .map(["min": number($0.min), "max": number($0.max)]) } ?? .null,
            "url": .string(record.url), "prerequisiteCourses": codes(record.prerequisiteCourses),
            "corequisiteString": text(record.corequisiteString), "corequisiteCourses": codes(record.corequisiteCourses),
            "offered": text(record.offered), "catalog": text(record.catalog), "system": .string(record.system.rawValue),
            "suffix": text(record.suffix), "firstEdition": text(record.firstEdition),
            "history": .array((record.history ?? []).map { event in
                .map(["edition": .string(event.edition), "date": .string(event.date), "kind": .string(event.kind.rawValue),
                      "from": text(event.from), "fields": codes(event.fields ?? [])])
            }),
        ]
        return FirestoreDocument(id: record.id, fields: fields)
    }

    /// A news document: id = the news id; `thumbnail` and `link` are strings or null.
    public static func news(_ item: NewsItem, path: String) throws(CatalogError) -> FirestoreDocument {
        try checkID(item.id, path: path)
        let createdAt = try timestamp(item.createdAt, path: "\(path).createdAt")
        return FirestoreDocument(id: item.id, fields: [
            "title": .string(item.title), "description": .string(item.description), "content": .string(item.content),
            "featured": .bool(item.featured), "thumbnail": item.thumbnail.map(FirestoreValue.string) ?? .null, "createdAt": createdAt,
            "courseId": .string(item.courseId), "kind": .string(item.kind.rawValue), "link": item.link.map(FirestoreValue.string) ?? .null,
        ])
    }

    private static func checkID(_ id: String, path: String) throws(CatalogError) {
        guard isDocumentID(id) else {
            throw invalid("\(path).id: expected a document id (no \"/\", not empty), got \"\(id)\"")
        }
    }

    private static func timestamp(_ text: String?, path: String) throws(CatalogError) -> FirestoreValue {
        guard let stamp = text.flatMap(FirestoreValue.timestamp(rfc3339:)) else {
            throw invalid("\(path): expected an RFC 3339 UTC timestamp, got \(text.map { "\"\($0)\"" } ?? "nothing")")
        }
        return stamp
    }

    /// Firestore's rules for a document id: not empty, no "/", not "." or "..", not `__…__`, at most 1,500 bytes.
    static func isDocumentID(_ id: String) -> Bool {
        !id.isEmpty && !id.contains("/") && id != "." && id != ".." && !(id.hasPrefix("__") && id.hasSuffix("__")) && id.utf8.count <= 1500
    }

    /// The run's stage that publishes into Firestore.
    static let publishStage = "publish.firestore"

    /// A complete successful run's outputs as documents, read from `catalog.json` and `news.json`; `checkReport`:
    /// refuse unless `run-report.json` shows their run wrote them (no guard refused).
    public static func outputs(in directory: URL, checkReport: Bool) throws(CatalogError)
        -> (courses: [FirestoreDocument], news: [FirestoreDocument]) {
        let reportFile = directory.appendingPathComponent("run-report.json")
        let catalogFile = directory.appendingPathComponent("catalog.json")
        let newsFile = directory.appendingPathComponent("news.json")
        var reportedCatalog: String?
        if checkReport {
            let report = try read(reportFile) { bytes throws(FormatError) in try JSONFile.decode(RunReport.self, from: bytes) }
            guard report.committed else {
                throw invalid("\(reportFile.path): the last run did not write its outputs (outcome: \(report.outcome)); nothing published")
            }
            reportedCatalog = report.catalog
        }
        struct Catalog: Decodable {
            struct Identity: Decodable { var id: String }
            var catalog: Identity
        }
        let (catalog, records) = try read(catalogFile) { bytes throws(FormatError) in try CourseDocument.read(bytes, header: Catalog.self) { $0 } }
        if let reportedCatalog, reportedCatalog != catalog.catalog.id {
            throw invalid("\(catalogFile.path) is catalog \"\(catalog.catalog.id)\" but the last run (\(reportFile.lastPathComponent)) "
                + "was \"\(reportedCatalog)\"; nothing published")
        }
        let courses = try records.enumerated().map { index, record throws(CatalogError) in
            try Self.course(record, path: "\(catalogFile.path): courses[\(index)]")
        }
        let news = try read(newsFile) { bytes throws(FormatError) in try NewsFile.decode(bytes) }.enumerated().map { index, item throws(CatalogError) in
            try Self.news(item, path: "\(newsFile.path): news[\(index)]")
        }
        for (file, list, ids) in [(catalogFile, "courses", courses.map(\.id)), (newsFile, "news", news.map(\.id))] {
            var seen: [String: Int] = [:]
            for (index, id) in ids.enumerated() {
                guard let was = seen.updateValue(index, forKey: id) else { continue }
                throw invalid("\(file.path): \(list)[\(index)].id: \"\(id)\" again, as \(list)[\(was)]")
            }
        }
        return (courses, news)
    }

    /// Outputs that are not what a run writes: a data error (65).
    private static func invalid(_ message: String) -> CatalogError { CatalogError(message, .invalidData) }

    /// An output as `decode` reads it: one that cannot be read is missing (66), one it refuses is invalid (65).
    private static func read<T>(_ file: URL, _ decode: ([UInt8]) throws(FormatError) -> T) throws(CatalogError) -> T {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(file, limit: FileBytes.Limit.document)  // the system's reason ("Is a directory"); Foundation's error may give a number
        } catch {
            throw CatalogError("\(file.path): cannot read (\(error)); publish reads the outputs of a complete `gvingest run`",
                                 .missingInput)
        }
        do {
            return try decode(bytes)
        } catch {
            throw invalid("\(file.path): \(error)")
        }
    }
}
