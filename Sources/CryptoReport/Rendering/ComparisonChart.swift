import Foundation

/// Several markets on one chart, each rebased to 100 on the window's first day, so that a reader
/// sees which moved most whatever their prices: which markets it can draw, and why not when it
/// cannot. The page's script draws it (`compareChart` in `Templates/report.js`) from the history
/// data, where every chart of the page is laid out; the legend is the page's own HTML.
enum ComparisonChart {
    struct Series {
        /// `BTC/USDT`.
        var name: String
        /// Day (`2022-11-22`) and price, oldest first.
        var points: [PriceChart.Point]
    }

    /// Why a comparison the reader asked for (`--compare`) cannot be drawn: said on standard
    /// error and on the page, where the chart would be.
    enum Gap: Equatable {
        /// Fewer than two of the chosen markets are in the table.
        case tooFewMarkets
        /// The run keeps no history (`--no-history`, `--output -`).
        case noHistory
        /// The history holds fewer than two days of prices for the chosen markets.
        case tooFewDays
    }

    /// The series a chart can draw: two days of prices or more, from a positive first price.
    static func usable(_ series: [Series]) -> [Series] {
        series.filter { $0.points.count > 1 && ($0.points.first?.value ?? 0) > 0 }
    }

    /// `nil` when `series` make a chart; else why not, knowing how many markets were chosen and
    /// whether the run has a history at all.
    static func gap(_ series: [Series], chosen: Int, hasHistory: Bool) -> Gap? {
        if usable(series).count > 1 && Set(series.flatMap { $0.points.map(\.day) }).count > 1 { return nil }
        if chosen < 2 { return .tooFewMarkets }
        return hasHistory ? .tooFewDays : .noHistory
    }
}
