import Foundation

/// Instants as RFC 3339 in UTC to the second, "2024-05-01T12:00:00Z": what Atom and the app's `.iso8601` read.
public enum Timestamp {
    /// The instant, whole seconds (rounded down), in UTC.
    public static func string(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
                      Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Reads exactly the form `string(_:)` writes; nil for anything else.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        // "0" stands for any digit.
        let form = Array("0000-00-00T00:00:00Z".utf8)
        guard bytes.count == form.count, zip(bytes, form).allSatisfy({ byte, expected in
            expected == UInt8(ascii: "0") ? (0x30...0x39).contains(byte) : byte == expected
        }) else { return nil }
        func number(_ from: Int, _ length: Int) -> Int32 {
            bytes[from..<(from + length)].reduce(0) { $0 * 10 + Int32($1 - 0x30) }
        }
        var parts = tm()
        parts.tm_year = number(0, 4) - 1900
        parts.tm_mon = number(5, 2) - 1
        parts.tm_mday = number(8, 2)
        parts.tm_hour = number(11, 2)
        parts.tm_min = number(14, 2)
        parts.tm_sec = number(17, 2)
        let date = Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
        // timegm normalizes 31 February into March, hour 24 into the next day; such a text is not a date.
        return string(date) == text ? date : nil
    }

    /// A time or a day as people read it: "1 Aug 2024" for "2024-08-01T06:00:00Z" or "2024-08-01"; nil for other text.
    public static func day(_ text: String) -> String? {
        let stamp = text.count == 10 ? text + "T00:00:00Z" : text
        guard let date = date(stamp) else { return nil }
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return "\(parts.tm_mday) \(months[Int(parts.tm_mon)]) \(Int(parts.tm_year) + 1900)"
    }

    /// The day and the time of day, for when a run happened: "6 Dec 2026, 13:41 UTC"; the text itself when it is no time.
    public static func dayAndTime(_ text: String) -> String {
        guard let day = day(text), text.count == 20 else { return text }
        return "\(day), \(text.dropFirst(11).prefix(5)) UTC"
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The form for file names and identifiers: "20240501T120000Z".
    public static func compact(_ text: String) -> String {
        text.filter { $0 != "-" && $0 != ":" }
    }
}

/// The run's time: `SOURCE_DATE_EPOCH` when set (so the same pages give byte-identical outputs), else the clock.
public enum RunClock {
    public static let variable = "SOURCE_DATE_EPOCH"

    /// The run's time, or nil when the variable is set but is no whole number of seconds since 1970 (UTC).
    public static func now(environment: [String: String] = ProcessInfo.processInfo.environment) -> Date? {
        guard let text = environment[variable] else { return Date() }
        guard let seconds = Int64(text), seconds >= 0, seconds < 253_402_300_800 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
