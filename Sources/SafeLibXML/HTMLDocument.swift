import CLibXML2
import Foundation

/// Why a page could not be turned into a document at all.
public enum HTMLError: Error, Equatable, CustomStringConvertible {
    case emptyInput
    case tooLarge(bytes: Int, limit: Int)
    case parserFailed(String)
    case invalidXPath(expression: String, offset: Int, code: Int)

    public var description: String {
        switch self {
        case .emptyInput: return "the page is empty"
        case let .tooLarge(bytes, limit): return "the page is \(bytes) bytes, over the limit of \(limit)"
        case let .parserFailed(reason): return "libxml2 could not parse the page: \(reason)"
        case let .invalidXPath(expression, offset, code):
            return "invalid XPath expression '\(expression)' near offset \(offset) (libxml2 code \(code))"
        }
    }
}

/// A parsed HTML page, owning its libxml2 document. Not `Sendable`: what is read from it is copied out.
public final class HTMLDocument {
    /// Pages larger than this are refused before libxml2 sees them.
    public static let defaultSizeLimit = 64 << 20
    /// At most this many parser issues are kept; the rest are only counted.
    static let issueLimit = 200

    let pointer: htmlDocPtr
    /// The URL relative links resolve against: the page's `<base href>` when present, else the URL it was read from.
    public private(set) var baseURL: URL?
    /// Whether the page sets its own `<base href>`, which `rebase` must leave alone.
    private var hasBaseElement = false
    public let charset: CharsetChoice
    /// The messages of the first `issueLimit` issues libxml2 reported while parsing, and how many it reported.
    public let issues: [String]
    public let issueCount: Int
    /// Elements nest deeper than `maximumDepth`: libxml2 stopped reading the page there.
    public let tooDeep: Bool
    /// libxml2's own limit is 256, which real pages wrapped in layout have been seen to pass; deeper than this
    /// bound, a tree would strain the stack of what walks it.
    public static let maximumDepth = 1_024

    /// Parses HTML bytes, choosing the charset in Swift (see `CharsetDetector`); `contentType` is the HTTP header.
    public init(bytes: [UInt8], url: URL? = nil, contentType: String? = nil,
                sizeLimit: Int = HTMLDocument.defaultSizeLimit) throws(HTMLError) {
        guard !bytes.isEmpty else { throw .emptyInput }
        guard bytes.count <= sizeLimit else { throw .tooLarge(bytes: bytes.count, limit: sizeLimit) }
        _ = LibXML.initialized

        let charset = CharsetDetector.choose(bytes: bytes, contentType: contentType)
        let collector = IssueCollector()
        let parsed: htmlDocPtr?
        switch Transcoder.toUTF8(bytes, charset: charset.name) {
        case let .utf8(offset):
            parsed = bytes.withUnsafeBufferPointer { buffer in
                Self.read(UnsafeBufferPointer(rebasing: buffer[offset...]), encoding: nil, collector: collector)
            }
        case let .converted(utf8, replaced):
            if replaced > 0 { collector.note("\(replaced) invalid byte sequence(s) replaced by U+FFFD") }
            parsed = utf8.withUnsafeBufferPointer { Self.read($0, encoding: nil, collector: collector) }
        case let .passThrough(encoding):
            parsed = bytes.withUnsafeBufferPointer { Self.read($0, encoding: encoding, collector: collector) }
        }
        guard let parsed else { throw .parserFailed(collector.issues.last ?? "no document produced") }
        self.pointer = parsed
        self.charset = charset
        self.issues = collector.issues
        self.issueCount = collector.count
        self.tooDeep = collector.tooDeep
        self.baseURL = url
        if let base = headChildren(named: ["base"]).first(where: { $0.hasAttribute("href") }) {
            hasBaseElement = true
            if let href = base.attribute("href"), let resolved = resolve(href) { self.baseURL = resolved }
        }
    }

    deinit {
        xmlFreeDoc(pointer)
    }

