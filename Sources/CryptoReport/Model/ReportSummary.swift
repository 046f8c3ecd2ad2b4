public import Foundation

/// The figures above the table.
public struct ReportSummary: Sendable, Equatable {
    public struct Counts: Sendable, Equatable {
        /// Elements in the ticker body.
        public var tickersReceived: Int
        /// Rows skipped as unusable (no symbol, bad last price, duplicate, not in the exchange's
        /// table of markets).
        public var skipped: Int
        /// Rows of markets the exchange lists as not trading (Binance's `BREAK`), left out; not
        /// among `skipped`.
        public var notTrading = 0
        /// Valid markets whose quote asset has no rate.
        public var unconvertible: Int
        /// Markets converted into the report currency.
        public var converted: Int
        /// Markets kept by `--markets` and `--symbols`.
        public var selected: Int
        /// Rows in the table (after `--top`).
        public var shown: Int
        /// Distinct base assets among the selected markets.
        public var assets: Int
    }

    /// The `usdtinr` market against the ECB's USD/INR cross rate.
    public struct INRPremium: Sendable, Equatable {
        public var usdtInrLast: Decimal
        public var ecbUsdInr: Decimal
        /// (usdtinr / ECB USD→INR − 1) × 100.
        public var percent: Decimal
    }

    public var counts: Counts
    public var newestTickerAt: Date?
    public var ratesUsed: [QuoteRate]
    public var gainers: [MarketRow]
    public var losers: [MarketRow]
    public var topVolume: [MarketRow]
    public var widestSpreads: [MarketRow]
    public var advancers: Int
    public var decliners: Int
    public var unchanged: Int
    public var inrPremium: INRPremium?
    /// The least volume value (report currency) a market needed to enter the top lists.
    public var volumeFloor: Decimal = 0
    /// Selected markets left out of the top lists: below the floor, or not traded at all.
    public var belowVolumeFloor = 0
    /// No floor was set and the rates have no USD to make the default one: `volumeFloor` is 0.
    public var volumeFloorUnknown = false
    /// Symbols of the markets the comparison chart follows, in order: the shown markets
    /// `--compare` names, else the top markets by volume value.
    public var compared: [String] = []
    /// `compared` is what `--compare` chose, not the top by volume.
    public var comparedByChoice = false
    /// Names `--compare` gave that match no shown market.
    public var notCompared: [String] = []
}
