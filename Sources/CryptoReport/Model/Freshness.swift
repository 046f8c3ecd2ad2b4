public import Foundation

/// How old the report's data is, and what a reader must be told about it.
public struct Freshness: Sendable, Equatable {
    /// A market whose ticker is older than this, relative to the fetch, is stale.
    public static let staleTickerAge: TimeInterval = 3600

    /// The instant tickers are judged against: the fetch time for network (or cached) payloads,
    /// the newest ticker for files and the sample, whose fetch time is unknown.
    public var tickerReference: Date
    /// The ECB rates that should have been published by the time of the tickers.
    public var expectedRatesDate: String
    /// The rates in use are older than `expectedRatesDate`.
    public var ratesBehind: Bool
    /// The rates in use were published after the tickers (replayed tickers with a newer ECB file).
    public var ratesAhead = false
    public var staleMarkets: Int
    public var halt: Halt?

    public enum Halt: String, Sendable, Equatable {
        /// Every market's last ticker is over an hour old.
        case allStale = "all_stale"
        /// Every market traded nothing in 24 h.
        case noVolume = "no_volume"
    }
}
