public import Foundation

/// One market's figures in the report currency, at full `Decimal` precision.
public struct MarketRow: Sendable, Equatable {
    public var symbol: String
    public var baseAsset: String
    public var quoteAsset: String
    /// What the base asset is called (`Bitcoin`), from WazirX's list of its assets, whichever
    /// exchange the ticker is from; `nil` when the list does not name it.
    public var name: String? = nil
    public var currency: String
    public var price: Decimal
    public var open: Decimal?
    public var high: Decimal?
    public var low: Decimal?
    public var bid: Decimal?
    public var ask: Decimal?
    /// (last − open) / open × 100; `nil` when open is missing or not positive.
    public var changePercent: Decimal?
    /// (ask − bid) × rate; `nil` when bid or ask is missing or not positive.
    public var spread: Decimal?
    /// (ask − bid) / mid × 100; `nil` when bid or ask is missing or not positive.
    public var spreadPercent: Decimal?
    /// In base-asset units, as sent.
    public var volume: Decimal?
    public var volumeValue: Decimal?
    public var fxRate: Decimal
    public var updatedAt: Date?
    /// The ticker is over an hour older than its fetch (see `Freshness`).
    public var isStale = false
    /// From the history store; `nil` when the run keeps no history.
    public var trend: Trend?
    /// The exchange whose ticker this is (`--source`).
    public var exchange: Exchange = .wazirx
}
