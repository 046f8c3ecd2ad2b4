import Foundation

/// The pure middle of the pipeline: raw payloads in, a report out.
public struct ReportBuilder: Sendable {
    public var request: ReportRequest
    public var generatedAt: Date

    public init(request: ReportRequest, generatedAt: Date) {
        self.request = request
        self.generatedAt = generatedAt
    }

    public func build(tickers: FetchedPayload, rates: FetchedPayload) throws -> Report {
        let decoded = try TickerDecoder().decode(tickers.data)
        let exchangeRates = try ECBRatesParser().parseLatest(rates.data)
        let converter = try CurrencyConverter(rates: exchangeRates, target: request.currency)
        let quoteRates = try converter.quoteRates(for: decoded.tickers)
        let analysed = MarketAnalyser().analyse(decoded.tickers, rates: quoteRates, currency: converter.target)
        let selector = MarketSelector(request.selection)
        let selected = selector.select(analysed.rows)
        let shown = selector.cut(selected)
        let skipped = decoded.received - decoded.tickers.count
        let summary = SummaryBuilder().summarise(
            .init(
                tickers: decoded.tickers, tickersReceived: decoded.received, skipped: skipped,
                converted: analysed.rows, selected: selected, shown: shown.count, quoteRates: quoteRates,
                rates: exchangeRates))
        return Report(
            currency: converter.target, localeIdentifier: request.effectiveLocale, generatedAt: generatedAt,
            rates: exchangeRates, rows: shown, summary: summary,
            sources: [
                .init(source: .tickers, location: tickers.location.description, fetchedAt: tickers.fetchedAt),
                .init(source: .rates, location: rates.location.description, fetchedAt: rates.fetchedAt),
            ],
            diagnostics: decoded.diagnostics + analysed.diagnostics)
    }
}
