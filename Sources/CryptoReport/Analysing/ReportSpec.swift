/// What a report shows: the analysis and rendering stages' part of the settings.
public struct ReportSpec: Sendable, Equatable {
    public var currency: CurrencyCode = .usd
    /// `nil`: the currency's own locale (USD en_US, SEK sv_SE, …), which Rendering knows.
    public var locale: ReportLocale?
    public var selection = Selection()
    public var alerts: [AlertRule] = []

    public init(currency: CurrencyCode = .usd, locale: ReportLocale? = nil, selection: Selection = Selection(), alerts: [AlertRule] = []) {
        self.currency = currency
        self.locale = locale
        self.selection = selection
        self.alerts = alerts
    }
}
