public import Foundation

/// An alert rule that fired in this run, with the figure that crossed its line. Values only:
/// Rendering's `AlertText` words it for the reports, the alerts file and standard error.
public struct FiredAlert: Sendable, Equatable {
    /// The rule and the market: what a notice is sent for once, when it starts to fire.
    public var key: String { "\(rule.description)\t\(symbol.lowercased())" }

    public enum Period: Sendable, Equatable {
        /// The 24 h change the feed reports.
        case day
        /// Since the previous recorded report.
        case sinceLastReport
    }

    public enum Figure: Sendable, Equatable {
        /// `above`/`below`: the market's price in the rule's currency.
        case price(Decimal, currency: String)
        /// `move`: the change in percent over `period`, with the market's price now in the report
        /// currency.
        case change(Decimal, period: Period, price: Decimal, currency: String)
    }

    /// The rule, with its limit (and currency or period).
    public var rule: AlertRule
    public var symbol: String
    public var baseAsset: String
    public var quoteAsset: String
    public var figure: Figure

    public init(rule: AlertRule, symbol: String, baseAsset: String, quoteAsset: String, figure: Figure) {
        self.rule = rule
        self.symbol = symbol
        self.baseAsset = baseAsset
        self.quoteAsset = quoteAsset
        self.figure = figure
    }

    /// The figure that crossed the line: a price, or a change in percent.
    public var value: Decimal {
        switch figure {
        case let .price(price, _): price
        case let .change(change, _, _, _): change
        }
    }

    /// What `value` is in: a currency code, or `%`.
    public var unit: String {
        switch figure {
        case let .price(_, currency): currency
        case .change: "%"
        }
    }
}

/// A rule that could not be checked in this run, and why.
public struct AlertNote: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// An `above`/`below` rule's currency is not in the ECB rates of `ratesDate`.
        case currencyNotInRates(currency: String, ratesDate: String)
        /// No market (symbol, or base asset's primary market) for the rule's asset.
        case noMarket(asset: String)
        /// A move rule's market is listed but not among the report's rows, which move rules
        /// watch (`--symbols`, `--markets`, `--top`).
        case notInReport(asset: String)
        /// A since-last-report rule with no history to compare with.
        case noHistory
        /// A `holdings` rule in a run without holdings (`--holding`, the file's `[holdings]`).
        case noHoldings
        /// A `holdings move` rule whose total has no earlier figure: a market of the holdings
        /// without its 24 h open price.
        case noHoldingsChange
    }

    public var rule: AlertRule
    public var reason: Reason

    public init(rule: AlertRule, reason: Reason) {
        self.rule = rule
        self.reason = reason
    }
}
