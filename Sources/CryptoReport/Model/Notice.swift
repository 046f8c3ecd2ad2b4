public import Foundation

/// Something a reader of the report must see before the figures. Values only: Rendering's
/// `NoticeText` words them for every format and for the log.
public enum Notice: Sendable, Equatable {
    /// A source was read from the cache; `liveError` is why the live fetch failed (`nil`: offline run).
    case cachedSource(DataSource, fetchedAt: Date, liveError: String?)
    /// Replayed tickers priced at rates published after them.
    case ratesAhead(ratesDate: String, inEffect: String)
    /// Rates older than those that should have been published by the tickers' time.
    case ratesBehind(ratesDate: String, expected: String)
    /// Every market stale, or nothing traded in 24 h.
    case exchangeHalted(Freshness.Halt)
    /// Some markets have not updated for over `Freshness.staleTickerAge`.
    case staleMarkets(count: Int)
    /// An exchange earlier in `--source`'s order failed, so the markets come from a later one.
    case sourceFallback(failed: Exchange, used: Exchange, reason: String)

    /// A stable name for each kind, as the JSON report writes it.
    public enum Kind: String, Sendable, Equatable {
        case cachedSource = "cached_source"
        case ratesBehind = "rates_behind"
        case ratesAhead = "rates_ahead"
        case exchangeHalted = "exchange_halted"
        case staleMarkets = "stale_markets"
        case sourceFallback = "source_fallback"
    }

    public var kind: Kind {
        switch self {
        case .cachedSource: .cachedSource
        case .ratesAhead: .ratesAhead
        case .ratesBehind: .ratesBehind
        case .exchangeHalted: .exchangeHalted
        case .staleMarkets: .staleMarkets
        case .sourceFallback: .sourceFallback
        }
    }
}
