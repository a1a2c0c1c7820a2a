import Foundation

/// `announce` in pipeline.json: the channels a run's news goes to after its commit. Secrets stay out of the file: a
/// channel names the environment variables that hold them.
public struct AnnounceSettings: Sendable, Equatable {
    public var channels: [AnnounceChannel] = []
    /// How long delivering may take in all, retries and rate-limit waits included.
    public var deadlineSeconds = 120
}

/// One place news is announced.
public struct AnnounceChannel: Sendable, Equatable {
    public enum Kind: String, CaseIterable, Sendable { case discord, slack, webhook, email }

    public var name: String
    public var kind: Kind
    /// The variable holding the webhook's URL (every kind but email).
    public var urlEnv: String?
    /// The variable holding a bearer token (webhook).
    public var tokenEnv: String?
    public var email: EmailSettings?
}

/// An SMTP server and a digest's addresses.
public struct EmailSettings: Sendable, Equatable {
    /// `smtps://` (TLS from the start) or `smtp://` (with `starttls`, or to a loopback address only).
    public var smtpURL: URL
    public var starttls = true
    /// The certificates trusted for a private server, instead of the system's.
    public var caFile: String?
    public var userEnv: String?
    public var passwordEnv: String?
    public var from: String
    public var to: [String]
}

extension AnnounceSettings: ConfigDecodable {
    static let deadlineSecondsRange = 1...86_400

    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["channels", "deadlineSeconds"])
        deadlineSeconds = object["deadlineSeconds"]?.integer(in: Self.deadlineSecondsRange) ?? deadlineSeconds
        // A set of the names so far: looking each name up in the list made a check of 200,000 channels take minutes.
        var names: Set<String> = []
        _ = object.required("channels").elements(ifEmpty: "expected at least one channel") { entry in
            entry.decode(AnnounceChannel.self).map { channel in
                if !names.insert(channel.name).inserted { entry.fail("duplicate channel name \"\(channel.name)\"", at: "name") }
                channels.append(channel)
            }
        }
    }
}

extension AnnounceChannel: ConfigDecodable {
    init(config: ConfigValue) throws {
        let kinds = Kind.allCases.map(\.rawValue)
        let object = try config.object(allowing: ["name"] + kinds)
        let name = object.required("name").string {
            (1...64).contains($0.utf8.count) && $0.utf8.allSatisfy { $0 == UInt8(ascii: "-") || Self.isWordByte($0) }
                ? nil : "expected 1 to 64 letters, digits, - and _, got \"\($0)\""
        }
        let present = kinds.filter { object[$0] != nil }
        guard present.count == 1, let kind = present.first.flatMap(Kind.init(rawValue:)), let name, let body = object[kind.rawValue] else {
            if present.count != 1 { object.fail("expected exactly one of \(kinds.joined(separator: ", ")), got \(present.isEmpty ? "none" : present.joined(separator: " and "))") }
            throw ConfigContext.Incomplete()
        }
        self.init(name: name, kind: kind)
        switch kind {
        case .discord, .slack:
            guard let settings = body.object(allowed: ["webhookUrlEnv"]) else { throw ConfigContext.Incomplete() }
            urlEnv = settings.required("webhookUrlEnv").environmentName()
        case .webhook:
            guard let settings = body.object(allowed: ["urlEnv", "tokenEnv"]) else { throw ConfigContext.Incomplete() }
            urlEnv = settings.required("urlEnv").environmentName()
            tokenEnv = settings["tokenEnv"]?.nullable { $0.environmentName() }
        case .email:
            email = body.decode(EmailSettings.self)
        }
        guard urlEnv != nil || email != nil else { throw ConfigContext.Incomplete() }
    }
}

