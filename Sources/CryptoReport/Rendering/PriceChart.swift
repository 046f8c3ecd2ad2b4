import Foundation

/// What the page's price charts are made of: their points and limits, the days they span and how
/// a day is written under them. The charts themselves are drawn by the page's script
/// (`Templates/report.js`, `chart`), the cards' and the details' alike.
enum PriceChart {
    struct Point {
        /// `2022-11-22`.
        var day: String
        var value: Decimal
    }

    /// A reader's alert limit in the chart's currency; the page names it (`limitLabel`).
    struct Limit {
        var value: Decimal
        /// `up` for an upper limit, `down` for a lower one: the colour of what crossing it means.
        var direction: String
    }

    /// How many days a dated series spans, as a change over it is counted: `2022-10-23` …
    /// `2022-11-22` is 30, the span of the 30-day change. `nil` when the days are not known or not dates.
    static func daysCovered(_ days: [String]) -> Int? {
        guard let first = days.first.flatMap(dayNumber), let last = days.last.flatMap(dayNumber), last >= first else { return nil }
        return last - first
    }

    /// Days since 1970-01-01 of `2022-11-22` (proleptic Gregorian, as ISO 8601 dates are).
    static func dayNumber(_ day: String) -> Int? {
        let parts = day.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let date = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(date)
        else { return nil }
        // Howard Hinnant's days_from_civil: years start in March, so the leap day is last.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + date - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Charts are pictures: a `Double` is exact enough for a pixel.
    static func double(_ value: Decimal) -> Double { NSDecimalNumber(decimal: value).doubleValue }

    /// Whether the locale writes a short date month first, as CLDR's `MMMd` has it for the
    /// United States, Canada and the Philippines (`Nov 22`); the rest of English, and Swedish,
    /// write the day first. Read from the identifier, not ICU: a date pattern per report for
    /// one word's order.
    static func writesMonthFirst(_ localeIdentifier: String) -> Bool {
        let parts = localeIdentifier.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." || $0 == "@" }).map(String.init)
        guard parts.first?.lowercased() == "en" else { return false }
        return parts.dropFirst().contains { ["US", "CA", "PH"].contains($0.uppercased()) }
    }
}
