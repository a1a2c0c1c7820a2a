import Foundation

/// `publish.firestore` in pipeline.json: after a successful run, `gvingest run` publishes into this Firestore.
public struct FirestoreSettings: Sendable, Equatable {
    public var project: String
    public var database = "(default)"
    public var coursesCollection = "courses"
    public var newsCollection = "news"
    /// A command (argv, no shell) printing an OAuth access token, when the environment gives none.
    public var tokenCommand: [String]?
    public var deadlineSeconds = 300

    public init(project: String) {
        self.project = project
    }

    /// The settings that name something, each by its key in `publish.firestore`, with Firestore's naming rule.
    public enum Name: String, CaseIterable, Sendable {
        case project, database, coursesCollection, newsCollection

        public var setting: WritableKeyPath<FirestoreSettings, String> {
            switch self {
            case .project: \.project
            case .database: \.database
            case .coursesCollection: \.coursesCollection
            case .newsCollection: \.newsCollection
            }
        }

        /// What is wrong with `text` as this name, nil when Firestore accepts it.
        public func problem(_ text: String) -> String? {
            switch self {
            case .project:
                text.range(of: "^[a-z][a-z0-9-]{4,28}[a-z0-9]$", options: .regularExpression) == nil
                    ? "expected a project id (6 to 30 lower-case letters, digits and -), got \"\(text)\"" : nil
            case .database:
                text == "(default)" || text.range(of: "^[a-z][a-z0-9-]{2,62}$", options: .regularExpression) != nil
                    ? nil : "expected \"(default)\" or a database id (lower-case letters, digits and -), got \"\(text)\""
            case .coursesCollection, .newsCollection:
                FirestoreDocuments.isDocumentID(text)
                    ? nil : "expected a collection id (no \"/\", not empty, not __…__), got \"\(text)\""
            }
        }
    }
}

extension FirestoreSettings: ConfigDecodable {
    /// Up to a day, as the crawl's own deadline: a publish retrying longer than that is a typing error.
    static let deadlineSecondsRange = 1...86_400

    /// `publish.firestore`; an empty project is none given or none valid, so every problem is said and no settings made.
    init(config: ConfigValue) throws {
        let object = try config.object(allowing: Name.allCases.map(\.rawValue) + ["tokenCommand", "deadlineSeconds"])
        self.init(project: "")
        for name in Name.allCases {
            let value = name == .project ? object.required(name.rawValue) : object[name.rawValue]
            if let text = value?.string(name.problem) { self[keyPath: name.setting] = text }
        }
        tokenCommand = object["tokenCommand"]?.elements(ifEmpty: "expected a command and its arguments, "
            + #"e.g. ["gcloud", "auth", "print-access-token"], got []"#) { $0.string() }
        deadlineSeconds = object["deadlineSeconds"]?.integer(in: Self.deadlineSecondsRange) ?? deadlineSeconds
        if coursesCollection == newsCollection {
            object.fail("expected a collection other than coursesCollection (\"\(coursesCollection)\")", at: "newsCollection")
        }
        guard !project.isEmpty else { throw ConfigContext.Incomplete() }
    }
}

/// The token: `FIRESTORE_EMULATOR_HOST` (none), `GOOGLE_OAUTH_ACCESS_TOKEN`, then the token command; never a file.
public enum FirestoreCredentials {
    public static let productionAPI = URL(string: "https://firestore.googleapis.com/v1")!

    public static func target(project: String, database: String, environment: [String: String], tokenCommand: [String]?)
        throws(CatalogError) -> FirestoreTarget {
        if let host = environment["FIRESTORE_EMULATOR_HOST"], !host.isEmpty {
            guard !host.contains("/"), let base = URL(string: "http://\(host)/v1"), Origin(base) != nil else {
                throw CatalogError("FIRESTORE_EMULATOR_HOST: expected HOST:PORT, got \"\(host)\"", .unavailable)
            }
            // The emulator accepts this token as the owner's, past any security rules.
            return FirestoreTarget(project: project, database: database, apiBase: base, token: "owner")
        }
        if let token = environment["GOOGLE_OAUTH_ACCESS_TOKEN"]?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty {
            return FirestoreTarget(project: project, database: database, apiBase: productionAPI, token: token)
        }
        guard let tokenCommand, !tokenCommand.isEmpty else {
            throw CatalogError("no credentials: set FIRESTORE_EMULATOR_HOST (an emulator), GOOGLE_OAUTH_ACCESS_TOKEN, "
                + "or a token command (publish.firestore.tokenCommand)", .noCredentials, remedy: .tokenCommand)
        }
        return FirestoreTarget(project: project, database: database, apiBase: productionAPI, token: try run(tokenCommand))
    }

    /// Runs the token command (found on PATH), its stdout trimmed the token; it gets 60 seconds.
    private static func run(_ command: [String]) throws(CatalogError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let output = Pipe()
        process.standardOutput = output
        let described = command.joined(separator: " ")
        do {
            try process.run()
        } catch {
            throw CatalogError("token command \(described): cannot start: \(error.systemReason)", .noCredentials)
        }
        let timer = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: timer)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timer.cancel()
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0, process.terminationReason == .exit, !token.isEmpty, !token.contains(where: \.isWhitespace) else {
            throw CatalogError("token command \(described) failed (status \(process.terminationStatus)) or printed no token",
                                 .noCredentials)
        }
        return token
    }
}
