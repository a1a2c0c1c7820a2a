/// Whitespace handling shared by every text the wrapper hands out.
public enum TextCollapsing {
    /// Collapses every run of white space (including NBSP and the other Unicode spaces) to one
    /// ASCII space and trims both ends. Entities are already decoded by libxml2.
    public static func collapse<S: StringProtocol>(_ text: S) -> String {
        var output = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isCollapsibleSpace(scalar) {
                pendingSpace = !output.isEmpty
                continue
            }
            if pendingSpace {
                output.append(" ")
                pendingSpace = false
            }
            output.append(scalar)
        }
        return String(output)
    }

    /// White space as a reader sees it: ASCII spaces, NBSP, the Unicode space separators, line and paragraph separators.
    public static func isCollapsibleSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }
}
