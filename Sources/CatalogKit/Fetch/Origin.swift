import Foundation

/// Scheme, host and port: another port or scheme is another server, with its own robots.txt.
public struct Origin: Hashable, Sendable, CustomStringConvertible {
    public var scheme: String
    public var host: String
    public var port: Int

    public static let defaultPorts = ["http": 80, "https": 443]
    /// What `init?(_:)` asks of a URL beyond its scheme, for messages.
    public static let rule = "with a host, and a port from 1 to 65535"

    /// The origins an `allowedHosts` entry names: a URL's, or (`host[:port]`) both schemes', nil when it names none.
    public static func allowed(by entry: String) -> [Origin]? {
        let text = entry.lowercased()
        if text.contains("://") {
            guard let url = URL(string: text), let origin = Origin(url), url.path.isEmpty || url.path == "/" else { return nil }
            return [origin]
        }
        guard let url = URL(string: "http://\(text)"), let http = Origin(url), url.path.isEmpty else { return nil }
        return [http, Origin(scheme: "https", host: http.host, port: url.port ?? 443)]
    }

    public var description: String {
        Self.defaultPorts[scheme] == port ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }
}

extension Origin {
    /// The origin of an http or https URL; nil for any other scheme, or a URL not `rule`.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let port = Self.defaultPorts[scheme], let host = url.host?.lowercased(),
              !host.isEmpty, (1...65_535).contains(url.port ?? port) else { return nil }
        self.init(scheme: scheme, host: host, port: url.port ?? port)
    }
}
