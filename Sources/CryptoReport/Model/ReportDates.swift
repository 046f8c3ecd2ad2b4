public import Foundation

/// The few date forms reports use, always in UTC so that every machine writes the same text.
public enum ReportDates {
    /// `2022-11-22`
    public static func day(_ date: Date) -> String {
        let parts = fields(date)
        return text { bytes in
            appendDay(parts, to: &bytes)
        }
    }

    /// `2022-11-22` from a calendar's own fields (`String(format:)`'s `%04d-%02d-%02d`).
    package static func day(year: Int, month: Int, day: Int) -> String {
        text { bytes in
            appendDay(Fields(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, nanosecond: 0), to: &bytes)
        }
    }

    /// `2022-11-22T00:51:32Z`, or with milliseconds when the time has them.
    public static func iso8601(_ date: Date) -> String {
        text { bytes in appendISO8601(date, to: &bytes) }
    }

    /// `iso8601(date)`'s bytes, for a writer that makes no `String` per cell.
    package static func appendISO8601<Sink: ByteSink & ~Copyable>(_ date: Date, to bytes: inout Sink) {
        let parts = fields(date)
        appendDay(parts, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendTime(parts, seconds: true, to: &bytes)
        let milliseconds = Int((Double(parts.nanosecond) / 1_000_000).rounded())
        if milliseconds > 0 && milliseconds < 1000 {
            bytes.append(UInt8(ascii: "."))
            appendPadded(milliseconds, width: 3, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// `2022-11-22 00:51 UTC`, for people.
    public static func minute(_ date: Date) -> String {
        let parts = fields(date)
        return text { bytes in
            appendDay(parts, to: &bytes)
            bytes.append(UInt8(ascii: " "))
            appendTime(parts, seconds: false, to: &bytes)
            bytes += " UTC".utf8
        }
    }

    struct Fields: Equatable {
        var year, month, day, hour, minute, second, nanosecond: Int
    }

    /// The UTC calendar fields of `date`. Worked out from the seconds (days from the civil
    /// calendar, Howard Hinnant's algorithm) for 1970 to 9999, where the proleptic Gregorian
    /// calendar is the one in use, without `Calendar.dateComponents` and `String(format:)` for
    /// each of a market's three dates. Other dates ask the calendar.
    static func fields(_ date: Date) -> Fields {
        let interval = date.timeIntervalSinceReferenceDate
        let whole = interval.rounded(.down)
        let sinceEpoch = whole + 978_307_200
        guard sinceEpoch >= 0, sinceEpoch < 253_402_300_800 else { return calendarFields(date) }
        let seconds = Int(sinceEpoch)
        let days = seconds / 86_400
        let secondOfDay = seconds % 86_400
        let shifted = days + 719_468
        let era = shifted / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return Fields(
            year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60, nanosecond: Int((interval - whole) * 1_000_000_000))
    }

    static func calendarFields(_ date: Date) -> Fields {
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        return Fields(
            year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0, hour: parts.hour ?? 0,
            minute: parts.minute ?? 0, second: parts.second ?? 0, nanosecond: parts.nanosecond ?? 0)
    }

    private static func text(_ body: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(28)
        body(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendDay<Sink: ByteSink & ~Copyable>(_ parts: Fields, to bytes: inout Sink) {
        appendPadded(parts.year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(parts.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(parts.day, width: 2, to: &bytes)
    }

    private static func appendTime<Sink: ByteSink & ~Copyable>(_ parts: Fields, seconds: Bool, to bytes: inout Sink) {
        appendPadded(parts.hour, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(parts.minute, width: 2, to: &bytes)
        if seconds {
            bytes.append(UInt8(ascii: ":"))
            appendPadded(parts.second, width: 2, to: &bytes)
        }
    }

    /// `%0Nd`.
    private static func appendPadded<Sink: ByteSink & ~Copyable>(_ value: Int, width: Int, to bytes: inout Sink) {
        // Every field of a date from 1970 to 9999 fits four digits: written without a String.
        if value >= 0 && value < 10_000 && width <= 4 {
            let digits = value < 10 ? 1 : value < 100 ? 2 : value < 1000 ? 3 : 4
            for _ in digits..<max(width, digits) { bytes.append(UInt8(ascii: "0")) }
            var divisor = digits == 1 ? 1 : digits == 2 ? 10 : digits == 3 ? 100 : 1000
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
            return
        }
        let digits = Array(String(value).utf8)
        if value >= 0 && digits.count < width {
            bytes.append([UInt8](repeating: UInt8(ascii: "0"), count: width - digits.count))
        }
        bytes.append(digits)
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
