public import Foundation

/// Everything a renderer needs: rows, summary and where the data came from.
public struct Report: Sendable, Equatable {
    public struct SourceInfo: Sendable, Equatable {
        public var source: DataSource
        /// The URL or path the data was read from.
        public var location: String
        public var fetchedAt: Date
        public var origin: SourceOrigin

        package init(source: DataSource, location: String, fetchedAt: Date, origin: SourceOrigin) {
            self.source = source
            self.location = location
            self.fetchedAt = fetchedAt
            self.origin = origin
        }

        public var status: SourceStatus { origin.status }
    }

    public var currency: String
    /// The locale people-facing numbers are formatted in.
    public var localeIdentifier: String
    /// The zone people-facing times are shown in.
    public var timeZone: TimeZone = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
    public var generatedAt: Date
    public var rates: ExchangeRates
    public var rows: [MarketRow]
    public var summary: ReportSummary
    public var sources: [SourceInfo]
    public var diagnostics: [Diagnostic]
    public var freshness: Freshness
    /// Shown above the figures in every format: cached sources, late rates, a halted exchange.
    public var notices: [Notice]
    /// Rows carry trends from the history store.
    public var hasHistory = false
    /// Alert rules that fired in this run.
    public var alerts: [FiredAlert] = []
    /// `--cross-check`: a base asset another exchange prices further from this report's price
    /// than the tolerance.
    public struct PriceGap: Sendable, Equatable {
        /// Lower case, as the feeds name base assets.
        public var asset: String
        public var other: Exchange
        /// The other exchange's price in the report currency.
        public var otherPrice: Decimal
        /// How far the other price is from this report's, in percent of it.
        public var percent: Decimal
    }

    /// How old the tickers may be (`--max-age`): a page read later than this after its data warns.
    public var tickersAgeLimit: TimeInterval = 24 * 3600
    /// `--cross-check`'s differences over the tolerance, marked on the page's rows.
    public var priceGaps: [PriceGap] = []
    /// The reader's holdings valued in the report currency; nil without holdings.
    public var holdings: HoldingsValue? = nil
    /// The rules checked, fired or not: their price limits are drawn on the charts.
    public var alertRules: [AlertRule] = []
    /// Rules that could not be checked, and why: in the reports' warnings as on standard error,
    /// so that a cron job's misspelt rule (`--quiet`) is seen somewhere.
    public var alertNotes: [AlertNote] = []
    /// Every converted market, shown or not, so that a market's detail can list the asset's
    /// other markets (btcinr beside btcusdt) whatever `--markets` and `--top` kept; empty when
    /// `rows` holds every converted market (`allMarkets` reads either).
    public var markets: [MarketRow] = []

    /// Every converted market: `markets`, or the rows when they are all of them.
    public var allMarkets: [MarketRow] { markets.isEmpty ? rows : markets }

    /// The named source's metadata, whatever order the sources are listed in.
    public func source(_ source: DataSource) -> SourceInfo? {
        sources.first { $0.source == source }
    }

    /// The UTC day the data describes: the newest ticker's, else the day the report was made.
    public var dataDate: String {
        ReportDates.day(summary.newestTickerAt ?? generatedAt)
    }
}

extension Report {
    /// The exchange the markets are from (`--source`): the one its tickers' feed belongs to.
    public var exchange: Exchange {
        sources.lazy.compactMap { Exchange(feed: $0.source) }.first ?? .wazirx
    }
}
