package import Foundation

/// Computes each market's trend from the history store, converting every past day with that
/// day's own ECB rates, so a SEK trend is in the SEK of each day.
package struct TrendCalculator: Sendable {
    package var store: HistoryStore

    package init(store: HistoryStore) {
        self.store = store
    }

    static let day: TimeInterval = 86400

    /// Trends keyed by lower-cased market symbol, for the given current rows (in `currency`),
    /// whose data is of `now`. Runs at or after `now` are ignored, so the current run never
    /// counts as its own history.
    package func trends(for rows: [MarketRow], currency: String, at now: Date) throws(HistoryError) -> [String: Trend] {
        let runs = try store.runs(in: now.addingTimeInterval(-31 * Self.day)...now.addingTimeInterval(-0.001))
        let previous = runs.last { $0.kind == .report }
        let week = Self.latest(in: runs, from: now.addingTimeInterval(-8 * Self.day), to: now.addingTimeInterval(-7 * Self.day))
        let month = Self.latest(in: runs, from: now.addingTimeInterval(-31 * Self.day), to: now.addingTimeInterval(-30 * Self.day))
        // The line starts where the 30-day change is measured from, so that a chart, its rebased
        // comparison and the change printed beside them tell the same story.
        let monthDay = month.map { ReportDates.day($0.sourceTime) }
        var daily: [String: RunSummary] = [:]
        for run in runs where run.sourceTime > now.addingTimeInterval(-30 * Self.day) {
            daily[ReportDates.day(run.sourceTime)] = run  // oldest first, so the day's last run wins
        }
        if let month, let monthDay { daily[monthDay] = month }
        let today = ReportDates.day(now)
        let days = daily.keys.filter { day in day != today && day >= (monthDay ?? "") }.sorted()

        var prices: [Int64: [Decimal?]] = [:]
        let wanted = [previous, week, month].compactMap({ $0 }) + days.compactMap({ daily[$0] })
        // Only the markets the report shows, each by its position among the rows: a month of
        // every stored market is most of the cost, and hashing each symbol once per stored day
        // (not twice, and not per day again when the trends are assembled) most of the rest.
        var positions: [String: Int] = [:]
        positions.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() where positions[Self.lowercased(row.symbol)] == nil {
            positions[Self.lowercased(row.symbol)] = index
        }
        var pricer: StoredDayPricer?
        try store.forEachLastPrices(of: wanted) { names, id, stored, rates in
            if pricer == nil { pricer = StoredDayPricer(names: names, positions: positions, count: rows.count, currency: currency) }
            prices[id] = pricer?.prices(stored, rates: rates)
        }
        let dailyPrices = days.map { day in (day, daily[day].flatMap { prices[$0.id] }) }
        let previousPrices = previous.flatMap { prices[$0.id] }
        let weekPrices = week.flatMap { prices[$0.id] }
        let monthPrices = month.flatMap { prices[$0.id] }
        var trends: [String: Trend] = [:]
        trends.reserveCapacity(rows.count)
        // A market priced on every day (nearly all) shares one list of its days, not a copy of
        // its own: building a list per market was most of assembling the trends.
        let everyDay = days + [today]
        for (index, row) in rows.enumerated() {
            let symbol = Self.lowercased(row.symbol)
            // A symbol listed twice is priced at its first position, as a dictionary of symbols priced it.
            let position = positions[symbol] ?? index
            var series: [Decimal] = []
            series.reserveCapacity(dailyPrices.count + 1)
            // The days of `series`, made only once a day is missing.
            var seriesDays: [String]?
            for (offset, (day, dayPrices)) in dailyPrices.enumerated() {
                if let price = dayPrices?[position] {
                    series.append(price)
                    seriesDays?.append(day)
                } else if seriesDays == nil {
                    seriesDays = Array(days[..<offset])
                }
            }
            series.append(row.price)
            var trend = Trend(
                sincePrevious: Trend.percent(from: previousPrices?[position], to: row.price),
                change7d: Trend.percent(from: weekPrices?[position], to: row.price),
                change30d: Trend.percent(from: monthPrices?[position], to: row.price),
                series: series)
            trend.days = seriesDays.map { $0 + [today] } ?? everyDay
            trends[symbol] = trend
        }
        return trends
    }

    static func latest(in runs: [RunSummary], from start: Date, to end: Date) -> RunSummary? {
        runs.last { $0.sourceTime >= start && $0.sourceTime <= end }
    }

    /// The feed's symbols are lower case already; only another spelling pays for a new string.
    static func lowercased(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } ? text : text.lowercased()
    }
}
