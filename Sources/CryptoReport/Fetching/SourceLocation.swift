public import Foundation

/// Where a feed is read from: `--tickers-url` and `--ecb-url` take http(s) URLs, `file://` URLs
/// and plain paths; `--sample` reads the built-in snapshot.
public enum SourceLocation: Sendable, Equatable {
    case http(URL)
    case file(String)
    case embedded(name: String)

    public static let defaultTickersURL = "https://api.wazirx.com/sapi/v1/tickers/24hr"
    public static let defaultRatesURL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"

    /// Where each feed is read by default.
    public static func defaultURL(of feed: DataSource) -> String {
        switch feed {
        case .tickers: defaultTickersURL
        case .rates: defaultRatesURL
        case .klines: "https://api.wazirx.com/sapi/v1/klines"
        // Every market, no symbol: request weight 80 of about 6,000 a minute.
        case .binanceTickers: "https://api.binance.com/api/v3/ticker/24hr"
        case .binanceInfo: "https://api.binance.com/api/v3/exchangeInfo"
        case .binanceUSTickers: "https://api.binance.us/api/v3/ticker/24hr"
        case .binanceUSInfo: "https://api.binance.us/api/v3/exchangeInfo"
        case .wazirxAssets: "https://api.wazirx.com/api/v2/market-status"
        // Where notices go is the user's to say (`--notify`).
        case .notice: ""
        }
    }

    /// Reads a `--…-url` value.
    public init(parsing text: String, source: DataSource) throws(FetchError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: text), url.host != nil else {
                throw .unsupportedLocation(source: source, location: text)
            }
            self = .http(url)
        } else if lowered.hasPrefix("file://") {
            // A host is no part of a path: `file://saved/t.json` was read as /t.json.
            guard let url = URL(string: text), url.isFileURL, [nil, "", "localhost"].contains(url.host) else {
                throw .unsupportedLocation(source: source, location: text)
            }
            self = .file(url.path)
        } else if lowered.contains("://") || text.isEmpty {
            throw .unsupportedLocation(source: source, location: text)
        } else {
            self = .file(text)
        }
    }

    /// How reports and messages name the location.
    public var description: String {
        switch self {
        case let .http(url): url.absoluteString
        case let .file(path): path
        case let .embedded(name): "built-in sample \(name)"
        }
    }
}
