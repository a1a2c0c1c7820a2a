import CatalogKit

extension ParseOutput {
    /// One JSON array of normalized course records over all pages, as `gvingest parse --json` writes it.
    public static func jsonBytes(_ results: [PageResult], rules: NormalizationRules = .standard) -> [UInt8] {
        Array(json(courses: Normalizer(rules: rules).normalize(catalog: results.flatMap(\.courses))))
    }
}
