/// An exchange a report's markets can come from: `--source`'s names.
public enum Exchange: String, Sendable, Codable, CaseIterable {
    case wazirx
    case binance
    /// Binance's US exchange: the same API at api.binance.us (api.binance.com answers 451 to
    /// addresses in the USA), with fewer markets.
    case binanceUS = "binance-us"

    public var displayName: String {
        switch self {
        case .wazirx: "WazirX"
        case .binance: "Binance"
        case .binanceUS: "Binance.US"
        }
    }

    /// The feed of its 24 h tickers.
    public var tickers: DataSource {
        switch self {
        case .wazirx: .tickers
        case .binance: .binanceTickers
        case .binanceUS: .binanceUSTickers
        }
    }

    /// The feed that splits its symbols into base and quote assets, when the tickers do not.
    public var info: DataSource? {
        switch self {
        case .wazirx: nil
        case .binance: .binanceInfo
        case .binanceUS: .binanceUSInfo
        }
    }

    /// The exchange whose feed `source` is; nil for the ECB's.
    public init?(feed source: DataSource) {
        switch source {
        case .tickers, .klines, .wazirxAssets: self = .wazirx
        case .binanceTickers, .binanceInfo: self = .binance
        case .binanceUSTickers, .binanceUSInfo: self = .binanceUS
        case .rates, .notice: return nil
        }
    }
}
