/// The feeds a report is made from, and the price history `backfill` reads.
public enum DataSource: String, Sendable, Codable, CaseIterable {
    /// WazirX's 24 h tickers.
    case tickers
    case rates
    /// WazirX's daily candles, read only by `backfill`.
    case klines
    case binanceTickers = "binance-tickers"
    /// Binance's `exchangeInfo`: which base and quote asset each symbol joins.
    case binanceInfo = "binance-info"
    case binanceUSTickers = "binance-us-tickers"
    case binanceUSInfo = "binance-us-info"
    /// WazirX's `market-status`: what each asset is called (`btc` → `Bitcoin`). Never needed for
    /// a report: when it cannot be read, the built-in list stands in.
    case wazirxAssets = "wazirx-assets"
    /// Not a feed: a webhook a notice of fired alerts is sent to (`--notify`).
    case notice

    /// How messages name the source.
    public var displayName: String {
        switch self {
        case .tickers: "WazirX tickers"
        case .rates: "ECB rates"
        case .klines: "WazirX klines"
        case .binanceTickers: "Binance tickers"
        case .binanceInfo: "Binance exchangeInfo"
        case .binanceUSTickers: "Binance.US tickers"
        case .binanceUSInfo: "Binance.US exchangeInfo"
        case .wazirxAssets: "WazirX asset names"
        case .notice: "Notice"
        }
    }

    /// An exchange's market data, which `--max-age`'s `tickers=` limit applies to; not the ECB's,
    /// nor the names of assets.
    public var isMarketData: Bool { self != .rates && self != .notice && self != .wazirxAssets }
}
