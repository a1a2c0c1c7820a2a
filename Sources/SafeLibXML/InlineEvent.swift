import CLibXML2
import Foundation

/// One step of a node's content read in order, as a reader of the page meets it.
public enum InlineEvent: Sendable, Equatable {
    /// Text as the page has it (entities decoded, white space not yet collapsed).
    case text(String)
    /// `strong`, `b`, `em` or `i` begins.
    case startEmphasis(String)
    case endEmphasis
    /// A link begins: its raw `href` and, when it resolves, the absolute URL.
    case startLink(href: String, url: URL?)
    case endLink
    case lineBreak
    /// A block element (`p`, `div`, `hr`, `li`, headings, table cells…) begins or ends.
    case blockBoundary

    /// The text of a `.text` event; nil for the others.
    public var text: String? {
        if case let .text(text) = self { return text }
        return nil
    }

    /// What an element is to `flatten`, by name: one hash lookup per element instead of one per set asked.
    enum ElementRole { case skipped, lineBreak, emphasis, link, block }

    /// An element's role: a name of up to eight lower-case ASCII letters or digits looked up packed in an integer.
    static func role(of node: xmlNodePtr) -> ElementRole? {
        guard let name = node.pointee.name else { return nil }
        var packed: UInt64 = 0
        var length = 0
        while name[length] != 0 {
            let byte = name[length]
            guard length < 8, (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            else { return roles[HTMLNode.elementName(node)] }
            packed |= UInt64(byte) << (8 * UInt64(length))
            length += 1
        }
        return rolesByPackedName[packed]
    }

    /// `roles` for the names of up to eight bytes, by the bytes packed as in `role(of:)`.
    private static let rolesByPackedName: [UInt64: ElementRole] = roles.reduce(into: [:]) { table, entry in
        guard entry.key.utf8.count <= 8 else { return }
        let packed = entry.key.utf8.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * $1.offset) }
        table[packed] = entry.value
    }

    static let roles: [String: ElementRole] = [
        (ElementRole.lineBreak, ["br"]), (.link, ["a"]), (.emphasis, ["strong", "b", "em", "i"]),
        (.skipped, ["script", "style", "noscript", "template", "head", "title"]),
        (.block, ["p", "div", "hr", "li", "ul", "ol", "dl", "dt", "dd", "table", "tr", "td", "th", "tbody", "thead",
                  "tfoot", "h1", "h2", "h3", "h4", "h5", "h6", "section", "article", "header", "footer", "main", "nav",
                  "aside", "blockquote", "pre", "form", "fieldset", "address", "figure", "figcaption", "caption",
                  "body", "html"]),
    ].reduce(into: [:]) { roles, entry in for name in entry.1 { roles[name] = entry.0 } }
}
