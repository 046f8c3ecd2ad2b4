package import Foundation

/// One recorded run: every market's raw values in its quote asset, and the ECB rates it used.
/// Raw, not converted, so that any currency can be shown later.
package struct Snapshot: Sendable, Equatable {
    package enum Kind: String, Sendable, Codable {
        /// A report run.
        case report
        /// A day filled in from daily klines by `cryptoreport backfill`.
        case backfill
    }

    /// Where one feed of the run came from.
    package struct Source: Sendable, Equatable {
        package var status: SourceStatus
        /// The URL or path, as the report names it.
        package var location: String

        package init(status: SourceStatus, location: String) {
            self.status = status
            self.location = location
        }

        package init(_ info: Report.SourceInfo) {
            self.init(status: info.status, location: info.location)
        }
    }

    /// The newest ticker time: two runs on the same data are the same snapshot.
    package var sourceTime: Date
    package var fetchedAt: Date
    package var kind: Kind
    /// Each feed by what it is; a feed not named is recorded as live from an unknown location.
    package var sources: [DataSource: Source]
    package var tickers: [Ticker]
    package var rates: ExchangeRates
    /// The alerts that fired (`FiredAlert.key`): a notice goes out only when a rule starts to fire.
    package var firedAlerts: [String] = []
    /// The holdings' total in each report currency of the run; empty without holdings.
    package var holdingsTotals: [String: Decimal] = [:]

    package init(
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
    package init(report: Report, fetchedAt: Date, tickers: [Ticker]) {
        var sources: [DataSource: Source] = [:]
        for info in report.sources { sources[info.source] = Source(info) }
        self.init(
            sourceTime: report.summary.newestTickerAt ?? fetchedAt, fetchedAt: fetchedAt, kind: .report, sources: sources,
            tickers: tickers, rates: report.rates)
    }

    package func source(_ source: DataSource) -> Source {
        sources[source] ?? Source(status: .live, location: "")
    }

    /// The exchange the markets are from: the one a feed of the run belongs to; WazirX when
    /// none is named.
    package var exchange: Exchange {
        sources.keys.sorted { $0.rawValue < $1.rawValue }.lazy.compactMap(Exchange.init(feed:)).first ?? .wazirx
    }
}

/// A stored run without its markets: enough to pick which runs to load.
package struct RunSummary: Sendable, Equatable {
    package var id: Int64
    package var sourceTime: Date
    package var kind: Snapshot.Kind
    package var ratesDate: String
    /// The exchange its markets are from: trends compare a market with its own exchange's runs.
    package var exchange: Exchange = .wazirx
}
