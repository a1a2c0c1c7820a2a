/// Credit hours as a range, read from the many ways catalogs write them.
public struct CreditRange: Sendable, Equatable, Codable {
    public var min: Double
    public var max: Double

    public init(min: Double, max: Double) {
        self.min = Swift.min(min, max)
        self.max = Swift.max(min, max)
    }

    /// The app's single integer: the minimum rounded down, the credit a student is sure to earn; 0 for "Variable".
    public var appCredits: Int { min.rounded(.down).exactWholeNumber ?? 0 }

    /// Whether credits with no number say they vary ("Variable", "VAR"): understood, though no range can be given.
    public static func saysVariable(_ text: String) -> Bool {
        let words = text.lowercased().split { !$0.isLetter && !$0.isNumber }
        return words.contains { $0 == "variable" || $0 == "var" } && !words.contains { $0.contains(where: \.isNumber) }
    }

    /// No course carries this many credits: a number this large on a credits line is something else, or garbage.
    static let implausible = 1_000.0

    /// The words that may stand between a credit value's numbers (made once: the set is asked for every course).
    private static let joinerWords: Set<String> = ["-", "to", "or", "per", "sem", "semester", "credit", "credits", "hour",
        "hours", "hrs", "hr", "cr", "units", "unit", "sh", "s", "variable", "var"]

    /// Reads "3", "1-3", "1 to 3", "3 or 4", "1-12 per sem.", "3 Credit Hours" and the triple "(3-0-0)"; else nil.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        let scalars = Array(lowered.unicodeScalars)
        var numbers: [Double] = []
        var joiners: [String] = []
        var index = 0
        var word = ""
        func flushWord() {
            if !word.isEmpty { joiners.append(word); word = "" }
        }
        while index < scalars.count {
            let c = scalars[index]
            if (c >= "0" && c <= "9") || (c == "." && index + 1 < scalars.count && scalars[index + 1] >= "0" && scalars[index + 1] <= "9") {
                flushWord()
                var literal = ""
                while index < scalars.count, (scalars[index] >= "0" && scalars[index] <= "9") || scalars[index] == "." {
                    literal.unicodeScalars.append(scalars[index])
                    index += 1
                }
                guard let value = Double(literal.hasSuffix(".") ? String(literal.dropLast()) : literal),
                      value < Self.implausible else { return nil }
                numbers.append(value)
                continue
            }
            if c == "-" || c == "\u{2013}" || c == "\u{2014}" {
                flushWord()
                joiners.append("-")
            } else if c == " " || c == "(" || c == ")" || c == "," || c == ":" || c == "." {
                flushWord()
            } else {
                word.unicodeScalars.append(c)
            }
            index += 1
        }
        flushWord()
        guard joiners.allSatisfy(Self.joinerWords.contains) else { return nil }
        switch numbers.count {
        case 1:
            self.init(min: numbers[0], max: numbers[0])
        case 2 where joiners.contains("-") || joiners.contains("to") || joiners.contains("or"):
            self.init(min: numbers[0], max: numbers[1])
        case 3 where joiners.filter({ $0 == "-" }).count == 2:
            // GVSU's contact-hour triple (credits-lecture-lab): the credits come first.
            self.init(min: numbers[0], max: numbers[0])
        default:
            return nil
        }
    }
}
