/// Maps a subject's name or retired code ("CS" → "CIS") to its code; keys compare case-insensitively, spaces collapsed.
public struct SubjectAliases: Sendable, Equatable {
    private var table: [String: String]

    public init(_ aliases: [String: String] = [:]) {
        table = Dictionary(aliases.map { (Self.key($0.key), $0.value.uppercased()) }, uniquingKeysWith: { $1 })
    }

    /// `code` under its subject's current code.
    public func renaming(_ code: CourseCode) -> CourseCode {
        guard !table.isEmpty else { return code }
        var renamed = code
        renamed.subject = table[Self.key(code.subject)] ?? code.subject
        return renamed
    }

    private static func key(_ text: String) -> String {
        TextCleaner.cleanLine(text).uppercased()
    }
}
