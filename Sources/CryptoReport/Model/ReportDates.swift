import Foundation

/// The few date forms reports use, always in UTC so that every machine writes the same text.
public enum ReportDates {
    /// `2022-11-22`
    public static func day(_ date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    /// `2022-11-22T00:51:32Z`, or with milliseconds when the time has them.
    public static func iso8601(_ date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .nanosecond], from: date)
        let base = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0)
        let milliseconds = Int(((Double(parts.nanosecond ?? 0) / 1_000_000)).rounded())
        return milliseconds > 0 && milliseconds < 1000 ? base + String(format: ".%03dZ", milliseconds) : base + "Z"
    }

    /// `2022-11-22 00:51 UTC`, for people.
    public static func minute(_ date: Date) -> String {
        let parts = utcCalendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d UTC", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0,
            parts.hour ?? 0, parts.minute ?? 0)
    }

    private static let utcCalendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        return calendar
    }()
}
