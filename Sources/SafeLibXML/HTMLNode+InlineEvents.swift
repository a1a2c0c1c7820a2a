import CLibXML2
import Foundation

/// A node's content as inline events: what the parsers read text, emphasis, links and breaks from.
extension HTMLNode {
    /// The siblings between this node and `end`, a later sibling, flattened into inline events.
    public func inlineEventsOfSiblings(before end: HTMLNode) -> [InlineEvent] {
        var events: [InlineEvent] = []
        flatten(from: pointer.pointee.next, before: end.pointer, into: &events)
        return events
    }

    /// The content as inline events, in document order, without hidden elements, scripts, styles and comments;
    /// after `start`, a descendant, only what follows it (its later siblings, and theirs up the tree).
    public func inlineEvents(after start: HTMLNode? = nil) -> [InlineEvent] {
        var events: [InlineEvent] = []
        events.reserveCapacity(64)  // a course body is a few dozen events: no regrowing on the way
        guard let start else {
            flatten(from: pointer.pointee.children, into: &events)
            return events
        }
        var current: xmlNodePtr? = start.pointer
        while let node = current, node != pointer {
            flatten(from: node.pointee.next, into: &events)
            current = node.pointee.parent
            if let parent = current, parent != pointer, InlineEvent.role(of: parent) == .block {
                events.append(.blockBoundary)
            }
        }
        return events
    }

    /// Flattens `first` and the siblings after it, up to `end` (nil: all of them).
    private func flatten(from first: xmlNodePtr?, before end: xmlNodePtr? = nil, into events: inout [InlineEvent]) {
        var sibling = first
        while let node = sibling, node != end {
            flatten(node, into: &events)
            sibling = node.pointee.next
        }
    }

    private func flatten(_ node: xmlNodePtr, into events: inout [InlineEvent]) {
        switch node.pointee.type {
        case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
            if let content = node.pointee.content { events.append(.text(String(cString: content))) }
            return
        case XML_ELEMENT_NODE:
            break
        default:
            return
        }
        let element = HTMLNode(document: document, pointer: node)
        let role = InlineEvent.role(of: node)
        if role == .skipped || element.isHidden { return }
        var closing: InlineEvent?
        switch role {
        case .lineBreak:
            events.append(.lineBreak)
            return
        case .emphasis:
            events.append(.startEmphasis(element.name))
            closing = .endEmphasis
        case .link:
            if let href = element.attribute("href") {
                events.append(.startLink(href: href, url: document.resolve(href)))
                closing = .endLink
            }
        case .block:
            events.append(.blockBoundary)
            closing = .blockBoundary
        case .skipped, nil:
            break
        }
        flatten(from: node.pointee.children, into: &events)
        if let closing { events.append(closing) }
    }

    private var isHidden: Bool {
        if hasAttribute("hidden") { return true }
        return withAttributeBytes("style", Self.styleHides) ?? false
    }

    /// Whether a `style` says `display: none` or `visibility: hidden` (any case, any spaces), read on ASCII bytes.
    static func styleHides(_ style: UnsafeBufferPointer<UInt8>) -> Bool {
        guard style.allSatisfy({ $0 < 0x80 }) else {
            let compact = String(decoding: style, as: UTF8.self).lowercased().filter { $0 != " " }
            return compact.contains("display:none") || compact.contains("visibility:hidden")
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, style.count)) { compact in
            var count = 0
            for byte in style where byte != 0x20 {
                compact[count] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
                count += 1
            }
            let written = UnsafeBufferPointer(rebasing: compact[..<count])
            return contains(written, "display:none") || contains(written, "visibility:hidden")
        }
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
        ByteSearch.contains(haystack, UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
    }
}
