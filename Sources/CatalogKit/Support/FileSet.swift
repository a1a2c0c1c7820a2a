import Foundation

/// Replaces several files so that, short of a crash, either all of them change or none does: each is
/// written atomically, and if one fails the ones already written get their old content back.
public struct FileSet {
    /// A file's content before the set replaced it (nil: it did not exist).
    private var originals: [(url: URL, data: Data?)] = []

    public init() {}

    /// Writes every file; on a failure restores those already written and rethrows.
    public mutating func replace(_ files: [(url: URL, data: Data)]) throws {
        for file in files {
            let original = FileManager.default.contents(atPath: file.url.path)
            do {
                try AtomicFile.write(file.data, to: file.url)
            } catch {
                restore()
                throw error
            }
            originals.append((file.url, original))
        }
    }

    /// Puts back what the files held before `replace` (best effort: this runs because something failed).
    public mutating func restore() {
        for original in originals.reversed() {
            if let data = original.data {
                try? AtomicFile.write(data, to: original.url)
            } else {
                try? FileManager.default.removeItem(at: original.url)
            }
        }
        originals = []
    }
}
