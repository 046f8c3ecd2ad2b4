import Foundation

/// One recorded run: every market's raw values in its quote asset, and the ECB rates it used.
/// Raw, not converted, so that any currency can be shown later.
public struct Snapshot: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// A report run.
        case report
        /// A day filled in from daily klines by `cryptoreport backfill`.
        case backfill
    }

    /// Where one feed of the run came from.
    public struct Source: Sendable, Equatable {
        public var status: SourceStatus
        /// The URL or path, as the report names it.
        public var location: String

        public init(status: SourceStatus, location: String) {
            self.status = status
            self.location = location
        }

        public init(_ info: Report.SourceInfo) {
            self.init(status: info.status, location: info.location)
        }
    }

    /// The newest ticker time: two runs on the same data are the same snapshot.
    public var sourceTime: Date
    public var fetchedAt: Date
    public var kind: Kind
    /// Each feed by what it is; a feed not named is recorded as live from an unknown location.
    public var sources: [DataSource: Source]
    public var tickers: [Ticker]
    public var rates: ExchangeRates

    public init(
        sourceTime: Date, fetchedAt: Date, kind: Kind = .report, sources: [DataSource: Source] = [:], tickers: [Ticker],
        rates: ExchangeRates
    ) {
        self.sourceTime = sourceTime
        self.fetchedAt = fetchedAt
        self.kind = kind
        self.sources = sources
        self.tickers = tickers
        self.rates = rates
    }

    /// A report run: its sources taken by name from the report.
    public init(report: Report, fetchedAt: Date, tickers: [Ticker]) {
        var sources: [DataSource: Source] = [:]
        for info in report.sources { sources[info.source] = Source(info) }
        self.init(
            sourceTime: report.summary.newestTickerAt ?? fetchedAt, fetchedAt: fetchedAt, kind: .report, sources: sources,
            tickers: tickers, rates: report.rates)
    }

    public func source(_ source: DataSource) -> Source {
        sources[source] ?? Source(status: .live, location: "")
    }
}

/// A stored run without its markets: enough to pick which runs to load.
public struct RunSummary: Sendable, Equatable {
    public var id: Int64
    public var sourceTime: Date
    public var kind: Snapshot.Kind
    public var ratesDate: String
}
