public import Foundation

/// Where the two feeds come from and how hard to try: the fetch stage's part of the settings.
public struct FetchPolicy: Sendable, Equatable {
    /// `nil`: the WazirX API.
    @Setting("tickers_url", Rules.location(.tickers)) public var tickers: SourceLocation? = nil
    /// `nil`: the ECB daily file.
    @Setting("ecb_url", Rules.location(.rates)) public var rates: SourceLocation? = nil
    @Setting("sample", Rules.boolean) public var sample = false
    @Setting("timeout", Rules.seconds()) public var timeout: Duration = .seconds(15)
    @Setting("deadline", Rules.seconds()) public var deadline: Duration = .seconds(120)
    public var retry = RetryPolicy()
    @Setting("max_bytes", Rules.positive) public var maximumBytes = 50_000_000
    /// `nil`: `$XDG_CACHE_HOME/cryptoreport`, else `~/.cache/cryptoreport`.
    @Setting("cache_dir", Rules.path) public var cacheDirectory: String? = nil
    /// Each limit over the one before: `tickers=12h` keeps the layer below's limit for rates.
    @Setting("max_age", Rules.maxAge, merge: { for limit in $1 { $0.apply(limit) } }) public var maxAge = MaxAge()
    @Setting("strict", Rules.boolean) public var strict = false
    @Setting("offline", Rules.boolean) public var offline = false
    @Setting("allow_stale", Rules.boolean) public var allowStale = false

    public init() {}

    public func location(of source: DataSource) throws(FetchError) -> SourceLocation {
        if sample {
            return .embedded(name: source == .tickers ? EmbeddedSample.tickersName : EmbeddedSample.ratesName)
        }
        if let chosen = source == .tickers ? tickers : rates { return chosen }
        return try SourceLocation(
            parsing: source == .tickers ? SourceLocation.defaultTickersURL : SourceLocation.defaultRatesURL, source: source)
    }

    public func cacheFolder(environment: [String: String]) -> URL {
        cacheDirectory.map { URL(fileURLWithPath: $0) } ?? PayloadCache.defaultDirectory(environment: environment)
    }

    /// How old the ECB rates may be against the tickers; `nil` accepts any age.
    public var ratesAgeLimit: TimeInterval? { allowStale ? nil : maxAge.rates }
}
