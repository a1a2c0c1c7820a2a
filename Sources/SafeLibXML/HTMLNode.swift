import CLibXML2
import Foundation

/// A node of an `HTMLDocument`, which it holds so it never outlives it. Not `Sendable`: read it in the parsing task.
public struct HTMLNode {
    let document: HTMLDocument
    let pointer: xmlNodePtr

    /// The lower-case element name (`h1`, `td`), `#text` for text nodes, `#comment` for comments.
    public var name: String {
        switch pointer.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE: return "#text"
        case XML_COMMENT_NODE: return "#comment"
        default: return Self.elementName(pointer)
        }
    }

    /// The name of an element (or another named node), lower case.
    static func elementName(_ node: xmlNodePtr) -> String {
        guard let name = node.pointee.name else { return "" }
        let written = String(cString: name)
        // libxml2's HTML parser writes element names in lower case already: such a name needs no copy.
        let asIs = written.utf8.allSatisfy { $0 < 0x80 && !($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z")) }
        return asIs ? written : written.lowercased()
    }

    /// Whether the element has an attribute `name`, without copying its value out.
    func hasAttribute(_ name: String) -> Bool {
        attributeNode(name) != nil
    }

    /// The element's own attribute `name` (`xmlHasProp` also searches DTD defaults, which HTML pages never declare).
    private func attributeNode(_ name: String) -> xmlAttrPtr? {
        guard pointer.pointee.type == XML_ELEMENT_NODE else { return nil }
        var property = pointer.pointee.properties
        while let current = property {
            if let written = current.pointee.name, Self.isNamed(written, name) { return current }
            property = current.pointee.next
        }
        return nil
    }

    /// Whether libxml2's name `written` is exactly `name`, byte for byte.
    private static func isNamed(_ written: UnsafePointer<xmlChar>, _ name: String) -> Bool {
        var index = 0
        for byte in name.utf8 {
            // A NUL in `name` matches no attribute (and must not be matched against the terminator and read past).
            guard byte != 0, written[index] == byte else { return false }
            index += 1
        }
        return written[index] == 0
    }

    /// Whether `node` is an element named one of `names`, compared where libxml2 keeps the name: no string per node.
    private static func isElement(_ node: xmlNodePtr, namedIn names: [String]) -> Bool {
        guard node.pointee.type == XML_ELEMENT_NODE, let written = node.pointee.name else { return false }
        return names.contains { isNamed(written, $0) }
    }

    /// Elements below this node named one of `names` (lower case), in document order: `.//a | .//b` without XPath.
    public func descendants(named names: [String], limit: Int = .max) -> [HTMLNode] {
        Self.walk(document, from: pointer.pointee.children, below: pointer, names: names, limit: limit) { _ in true }
    }

    /// Child elements, in order (text and comments left out).
    public var children: [HTMLNode] {
        guard let first = pointer.pointee.children else { return [] }
        return sequence(first: first) { $0.pointee.next }.compactMap { child in
            child.pointee.type == XML_ELEMENT_NODE ? HTMLNode(document: document, pointer: child) : nil
        }
    }

    /// The elements named in `names` that `test` takes, in document order from `start` (a child of `root`), at most
    /// `limit`. A loop, not recursion: libxml2 keeps 256 levels of a page nested 10,000 deep.
    static func walk(_ document: HTMLDocument, from start: xmlNodePtr?, below root: xmlNodePtr?, names: [String],
                     limit: Int, where test: (HTMLNode) -> Bool) -> [HTMLNode] {
        var found: [HTMLNode] = []
        guard limit > 0 else { return found }
        var current = start
        while let node = current {
            if isElement(node, namedIn: names) {
                let element = HTMLNode(document: document, pointer: node)
                if test(element) { found.append(element) }
                if found.count == limit { return found }
            }
            if node.pointee.type == XML_ELEMENT_NODE, let child = node.pointee.children {
                current = child
                continue
            }
            var climbing: xmlNodePtr? = node
            current = nil
            // Up to `root`, or (walking a whole document) to the document node, whose siblings are not the page's.
            while let up = climbing, up != root, up.pointee.type != XML_HTML_DOCUMENT_NODE, up.pointee.type != XML_DOCUMENT_NODE {
                if let next = up.pointee.next {
                    current = next
                    break
                }
                climbing = up.pointee.parent
            }
        }
        return found
    }

    /// The value of an attribute, entities decoded, or nil when absent.
    public func attribute(_ name: String) -> String? {
        withAttributeBytes(name) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the `class` attribute lists `name`, byte for byte, as the parsers' XPath `hasClass` asks.
    public func hasClass(_ name: String) -> Bool {
        withAttributeBytes("class") { value in
            value.split(whereSeparator: Self.isXMLSpace).contains { $0.elementsEqual(name.utf8) }
        } ?? false
    }

    private static func isXMLSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// `body` over the UTF-8 bytes of attribute `name`'s value (where libxml2 keeps it), or nil when it is absent.
    func withAttributeBytes<Result>(_ name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        guard let attribute = attributeNode(name) else { return nil }
        // What `xmlGetProp` gives, without its copy of the one text node the HTML parser makes of a value.
        if let value = attribute.pointee.children, value.pointee.next == nil, Self.isText(value) {
            guard let content = value.pointee.content else { return nil }
            return body(UnsafeBufferPointer(start: content, count: strlen(UnsafeRawPointer(content).assumingMemoryBound(to: CChar.self))))
        }
        var text = LibXML.take(xmlNodeListGetString(attribute.pointee.doc, attribute.pointee.children, 1)) ?? ""
        return text.withUTF8(body)
    }

    /// `preceding::text()[contains(., needle)][not(ancestor::e)]…[1]`, stopping at the first where libxml2 gathers all.
    public func nearestPrecedingText(containing needle: String, outside excluded: [String]) -> HTMLNode? {
        return needle.withCString { needle in
            var current = Self.previousInDocumentOrder(pointer)
            while let node = current {
                if Self.isText(node), let content = node.pointee.content,
                   content.withMemoryRebound(to: CChar.self, capacity: 1, { strstr($0, needle) != nil }),
                   !Self.hasAncestor(node, namedIn: excluded) {
                    return HTMLNode(document: document, pointer: node)
                }
                current = Self.previousInDocumentOrder(node)
            }
            return nil
        }
    }

    /// The node before `node` in document order: the last descendant of its previous sibling, else its parent.
    private static func previousInDocumentOrder(_ node: xmlNodePtr) -> xmlNodePtr? {
        guard var previous = node.pointee.prev else { return node.pointee.parent }
        while let last = previous.pointee.last, previous.pointee.type == XML_ELEMENT_NODE { previous = last }
        return previous
    }

    private static func hasAncestor(_ node: xmlNodePtr, namedIn names: [String]) -> Bool {
        guard let parent = node.pointee.parent else { return false }
        return sequence(first: parent) { $0.pointee.parent }.prefix { $0.pointee.type == XML_ELEMENT_NODE }
            .contains { isElement($0, namedIn: names) }
    }

    /// All text below this node with white space collapsed (NBSP included) and trimmed.
    public var text: String { TextCollapsing.collapse(rawText) }

    /// All text below this node as the page has it, entities decoded.
    var rawText: String { LibXML.take(xmlNodeGetContent(pointer)) ?? "" }

    /// The node's position as `xmlGetNodePath` spells it (`/html/body/div[2]/h1`), built here for elements and text
    /// (libxml2 copies the whole path at every level); other nodes ask libxml2.
    public var path: String {
        var steps: [(name: UnsafePointer<xmlChar>?, position: Int)] = []
        var current: xmlNodePtr? = pointer
        while let node = current {
            let type = node.pointee.type
            if type == XML_DOCUMENT_NODE || type == XML_HTML_DOCUMENT_NODE { return Self.spell(steps) }
            if Self.isText(node) {
                steps.append((nil, Self.position(of: node, where: Self.isText)))
            } else if type == XML_ELEMENT_NODE, node.pointee.ns == nil, let name = node.pointee.name {
                steps.append((name, Self.position(of: node) { other in
                    other.pointee.type == XML_ELEMENT_NODE && other.pointee.ns == nil && xmlStrEqual(other.pointee.name, name) != 0
                }))
            } else {
                break
            }
            current = node.pointee.parent
        }
        return libxml2Path
    }

    /// A text node or a CDATA section: what `xmlGetNodePath` calls `text()` and an attribute's value is made of.
    private static func isText(_ node: xmlNodePtr) -> Bool {
        node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE
    }

    /// "/html/body/div[2]/text()" from the steps gathered bottom up.
    private static func spell(_ steps: [(name: UnsafePointer<xmlChar>?, position: Int)]) -> String {
        guard !steps.isEmpty else { return "/" }
        var path = ""
        path.reserveCapacity(steps.count * 8)
        for step in steps.reversed() {
            path += "/" + (step.name.map { String(cString: $0) } ?? "text()")
            if step.position > 0 { path += "[\(step.position)]" }
        }
        return path
    }

    /// `xmlGetNodePath`'s own answer, for the nodes `path` does not build itself (and to check it against).
    var libxml2Path: String { LibXML.take(xmlGetNodePath(pointer)) ?? "" }

    /// The node's position among its `alike` siblings from 1, 0 when it has none (as `xmlGetNodePath` numbers them).
    private static func position(of node: xmlNodePtr, where alike: (xmlNodePtr) -> Bool) -> Int {
        let before = sequence(first: node) { $0.pointee.prev }.dropFirst().reduce(0) { alike($1) ? $0 + 1 : $0 }
        if before > 0 { return before + 1 }
        return sequence(first: node) { $0.pointee.next }.dropFirst().contains(where: alike) ? 1 : 0
    }

    public var parent: HTMLNode? {
        guard let parent = pointer.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
        return HTMLNode(document: document, pointer: parent)
    }

    /// Nodes matching an XPath expression evaluated with this node as the context node.
    public func select(_ xpath: String) throws(HTMLError) -> [HTMLNode] {
        try document.evaluate(xpath, context: pointer)
    }

    public func first(_ xpath: String) throws(HTMLError) -> HTMLNode? {
        try document.evaluate(xpath, context: pointer, limit: 1).first
    }

    /// The `href` attribute, resolved against the page's base URL.
    public func link() -> URL? {
        attribute("href").flatMap(document.resolve)
    }

    /// Whether two values refer to the same node of the same document.
    public func isSame(as other: HTMLNode) -> Bool { pointer == other.pointer }

    /// The first later sibling element named `name` among the next `limit` sibling elements.
    public func nextSibling(named name: String, within limit: Int = .max) -> HTMLNode? {
        var sibling = pointer.pointee.next
        var elements = 0
        while let current = sibling, elements < limit {
            if current.pointee.type == XML_ELEMENT_NODE {
                // libxml2 keeps HTML element names in lower case; comparing its bytes makes no string per sibling.
                if let written = current.pointee.name, Self.isNamed(written, name) {
                    return HTMLNode(document: document, pointer: current)
                }
                elements += 1
            }
            sibling = current.pointee.next
        }
        return nil
    }
}
