/// `--source-url NAME=URL`: one feed read from another place than its default, as
/// `--tickers-url` does for the first source's tickers.
public struct SourceOverride: Sendable, Equatable {
    public var feed: DataSource
    public var location: SourceLocation

    public init(feed: DataSource, location: SourceLocation) {
        self.feed = feed
        self.location = location
    }

    /// The names `NAME=` takes, in the order the help lists them.
    public static let names: KeyValuePairs<String, DataSource> = [
        "wazirx": .tickers, "binance": .binanceTickers, "binance-info": .binanceInfo, "binance-us": .binanceUSTickers,
        "binance-us-info": .binanceUSInfo, "wazirx-assets": .wazirxAssets,
    ]
}
