package import Foundation

/// One asset's stored series, converted at each day's own rates: `cryptoreport history`.
/// Values only; `HistoryRenderer` writes them as CSV, Markdown or JSON.
package struct HistoryExporter: Sendable {
    package var store: HistoryStore

    /// Told when what the series needed was left out: stored rows that could not be read
    /// (`HistoryError.unreadableRows`; with nothing left, that is the error instead), or runs
    /// whose rates lack the currency (`unpricedRuns`).
    package var onLeftOut: @Sendable (HistoryError) -> Void
    /// Only the runs of this exchange (`--source`); nil: every run, whichever exchange served it.
    package var exchange: Exchange?

    package init(store: HistoryStore, exchange: Exchange? = nil, onLeftOut: @escaping @Sendable (HistoryError) -> Void = { _ in }) {
        self.store = store
        self.exchange = exchange
        self.onLeftOut = onLeftOut
    }

    /// The stored runs in `range` of `exchange` (every run when nil), in time order.
    private func runs(in range: ClosedRange<Date>) throws(HistoryError) -> [RunSummary] {
        let runs = try store.runs(in: range)
        guard let exchange else { return runs }
        return runs.filter { $0.exchange == exchange }
    }

    package struct Point: Sendable, Equatable {
        package var time: Date
        package var kind: Snapshot.Kind
        package var row: MarketRow
        package var ratesDate: String
    }

    /// Every stored run of the last `days` days up to `now` that holds the market, oldest first.
    /// `symbol` is a base asset (its primary market in each run) or an exact market symbol.
    /// No run in the window is an empty series; runs none of which has rates for `currency`, or
    /// none of which holds the market, are an error saying so, not an empty export.
    package func series(symbol: String, currency: String, days: Int, now: Date) throws(HistoryError) -> [Point] {
        try series(symbol: symbol, currency: currency, days: days, runs: try runs(in: now.addingTimeInterval(-Double(days) * 86400)...now))
    }

    /// An empty window, said plainly: the newest run recorded before it, and the `--days` that
    /// reaches it. The currency and the market are judged against every recorded run first, so
    /// that a name no run has is an error whatever `--days` is. A database that holds no run throws
    /// `noRuns`, and none of `exchange` `noRunsOfExchange`; `nil`: every run it holds is newer than
    /// `now` (an exchange clock ahead of ours).
    package struct EmptyWindow: Sendable, Equatable {
        package var newestRun: Date
        package var daysNeeded: Int
    }

    package func emptyWindow(symbol: String, currency: String, now: Date) throws(HistoryError) -> EmptyWindow? {
        let all = try runs(in: Date.distantPast...now)
        guard let newest = all.last else {
            if try runs(in: Date.distantPast...Date.distantFuture).isEmpty {
                let every = try store.runs(in: Date.distantPast...Date.distantFuture)
                guard let exchange, !every.isEmpty else { throw .noRuns(path: store.path) }
                let recorded = Exchange.allCases.filter { held in every.contains { $0.exchange == held } }
                throw .noRunsOfExchange(path: store.path, exchange: exchange, recorded: recorded)
            }
            return nil
        }
        let span = Int((now.timeIntervalSince(all[0].sourceTime) / 86400).rounded(.up))
        // Newest first, a run at a time: the common case (the newest run has both) reads one.
        var found = false
        for run in all.reversed() where !found {
            found = try !series(symbol: symbol, currency: currency, days: span, runs: [run], quietly: true).isEmpty
        }
        if !found { _ = try series(symbol: symbol, currency: currency, days: span, runs: all) }
        return EmptyWindow(newestRun: newest.sourceTime, daysNeeded: Int((now.timeIntervalSince(newest.sourceTime) / 86400).rounded(.up)))
    }

    /// `quietly`: an empty result instead of the errors, for probing one run at a time.
    private func series(symbol: String, currency: String, days: Int, runs: [RunSummary], quietly: Bool = false) throws(HistoryError) -> [Point] {
        let wanted = symbol.lowercased()
        var points: [Point] = []
        let outcome = try Self.convert(wanted, currency: currency, runs: runs, store: store) { points.append($0) }
        if quietly { return points }
        let convertible = outcome.convertible
        if outcome.unreadable > 0 {
            // A damaged row is said as such: left out silently, a market whose every row was
            // damaged read as "no market matches", and a base asset fell to another market.
            let damage = HistoryError.unreadableRows(path: store.path, symbol: wanted, rows: outcome.unreadable)
            if points.isEmpty { throw damage }
            onLeftOut(damage)
        }
        if outcome.unpriced > 0 && !points.isEmpty {
            onLeftOut(.unpricedRuns(path: store.path, symbol: wanted, currency: currency.uppercased(), runs: outcome.unpriced))
        }
        // The currencies on record only for the error, read for it: gathered per run, they were a
        // tenth of a ten-year `history`.
        if !runs.isEmpty && !convertible {
            let currencies = try store.currencies(of: runs)
            if !currencies.isEmpty { throw .currencyNotRecorded(currency: currency, available: currencies.sorted()) }
        }
        if !runs.isEmpty && convertible && points.isEmpty {
            throw .noSeries(symbol: wanted, days: days, runs: runs.count)
        }
        return points
    }

    /// What a pass over runs found besides its points: whether any run could be converted into
    /// the currency at all, and how many stored rows could not be read.
    private struct Outcome {
        var convertible = false
        var unreadable = 0
        /// Runs of the asset whose rates cannot convert into the currency.
        var unpriced = 0
    }

    /// The points of `runs`, in time order, each handed to `emit` (at most one a run).
    private static func convert(
        _ wanted: String, currency: String, runs: [RunSummary], store: HistoryStore, _ emit: (Point) -> Void
    ) throws(HistoryError) -> Outcome {
        var convertible = false
        var unpriced = 0
        /// One of the asset's own markets (not one that prices it).
        func isOwn(_ ticker: Ticker) -> Bool {
            CurrencyConverter.lowercased(ticker.symbol) == wanted || CurrencyConverter.lowercased(ticker.baseAsset) == wanted
        }
        let selector = MarketSelector(Selection(markets: .primary, symbols: [wanted]))
        let analyser = MarketAnalyser()
        // The run before's choice, and this run's markets, in buffers used again run after run.
        var last = Choice()
        var choice = Choice()
        var own: [(ticker: Ticker, rate: Decimal?)] = []
        // Only the asset's markets and those that price them: what a run's other markets would add
        // to its rows is nothing (each row is converted on its own), at a hundred times the cost.
        // Only the rates a conversion into `currency` reads (`CurrencyConverter`).
        let unreadable = try store.forEachRun(of: wanted, in: runs, currencies: CurrencyConverter.ecbCurrencies.union([currency.uppercased()])) {
            run, stored, rates in
            guard let rates, let converter = try? CurrencyConverter(rates: rates, target: currency),
                let quoteRates = try? converter.quoteRates(for: stored.lazy.map(\.ticker))
            else {
                // Counted only where the run holds the asset: a run without it adds nothing either way.
                if stored.contains(where: { isOwn($0.ticker) }) { unpriced += 1 }
                return
            }
            convertible = true
            // Only the asset's own markets analysed: a row is made from its ticker alone, and the
            // pricing markets' rows were never chosen.
            choice.markets.removeAll(keepingCapacity: true)
            choice.rated.removeAll(keepingCapacity: true)
            choice.pick = nil
            own.removeAll(keepingCapacity: true)
            for (nameID, ticker) in stored where isOwn(ticker) {
                let rate = quoteRates.rates[CurrencyConverter.lowercased(ticker.quoteAsset)]?.rate
                choice.markets.append(nameID)
                choice.rated.append(rate != nil)
                own.append((ticker, rate))
            }
            // The same markets, priced or not, as the run before: the same one chosen, and only
            // its row made (a row is about a microsecond; two a day, and the selection, were a
            // fifth of a ten-year export).
            if last.markets == choice.markets, last.rated == choice.rated, let pick = last.pick {
                guard let index = pick, let rate = own[index].rate else { return }
                var row = analyser.row(own[index].ticker, rate: rate, currency: converter.target)
                row.exchange = run.exchange
                emit(Point(time: run.sourceTime, kind: run.kind, row: row, ratesDate: rates.date))
                return
            }
            // Every priced market's row, in stored order, as `MarketAnalyser.analyse` makes them.
            var rows: [MarketRow] = []
            var positions: [Int] = []
            for (index, market) in own.enumerated() {
                guard let rate = market.rate else { continue }
                rows.append(analyser.row(market.ticker, rate: rate, currency: converter.target))
                positions.append(index)
            }
            let row: MarketRow?
            if let exact = rows.firstIndex(where: { $0.symbol.lowercased() == wanted }) {
                row = rows[exact]
                choice.pick = .some(positions[exact])
            } else {
                let selected = selector.select(rows)
                row = selected.first
                // One market kept or none: the choice is made by the names alone (only several
                // kept are ordered by their figures), so it holds for the same markets again.
                if let chosen = selected.first {
                    if selected.count == 1, let index = rows.firstIndex(of: chosen) { choice.pick = .some(positions[index]) }
                } else {
                    choice.pick = .some(nil)
                }
            }
            swap(&last, &choice)
            guard var row else { return }
            row.exchange = run.exchange
            emit(Point(time: run.sourceTime, kind: run.kind, row: row, ratesDate: rates.date))
        }
        return Outcome(convertible: convertible, unreadable: unreadable, unpriced: unpriced)
    }

    /// Which of a run's own markets was chosen: their names in stored order, which of them had a
    /// rate, and the position of the chosen one (`.some(nil)`: none; `nil`: made by figures).
    private struct Choice {
        var markets: [Int64] = []
        var rated: [Bool] = []
        var pick: Int??
    }
}
