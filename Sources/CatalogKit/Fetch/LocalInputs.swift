import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A page to parse, named as the user named it.
public struct PageInput: Sendable {
    /// The argument or the file found under a directory argument, as shown in messages.
    public var name: String
    /// The file's path, for a local file: a `URL` works its path out anew each time it is asked.
    public var path: String?
    /// The URL named: a web page's, or a file's named by itself (a file under a directory has none).
    var givenURL: URL?

    /// The page's URL; for a file under a directory, made when asked, on the core that parses the page.
    public var url: URL { givenURL ?? URL(fileURLWithPath: path ?? "", isDirectory: false) }
}

extension PageInput {
    /// An input named by its URL; a file URL is read from its path, never through URLSession.
    init(name: String, url: URL) {
        self.init(name: name, path: url.isFileURL ? url.path : nil, givenURL: url)
    }
}

/// Why an input could not be read.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var reason: String
    public var description: String { "\(name): \(reason)" }
}

/// Turns command-line arguments into pages: files, every `.html`/`.htm` file under a directory, URLs, `-` (one page
/// from standard input, whatever it is).
public enum PageInputs {
    public static let pageExtensions: Set<String> = ["html", "htm"]

    public static func expand(_ arguments: [String]) -> (inputs: [PageInput], errors: [InputError]) {
        var inputs: [PageInput] = []
        var errors: [InputError] = []
        for argument in arguments {
            guard argument != "-" else { inputs.append(PageInput(name: "(standard input)", path: FileBytes.standardInput)); continue }
            let url = URL(string: argument)
            if let url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
                inputs.append(PageInput(name: argument, url: url))
            } else {
                let path = url?.scheme?.lowercased() == "file" ? url?.path : nil
                expandPath(path ?? argument, name: argument, into: &inputs, errors: &errors)
            }
        }
        return (inputs, errors)
    }

    private static func expandPath(_ path: String, name: String, into inputs: inout [PageInput], errors: inout [InputError]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            // "ftp://…" is more likely a URL of a scheme not read than a missing file (http(s) never gets here).
            let scheme = name.contains("://") ? URL(string: name)?.scheme.flatMap { $0.lowercased() == "file" ? nil : $0 } : nil
            errors.append(InputError(name: name, reason: "no such file or directory" + (scheme.map { " (\($0)://: not read; only http, https and file URLs are)" } ?? "")))
            return
        }
        let base = URL(fileURLWithPath: path, isDirectory: isDirectory.boolValue).standardizedFileURL
        guard isDirectory.boolValue else {
            inputs.append(PageInput(name: name, url: base))
            return
        }
        let basePath = base.path
        // Paths as strings, not URLs, whose `path` and `pathExtension` are worked out anew on every call.
        guard let entries = entries(under: basePath) else {
            errors.append(InputError(name: name, reason: "cannot list the directory"))
            return
        }
        let shownBase = name.hasSuffix("/") ? String(name.dropLast()) : name
        let directory = basePath.hasSuffix("/") ? basePath : basePath + "/"
        // The names shown all start with `shownBase + "/"`: sorting the paths below it gives their order.
        let pages = entries.filter(isPage).sorted()
        if pages.isEmpty { errors.append(InputError(name: name, reason: "no .html or .htm files under this directory")) }
        inputs += pages.map { PageInput(name: shownBase + "/" + $0, path: directory + $0) }
    }

    /// Every entry below `directory` as relative paths in no order, read with `readdir` (whose entries say whether
    /// they are folders): hidden ones too, links below not followed, a folder reached twice (a bind mount) read once.
    /// Nil when `directory` cannot be opened; a folder below it that cannot be is passed over.
    static func entries(under directory: String) -> [String]? {
        var found: [String] = []
        var folders = [""]
        var visited: Set<[UInt64]> = []
        while let folder = folders.popLast() {
            let path = folder.isEmpty ? directory : directory + "/" + folder
            guard let handle = opendir(path) else {
                if folder.isEmpty { return nil }
                continue
            }
            defer { closedir(handle) }
            var info = stat()
            if fstat(dirfd(handle), &info) == 0, !visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted {
                continue
            }
            while let entry = readdir(handle) {
                let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { String(cString: $0) }
                }
                guard name != ".", name != ".." else { continue }
                let relative = folder.isEmpty ? name : folder + "/" + name
                found.append(relative)
                var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
                if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                    // Some file systems do not say; ask without following a link.
                    var entryInfo = stat()
                    isFolder = lstat(directory + "/" + relative, &entryInfo) == 0 && entryInfo.st_mode & S_IFMT == S_IFDIR
                }
                if isFolder { folders.append(relative) }
            }
        }
        return found
    }

    /// Whether a file's extension is `html` or `htm` in any case, as `URL.pathExtension` reads it (".html" has none).
    static func isPage(_ path: String) -> Bool {
        let name = path.utf8.lastIndex(of: UInt8(ascii: "/")).map { path.utf8[path.utf8.index(after: $0)...] } ?? path.utf8[...]
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let stem = name[..<dot]
        guard !stem.isEmpty, !stem.elementsEqual(".".utf8), !stem.elementsEqual("..".utf8) else { return false }
        let suffix = name[name.index(after: dot)...]
        guard suffix.count == 3 || suffix.count == 4 else { return false }
        // Compared in place, ASCII letters in any case (no extension string made and lower-cased per file).
        return pageExtensions.contains { wanted in
            wanted.utf8.count == suffix.count && zip(wanted.utf8, suffix).allSatisfy { want, byte in
                want == (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
            }
        }
    }
}

/// Reads the bytes of one page: a file, or one HTTP GET for `gvingest parse URL`.
public enum PageReader {
    /// Long-lived (short-lived sessions crash on Linux) and ephemeral (no disk cache in `~/.cache`).
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.httpAdditionalHeaders = ["User-Agent": FetchSettings().requestUserAgent]
        return URLSession(configuration: configuration)
    }()

    public static func read(_ input: PageInput) async throws(InputError) -> (bytes: [UInt8], contentType: String?) {
        if let path = input.path { return (try readFile(path, of: input), nil) }
        let data: Data, response: URLResponse
        do {
            (data, response) = try await session.data(from: input.url)
        } catch {
            throw InputError(name: input.name, reason: "cannot fetch: \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else { return (Array(data), nil) }
        guard (200..<300).contains(http.statusCode) else {
            throw InputError(name: input.name, reason: "HTTP status \(http.statusCode)")
        }
        return (Array(data), http.value(forHTTPHeaderField: "Content-Type"))
    }

    /// A local page's bytes.
    static func readFile(_ path: String, of input: PageInput) throws(InputError) -> [UInt8] {
        do {
            return try FileBytes.read(path: path, limit: FileBytes.Limit.page)
        } catch {
            throw InputError(name: input.name, reason: "cannot read: \(error)")
        }
    }
}
