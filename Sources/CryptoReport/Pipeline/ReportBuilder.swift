package import Foundation

/// The pure middle of the pipeline: parsed payloads in, a report out.
package struct ReportBuilder: Sendable {
    package var spec: ReportSpec
    /// How old the ECB rates may be against the tickers; `nil` accepts any age (`--allow-stale`).
    package var ratesAgeLimit: TimeInterval?
    package var generatedAt: Date

    package init(spec: ReportSpec, ratesAgeLimit: TimeInterval? = MaxAge().rates, generatedAt: Date) {
        self.spec = spec
        self.ratesAgeLimit = ratesAgeLimit
        self.generatedAt = generatedAt
    }

    /// Parses both payloads, judges the tickers' times (`FutureTickerTimes`), then builds.
    package func build(tickers: FetchedPayload, rates: FetchedPayload) throws -> Report {
        try build(
            tickers: tickers, decoded: FutureTickerTimes.judged(try TickerDecoder().decode(tickers.data), readAt: tickers.fetchedAt),
            rates: rates, exchangeDays: try ECBRatesParser().parseAvailable(rates.data))
    }

    package func build(
        tickers: FetchedPayload, decoded: TickerDecoder.Result, rates: FetchedPayload, exchangeRates: ExchangeRates
    ) throws -> Report {
        try build(tickers: tickers, decoded: decoded, rates: rates, exchangeDays: [exchangeRates])
    }

    /// `exchangeDays`: every day of the ECB file, newest first. A history file (or a daily file
    /// newer than replayed tickers) holds days published after the tickers: they are priced at
    /// the day in effect at their time, the same instant the freshness rules judge. `fallbacks`:
    /// the exchanges that failed before the one the tickers are from (`--source`);
    /// `crossChecked`: the other exchanges read for `--cross-check`, and those that could not be;
    /// `assetNames`: what each base asset is called, and the names left out of the list.
    package func build(
        tickers: FetchedPayload, decoded: TickerDecoder.Result, rates: FetchedPayload, exchangeDays: [ExchangeRates],
        fallbacks: [Notice] = [], crossChecked: (others: [CrossCheck.Other], unread: [Diagnostic]) = ([], []),
        assetNames: AssetNamesDecoder.Result = AssetNamesDecoder.Result()
    ) throws -> Report {
        var newestTicker: Date?
        for ticker in decoded.tickers {
            if let at = ticker.updatedAt, newestTicker.map({ at > $0 }) ?? true { newestTicker = at }
        }
        let reference = Self.tickerReference(tickers, newestTicker: newestTicker)
        guard let exchangeRates = TARGETCalendar.ratesInEffect(exchangeDays, at: newestTicker ?? reference) else {
            throw ECBRatesParser.noDay
        }
        let converter = try CurrencyConverter(rates: exchangeRates, target: spec.currency.code, stablecoins: spec.stablecoins)
        let quoteRates = try converter.quoteRates(for: decoded.tickers)
        var analysed = MarketAnalyser(source: tickers.source).analyse(decoded.tickers, rates: quoteRates, currency: converter.target)
        guard !analysed.rows.isEmpty else {
            throw ConversionError.noMarketConverted(
                count: decoded.tickers.count, currency: converter.target, reasons: Array(Set(quoteRates.reasons.values)).sorted())
        }

        // A market is stale when its own ticker is, or when the market its quote asset is priced
        // through is (ETH/BTC through a three-day-old BTC/USDT).
        func isOld(_ at: Date?) -> Bool { at.map { reference.timeIntervalSince($0) > Freshness.staleTickerAge } ?? false }
        let pricingMarkets = Set(quoteRates.rates.values.map(\.via))
        var pricingTimes: [String: Date?] = [:]
        for ticker in decoded.tickers {
            let symbol = ticker.symbol.lowercased()
            // The feed's first of a symbol, as the converter priced it.
            if pricingMarkets.contains(symbol) && pricingTimes[symbol] == nil { pricingTimes[symbol] = ticker.updatedAt }
        }
        let staleQuotes = Set(quoteRates.rates.filter { isOld(pricingTimes[$0.value.via] ?? nil) }.keys)
        let exchange = Exchange(feed: tickers.source) ?? .wazirx
        for index in analysed.rows.indices {
            analysed.rows[index].exchange = exchange
            if !assetNames.names.isEmpty {
                analysed.rows[index].name = assetNames.names[CurrencyConverter.lowercased(analysed.rows[index].baseAsset)]
            }
            let row = analysed.rows[index]
            if isOld(row.updatedAt) || staleQuotes.contains(row.quoteAsset.lowercased()) { analysed.rows[index].isStale = true }
        }
        let freshness = try freshness(analysed.rows, rates: exchangeRates, reference: reference, dataTime: newestTicker)

        let selector = MarketSelector(spec.selection)
        let selected = selector.select(analysed.rows)
        let unmatched = selector.unmatched(in: decoded.tickers)
        // Names partly matching are a warning; naming nothing at all is a mistake (64).
        if !unmatched.isEmpty && unmatched.count == spec.selection.symbols.count {
            throw SelectionError.nothingMatches(symbols: unmatched)
        }
        for symbol in unmatched {
            analysed.diagnostics.append(Diagnostic(tickers.source, .unmatchedSymbol(symbol)))
        }
        // A currency listed twice with different rates that the report needed has failed the run
        // already (65); one it did not need is only said.
        for (currency, rates) in exchangeRates.ambiguous.sorted(by: { $0.key < $1.key }) {
            analysed.diagnostics.append(Diagnostic(.rates, .ambiguousRate(currency: currency, rates: rates)))
        }
        let shown = selector.cut(selected)
        var summary = SummaryBuilder().summarise(
            .init(
                tickers: decoded.tickers, tickersReceived: decoded.received,
                skipped: decoded.received - decoded.tickers.count - decoded.notTrading.count, notTrading: decoded.notTrading.count,
                converted: analysed.rows, selected: selected,
                shown: shown.count, quoteRates: quoteRates, rates: exchangeRates, currency: converter.target,
                minimumVolumeValue: spec.minimumVolumeValue))
        if spec.compare.isEmpty {
            summary.compared = summary.topVolume.map(\.symbol)
        } else {
            (summary.compared, summary.notCompared) = MarketSelector.resolve(spec.compare, in: shown)
            summary.comparedByChoice = true
        }
        if summary.volumeFloorUnknown {
            analysed.diagnostics.append(Diagnostic(.rates, .noVolumeFloor(currency: converter.target)))
        }
        analysed.diagnostics += crossChecked.unread
        let differences = CrossCheck(tolerance: spec.crossCheckTolerance).differences(
            rows: analysed.rows, exchange: exchange, others: crossChecked.others, converter: converter)
        analysed.diagnostics += differences
        var report = Report(
            currency: converter.target, localeIdentifier: spec.locale?.identifier ?? PeopleNumberFormatter.defaultLocaleIdentifier(for: converter.target),
            generatedAt: generatedAt,
            rates: exchangeRates, rows: shown, summary: summary,
            sources: [Report.SourceInfo(tickers), Report.SourceInfo(rates)],
            diagnostics: Diagnostic.summarised(decoded.diagnostics + analysed.diagnostics + assetNames.diagnostics), freshness: freshness,
            notices: fallbacks + notices(tickers: tickers, rates: rates, exchangeRates: exchangeRates, freshness: freshness))
        // Every difference, not only those the warnings list before summing up the rest.
        report.priceGaps = differences.compactMap { diagnostic in
            guard case let .crossCheck(asset, _, _, _, otherPrice, other, percent, _) = diagnostic.kind else { return nil }
            return Report.PriceGap(asset: asset, other: other, otherPrice: otherPrice, percent: percent)
        }
        report.holdings = try HoldingsValuer(spec.holdings).value(rows: analysed.rows, currency: converter.target) { code in
            try exchangeRates.rate(from: code, to: converter.target)
        }
        // Only when the table leaves markets out: otherwise the rows are every market, and the
        // details find them there.
        if shown.count != analysed.rows.count { report.markets = analysed.rows }
        if let zone = spec.timeZone { report.timeZone = zone }
        return report
    }

    /// Network payloads are judged against their fetch; files and the sample, whose fetch time
    /// is unknown, against their own newest ticker.
    static func tickerReference(_ payload: FetchedPayload, newestTicker: Date?) -> Date {
        switch payload.origin {
        case .network, .cache: payload.fetchedAt
        case .file, .sample: newestTicker ?? payload.fetchedAt
        }
    }

    private func freshness(_ rows: [MarketRow], rates: ExchangeRates, reference: Date, dataTime: Date?) throws -> Freshness {
        // The ECB rates are judged at the time the tickers describe, so a replayed day is judged
        // by that day's calendar, not today's.
        let asOf = dataTime ?? reference
        let expected = TARGETCalendar.expectedRatesDate(at: asOf)
        if let published = TARGETCalendar.publication(of: rates.date), let limit = ratesAgeLimit {
            let age = asOf.timeIntervalSince(published)
            if age > limit {
                throw DataError.staleRates(
                    date: rates.date, age: MaxAge.describe(age), limit: MaxAge.describe(limit),
                    against: dataTime == nil ? "the fetch (no ticker carries a time)" : "the tickers")
            }
        }
        // Counted, not filtered: a filter copied every stale market (432 bytes each).
        let stale = rows.reduce(0) { $0 + ($1.isStale ? 1 : 0) }
        var halt: Freshness.Halt?
        if !rows.isEmpty && stale == rows.count {
            halt = .allStale
        } else if !rows.isEmpty && rows.allSatisfy({ ($0.volume ?? 0).isZero }) {
            halt = .noVolume
        }
        return Freshness(
            tickerReference: reference, expectedRatesDate: expected, ratesBehind: rates.date < expected,
            ratesAhead: TARGETCalendar.isAhead(rates.date, of: asOf), staleMarkets: stale, halt: halt)
    }

    private func notices(
        tickers: FetchedPayload, rates: FetchedPayload, exchangeRates: ExchangeRates, freshness: Freshness
    ) -> [Notice] {
        var notices: [Notice] = []
        for payload in [tickers, rates] {
            guard case let .cache(liveError) = payload.origin else { continue }
            notices.append(.cachedSource(payload.source, fetchedAt: payload.fetchedAt, liveError: liveError))
        }
        if freshness.ratesAhead {
            notices.append(.ratesAhead(ratesDate: exchangeRates.date, inEffect: freshness.expectedRatesDate))
        }
        if freshness.ratesBehind {
            notices.append(.ratesBehind(ratesDate: exchangeRates.date, expected: freshness.expectedRatesDate))
        }
        if let halt = freshness.halt {
            notices.append(.exchangeHalted(halt))
        } else if freshness.staleMarkets > 0 {
            notices.append(.staleMarkets(count: freshness.staleMarkets))
        }
        return notices
    }
}
