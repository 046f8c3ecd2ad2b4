/// The two feeds a report is made from, and the price history `backfill` reads.
public enum DataSource: String, Sendable, Codable, CaseIterable {
    case tickers
    case rates
    /// WazirX's daily candles, read only by `backfill`.
    case klines

    /// How messages name the source.
    public var displayName: String {
        switch self {
        case .tickers: "WazirX tickers"
        case .rates: "ECB rates"
        case .klines: "WazirX klines"
        }
    }
}
