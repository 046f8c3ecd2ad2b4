import Foundation
import Logging

/// Both sources fetched and built into a report in each currency asked for.
extension ReportPipeline {
    /// Fetches both sources (and the names of the assets) concurrently and builds the report.
    public func makeReport(_ spec: ReportSpec, fetch: FetchPolicy) async throws -> Report {
        try await prepare(spec, fetch: fetch).report
    }

    /// The report in the first currency, and the raw snapshot a history records.
    package func prepare(_ spec: ReportSpec, fetch: FetchPolicy) async throws -> (report: Report, snapshot: Snapshot) {
        var first = spec
        // Not a no-op: setting the currency drops the others (`ReportSpec.currency`).
        first.currency = spec.currency
        let prepared = try await prepareAll(first, fetch: fetch)
        return (prepared.report, prepared.snapshot)
    }

    /// The report in each currency of `spec`, from one fetch: the first's, the others', and the
    /// snapshot a history records.
    func prepareAll(_ spec: ReportSpec, fetch: FetchPolicy) async throws -> (report: Report, others: [Report], snapshot: Snapshot) {
        let generatedAt = clock.now()
        if let ignored = Self.sourcesIgnored(fetch) { logger.warning("\(ignored)") }
        var loader = SourceLoader(
            http: http, files: files, clock: clock, sleeper: sleeper, logger: logger, timeout: fetch.timeout.timeInterval,
            maximumBytes: fetch.maximumBytes, retry: fetch.retry, deadlineSeconds: fetch.deadline.timeInterval)
        let cache = PayloadCache(directory: fetch.cacheFolder(environment: environment))
        loader.requestLog = RequestLog(directory: cache.directory)
        let acquirer = SourceAcquirer(policy: fetch, loader: loader, cache: cache, clock: clock, logger: logger)
        let ratesLocation = try fetch.location(of: .rates)
        // Beside the tickers and the rates, never failing the run: a failure of theirs cancels it.
        async let assetNames = acquireAssetNames(fetch, acquirer: acquirer)
        let (tickerResult, ratesResult) = try await bothOrFirstFailure(
            { try await self.acquireMarkets(fetch.exchanges, fetch: fetch, acquirer: acquirer) },
            { try await acquirer.acquire(ratesLocation, source: .rates) { try ECBRatesParser().parseAvailable($0) } },
            // Both sources down: the tickers' error, every time (BothOrFirstFailure).
            secondWaitsForFirst: { ($0 as? FetchError)?.isNetworkFailure ?? false })
        let crossChecked =
            fetch.crossCheck ? await readOthers(fetch, besides: tickerResult.payload.source, failed: tickerResult.fallbacks, acquirer: acquirer) : ([], [])
        // Judged once, for the reports and the history alike: a time a year ahead was left out of
        // the reports and stored all the same.
        let decoded = FutureTickerTimes.judged(tickerResult.value, readAt: tickerResult.payload.fetchedAt)
        // Markets listed as not trading are left out every run: said only with --verbose.
        for diagnostic in Diagnostic.summarised(decoded.notTrading) {
            logger.debug("\(DiagnosticText.line(diagnostic))")
        }
        let names = await assetNames
        func build(_ currency: CurrencyCode) throws -> Report {
            var one = spec
            one.currency = currency
            var report = try ReportBuilder(spec: one, ratesAgeLimit: fetch.ratesAgeLimit, generatedAt: generatedAt).build(
                tickers: tickerResult.payload, decoded: decoded, rates: ratesResult.payload,
                exchangeDays: ratesResult.value, fallbacks: tickerResult.fallbacks, crossChecked: crossChecked, assetNames: names)
            report.tickersAgeLimit = fetch.maxAge.tickers
            return report
        }
        let report = try build(spec.currency)
        let others = try spec.currencies.dropFirst().map(build)
        let snapshot = Snapshot(
            report: report, fetchedAt: tickerResult.payload.fetchedAt, tickers: decoded.tickers)
        return (report, others, snapshot)
    }

