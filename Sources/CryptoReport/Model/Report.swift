import Foundation

/// Everything a renderer needs: rows, summary and where the data came from.
public struct Report: Sendable, Equatable {
    public struct SourceInfo: Sendable, Equatable {
        public var source: DataSource
        /// The URL or path the data was read from.
        public var location: String
        public var fetchedAt: Date
    }

    public var currency: String
    /// The locale people-facing numbers are formatted in.
    public var localeIdentifier: String
    public var generatedAt: Date
    public var rates: ExchangeRates
    public var rows: [MarketRow]
    public var summary: ReportSummary
    public var sources: [SourceInfo]
    public var diagnostics: [Diagnostic]

    /// The UTC day the data describes: the newest ticker's, else the day the report was made.
    public var dataDate: String {
        ReportDates.day(summary.newestTickerAt ?? generatedAt)
    }
}
