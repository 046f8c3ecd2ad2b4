import Foundation

/// Checks the alert rules against this run's data.
public struct AlertEvaluator: Sendable {
    public init() {}

    public struct Result: Sendable, Equatable {
        public var fired: [FiredAlert] = []
        /// Rules that could not be checked, and why.
        public var notes: [AlertNote] = []
    }

    public func evaluate(_ rules: [AlertRule], report: Report, tickers: [Ticker], rates: ExchangeRates) -> Result {
        var result = Result()
        for rule in rules {
            switch rule.condition {
            case let .above(limit, currency), let .below(limit, currency):
                guard let asset = rule.asset else { continue }
                guard let quoteRates = try? CurrencyConverter(rates: rates, target: currency).quoteRates(for: tickers) else {
                    result.notes.append(AlertNote(rule: rule, reason: .currencyNotInRates(currency: currency, ratesDate: rates.date)))
                    continue
                }
                let rows = MarketAnalyser().analyse(tickers, rates: quoteRates, currency: currency).rows
                guard let row = Self.market(asset, in: rows) else {
                    result.notes.append(AlertNote(rule: rule, reason: .noMarket(asset: asset)))
                    continue
                }
                let isAbove: Bool
                if case .above = rule.condition { isAbove = true } else { isAbove = false }
                guard isAbove ? row.price > limit : row.price < limit else { continue }
                result.fired.append(Self.fired(rule, row, .price(row.price, currency: currency)))
            case let .move(limit):
                for row in Self.rows(for: rule.asset, in: report.rows) {
                    guard let change = row.changePercent, abs(change) >= limit else { continue }
                    result.fired.append(
                        Self.fired(rule, row, .change(change, period: .day, price: row.price, currency: report.currency)))
                }
            case let .moveSinceLastReport(limit):
                guard report.hasHistory else {
                    result.notes.append(AlertNote(rule: rule, reason: .noHistory))
                    continue
                }
                for row in Self.rows(for: rule.asset, in: report.rows) {
                    guard let change = row.trend?.sincePrevious, abs(change) >= limit else { continue }
                    result.fired.append(
                        Self.fired(rule, row, .change(change, period: .sinceLastReport, price: row.price, currency: report.currency)))
                }
            }
        }
        return result
    }

    private static func fired(_ rule: AlertRule, _ row: MarketRow, _ figure: FiredAlert.Figure) -> FiredAlert {
        FiredAlert(rule: rule, symbol: row.symbol, baseAsset: row.baseAsset, quoteAsset: row.quoteAsset, figure: figure)
    }

    /// An exact market symbol, else the asset's primary market.
    static func market(_ asset: String, in rows: [MarketRow]) -> MarketRow? {
        rows.first { $0.symbol.lowercased() == asset }
            ?? MarketSelector(Selection(markets: .primary, symbols: [asset])).select(rows).first
    }

    private static func rows(for asset: String?, in rows: [MarketRow]) -> [MarketRow] {
        guard let asset else { return rows }
        return market(asset, in: rows).map { [$0] } ?? []
    }
}

/// `--fail-on-alert` and at least one alert fired.
public struct AlertsFired: LocalizedError, ExitStatusProviding {
    public var count: Int
    public init(count: Int) { self.count = count }
    public var errorDescription: String? {
        "\(count) alert\(count == 1 ? "" : "s") fired (--fail-on-alert); the reports were written."
    }
    public var exitStatus: ExitStatus { .alertFired }
}
