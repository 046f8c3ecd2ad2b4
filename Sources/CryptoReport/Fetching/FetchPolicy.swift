public import Foundation

/// Where the two feeds come from and how hard to try: the fetch stage's part of the settings.
public struct FetchPolicy: Sendable, Equatable {
    /// `nil`: the WazirX API.
    public var tickers: SourceLocation? = nil
    /// `nil`: the ECB daily file.
    public var rates: SourceLocation? = nil
    public var sample = false
    /// `--source`: the exchanges to read the markets from, in fallback order.
    public var sources: [Exchange] = [.wazirx]
    /// `--source-url`: feeds read from elsewhere; the last for a feed counts.
    public var sourceURLs: [SourceOverride] = []
    /// `--cross-check`: read every exchange of `sources`, to compare their prices.
    public var crossCheck = false
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

    /// The exchanges tried in order: the built-in sample is WazirX's.
    public var exchanges: [Exchange] { sample ? [.wazirx] : sources }

    /// Where a feed is read: the sample, `--tickers-url` (the first source's tickers) or
    /// `--ecb-url`, `--source-url`, else the feed's own URL.
    public func location(of source: DataSource) throws(FetchError) -> SourceLocation {
        if sample && (source == .tickers || source == .rates) {
            return .embedded(name: source == .tickers ? EmbeddedSample.tickersName : EmbeddedSample.ratesName)
        }
        if source == .rates, let rates { return rates }
        if source == exchanges.first?.tickers, let tickers { return tickers }
        if let chosen = sourceURLs.last(where: { $0.feed == source }) { return chosen.location }
        return try SourceLocation(parsing: SourceLocation.defaultURL(of: source), source: source)
    }

    /// Where the names of WazirX's assets are read (`wazirx-assets`), or `nil` when the built-in
    /// list is used without asking: for the sample; when no exchange of `--source` is WazirX
    /// (names are of assets, not exchanges); and when WazirX's tickers are read from another place
    /// than the API (a file, a mirror) and `--source-url wazirx-assets=` names no place for the names.
    public func assetNamesLocation() throws(FetchError) -> SourceLocation? {
        if sample { return nil }
        if let chosen = sourceURLs.last(where: { $0.feed == .wazirxAssets }) { return chosen.location }
        guard exchanges.contains(.wazirx), try location(of: .tickers) == .http(Self.defaultTickersURL) else { return nil }
        return try SourceLocation(parsing: SourceLocation.defaultURL(of: .wazirxAssets), source: .wazirxAssets)
    }

    private static let defaultTickersURL = URL(string: SourceLocation.defaultTickersURL) ?? URL(fileURLWithPath: "/")

    public func cacheFolder(environment: [String: String]) -> URL {
        cacheDirectory.map { URL(fileURLWithPath: $0) } ?? PayloadCache.defaultDirectory(environment: environment)
    }

    /// How old the ECB rates may be against the tickers; `nil` accepts any age.
    public var ratesAgeLimit: TimeInterval? { allowStale ? nil : maxAge.rates }
}