    /// The warning that `--sample` sets aside the sources setting (`--source`,
    /// `CRYPTOREPORT_SOURCES`, `sources`): the sample is WazirX's. nil when nothing is set aside.
    static func sourcesIgnored(_ fetch: FetchPolicy) -> String? {
        guard fetch.sample, fetch.sources != fetch.exchanges else { return nil }
        return
            "--sample reads the built-in snapshot, which is WazirX's; the sources setting (\(fetch.sources.map(\.rawValue).joined(separator: ","))) is not used."
    }

    /// The markets of the first exchange in `order` that answers (`--source`); each that failed
    /// before it is said on standard error and in the reports. `--strict` refuses a fallback,
    /// as it refuses a cached copy.
    func acquireMarkets(_ order: [Exchange], fetch: FetchPolicy, acquirer: SourceAcquirer) async throws -> AcquiredMarkets {
        var failed: [(exchange: Exchange, reason: String)] = []
        for (index, exchange) in order.enumerated() {
            do {
                let acquired = try await acquireMarkets(of: exchange, fetch: fetch, acquirer: acquirer)
                return AcquiredMarkets(
                    payload: acquired.payload, value: acquired.value,
                    fallbacks: failed.map { .sourceFallback(failed: $0.exchange, used: exchange, reason: $0.reason) })
            } catch let error where index + 1 < order.count && !fetch.strict && SourceAcquirer.isSourceFailure(error) {
                let message = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
                logger.warning("\(message) Trying \(order[index + 1].displayName) instead (--source).")
                failed.append((exchange, message.hasSuffix(".") ? String(message.dropLast()) : message))
            }
        }
        // `order` is never empty (a setting of at least one exchange); the sample's is WazirX.
        throw FetchError.unreachable(source: .tickers, location: "", reason: "no exchange to read (--source)")
    }

    /// One exchange's markets: its tickers, split by its exchangeInfo where the tickers do not
    /// name their assets (Binance).
    private func acquireMarkets(of exchange: Exchange, fetch: FetchPolicy, acquirer: SourceAcquirer) async throws
        -> SourceAcquirer.Acquired<
            TickerDecoder.Result
        >
    {
        let tickers = try fetch.location(of: exchange.tickers)
        guard let info = exchange.info else {
            logger.debug("fetching \(tickers.description)")
            return try await acquirer.acquire(tickers, source: exchange.tickers) { try TickerDecoder().decode($0) }
        }
        let infoLocation = try fetch.location(of: info)
        logger.debug("fetching \(infoLocation.description), then \(tickers.description)")
        let table = try await acquirer.acquire(infoLocation, source: info) { try BinanceTickerDecoder(exchange: exchange, exchangeInfo: $0) }
        return try await acquirer.acquire(tickers, source: exchange.tickers) { try table.value.decode($0) }
    }

    /// `--cross-check`: the markets of every exchange of `--source` but the one read, and a
    /// diagnostic for each that could not be read; neither fails the run. One that failed
    /// already (`failed`, before the fallback) is not asked again.
    func readOthers(
        _ fetch: FetchPolicy, besides used: DataSource, failed: [Notice], acquirer: SourceAcquirer
    ) async -> (others: [CrossCheck.Other], unread: [Diagnostic]) {
        var others: [CrossCheck.Other] = []
        var unread: [Diagnostic] = []
        for case let .sourceFallback(exchange, _, reason) in failed {
            unread.append(Diagnostic(exchange.tickers, .notCrossChecked(exchange, reason: reason)))
        }
        let asked = Set(failed.compactMap { if case let .sourceFallback(exchange, _, _) = $0 { exchange } else { nil } })
        for exchange in fetch.exchanges where exchange.tickers != used && !asked.contains(exchange) {
            do {
                let acquired = try await acquireMarkets(of: exchange, fetch: fetch, acquirer: acquirer)
                others.append(CrossCheck.Other(exchange: exchange, tickers: acquired.value.tickers))
            } catch {
                let message = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
                unread.append(Diagnostic(exchange.tickers, .notCrossChecked(exchange, reason: message.hasSuffix(".") ? String(message.dropLast()) : message)))
            }
        }
        return (others, unread)
    }

    /// The markets read, and the exchanges that failed before them.
    struct AcquiredMarkets: Sendable {
        var payload: FetchedPayload
        var value: TickerDecoder.Result
        var fallbacks: [Notice]
    }
}
