import Foundation

/// Checks the alert rules against this run's data.
package struct AlertEvaluator: Sendable {
    /// The report's `usd_stablecoins`, so that a rule's currency prices the markets as a report
    /// in it would.
    package var stablecoins: [String]

    package init(stablecoins: [String] = CurrencyConverter.defaultStablecoins) {
        self.stablecoins = stablecoins
    }

    package struct Result: Sendable, Equatable {
        package var fired: [FiredAlert] = []
        /// Rules that could not be checked, and why.
        package var notes: [AlertNote] = []
    }

    /// Linear in rules + markets: the report's rows are indexed once for the move rules, and an
    /// `above`/`below` rule's currency is priced once per currency, however many rules name it.
    package func evaluate(_ rules: [AlertRule], report: Report, tickers: [Ticker], rates: ExchangeRates) -> Result {
        var result = Result()
        // Nothing to watch, nothing to index: a run without rules makes no index of its markets.
        guard !rules.isEmpty else { return result }
        let shown = MarketIndex(report.rows)
        // Per currency a rule names: every market priced in it, or nil when the rates lack it.
        var priced: [String: MarketIndex?] = [:]
        for rule in rules {
            if rule.watchesHoldings {
                holdings(rule, report: report, into: &result) { currency in
                    if priced[currency] == nil {
                        priced[currency] = Self.index(tickers, rates: rates, currency: currency, stablecoins: stablecoins)
                    }
                    return priced[currency] ?? nil
                }
                continue
            }
            switch rule.condition {
            case let .above(limit, named), let .below(limit, named):
                guard let asset = rule.asset else { continue }
                // A limit in USDT, as the markets are quoted, is one in USD, as its chart draws
                // it: the ECB has no USDT.
                let currency = CurrencyCode.atPar(named)
                if priced[currency] == nil {
                    priced[currency] = Self.index(tickers, rates: rates, currency: currency, stablecoins: stablecoins)
                }
                guard let markets = priced[currency] ?? nil else {
                    result.notes.append(AlertNote(rule: rule, reason: .currencyNotInRates(currency: currency, ratesDate: rates.date)))
                    continue
                }
                guard let row = markets.market(asset) else {
                    result.notes.append(AlertNote(rule: rule, reason: .noMarket(asset: asset)))
                    continue
                }
                let isAbove: Bool
                if case .above = rule.condition { isAbove = true } else { isAbove = false }
                guard isAbove ? row.price > limit : row.price < limit else { continue }
                result.fired.append(Self.fired(rule, row, .price(row.price, currency: currency)))
            case let .move(limit):
                if let note = Self.unwatched(rule, shown: shown, tickers: tickers) {
                    result.notes.append(note)
                    continue
                }
                for row in shown.rows(for: rule.asset) {
                    guard let change = row.changePercent, abs(change) >= limit else { continue }
                    result.fired.append(
                        Self.fired(rule, row, .change(change, period: .day, price: row.price, currency: report.currency)))
                }
            case let .moveSinceLastReport(limit):
                // A database with no earlier run of these markets (the first run into a folder)
                // is no history either: said, not silently never firing.
                if let note = Self.unwatched(rule, shown: shown, tickers: tickers) {
                    result.notes.append(note)
                    continue
                }
                let rows = shown.rows(for: rule.asset)
                guard report.hasHistory, rows.contains(where: { $0.trend?.sincePrevious != nil }) else {
                    result.notes.append(AlertNote(rule: rule, reason: .noHistory))
                    continue
                }
                for row in rows {
                    guard let change = row.trend?.sincePrevious, abs(change) >= limit else { continue }
                    result.fired.append(
                        Self.fired(rule, row, .change(change, period: .sinceLastReport, price: row.price, currency: report.currency)))
                }
            }
        }
        return result
    }

    /// A rule on the holdings' total: a price limit in the rule's currency (each holding at its
    /// asset's primary market in it, as a report in that currency values it), a move over 24 h
    /// or since the last report in the report currency.
    private func holdings(_ rule: AlertRule, report: Report, into result: inout Result, markets: (String) -> MarketIndex?) {
        guard let value = report.holdings else {
            result.notes.append(AlertNote(rule: rule, reason: .noHoldings))
            return
        }
        func fire(_ figure: FiredAlert.Figure, currency: String) {
            result.fired.append(
                FiredAlert(rule: rule, symbol: AlertRule.holdings, baseAsset: AlertRule.holdings, quoteAsset: currency.lowercased(), figure: figure))
        }
        switch rule.condition {
        case let .above(limit, named), let .below(limit, named):
            let currency = CurrencyCode.atPar(named)
            var total = value.total
            if currency != report.currency {
                guard let index = markets(currency) else {
                    result.notes.append(AlertNote(rule: rule, reason: .currencyNotInRates(currency: currency, ratesDate: report.rates.date)))
                    return
                }
                // Valued as a report in that currency values them (`HoldingsValuer`); what was paid
                // plays no part in the total.
                let held = value.positions.map { Holding(asset: $0.asset, amount: $0.amount) }
                do throws(UsageError) {
                    total = try HoldingsValuer(held).value(rows: index.all, currency: currency) { _ in 1 }?.total ?? 0
                } catch {
                    if case let .holdingUnpriced(asset) = error {
                        result.notes.append(AlertNote(rule: rule, reason: .noMarket(asset: asset)))
                    }
                    return
                }
            }
            if case .above = rule.condition, total > limit { fire(.price(total, currency: currency), currency: currency) }
            if case .below = rule.condition, total < limit { fire(.price(total, currency: currency), currency: currency) }
        case let .move(limit):
            guard let change = value.change24hPercent else {
                result.notes.append(AlertNote(rule: rule, reason: .noHoldingsChange))
                return
            }
            if abs(change) >= limit { fire(.change(change, period: .day, price: value.total, currency: report.currency), currency: report.currency) }
        case let .moveSinceLastReport(limit):
            guard let change = value.sinceLastReport?.percent else {
                result.notes.append(AlertNote(rule: rule, reason: .noHistory))
                return
            }
            if abs(change) >= limit {
                fire(.change(change, period: .sinceLastReport, price: value.total, currency: report.currency), currency: report.currency)
            }
        }
    }

    /// Why a move rule naming one market watches none: moves are watched among the report's
    /// rows, so `btc move 1 %` with `--symbols eth` cannot fire, and the note says why.
    static func unwatched(_ rule: AlertRule, shown: MarketIndex, tickers: [Ticker]) -> AlertNote? {
        guard let asset = rule.asset, shown.market(asset) == nil else { return nil }
        let listed = tickers.contains { $0.symbol.lowercased() == asset || $0.baseAsset.lowercased() == asset }
        return AlertNote(rule: rule, reason: listed ? .notInReport(asset: asset) : .noMarket(asset: asset))
    }

    /// Every market priced in `currency`, at the same rates a report in that currency would use
    /// (not only the report's rows: `--symbols` and `--top` choose what is shown, not what is
    /// watched); nil when the rates have no such currency.
    static func index(
        _ tickers: [Ticker], rates: ExchangeRates, currency: String, stablecoins: [String] = CurrencyConverter.defaultStablecoins
    ) -> MarketIndex? {
        guard let quoteRates = try? CurrencyConverter(rates: rates, target: currency, stablecoins: stablecoins).quoteRates(for: tickers) else {
            return nil
        }
        return MarketIndex(MarketAnalyser().analyse(tickers, rates: quoteRates, currency: currency).rows)
    }

    private static func fired(_ rule: AlertRule, _ row: MarketRow, _ figure: FiredAlert.Figure) -> FiredAlert {
        FiredAlert(rule: rule, symbol: row.symbol, baseAsset: row.baseAsset, quoteAsset: row.quoteAsset, figure: figure)
    }

    /// Markets found by exact symbol, else by base asset's primary market, in constant time.
    /// Positions into `all`, not copies of its rows, so that no market is held more than once.
    struct MarketIndex {
        var all: [MarketRow]
        var bySymbol: [String: Int] = [:]
        var primaryByBase: [String: Int]

        init(_ rows: [MarketRow]) {
            all = rows
            bySymbol.reserveCapacity(rows.count)
            for (index, row) in rows.enumerated() {
                let symbol = row.symbol.lowercased()
                if bySymbol[symbol] == nil { bySymbol[symbol] = index }
            }
            primaryByBase = MarketSelector.primaryIndexByBase(rows)
        }

        /// An exact market symbol, else the asset's primary market.
        func market(_ asset: String) -> MarketRow? {
            (bySymbol[asset] ?? primaryByBase[asset]).map { all[$0] }
        }

        /// Every market for `any`, else the one the asset names.
        func rows(for asset: String?) -> [MarketRow] {
            guard let asset else { return all }
            return market(asset).map { [$0] } ?? []
        }
    }
}

/// `--fail-on-alert` and at least one alert fired.
package struct AlertsFired: LocalizedError, ExitStatusProviding {
    package var count: Int
    package init(count: Int) { self.count = count }
    package var errorDescription: String? {
        "\(count) alert\(count == 1 ? "" : "s") fired (--fail-on-alert); the reports were written."
    }
    package var exitStatus: ExitStatus { .alertFired }
}