    private static func read(_ buffer: UnsafeBufferPointer<UInt8>, encoding: String?,
                             collector: IssueCollector) -> htmlDocPtr? {
        guard let context = htmlNewParserCtxt() else { return nil }
        defer { htmlFreeParserCtxt(context) }
        // Not HTML_PARSE_NOBLANKS, though it saves a few per cent: libxml2 drops white space after elements
        // outside its short list (`<sup>`, `<sub>`, `<img>`, `<br>`), so "H<sub>2</sub> <b>O</b>" would lose a space.
        let options = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NONET.rawValue | HTML_PARSE_IGNORE_ENC.rawValue | HTML_PARSE_COMPACT.rawValue)
        // libxml2 reports through a thread-local handler: set for this synchronous parse, then restored.
        let previousHandler = __xmlStructuredError()?.pointee
        let previousContext = __xmlStructuredErrorContext()?.pointee
        let unmanaged = Unmanaged.passRetained(collector)
        defer { unmanaged.release() }
        xmlSetStructuredErrorFunc(unmanaged.toOpaque()) { userData, error in
            guard let userData, let error else { return }
            let message = error.pointee.message.map { TextCollapsing.collapse(String(cString: $0)) } ?? "unknown error"
            Unmanaged<IssueCollector>.fromOpaque(userData).takeUnretainedValue().note(message)
        }
        defer { xmlSetStructuredErrorFunc(previousContext, previousHandler) }
        let size = Int32(clamping: buffer.count)
        // No URL for libxml2: links resolve in Swift, against `baseURL`.
        return buffer.withMemoryRebound(to: CChar.self) { chars in
            guard encoding == nil else { return htmlCtxtReadMemory(context, chars.baseAddress, size, nil, encoding, options) }
            // `htmlCtxtReadMemory`, with the context told the bytes are UTF-8: named "UTF-8", libxml2 would convert
            // them to UTF-8; named nothing, it guesses Latin-1. (A static input buffer made libxml2 2.9.14 read pages
            // twice.) HTML_PARSE_IGNORE_ENC keeps a contrary `<meta charset>` from switching it halfway through.
            guard let input = xmlParserInputBufferCreateMem(chars.baseAddress, size, XML_CHAR_ENCODING_NONE) else { return nil }
            guard let stream = xmlNewIOInputStream(context, input, XML_CHAR_ENCODING_NONE) else {
                xmlFreeParserInputBuffer(input)
                return nil
            }
            // From here the context owns the stream, and the stream the buffer.
            guard inputPush(context, stream) >= 0 else { return nil }
            _ = htmlCtxtUseOptions(context, options)
            context.pointee.charset = Int32(XML_CHAR_ENCODING_UTF8.rawValue)
            _ = htmlParseDocument(context)
            let document = context.pointee.myDoc
            context.pointee.myDoc = nil
            return document
        }
    }

    /// The root element (`html`), if the page produced any element at all.
    public var root: HTMLNode? {
        xmlDocGetRootElement(pointer).map { HTMLNode(document: self, pointer: $0) }
    }

    /// `(//a | //b)[test]` for `names` in lower case, without XPath: it stops at `limit` where XPath gathers all.
    public func elements(named names: [String], limit: Int = .max,
                         where test: (HTMLNode) -> Bool = { _ in true }) -> [HTMLNode] {
        HTMLNode.walk(self, from: pointer.pointee.children, below: nil, names: names, limit: limit, where: test)
    }

    /// What `/html/head/a | /html/head/b` selects, for `names` in lower case.
    public func headChildren(named names: [String]) -> [HTMLNode] {
        guard let root, root.name == "html" else { return [] }
        return root.children.filter { $0.name == "head" }.flatMap { $0.children.filter { names.contains($0.name) } }
    }

    /// Nodes matching an XPath expression, evaluated from the document root.
    public func select(_ xpath: String) throws(HTMLError) -> [HTMLNode] {
        try evaluate(xpath, context: nil)
    }

    /// Whether anything matches an XPath expression; false for an invalid one.
    public func contains(_ xpath: String) -> Bool {
        ((try? first(xpath)) ?? nil) != nil
    }

    /// The first node matching an XPath expression.
    public func first(_ xpath: String) throws(HTMLError) -> HTMLNode? {
        try evaluate(xpath, context: nil, limit: 1).first
    }

    /// Makes relative links resolve against `url` (a saved page's own URL), unless the page sets its `<base href>`.
    public func rebase(to url: URL) {
        if !hasBaseElement { baseURL = url }
    }

    /// Resolves a link against `baseURL`. Returns nil for empty, script and unparseable links.
    public func resolve(_ href: String) -> URL? {
        let trimmed = TextCollapsing.collapse(href)
        guard !trimmed.isEmpty, !trimmed.lowercased().hasPrefix("javascript:") else { return nil }
        let candidate = URL(string: trimmed, relativeTo: baseURL)
            ?? trimmed.addingPercentEncoding(withAllowedCharacters: Self.linkCharacters)
                .flatMap { URL(string: $0, relativeTo: baseURL) }
        return candidate?.absoluteURL
    }

    /// Every character a href may keep as written; the rest (spaces, non-ASCII) is percent-encoded.
    private static let linkCharacters = CharacterSet.urlQueryAllowed.union(.urlPathAllowed).union(CharacterSet(charactersIn: "#%"))

    func evaluate(_ xpath: String, context node: xmlNodePtr?, limit: Int = .max) throws(HTMLError) -> [HTMLNode] {
        let result = try XPathCache.shared.evaluate(xpath, document: pointer, node: node)
        defer { xmlXPathFreeObject(result) }
        guard result.pointee.type == XPATH_NODESET, let set = result.pointee.nodesetval,
              set.pointee.nodeNr > 0, let table = set.pointee.nodeTab else { return [] }
        return (0..<min(Int(set.pointee.nodeNr), limit)).compactMap { index in
            table[index].map { HTMLNode(document: self, pointer: $0) }
        }
    }
}

enum LibXML {
    /// libxml2's process-wide set-up, done once, on first use.
    static let initialized: Void = {
        xmlInitParser()
        gvingest_setParserMaxDepth(UInt32(HTMLDocument.maximumDepth))
    }()

    /// Copies a libxml2-owned string into Swift and frees it.
    static func take(_ pointer: UnsafeMutablePointer<xmlChar>?) -> String? {
        guard let pointer else { return nil }
        defer { gvingest_xmlFree(pointer) }
        return String(cString: pointer)
    }
}

/// Gathers the messages of parser errors for one parse, on the parsing thread.
final class IssueCollector {
    private(set) var issues: [String] = []
    private(set) var count = 0
    private(set) var tooDeep = false

    func note(_ message: String) {
        count += 1
        if message.hasPrefix("Excessive depth in document") { tooDeep = true }
        if issues.count < HTMLDocument.issueLimit { issues.append(message) }
    }
}
