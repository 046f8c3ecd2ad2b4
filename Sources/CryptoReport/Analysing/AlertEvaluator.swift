import Foundation

/// Checks the alert rules against this run's data.
public struct AlertEvaluator: Sendable {
    public init() {}

    public struct Result: Sendable, Equatable {
        public var fired: [FiredAlert] = []
        /// Rules that could not be checked, and why.
        public var notes: [String] = []
    }

    public func evaluate(_ rules: [AlertRule], report: Report, tickers: [Ticker], rates: ExchangeRates) -> Result {
        var result = Result()
        for rule in rules {
            switch rule.condition {
            case let .above(limit, currency), let .below(limit, currency):
                guard let asset = rule.asset else { continue }
                guard let quoteRates = try? CurrencyConverter(rates: rates, target: currency).quoteRates(for: tickers) else {
                    result.notes.append("alert \"\(rule)\": the ECB rates of \(rates.date) have no \(currency)")
                    continue
                }
                let rows = MarketAnalyser().analyse(tickers, rates: quoteRates, currency: currency).rows
                guard let row = Self.market(asset, in: rows) else {
                    result.notes.append("alert \"\(rule)\": no market for \(asset)")
                    continue
                }
                let isAbove: Bool
                if case .above = rule.condition { isAbove = true } else { isAbove = false }
                guard isAbove ? row.price > limit : row.price < limit else { continue }
                let numbers = PeopleNumberFormatter(
                    currency: currency, locale: Locale(identifier: PeopleNumberFormatter.defaultLocaleIdentifier(for: currency)))
                result.fired.append(
                    FiredAlert(
                        rule: rule.description, symbol: row.symbol, value: row.price, unit: currency,
                        message: "\(rule.description): \(Self.pair(row)) is at \(numbers.money(row.price))"))
            case let .move(limit):
                for row in Self.rows(for: rule.asset, in: report.rows) {
                    guard let change = row.changePercent, abs(change) >= limit else { continue }
                    result.fired.append(alert(rule, row, change, "in 24 h", report))
                }
            case let .moveSinceLastReport(limit):
                guard report.hasHistory else {
                    result.notes.append("alert \"\(rule)\": no history to compare with (--no-history or no earlier run)")
                    continue
                }
                for row in Self.rows(for: rule.asset, in: report.rows) {
                    guard let change = row.trend?.sincePrevious, abs(change) >= limit else { continue }
                    result.fired.append(alert(rule, row, change, "since the last report", report))
                }
            }
        }
        return result
    }

    private func alert(_ rule: AlertRule, _ row: MarketRow, _ change: Decimal, _ period: String, _ report: Report) -> FiredAlert {
        let numbers = PeopleNumberFormatter(currency: report.currency, locale: Locale(identifier: report.localeIdentifier))
        return FiredAlert(
            rule: rule.description, symbol: row.symbol, value: change, unit: "%",
            message: "\(rule.description): \(Self.pair(row)) moved \(numbers.percent(change)) \(period), now \(numbers.money(row.price))")
    }

    private static func pair(_ row: MarketRow) -> String {
        "\(row.baseAsset.uppercased())/\(row.quoteAsset.uppercased())"
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
