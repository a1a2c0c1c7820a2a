import CatalogKit

/// `ParseOutput.writeJSON` gathered into bytes, for the HTML harness and the tests (the product writes as it goes).
extension ParseOutput {
    /// One JSON array of normalized course records over all pages, as `gvingest parse --json` writes it.
    public static func jsonBytes(_ results: [PageResult], rules: NormalizationRules = .standard) -> [UInt8] {
        Array(jsonParts(courses: Normalizer(rules: rules).normalize(catalog: results.flatMap(\.courses))).joined())
    }

    /// The pieces `writeJSON(courses:batch:)` hands out, in order.
    public static func jsonParts(courses: [Course], batch: Int = defaultBatch) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        writeJSON(courses: courses, batch: batch) { parts.append($0) }
        return parts
    }
}
