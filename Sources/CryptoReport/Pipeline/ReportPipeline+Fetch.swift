import Foundation
import Logging

/// Both sources fetched and built into a report in each currency asked for.
extension ReportPipeline {
    /// Fetches both sources concurrently and builds the report.
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
        var loader = SourceLoader(
            http: http, files: files, clock: clock, sleeper: sleeper, logger: logger, timeout: fetch.timeout.timeInterval,
            maximumBytes: fetch.maximumBytes, retry: fetch.retry, deadlineSeconds: fetch.deadline.timeInterval)
        let cache = PayloadCache(directory: fetch.cacheFolder(environment: environment))
        loader.requestLog = RequestLog(directory: cache.directory)
        let acquirer = SourceAcquirer(policy: fetch, loader: loader, cache: cache, clock: clock, logger: logger)
        let tickerLocation = try fetch.location(of: .tickers)
        let ratesLocation = try fetch.location(of: .rates)
        logger.debug("fetching \(tickerLocation.description) and \(ratesLocation.description)")
        let (tickerResult, ratesResult) = try await bothOrFirstFailure(
            { try await acquirer.acquire(tickerLocation, source: .tickers) { try TickerDecoder().decode($0) } },
            { try await acquirer.acquire(ratesLocation, source: .rates) { try ECBRatesParser().parseAvailable($0) } },
            // Both sources down: the tickers' error, every time (BothOrFirstFailure).
            secondWaitsForFirst: { ($0 as? FetchError)?.isNetworkFailure ?? false })
        // Judged once, for the reports and the history alike: a time a year ahead was left out of
        // the reports and stored all the same.
        let decoded = FutureTickerTimes.judged(tickerResult.value, readAt: tickerResult.payload.fetchedAt)
        func build(_ currency: CurrencyCode) throws -> Report {
            var one = spec
            one.currency = currency
            return try ReportBuilder(spec: one, ratesAgeLimit: fetch.ratesAgeLimit, generatedAt: generatedAt).build(
                tickers: tickerResult.payload, decoded: decoded, rates: ratesResult.payload,
                exchangeDays: ratesResult.value)
        }
        let report = try build(spec.currency)
        let others = try spec.currencies.dropFirst().map(build)
        let snapshot = Snapshot(
            report: report, fetchedAt: tickerResult.payload.fetchedAt, tickers: decoded.tickers)
        return (report, others, snapshot)
    }
}
