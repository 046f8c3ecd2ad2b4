package import Foundation

/// Computes each market's trend from the history store, converting every past day with that
/// day's own ECB rates, so a SEK trend is in the SEK of each day.
package struct TrendCalculator: Sendable {
    package var store: HistoryStore
    /// Runs priced ahead (`readAhead`), by currency; what they lack is read when needed.
    package var ahead: [StoredPrices]
    /// The exchange of the rows: only its runs are compared with them.
    package var exchange: Exchange
    /// The report's `usd_stablecoins`: a stored day is priced as the report is.
    package var stablecoins: [String]

    package init(
        store: HistoryStore, ahead: [StoredPrices] = [], exchange: Exchange = .wazirx, stablecoins: [String] = CurrencyConverter.defaultStablecoins
    ) {
        self.store = store
        self.ahead = ahead
        self.exchange = exchange
        self.stablecoins = stablecoins
    }

    static let day: TimeInterval = 86400
    /// How far back the trends look: the 30-day change's run may be a day older still.
    static let window: TimeInterval = 31 * day

    /// Prices, in each of `currencies`, every run of the month before the newest stored run: a
    /// report's trends read a month before its own time, and a report is newer than every stored
    /// run (but a replayed day's), so this is read before that time is known, while the sources
    /// are fetched. A store of many runs a day is left to the trends, which read one a day.
    package static func readAhead(
        _ store: HistoryStore, currencies: [String], stablecoins: [String] = CurrencyConverter.defaultStablecoins
    ) throws(HistoryError) -> [StoredPrices] {
        var prices = currencies.map(StoredPrices.init)
        guard let newest = try store.newestRunTime() else { return prices }
        let runs = try store.runs(in: newest.addingTimeInterval(-window)...newest)
        guard runs.count <= 64 else { return prices }
        try StoredPrices.add(runs, to: &prices, from: store, stablecoins: stablecoins)
        return prices
    }

    /// Trends keyed by lower-cased market symbol, for the given current rows (in `currency`),
    /// whose data is of `now`. Runs at or after `now` are ignored, so the current run never
    /// counts as its own history.
    package func trends(for rows: [MarketRow], currency: String, at now: Date) throws(HistoryError) -> [String: Trend] {
        let made = try rowTrends(for: rows, currency: currency, at: now)
        var trends: [String: Trend] = [:]
        trends.reserveCapacity(rows.count)
        for (row, trend) in zip(rows, made) { trends[Self.lowercased(row.symbol)] = trend }
        return trends
    }

    /// Each row's trend, in the rows' order, as `trends(for:currency:at:)` gives it by symbol: a
    /// symbol listed twice (in any case) has its last listing's trend. Each row's is made from
    /// the row and the stored prices alone.
    package func rowTrends(for rows: [MarketRow], currency: String, at now: Date) throws(HistoryError) -> [Trend] {
        try rowTrendsAndDamage(for: rows, currency: currency, at: now).trends
    }

    /// `rowTrends(for:currency:at:)`, and how many stored rows of the runs priced for them (the
    /// read-ahead's and its own) could not be read and were left out.
    package func rowTrendsAndDamage(
        for rows: [MarketRow], currency: String, at now: Date
    ) throws(HistoryError) -> (trends: [Trend], unreadableRows: Int) {
        let runs = try store.runs(in: now.addingTimeInterval(-Self.window)...now.addingTimeInterval(-0.001)).filter { $0.exchange == exchange }
        let previous = runs.last { $0.kind == .report }
        let week = Self.latest(in: runs, from: now.addingTimeInterval(-8 * Self.day), to: now.addingTimeInterval(-7 * Self.day))
        let month = Self.latest(in: runs, from: now.addingTimeInterval(-Self.window), to: now.addingTimeInterval(-30 * Self.day))
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

        let wanted = [previous, week, month].compactMap({ $0 }) + days.compactMap({ daily[$0] })
        var read = [ahead.first { $0.currency == currency } ?? StoredPrices(currency: currency)]
        try StoredPrices.add(wanted, to: &read, from: store, stablecoins: stablecoins)
        let prices = read[0]
        func price(_ list: [Decimal?]?, _ slot: Int?) -> Decimal? {
            guard let list, let slot, slot < list.count else { return nil }
            return list[slot]
        }
        let dailyPrices = days.map { day in (day, prices.prices(of: daily[day])) }
        let previousPrices = prices.prices(of: previous)
        let weekPrices = prices.prices(of: week)
        let monthPrices = prices.prices(of: month)
        // A market priced on every day (nearly all) shares one list of its days, not a copy of
        // its own.
        let everyDay = days + [today]
        func trend(_ row: MarketRow, _ symbol: String) -> Trend {
            // A symbol listed twice has one slot, as in a dictionary keyed by symbol.
            let slot = prices.slots[symbol]
            var series: [Decimal] = []
            series.reserveCapacity(dailyPrices.count + 1)
            // The days of `series`, made only once a day is missing.
            var seriesDays: [String]?
            for (offset, (day, dayPrices)) in dailyPrices.enumerated() {
                if let price = price(dayPrices, slot) {
                    series.append(price)
                    seriesDays?.append(day)
                } else if seriesDays == nil {
                    seriesDays = Array(days[..<offset])
                }
            }
            series.append(row.price)
            var trend = Trend(
                sincePrevious: Trend.percent(from: price(previousPrices, slot), to: row.price),
                change7d: Trend.percent(from: price(weekPrices, slot), to: row.price),
                change30d: Trend.percent(from: price(monthPrices, slot), to: row.price),
                series: series)
            trend.days = seriesDays.map { $0 + [today] } ?? everyDay
            return trend
        }
        let made = rows.map { row in trend(row, Self.lowercased(row.symbol)) }
        // A symbol listed twice: every listing has the last one's trend, as its key has in
        // `trends(for:currency:at:)`.
        var lastListing: [String: Int] = [:]
        lastListing.reserveCapacity(rows.count)
        var listedTwice = false
        for (index, row) in rows.enumerated() where lastListing.updateValue(index, forKey: Self.lowercased(row.symbol)) != nil {
            listedTwice = true
        }
        guard listedTwice else { return (made, prices.unreadableRows) }
        return (rows.indices.map { index in lastListing[Self.lowercased(rows[index].symbol)].map { made[$0] } ?? made[index] }, prices.unreadableRows)
    }

    static func latest(in runs: [RunSummary], from start: Date, to end: Date) -> RunSummary? {
        runs.last { $0.sourceTime >= start && $0.sourceTime <= end }
    }

    /// The feed's symbols are lower case already; only another spelling pays for a new string.
    static func lowercased(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } ? text : text.lowercased()
    }
}
