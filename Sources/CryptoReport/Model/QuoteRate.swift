public import Foundation

/// How one quote asset turns into the report currency.
public struct QuoteRate: Sendable, Equatable {
    public var quoteAsset: String
    /// Report-currency units per one unit of the quote asset.
    public var rate: Decimal
    /// Where the rate comes from, for the report: `ECB`, `btcusdt`, `wrxinr`.
    public var via: String

    public init(quoteAsset: String, rate: Decimal, via: String) {
        self.quoteAsset = quoteAsset
        self.rate = rate
        self.via = via
    }
}
