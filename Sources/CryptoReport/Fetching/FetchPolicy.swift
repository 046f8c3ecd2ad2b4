public import Foundation

/// Where the two feeds come from and how hard to try: the fetch stage's part of the settings.
public struct FetchPolicy: Sendable, Equatable {
    /// `nil`: the WazirX API.
    @Setting("tickers_url", Rules.location(.tickers)) public var tickers: SourceLocation? = nil
    /// `nil`: the ECB daily file.
    @Setting("ecb_url", Rules.location(.rates)) public var rates: SourceLocation? = nil
    /// The built-in snapshot replaces both sources.
    @Setting("sample", Rules.boolean) public var sample = false
    /// Each request.
    @Setting("timeout", Rules.seconds()) public var timeout: Duration = .seconds(15)
    /// The whole fetch phase, retries included.
    @Setting("deadline", Rules.seconds()) public var deadline: Duration = .seconds(120)
    public var retry = RetryPolicy()
    /// Largest payload accepted, in bytes.
    @Setting("max_bytes", Rules.positive) public var maximumBytes = 50_000_000
    /// `nil`: `$XDG_CACHE_HOME/cryptoreport`, else `~/.cache/cryptoreport`.
    @Setting("cache_dir", Rules.path) public var cacheDirectory: String? = nil
    /// Each limit over the one before: `tickers=12h` keeps the layer below's limit for rates.
    @Setting("max_age", Rules.maxAge, merge: { for limit in $1 { $0.apply(limit) } }) public var maxAge = MaxAge()
    /// A cached fallback is an error instead.
    @Setting("strict", Rules.boolean) public var strict = false
    /// Use only cached payloads; make no request.
    @Setting("offline", Rules.boolean) public var offline = false
    /// Accept ECB rates older than `maxAge.rates`.
    @Setting("allow_stale", Rules.boolean) public var allowStale = false

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
