package import Foundation
package import Logging

/// `cryptoreport backfill`: fills the history with daily klines of the primary markets and the
/// ECB 90-day rates, one request per second, resuming where an interrupted backfill stopped.
package struct Backfiller: Sendable {
    package struct Options: Sendable {
        package var days = 30
        /// Base of the WazirX API; tickers and klines are below it.
        package var apiBase = "https://api.wazirx.com"
        package var ratesHistoryURL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml"
        /// Where the tickers that name the primary markets are read; `nil`: below `apiBase`.
        package var tickers: SourceLocation?
        package var maximumBytes = 50_000_000
        /// Base assets or market symbols; empty: every primary market.
        package var symbols: [String] = []
        package var timeout: TimeInterval = 15
        package var retry = RetryPolicy()
        /// Shared with report runs, so that a backfill and a report keep to one request a second together.
        package var requestLog: RequestLog?

        package init() {}

        /// The reports' fetch settings: timeout, retries, payload limit and tickers source.
        package init(fetch: FetchPolicy) {
            timeout = fetch.timeout.timeInterval
            retry = fetch.retry
            maximumBytes = fetch.maximumBytes
            tickers = fetch.tickers
        }
    }

    package struct Outcome: Sendable, Equatable {
        package var markets: Int
        package var fetched: Int
        /// Already backfilled by an earlier, interrupted run.
        package var skipped: Int
        package var rateDays: Int
        /// Markets with no day stored (a refused request, unreadable klines, no rates for their
        /// days), each said in a warning and not marked done, so that the next backfill tries them again.
        package var leftOut = 0
    }

    package var store: HistoryStore
    package var http: any HTTPClient
    package var clock: any ReportClock
    package var sleeper: any Sleeper
    package var logger: Logger
    /// Called after each market with (done, total, symbol).
    package var progress: @Sendable (Int, Int, String) -> Void

    package init(
        store: HistoryStore, http: any HTTPClient = CurlHTTPClient(), clock: any ReportClock = SystemClock(),
        sleeper: any Sleeper = TaskSleeper(), logger: Logger = Logger(label: "cryptoreport"),
        progress: @escaping @Sendable (Int, Int, String) -> Void = { _, _, _ in }
    ) {
        self.store = store
        self.http = http
        self.clock = clock
        self.sleeper = sleeper
        self.logger = logger
        self.progress = progress
    }

    package func run(_ options: Options) async throws -> Outcome {
        var loader = SourceLoader(
            http: http, clock: clock, sleeper: sleeper, logger: logger, timeout: options.timeout,
            maximumBytes: options.maximumBytes, retry: options.retry, deadlineSeconds: 24 * 3600)
        loader.requestLog = options.requestLog
        let base = options.apiBase.hasSuffix("/") ? String(options.apiBase.dropLast()) : options.apiBase
        // A folder of saved files (a path or a `file://` URL) instead of the API: `tickers.json`
        // and `klines-SYMBOL.json` in it, read with no pause between them.
        let savedFolder = base.hasPrefix("http://") || base.hasPrefix("https://") ? nil : base
        let ratesPayload = try await loader.load(try SourceLocation(parsing: options.ratesHistoryURL, source: .rates), source: .rates)
        let rateDays = try ECBHistoryReader().read(ratesPayload.data)
        try store.recordRates(rateDays)

        let tickersPayload = try await loader.load(
            try options.tickers ?? SourceLocation(parsing: savedFolder.map { $0 + "/tickers.json" } ?? base + "/sapi/v1/tickers/24hr", source: .tickers),
            source: .tickers)
        let tickers = try TickerDecoder().decode(tickersPayload.data).tickers
        let markets = Self.primaryMarkets(tickers, symbols: options.symbols)
        let unmatched = MarketSelector(Selection(symbols: options.symbols)).unmatched(in: tickers)
        if !unmatched.isEmpty {
            guard !markets.isEmpty else {
                throw SelectionError.nothingMatches(symbols: unmatched)
            }
            logger.warning("backfill: no market matches \(unmatched.map { "\"\($0)\"" }.joined(separator: ", ")) (--symbols)")
        }
        let now = clock.now()

        var fetched = 0
        var skipped = 0
        var leftOut = 0
        for (index, ticker) in markets.enumerated() {
            let symbol = ticker.symbol.lowercased()
            if try store.backfilled(symbol, days: options.days, on: now) {
                skipped += 1
                progress(index + 1, markets.count, symbol)
                continue
            }
            // WazirX allows one request per second, counted across all our requests.
            if savedFolder == nil { try await sleeper.sleep(seconds: RetryPolicy.minimumInterval(for: .tickers)) }
            // N days back needs N + 1 whole days (a close stamped at the end of its day is a little
            // under N days before a report made N days later), and today's moving kline comes too;
            // 1000 is the most klines one request returns.
            let url =
                savedFolder.map { "\($0)/klines-\(symbol).json" } ?? "\(base)/sapi/v1/klines?symbol=\(symbol)&interval=1d&limit=\(min(options.days + 2, 1000))"
            // This market is left out, said why, and not marked done: the next backfill tries it again.
            func leaveOut(_ why: String) {
                leftOut += 1
                logger.warning("backfill: \(symbol): \(why)")
                progress(index + 1, markets.count, symbol)
            }
            let klines: [Kline]
            do {
                klines = try await self.klines(of: symbol, at: url, loader: loader)
            } catch let error as FetchError where !error.isNetworkFailure {
                // This market's answer (a 400 for a delisted symbol, an HTML page): the others go on.
                leaveOut("\(error.errorDescription ?? "failed") It is left out.")
                continue
            } catch let error as DataError {
                leaveOut("\(error.errorDescription ?? "unreadable") It is left out.")
                continue
            }
            let (snapshots, withoutRates, pastRates) = try days(of: ticker, klines: klines, rateDays: rateDays, now: now, location: url)
            if withoutRates > 0 {
                logger.warning(
                    "backfill: \(symbol): \(withoutRates) \(withoutRates == 1 ? "day" : "days") older than the ECB rates on hand (from \(rateDays.last?.date ?? "?")) were left out"
                )
            }
            if pastRates > 0 {
                logger.warning(
                    "backfill: \(symbol): \(pastRates) \(pastRates == 1 ? "day" : "days") more than a week after the newest ECB rates on hand (\(rateDays.first?.date ?? "?")) were left out"
                )
            }
            guard !snapshots.isEmpty else {
                leaveOut("no day could be stored; it is left out")
                continue
            }
            try store.recordBackfill(symbol: symbol, days: options.days, snapshots: snapshots, at: now)
            fetched += 1
            progress(index + 1, markets.count, symbol)
        }
        return Outcome(markets: markets.count, fetched: fetched, skipped: skipped, rateDays: rateDays.count, leftOut: leftOut)
    }

    /// The market's daily klines; unreadable ones are left out, with a warning.
    private func klines(of symbol: String, at url: String, loader: SourceLoader) async throws -> [Kline] {
        let payload = try await loader.load(try SourceLocation(parsing: url, source: .klines), source: .klines)
        let decoded = try KlinesDecoder().decode(payload.data, symbol: symbol)
        if decoded.unreadable > 0 {
            logger.warning("backfill: \(symbol): \(decoded.unreadable) unreadable \(decoded.unreadable == 1 ? "kline was" : "klines were") left out")
        }
        return decoded.klines
    }

    /// The market's whole days as snapshots, each at its own day's rates, and how many days were
    /// left out for want of rates (older than any on hand) or for rates not in force on them.
    private func days(
        of ticker: Ticker, klines: [Kline], rateDays: [ExchangeRates], now: Date, location: String
    ) throws -> (snapshots: [Snapshot], withoutRates: Int, pastRates: Int) {
        var snapshots: [Snapshot] = []
        var withoutRates = 0
        var pastRates = 0
        // Today's kline is still moving: only whole days are history.
        for kline in klines where kline.openTime.addingTimeInterval(86400) <= now {
            let day = ReportDates.day(kline.openTime)
            // Each day at its own rates: from the 90-day file, else from earlier runs, else left
            // out rather than priced at the rates of another day.
            guard let dayRates = try rateDays.first(where: { $0.date <= day }) ?? store.rates(onOrBefore: day) else {
                withoutRates += 1
                continue
            }
            // The rates in force on a day are at most a few days old (a weekend, Easter);
            // the newest of an old 90-day file would price months of days at one day's rates.
            guard Self.isInForce(dayRates.date, on: kline.openTime) else {
                pastRates += 1
                continue
            }
            snapshots.append(Self.snapshot(ticker, kline: kline, rates: dayRates, location: location))
        }
        return (snapshots, withoutRates, pastRates)
    }

    /// Whether the rates of `date` can be a day's: published at most `maximumRateAge` before it.
    static func isInForce(_ date: String, on day: Date) -> Bool {
        guard let published = TARGETCalendar.publication(of: date) else { return false }
        return day.timeIntervalSince(published) <= maximumRateAge
    }

    /// A week: longer than any gap between two TARGET business days.
    static let maximumRateAge: TimeInterval = 7 * 86400

    /// One primary market per base asset, in symbol order so that a resumed run walks the same list.
    static func primaryMarkets(_ tickers: [Ticker], symbols: [String]) -> [Ticker] {
        let rows = tickers.map {
            MarketRow(symbol: $0.symbol, baseAsset: $0.baseAsset, quoteAsset: $0.quoteAsset, currency: "", price: $0.last, fxRate: 1)
        }
        let selected = Set(MarketSelector(Selection(markets: .primary, symbols: symbols)).select(rows).map { $0.symbol.lowercased() })
        return tickers.filter { selected.contains($0.symbol.lowercased()) }.sorted { $0.symbol.lowercased() < $1.symbol.lowercased() }
    }

    /// A backfilled day: the kline's close as the last price, stamped at the end of its UTC day,
    /// with the ECB rates in effect that day.
    static func snapshot(_ ticker: Ticker, kline: Kline, rates dayRates: ExchangeRates, location: String) -> Snapshot {
        let end = kline.openTime.addingTimeInterval(86400 - 0.001)
        let market = Ticker(
            symbol: ticker.symbol, baseAsset: ticker.baseAsset, quoteAsset: ticker.quoteAsset, open: kline.open, low: kline.low,
            high: kline.high, last: kline.close, volume: kline.volume, updatedAt: end)
        return Snapshot(
            sourceTime: end, fetchedAt: end, kind: .backfill,
            sources: [
                .tickers: .init(status: .backfill, location: location),
                .rates: .init(status: .backfill, location: "ECB 90-day history"),
            ],
            tickers: [market], rates: dayRates)
    }
}
