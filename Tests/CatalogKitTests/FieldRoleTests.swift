@testable import CatalogKit
import SafeLibXML
import Testing

struct FieldRoleTests {
    /// The key as it was computed before the ASCII shortcut: the shortcut must give the same for every label.
    static func longWay(_ label: String) -> String {
        var key = label.lowercased()
        if key.hasSuffix("(s)") { key.removeLast(3) }
        key.removeAll { $0 == "." || $0 == ":" }
        return TextCollapsing.collapse(key)
    }

    @Test(arguments: ["Prerequisite(s)", "PREREQ.:", "Credit  Hours", "Co-Requisite(s):", "Typically Offered", "(s)", "",
                      "Cr.", "Description:", " Semester\tCredit Hours ", "Préalable(s)", "Credit\u{A0}Hours", "Units(S)",
                      "Credit . Hours", "..Credits..", "   ", ":", "Prereq(s).", "Lab\r\nHours", "credit\u{0B}hours"])
    func theASCIIShortcutGivesTheLongWaysKey(_ label: String) {
        #expect(FieldRole.key(label) == Self.longWay(label))
    }

    @Test func labelsMapToTheirRoles() {
        #expect(FieldRole(label: "Prerequisite(s)") == .prerequisite)
        #expect(FieldRole(label: "Credit\u{A0}Hours") == .credits)
        #expect(FieldRole(label: "Co-Requisites:") == .corequisite)
        #expect(FieldRole(label: "Typically  Offered") == .offered)
        #expect(FieldRole(label: "Formerly") == .other)
    }
}
