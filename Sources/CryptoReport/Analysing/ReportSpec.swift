public import Foundation

/// What a report shows: the analysis and rendering stages' part of the settings.
public struct ReportSpec: Sendable, Equatable {
    /// The report currencies, first shown first: one, or two for an HTML page that switches
    /// between them (`--currency SEK,USD`); each other format is written once per currency.
    public var currencies: [CurrencyCode] = [.usd]
    /// The first currency; setting it makes it the only one.
    public var currency: CurrencyCode {
        get { currencies.first ?? .usd }
        set { currencies = [newValue] }
    }
    /// `nil`: the currency's own locale (USD en_US, SEK sv_SE, …), which Rendering knows.
    public var locale: ReportLocale? = nil
    /// The zone times for people are shown in (HTML, Markdown, the index); `nil`: UTC. The command
    /// gives the machine's zone when no setting names one.
    public var timeZone: TimeZone? = nil
    public var selection = Selection()
    public var alerts: [AlertRule] = []
    /// Base assets or market symbols the HTML page's comparison chart follows, in order (up to
    /// five, one per colour); empty: the five markets with the most volume value.
    public var compare: [String] = []
    /// The least 24 h volume value, in the report currency, that lets a market into the top
    /// lists (gainers, losers, volume, spreads); `nil`: `defaultMinimumVolumeUSD` in the report
    /// currency. Markets that did not trade never lead a list, whatever the floor.
    public var minimumVolumeValue: Decimal? = nil
    /// `usd_stablecoins`: quote assets taken at par with USD, lower case, in the order they are
    /// tried for pricing another asset.
    public var stablecoins: [String] = CurrencyConverter.defaultStablecoins
    /// `--holding`, the file's `[holdings]`: what the reader holds, valued in every report.
    public var holdings: [Holding] = []
    /// `--cross-check-tolerance`, in percent: a larger difference between exchanges is a warning.
    public var crossCheckTolerance: Decimal = 2
    /// The floor when none is set: 100 USD's worth, converted at the day's ECB rates, so a
    /// kronor and a rupee report leave out the same thin markets.
    public static let defaultMinimumVolumeUSD: Decimal = 100

    /// The defaults.
    public init() {}

    public init(currency: CurrencyCode, locale: ReportLocale? = nil, selection: Selection = Selection(), alerts: [AlertRule] = []) {
        self.currencies = [currency]
        self.locale = locale
        self.selection = selection
        self.alerts = alerts
    }
}
