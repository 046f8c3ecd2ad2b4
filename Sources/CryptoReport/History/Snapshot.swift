import Foundation

/// One recorded run: every market's raw values in its quote asset, and the ECB rates it used.
/// Raw, not converted, so that any currency can be shown later.
public struct Snapshot: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// A report run.
        case report
        /// A day filled in from daily klines by `cryptoreport backfill`.
        case backfill
    }

    /// The newest ticker time: two runs on the same data are the same snapshot.
    public var sourceTime: Date
    public var fetchedAt: Date
    public var kind: Kind
    public var tickersStatus: String
    public var tickersLocation: String
    public var ratesStatus: String
    public var ratesLocation: String
    public var tickers: [Ticker]
    public var rates: ExchangeRates

    public init(
        sourceTime: Date, fetchedAt: Date, kind: Kind = .report, tickersStatus: String = "live", tickersLocation: String = "",
        ratesStatus: String = "live", ratesLocation: String = "", tickers: [Ticker], rates: ExchangeRates
    ) {
        self.sourceTime = sourceTime
        self.fetchedAt = fetchedAt
        self.kind = kind
        self.tickersStatus = tickersStatus
        self.tickersLocation = tickersLocation
        self.ratesStatus = ratesStatus
        self.ratesLocation = ratesLocation
        self.tickers = tickers
        self.rates = rates
    }
}

/// A stored run without its markets: enough to pick which runs to load.
public struct RunSummary: Sendable, Equatable {
    public var id: Int64
    public var sourceTime: Date
    public var kind: Snapshot.Kind
    public var ratesDate: String
}
