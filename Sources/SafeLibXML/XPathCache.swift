import CLibXML2
import Foundation

/// Compiled XPath expressions, kept for the life of the process and lent out one user at a time.
///
/// Parsers ask the same few expressions of thousands of small pages, and compiling an expression cost
/// about as much as evaluating it. A compiled expression is not safe to share between threads while it
/// is evaluated (libxml2 caches function lookups inside it on first use), so each is checked out for one
/// evaluation and returned; a second thread asking for the same expression meanwhile compiles its own copy.
final class XPathCache: @unchecked Sendable {
    static let shared = XPathCache()

    /// Distinct expressions kept; past this (expressions built at run time), each is compiled and freed per use.
    static let capacity = 512

    /// A compiled expression; only its current borrower touches it.
    struct Compiled: @unchecked Sendable {
        let pointer: xmlXPathCompExprPtr
    }

    // Guarded by `lock`; @unchecked is sound because nothing is touched outside it.
    private let lock = NSLock()
    private var idle: [String: [Compiled]] = [:]

    /// Evaluates `expression` in `context`, compiling it or borrowing a compiled copy; nil when it does
    /// not compile or evaluate (the error is in `context.lastError`).
    func evaluate(_ expression: String, in context: xmlXPathContextPtr) -> xmlXPathObjectPtr? {
        let borrowed: Compiled? = lock.withLock { idle[expression]?.popLast() }
        guard let compiled = borrowed ?? compile(expression, in: context) else { return nil }
        let result = xmlXPathCompiledEval(compiled.pointer, context)
        let kept: Bool = lock.withLock {
            guard idle[expression] != nil || idle.count < Self.capacity else { return false }
            idle[expression, default: []].append(compiled)
            return true
        }
        if !kept { xmlXPathFreeCompExpr(compiled.pointer) }
        return result
    }

    private func compile(_ expression: String, in context: xmlXPathContextPtr) -> Compiled? {
        let pointer = expression.withCString { text in
            text.withMemoryRebound(to: xmlChar.self, capacity: expression.utf8.count + 1) { xmlXPathCtxtCompile(context, $0) }
        }
        return pointer.map(Compiled.init)
    }
}
