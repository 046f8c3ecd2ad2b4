package import Foundation
import GRDB

/// The holdings' totals of earlier runs: the changes over 7 and 30 days, since the last report,
/// and the line of their value over the month.
extension HistoryStore {
    /// The totals in `currency` recorded by runs of `exchange` (whose prices valued them, as a
    /// market's trend compares it with its own exchange's runs) before `now` (this run's data time) that the report's
    /// changes and chart read, chosen as the markets' trends choose their runs
    /// (`TrendCalculator`): the previous report, the newest run 7 to 8 and 30 to 31 days before,
    /// each day's last run since. `total` ends the line. nil when no earlier run kept a total in
    /// `currency`.
    package func holdingsPast(currency: String, total: Decimal, at now: Date, exchange: Exchange) throws(HistoryError) -> HoldingsValue.Past? {
        let day = TrendCalculator.day
        let stored = try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.source_time, r.kind, h.total FROM holdings_total h JOIN run r ON r.id = h.run_id
                    WHERE h.currency = ? AND r.exchange = ? AND r.source_time >= ? AND r.source_time < ?
                    ORDER BY r.source_time, r.fetched_at
                    """,
                arguments: [currency, exchange.rawValue, Self.milliseconds(now.addingTimeInterval(-TrendCalculator.window)), Self.milliseconds(now)]
            ).compactMap { row -> (time: Date, kind: String, total: Decimal)? in
                // A total that does not read back as a number is left out, not guessed.
                guard let total = DecimalText.parse(row[2] as String) else { return nil }
                return (Self.date(row[0]), row[1], total)
            }
        }
        guard !stored.isEmpty else { return nil }
        func latest(from start: Date, to end: Date) -> (time: Date, kind: String, total: Decimal)? {
            stored.last { $0.time >= start && $0.time <= end }
        }
        let month = latest(from: now.addingTimeInterval(-TrendCalculator.window), to: now.addingTimeInterval(-30 * day))
        var past = HoldingsValue.Past(
            previous: stored.last { $0.kind == Snapshot.Kind.report.rawValue }?.total,
            weekAgo: latest(from: now.addingTimeInterval(-8 * day), to: now.addingTimeInterval(-7 * day))?.total,
            monthAgo: month?.total)
        // The line starts where the 30-day change is measured from, as a market's does.
        var daily: [String: Decimal] = [:]
        for each in stored where each.time > now.addingTimeInterval(-30 * day) {
            daily[ReportDates.day(each.time)] = each.total  // oldest first: the day's last run wins
        }
        if let month { daily[ReportDates.day(month.time)] = month.total }
        let today = ReportDates.day(now)
        let days = daily.keys.filter { $0 != today }.sorted()
        past.series = days.compactMap { daily[$0] } + [total]
        past.days = days + [today]
        return past
    }
}
