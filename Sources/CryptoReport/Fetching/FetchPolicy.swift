public import Foundation

/// Where the two feeds come from and how hard to try: the fetch stage's part of the settings.
public struct FetchPolicy: Sendable, Equatable {
    /// `nil`: the WazirX API.
    public var tickers: SourceLocation?
    /// `nil`: the ECB daily file.
    public var rates: SourceLocation?
    /// The built-in snapshot replaces both sources.
    public var sample = false
    /// Each request.
    public var timeout: Duration = .seconds(15)
    /// The whole fetch phase, retries included.
    public var deadline: Duration = .seconds(120)
    public var retry = RetryPolicy()
    /// Largest payload accepted, in bytes.
    public var maximumBytes = 50_000_000
    /// `nil`: `$XDG_CACHE_HOME/cryptoreport`, else `~/.cache/cryptoreport`.
    public var cacheDirectory: String?
    public var maxAge = MaxAge()
    /// A cached fallback is an error instead.
    public var strict = false
    /// Use only cached payloads; make no request.
    public var offline = false
    /// Accept ECB rates older than `maxAge.rates`.
    public var allowStale = false

    public init() {}

    /// Where each feed is read from, as this policy says.
    public func location(of source: DataSource) throws(FetchError) -> SourceLocation {
        if sample {
            return .embedded(name: source == .tickers ? EmbeddedSample.tickersName : EmbeddedSample.ratesName)
        }
        if let chosen = source == .tickers ? tickers : rates { return chosen }
        return try SourceLocation(
            parsing: source == .tickers ? SourceLocation.defaultTickersURL : SourceLocation.defaultRatesURL, source: source)
    }

    /// The cache folder this policy uses.
    public func cacheFolder(environment: [String: String]) -> URL {
        cacheDirectory.map { URL(fileURLWithPath: $0) } ?? PayloadCache.defaultDirectory(environment: environment)
    }

    /// How old the ECB rates may be against the tickers; `nil` accepts any age.
    public var ratesAgeLimit: TimeInterval? { allowStale ? nil : maxAge.rates }
}

extension Duration {
    /// For the APIs that count in `TimeInterval`.
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
