/// gvingest's version: what `gvingest --version` prints and every request's User-Agent carries, defined once here so
/// the library and the command cannot disagree.
public enum GVIngestVersion {
    public static let current = "0.1.0"

    /// The product token servers see: "gvingest/0.1.0".
    public static var product: String { "gvingest/\(current)" }

    /// The User-Agent sent with every request: the configured one, with gvingest's product token appended unless it
    /// names this version already. Appended, not prepended, so the configured name stays the one robots.txt groups by.
    public static func userAgent(_ configured: String) -> String {
        configured.contains(product) ? configured : "\(configured) \(product)"
    }
}
