public import Foundation

/// One WazirX 24 h ticker after validation: identifiers present, last price positive.
///
/// Prices stay in the market's quote asset, exactly as the API sent them.
/// Optional fields are `nil` when the API left them out or sent something that is not a
/// non-negative decimal number.
public struct Ticker: Sendable, Equatable {
    public var symbol: String
    public var baseAsset: String
    public var quoteAsset: String
    public var open: Decimal?
    public var low: Decimal?
    public var high: Decimal?
    public var last: Decimal
    public var volume: Decimal?
    public var bid: Decimal?
    public var ask: Decimal?
    /// `at`, the ticker's time.
    public var updatedAt: Date?

    public init(
        symbol: String, baseAsset: String, quoteAsset: String,
        open: Decimal? = nil, low: Decimal? = nil, high: Decimal? = nil, last: Decimal,
        volume: Decimal? = nil, bid: Decimal? = nil, ask: Decimal? = nil, updatedAt: Date? = nil
    ) {
        self.symbol = symbol
        self.baseAsset = baseAsset
        self.quoteAsset = quoteAsset
        self.open = open
        self.low = low
        self.high = high
        self.last = last
        self.volume = volume
        self.bid = bid
        self.ask = ask
        self.updatedAt = updatedAt
    }
}
