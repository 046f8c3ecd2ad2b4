public import Foundation

/// Where a market's price was going, from the history store, in the report currency of each day.
public struct Trend: Sendable, Equatable {
    /// % change since the previous recorded report.
    public var sincePrevious: Decimal?
    /// % change over 7 and 30 days, where history covers them.
    public var change7d: Decimal?
    public var change30d: Decimal?
    /// One price per day for the last 30 days (the last run of each UTC day), oldest first, ending
    /// with this report's price.
    public var series: [Decimal]
    /// The UTC day of each price in `series` (`2022-11-22`), for a dated chart and the list of
    /// earlier points; empty when not known.
    public var days: [String] = []

    public init(sincePrevious: Decimal? = nil, change7d: Decimal? = nil, change30d: Decimal? = nil, series: [Decimal] = []) {
        self.sincePrevious = sincePrevious
        self.change7d = change7d
        self.change30d = change30d
        self.series = series
    }

    static func percent(from old: Decimal?, to new: Decimal) -> Decimal? {
        guard let old else { return nil }
        guard FastDecimal.isAvailable else {
            guard old > 0 else { return nil }
            return (new - old) / old * 100
        }
        // Foundation's own result, three a market (see `FastDecimal`).
        let start = FastDecimal(old)
        guard start.isPositive else { return nil }
        return ((FastDecimal(new) - start) / start * FastDecimal.hundred).decimal
    }
}
