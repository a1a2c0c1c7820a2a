import CatalogKit
import Foundation

/// How `parse` and `search` print records: a JSON array, JSON Lines, or CSV (RFC 4180) with a header line.
enum RecordFormat: String, CaseIterable {
    case json, jsonl, csv

    /// The format `--format` (or `--json`) asks for, or nil for the readable text.
    static func chosen(_ arguments: Arguments) throws(UsageError) -> RecordFormat? {
        guard let format = try arguments.value("--format", "must be json, jsonl or csv", RecordFormat.init) else {
            return arguments.has("--json") ? .json : nil
        }
        guard !arguments.has("--json") || format == .json else { throw UsageError(message: "--json means --format json; choose one") }
        return format
    }

    /// The columns of the CSV form: the app's fields a spreadsheet is read for.
    static let csvColumns = ["id", "name", "subject", "number", "title", "credits", "level", "prerequisiteString",
                             "corequisiteString", "description", "url"]

    /// `records` (JSON objects) as a JSON array, JSON Lines or CSV (`extraColumns` after the usual ones).
    func text(_ records: [JSONValue], extraColumns: [String] = []) -> String {
        switch self {
        case .json: return JSONValue.array(records).serialized() + "\n"
        case .jsonl:
            return records.map { $0.serialized(pretty: false) + "\n" }.joined()
        case .csv:
            let columns = Self.csvColumns + extraColumns
            let rows = [columns] + records.map { record in columns.map { Self.cell(record[$0] ?? .null) } }
            return rows.map { $0.map(Self.quoted).joined(separator: ",") + "\r\n" }.joined()
        }
    }

    /// A value as a cell; text a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage
    /// return) gets a leading apostrophe, as OWASP's "CSV Injection" page recommends. Numbers stay numbers.
    static func cell(_ value: JSONValue) -> String {
        let text = value.displayText(none: "")
        switch value {
        case .int, .double: return text
        default: return text.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } == true ? "'" + text : text
        }
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