extension EmailSettings: ConfigDecodable {
    init(config: ConfigValue) throws {
        let object = try config.object(allowing: ["smtpUrl", "starttls", "caFile", "userEnv", "passwordEnv", "from", "to"])
        let starttls = object["starttls"]?.bool() ?? true
        let url = object.required("smtpUrl").string { text in
            guard let url = URL(string: text), let host = url.host, !host.isEmpty, url.path.isEmpty || url.path == "/",
                  ["smtp", "smtps"].contains(url.scheme ?? ""), url.query == nil else {
                return "expected smtps://HOST[:PORT] or smtp://HOST[:PORT], got \"\(AnnounceChannel.shownURL(text))\""
            }
            if url.user != nil || url.password != nil {
                return "expected no user name or password in the URL (the file is no place for a secret: name the variables "
                    + "holding them with userEnv and passwordEnv), got \"\(AnnounceChannel.shownURL(text))\""
            }
            return url.scheme == "smtp" && !starttls && !AnnounceChannel.isLoopback(host)
                ? "expected smtps:// or starttls: true (mail is sent without TLS only to a loopback address), got \"\(text)\"" : nil
        }.flatMap(URL.init(string:))
        let address = { (value: ConfigValue) in
            value.string { $0.range(of: #"^[^\s<>@,;:"()\[\]\\]+@[A-Za-z0-9.-]+$"#, options: .regularExpression) == nil
                ? "expected an address such as catalog@example.edu, got \"\($0)\"" : nil }
        }
        let from = address(object.required("from"))
        let to = object.required("to").elements(ifEmpty: "expected at least one address", address)
        let caFile = object["caFile"]?.nullable { $0.string() }
        let userEnv = object["userEnv"]?.nullable { $0.environmentName() }
        let passwordEnv = object["passwordEnv"]?.nullable { $0.environmentName() }
        if (object["userEnv"] == nil) != (object["passwordEnv"] == nil) {
            object.fail("expected userEnv and passwordEnv together, or neither", at: object["userEnv"] == nil ? "userEnv" : "passwordEnv")
        }
        guard let url, let from, let to, !to.isEmpty else { throw ConfigContext.Incomplete() }
        self.init(smtpURL: url, starttls: starttls, caFile: caFile, userEnv: userEnv, passwordEnv: passwordEnv, from: from, to: to)
    }
}

extension ConfigValue {
    /// The name of an environment variable (never its value: a secret does not belong in the file, and one pasted
    /// here is not shown either: a URL by its scheme and host, anything else by its length).
    func environmentName() -> String? {
        string { text in
            let startsWithDigit = text.utf8.first.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? true
            guard startsWithDigit || !text.utf8.allSatisfy(AnnounceChannel.isWordByte) else { return nil }
            let shown = text.contains("://") ? "a URL, \(AnnounceChannel.shownURL(text))" : text.utf8.count <= 64 && !text.contains("/")
                ? "\"\(text)\"" : "\(text.utf8.count) characters"
            return "expected the name of an environment variable (letters, digits and _) that holds the value, got \(shown)"
        }
    }
}

extension AnnounceChannel {
    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// A URL that may hold a secret as a message shows it: its scheme, host and port, the rest (user, password, path,
    /// query) as "…".
    static func shownURL(_ text: String) -> String {
        guard let parts = URLComponents(string: text), let scheme = parts.scheme, let host = parts.host, !host.isEmpty else {
            return "(\(text.utf8.count) characters, not shown)"
        }
        let credentials = parts.user != nil || parts.password != nil ? "…@" : ""
        let rest = ["", "/"].contains(parts.path) && parts.query == nil && parts.fragment == nil ? "" : "/…"
        return "\(scheme)://\(credentials)\(host)\(parts.port.map { ":\($0)" } ?? "")\(rest)"
    }

    /// An ASCII letter, digit or `_`: names and variables are checked byte by byte, since a regular expression
    /// compiled for each of 200,000 channels was a third of `config check`'s time.
    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"): true
        default: false
        }
    }

    /// Plain HTTP or SMTP without TLS only here: a test's server on this machine.
    static func isLoopback(_ host: String) -> Bool { ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host.lowercased()) }

    /// The webhook's URL from its variable: https, or http to a loopback address. Errors name the variable and the
    /// host, never the URL, whose path is the secret.
    func webhookURL(_ environment: [String: String]) throws(CatalogError) -> URL {
        let variable = urlEnv ?? ""
        guard let text = environment[variable]?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else {
            throw CatalogError("channel \(name): \(variable) is not set (it holds the webhook's URL)", .noCredentials)
        }
        guard let url = URL(string: text), let host = url.host, !host.isEmpty,
              url.scheme == "https" || (url.scheme == "http" && Self.isLoopback(host)) else {
            throw CatalogError("channel \(name): \(variable) is no https:// URL (http:// only to a loopback address)", .invalidData)
        }
        return url
    }

    /// A value from its variable; nil when the channel names none.
    func secret(_ variable: String?, _ environment: [String: String], holding what: String) throws(CatalogError) -> String? {
        guard let variable else { return nil }
        guard let value = environment[variable], !value.isEmpty else {
            throw CatalogError("channel \(name): \(variable) is not set (it holds the \(what))", .noCredentials)
        }
        return value
    }
}
