import Foundation

/// One Firestore document: its id in its collection and its fields.
public struct FirestoreDocument: Sendable, Equatable {
    public var id: String
    public var fields: [String: FirestoreValue]
}

/// The documents the GVCourse app reads. The app's fields always have the app's types (`""` for nothing), because
/// `CourseStore.parseCourseDocument` drops a course whose field is missing or null; richer fields follow.
public enum FirestoreDocuments {
    /// The app's course fields that are strings: null in the catalog becomes "".
    public static let appStringFields: [RecordKey] = [.subject, .name, .title, .description, .rubricsUrl, .level, .transitionPlanUrl,
                                                      .prerequisiteString]
    /// The app's course fields that are integers: catalog.json's own integers (see README, "Course documents").
    public static let appIntegerFields: [RecordKey] = [.number, .credits]
    /// Copied as they are, for other readers; left out: what changes while the course does not (file, edition links).
    public static let richerCourseFields: [RecordKey] = [.id, .numberText, .creditsText, .creditRange, .url, .prerequisiteCourses,
                                                         .corequisiteString, .corequisiteCourses, .offered, .catalog, .system, .suffix]
    /// Fields naming the catalog's edition, which, like the diff, a publish counts as no change; written with any
    /// real change, they name the edition the course's content was last read from.
    public static let editionFields = Set([RecordKey.url, .catalog].map(\.rawValue))

    /// A course document from one of catalog.json's `courses[index]`.
    public static func course(_ record: JSONValue, path: String) throws(CommandFailure) -> FirestoreDocument {
        func invalid(_ key: RecordKey, _ expected: String) -> CommandFailure {
            Self.invalid("\(path).\(key.rawValue): expected \(expected), got \(record[key]?.shortDescription ?? "nothing")")
        }
        guard case let .string(id)? = record[.id], Self.isDocumentID(id) else { throw invalid(.id, "a document id (no \"/\", not empty)") }
        var fields: [String: FirestoreValue] = [:]
        for key in appStringFields {
            switch record[key] {
            case let .string(text)?: fields[key] = .string(text)
            case .null?, nil: fields[key] = .string("")
            default: throw invalid(key, "a string or null")
            }
        }
        for key in appIntegerFields {
            guard case let .int(number)? = record[key] else { throw invalid(key, "an integer") }
            fields[key] = .integer(number)
        }
        for key: RecordKey in [.createdAt, .updatedAt] {
            guard case let .string(text)? = record[key], let stamp = FirestoreValue.timestamp(rfc3339: text) else {
                throw invalid(key, "an RFC 3339 UTC timestamp")
            }
            fields[key] = stamp
        }
        for key in richerCourseFields { if let value = record[key] { fields[key] = FirestoreValue(plain: value) } }
        return FirestoreDocument(id: id, fields: fields)
    }

    /// A news document: id = the news id; `thumbnail` and `link` are strings or null.
    public static func news(_ item: NewsItem, path: String) throws(CommandFailure) -> FirestoreDocument {
        guard isDocumentID(item.id) else {
            throw invalid("\(path).id: expected a document id (no \"/\", not empty), got \"\(item.id)\"")
        }
        guard let createdAt = FirestoreValue.timestamp(rfc3339: item.createdAt) else {
            throw invalid("\(path).createdAt: expected an RFC 3339 UTC timestamp, got \"\(item.createdAt)\"")
        }
        return FirestoreDocument(id: item.id, fields: [
            "title": .string(item.title), "description": .string(item.description), "content": .string(item.content),
            "featured": .bool(item.featured), "thumbnail": item.thumbnail.map(FirestoreValue.string) ?? .null, "createdAt": createdAt,
            "courseId": .string(item.courseID), "kind": .string(item.kind.rawValue), "link": item.link.map(FirestoreValue.string) ?? .null,
        ])
    }

    /// Firestore's rules for a document id: not empty, no "/", not "." or "..", not `__…__`, at most 1,500 bytes.
    static func isDocumentID(_ id: String) -> Bool {
        !id.isEmpty && !id.contains("/") && id != "." && id != ".." && !(id.hasPrefix("__") && id.hasSuffix("__")) && id.utf8.count <= 1500
    }

    /// The name of the stage that writes the outputs; a run report without it belongs to a run that wrote nothing.
    public static let committedStage = "diff+announce+publish"

    /// A complete successful run's outputs as documents, read from `catalog.json` and `news.json`; `checkReport`:
    /// refuse unless `run-report.json` shows their run wrote them (no guard refused).
    public static func outputs(in directory: URL, checkReport: Bool) throws(CommandFailure)
        -> (courses: [FirestoreDocument], news: [FirestoreDocument]) {
        let reportFile = directory.appendingPathComponent("run-report.json")
        let catalogFile = directory.appendingPathComponent("catalog.json")
        let newsFile = directory.appendingPathComponent("news.json")
        var reportedCatalog: String?
        if checkReport {
            let report = try read(reportFile) { try JSONValue.parse($0) }
            guard case let .array(stages)? = report["stages"], case let .string(catalog)? = report["catalog"] else {
                throw invalid("\(reportFile.path): expected a run report with \"catalog\" and \"stages\"")
            }
            guard stages.contains(where: { $0["name"] == .string(committedStage) }) else {
                let outcome = report["outcome"]?.stringValue ?? "unknown"
                throw invalid("\(reportFile.path): the last run did not write its outputs (outcome: \(outcome)); nothing published")
            }
            reportedCatalog = catalog
        }
        let catalog = try read(catalogFile) { try JSONValue.parse($0) }
        guard case let .string(catalogID)? = catalog["catalog"]?["id"] else {
            throw invalid("\(catalogFile.path): catalog.id: expected a string")
        }
        if let reportedCatalog, reportedCatalog != catalogID {
            throw invalid("\(catalogFile.path) is catalog \"\(catalogID)\" but the last run (\(reportFile.lastPathComponent)) "
                + "was \"\(reportedCatalog)\"; nothing published")
        }
        guard case let .array(records)? = catalog["courses"] else {
            throw invalid("\(catalogFile.path): courses: expected an array")
        }
        let courses = try records.enumerated().map { index, record throws(CommandFailure) in
            try Self.course(record, path: "\(catalogFile.path): courses[\(index)]")
        }
        let news = try read(newsFile, NewsFile.decode).enumerated().map { index, item throws(CommandFailure) in
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
    private static func invalid(_ message: String) -> CommandFailure { CommandFailure(message, status: .dataError) }

    /// An output as `decode` reads it: one that cannot be read is missing (66), one it refuses is invalid (65).
    private static func read<T>(_ file: URL, _ decode: ([UInt8]) throws -> T) throws(CommandFailure) -> T {
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.read(file)  // the system's reason ("Is a directory"); Foundation's error may give a number
        } catch {
            throw CommandFailure("\(file.path): cannot read (\(error)); publish reads the outputs of a complete `gvingest run`",
                                 status: .noInput)
        }
        do {
            return try decode(bytes)
        } catch let error as JSONSyntaxError {
            throw invalid("\(file.path): not valid JSON: \(error)")
        } catch {
            throw invalid("\(file.path): \(error)")
        }
    }
}
