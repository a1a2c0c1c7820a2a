import CLibXML2
import Foundation
import Synchronization

/// Compiled XPath expressions and contexts, kept for the process and lent to one user at a time: compiling costs
/// about as much as evaluating, and a fresh context registers every XPath function anew. Neither is safe to share
/// while in use (libxml2 caches function lookups in a compiled expression), so another thread gets its own.
final class XPathCache: Sendable {
    static let shared = XPathCache()

    /// Distinct expressions kept; past this (expressions built at run time), each is compiled and freed per use.
    static let capacity = 512
    /// Idle contexts kept: one per thread that evaluates at once is all that is ever needed.
    static let idleContexts = 64

    /// A libxml2 object only its borrower touches: either in the cache (under its lock) or with one thread.
    struct Lent<Pointer>: @unchecked Sendable {
        let pointer: Pointer
    }

    private let idle = Mutex((expressions: [String: [Lent<xmlXPathCompExprPtr>]](),
                              contexts: [Lent<xmlXPathContextPtr>]()))

    /// Evaluates `expression` in `document`, from `node` (nil: the document). The caller frees the result.
    func evaluate(_ expression: String, document: xmlDocPtr, node: xmlNodePtr?) throws(HTMLError) -> xmlXPathObjectPtr {
        guard let context = borrowContext() else {
            throw .invalidXPath(expression: expression, offset: 0, code: Int(XML_ERR_NO_MEMORY.rawValue))
        }
        defer { giveBack(context) }
        context.pointee.doc = document
        context.pointee.node = node
        xmlResetError(&context.pointee.lastError)
        let borrowed: Lent<xmlXPathCompExprPtr>? = idle.withLock { $0.expressions[expression]?.popLast() }
        let compiled = borrowed ?? expression.withCString { text in
            text.withMemoryRebound(to: xmlChar.self, capacity: expression.utf8.count + 1) { xmlXPathCtxtCompile(context, $0) }
        }.map(Lent.init)
        guard let compiled else { throw Self.failure(of: expression, context) }
        let result = xmlXPathCompiledEval(compiled.pointer, context)
        let kept: Bool = idle.withLock { idle in
            guard idle.expressions[expression] != nil || idle.expressions.count < Self.capacity else { return false }
            idle.expressions[expression, default: []].append(compiled)
            return true
        }
        if !kept { xmlXPathFreeCompExpr(compiled.pointer) }
        guard let result else { throw Self.failure(of: expression, context) }
        return result
    }

    /// Why `expression` gave no result: libxml2's error code and where in the expression it stopped.
    private static func failure(of expression: String, _ context: xmlXPathContextPtr) -> HTMLError {
        let error = context.pointee.lastError
        return .invalidXPath(expression: expression, offset: Int(error.int1), code: Int(error.code))
    }

    private func borrowContext() -> xmlXPathContextPtr? {
        if let context = idle.withLock({ $0.contexts.popLast() }) { return context.pointer }
        guard let context = xmlXPathNewContext(nil) else { return nil }
        // A handler of our own keeps libxml2 from printing; the error itself is read from the context.
        context.pointee.error = { _, _ in }
        return context
    }

    /// Returns a context, detached from the document it last read so it never points at a freed one.
    private func giveBack(_ context: xmlXPathContextPtr) {
        context.pointee.doc = nil
        context.pointee.node = nil
        let kept: Bool = idle.withLock { idle in
            guard idle.contexts.count < Self.idleContexts else { return false }
            idle.contexts.append(Lent(pointer: context))
            return true
        }
        if !kept { xmlXPathFreeContext(context) }
    }
}
