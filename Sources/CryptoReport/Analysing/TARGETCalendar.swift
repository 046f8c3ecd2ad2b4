package import Foundation

/// The days the ECB publishes its reference rates: TARGET working days, around 16:00 CET.
///
/// TARGET is closed on Saturdays and Sundays, New Year's Day, Good Friday, Easter Monday,
/// 1 May, and 25 and 26 December.
package enum TARGETCalendar {
    /// Frankfurt local time of publication (the ECB says "around 16:00 CET"); a little slack so
    /// that a run at 16:01 does not call the rates of yesterday late.
    static let publicationHour = 16
    static let publicationMinute = 30

    static let frankfurt: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin") ?? TimeZone(secondsFromGMT: 3600) ?? calendar.timeZone
        return calendar
    }()

    package static func isWorkingDay(year: Int, month: Int, day: Int) -> Bool {
        guard let date = frankfurt.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) else { return false }
        let weekday = frankfurt.component(.weekday, from: date)
        if weekday == 1 || weekday == 7 { return false }
        if (month, day) == (1, 1) || (month, day) == (5, 1) || (month, day) == (12, 25) || (month, day) == (12, 26) {
            return false
        }
        let easter = easterSunday(year: year)
        for offset in [-2, 1] {  // Good Friday, Easter Monday
            if let holiday = frankfurt.date(byAdding: .day, value: offset, to: easter),
                frankfurt.isDate(holiday, inSameDayAs: date)
            {
                return false
            }
        }
        return true
    }

    /// The date of the newest rates that should have been published by `instant`: YYYY-MM-DD.
    package static func expectedRatesDate(at instant: Date) -> String {
        var day = frankfurt.startOfDay(for: instant)
        let parts = frankfurt.dateComponents([.hour, .minute], from: instant)
        let published = (parts.hour ?? 0, parts.minute ?? 0) >= (publicationHour, publicationMinute)
        if !published {
            day = frankfurt.date(byAdding: .day, value: -1, to: day) ?? day
        }
        for _ in 0..<15 {
            let c = frankfurt.dateComponents([.year, .month, .day], from: day)
            if isWorkingDay(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0) {
                return ReportDates.day(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0)
            }
            day = frankfurt.date(byAdding: .day, value: -1, to: day) ?? day
        }
        return ReportDates.day(instant)
    }

    /// Of `days` (newest first, at least one), the newest that could be out by `instant`; when
    /// none could, the oldest. A replayed day of tickers is priced at that day's rates, not at the
    /// newest ones in a history file.
    package static func ratesInEffect(_ days: [ExchangeRates], at instant: Date) -> ExchangeRates? {
        days.first { !isAhead($0.date, of: instant) } ?? days.last
    }

    /// The rates of `date` cannot have been out by `instant`. Judged by the earliest they appear
    /// (15:00 Frankfurt time: the rates are set at 14:15 and published "around 16:00"), unlike
    /// `expectedRatesDate`, whose slack is there not to call on-time rates late.
    package static func isAhead(_ date: String, of instant: Date) -> Bool {
        guard let published = publication(of: date, hour: earliestPublicationHour) else { return false }
        return published > instant
    }

    static let earliestPublicationHour = 15

    /// When the rates of `date` (YYYY-MM-DD) were published, or `nil` for a malformed date.
    package static func publication(of date: String, hour: Int = 16) -> Date? {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3 else { return nil }
        return frankfurt.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: hour))
    }

    /// Easter Sunday (Gregorian), by the anonymous algorithm (Meeus/Jones/Butcher).
    static func easterSunday(year: Int) -> Date {
        let a = year % 19, b = year / 100, c = year % 100
        let d = b / 4, e = b % 4, f = (b + 8) / 25, g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return frankfurt.date(from: DateComponents(year: year, month: month, day: day, hour: 12)) ?? Date(timeIntervalSince1970: 0)
    }
}
