public import Foundation

/// Where the two feeds come from and how hard to try: the fetch stage's part of the settings.
public struct FetchPolicy: Sendable, Equatable {
    /// `nil`: the WazirX API.
    public var tickers: SourceLocation? = nil
    /// `nil`: the ECB daily file.
    public var rates: SourceLocation? = nil
    public var sample = false
    public var timeout: Duration = .seconds(15)
    public var deadline: Duration = .seconds(120)
    public var retry = RetryPolicy()
    public var maximumBytes = 50_000_000
    /// `nil`: `$XDG_CACHE_HOME/cryptoreport`, else `~/.cache/cryptoreport`.
    public var cacheDirectory: String? = nil
    /// Each limit set by a layer over the one below (`SettingsLayer.keys`).
    public var maxAge = MaxAge()
    public var strict = false
    public var offline = false
    public var allowStale = false

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
