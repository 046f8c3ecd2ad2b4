import Foundation
import Testing

@testable import CryptoReport

@Suite("Stale data")
struct FreshnessTests {
    static func utc(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text) ?? Date(timeIntervalSince1970: 0)
    }

    @Test(
        "TARGET closing days",
        arguments: [
            ("2025-04-18", false), ("2025-04-21", false), ("2025-04-22", true), ("2024-12-24", true), ("2024-12-25", false),
            ("2024-12-26", false), ("2025-01-01", false), ("2025-05-01", false), ("2022-11-19", false), ("2022-11-21", true),
        ])
    func closingDays(date: String, open: Bool) {
        let parts = date.split(separator: "-").compactMap { Int($0) }
        #expect(TARGETCalendar.isWorkingDay(year: parts[0], month: parts[1], day: parts[2]) == open)
    }

    @Test("the real 90-day ECB file has exactly the TARGET working days")
    func calendarMatchesRealHistory() throws {
        let days = Set(try ECBRatesParser().parseDays(try Fixtures.data(Fixtures.historyURL)).map(\.date))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        var day = Self.utc("2024-11-28T12:00:00Z")
        var working: Set<String> = []
        while day <= Self.utc("2025-02-25T12:00:00Z") {
            let c = calendar.dateComponents([.year, .month, .day], from: day)
            if TARGETCalendar.isWorkingDay(year: c.year ?? 0, month: c.month ?? 0, day: c.day ?? 0) {
                working.insert(ReportDates.day(day))
            }
            day = day.addingTimeInterval(86400)
        }
        #expect(working == days)
    }

    @Test(
        "the rates that should be out at a given moment (published about 16:00 CET)",
        arguments: [
            ("2022-11-22T00:51:33Z", "2022-11-21"),  // the sample: Monday's rates
            ("2022-11-21T10:00:00Z", "2022-11-18"),  // Monday morning: Friday's
            ("2022-11-21T15:40:00Z", "2022-11-21"),  // Monday 16:40 CET
            ("2022-11-20T18:00:00Z", "2022-11-18"),  // Sunday
            ("2025-04-22T10:00:00Z", "2025-04-17"),  // Tuesday after Easter: Thursday's
            ("2025-07-01T14:00:00Z", "2025-06-30"),  // 16:00 CEST, before the slack
        ])
    func expectedDate(instant: String, expected: String) {
        #expect(TARGETCalendar.expectedRatesDate(at: Self.utc(instant)) == expected)
    }

    static func build(
        tickers: [String], rates: Data, origin: FetchedPayload.Origin = .file, fetchedAt: Date = Fixtures.captureTime,
        allowStale: Bool = false
    ) throws -> Report {
        var request = Settings()
        request.report.selection = Selection(markets: .all)
        request.fetch.allowStale = allowStale
        let tickerPayload = FetchedPayload(
            source: .tickers, location: .file("t"), data: Fixtures.tickerJSON(tickers), fetchedAt: fetchedAt, origin: origin)
        return try ReportBuilder(spec: request.report, ratesAgeLimit: request.fetch.ratesAgeLimit, generatedAt: fetchedAt).build(
            tickers: tickerPayload, rates: Fixtures.payload(.rates, rates))
    }

    static let usd = [("USD", "1.0246"), ("INR", "83.7375")]
    static let at = "1669078292000"  // 2022-11-22 00:51:32 UTC

    @Test("rates older than the expected day are flagged, not refused")
    func ratesBehind() throws {
        let report = try Self.build(
            tickers: [Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: Self.at)],
            rates: Fixtures.ecbXML(date: "2022-11-18", rates: Self.usd))
        #expect(report.freshness.ratesBehind)
        #expect(
            report.notices.map(NoticeText.text) == [
                "ECB rates are of 2022-11-18; the rates of 2022-11-21 should have been published by the time of these tickers."
            ])
    }

    @Test("rates older than --max-age are an error unless --allow-stale")
    func ratesTooOld() throws {
        let tickers = [Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: Self.at)]
        let old = Fixtures.ecbXML(date: "2022-11-10", rates: Self.usd)
        #expect {
            try Self.build(tickers: tickers, rates: old)
        } throws: { error in
            (error as? DataError)?.errorDescription
                == "ECB rates: the newest rates are of 2022-11-10, 11.4 days older than the tickers, past the 5 days limit (--max-age); --allow-stale accepts them."
                && (error as? DataError)?.exitStatus == .dataError
        }
        let report = try Self.build(tickers: tickers, rates: old, allowStale: true)
        #expect(report.freshness.ratesBehind)
        // No ticker time: judged against the fetch, and the message says so.
        let timeless = [Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: "null")]
        #expect {
            try Self.build(tickers: timeless, rates: old, fetchedAt: Self.utc("2022-12-10T12:00:00Z"))
        } throws: { error in
            (error as? DataError)?.errorDescription
                == "ECB rates: the newest rates are of 2022-11-10, 29.9 days older than the fetch (no ticker carries a time), past the 5 days limit (--max-age); --allow-stale accepts them."
        }
    }

    /// Issue 32: ETH/BTC priced through a three-day-old BTC/USDT was not marked stale.
    @Test("a market priced through a stale market is stale too; one priced through a fresh one is not")
    func staleThroughPricing() throws {
        let report = try Self.build(
            tickers: [
                Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: "1668840000000"),
                Fixtures.ticker("ethbtc", base: "eth", quote: "btc", last: "0.07", at: Self.at),
                Fixtures.ticker("ethusdt", base: "eth", quote: "usdt", last: "1100", at: Self.at),
                Fixtures.ticker("wrxinr", base: "wrx", quote: "inr", last: "20", at: Self.at),
                Fixtures.ticker("solwrx", base: "sol", quote: "wrx", last: "0.5", at: Self.at),
            ],
            rates: try Fixtures.rates, origin: .network, fetchedAt: Self.utc("2022-11-22T01:00:00Z"))
        let stale = Dictionary(uniqueKeysWithValues: report.rows.map { ($0.symbol, $0.isStale) })
        #expect(stale == ["btcusdt": true, "ethbtc": true, "ethusdt": false, "wrxinr": false, "solwrx": false])
    }

    @Test("a market over an hour older than the fetch is stale in every format")
    func staleMarket() throws {
        let report = try Self.build(
            tickers: [
                Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: Self.at),
                Fixtures.ticker("oldusdt", base: "old", quote: "usdt", last: "2", at: "1669070000000"),
            ],
            rates: try Fixtures.rates, origin: .network, fetchedAt: Self.utc("2022-11-22T01:00:00Z"))
        #expect(report.rows.first { $0.symbol == "oldusdt" }?.isStale == true)
        #expect(report.rows.first { $0.symbol == "btcusdt" }?.isStale == false)
        #expect(report.freshness.halt == nil)
        #expect(report.notices.map(NoticeText.text) == ["1 markets have not updated for over an hour; they are marked stale."])
        let templates = try TemplateRenderer()
        let pipeline = ReportPipeline()
        #expect(try pipeline.render(report, as: .csv, templates: templates).contains("2022-11-21T22:33:20Z,true,,,,wazirx\r\n"))
        #expect(try pipeline.render(report, as: .json, templates: templates).contains(#""stale" : true"#))
        #expect(try pipeline.render(report, as: .markdown, templates: templates).contains("| OLD/USDT (stale) |"))
        #expect(try pipeline.render(report, as: .html, templates: templates).contains(#"OLD/USDT <span class="stale""#))
    }

    @Test("a ticker stamped after the feed was read has its time left empty: the report keeps its day, and the row its figures")
    func futureTime() throws {
        let fetched = Self.utc("2022-11-22T01:00:00Z")
        let report = try Self.build(
            tickers: [
                Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: Self.at),
                // A year ahead: a clock's fault, not a trade.
                Fixtures.ticker("ethusdt", base: "eth", quote: "usdt", last: "1100", at: "1700614292000"),
                // Half an hour ahead: the exchange's clock may run ahead of this machine's.
                Fixtures.ticker("xrpusdt", base: "xrp", quote: "usdt", last: "0.4", at: "1669082400000"),
            ],
            rates: try Fixtures.rates, origin: .network, fetchedAt: fetched)
        #expect(report.dataDate == "2022-11-22")
        #expect(report.summary.newestTickerAt == Self.utc("2022-11-22T02:00:00Z"))
        let eth = try #require(report.rows.first { $0.symbol == "ethusdt" })
        #expect(eth.updatedAt == nil && eth.price == Fixtures.decimal("1100") && !eth.isStale)
        #expect(report.rows.first { $0.symbol == "xrpusdt" }?.updatedAt != nil)
        #expect(report.diagnostics.map(\.message) == ["ethusdt: at 2023-11-22 00:51 UTC is after the feed was read (2022-11-22 01:00 UTC); left empty"])
        #expect(report.freshness.halt == nil && report.notices.isEmpty)
    }

    /// A hardware clock in local time in the Americas, before NTP: every row "ahead" of it.
    @Test("a machine whose clock runs hours behind keeps every ticker's time: only a time ahead of the feed's own is judged")
    func clockBehind() throws {
        let report = try Self.build(
            tickers: [
                Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: Self.at),
                Fixtures.ticker("ethusdt", base: "eth", quote: "usdt", last: "1100", at: Self.at),
            ],
            rates: try Fixtures.rates, origin: .network, fetchedAt: Self.utc("2022-11-21T18:51:00Z"))
        #expect(report.rows.allSatisfy { $0.updatedAt != nil } && report.diagnostics.isEmpty)
        #expect(report.summary.newestTickerAt == Self.utc("2022-11-22T00:51:32Z"))
    }

    @Test("the history records the time left empty too, not the year ahead")
    func futureTimeNotRecorded() async throws {
        let folder = try TemporaryFolder()
        let tickers = folder.url.appendingPathComponent("t.json")
        let json = try #require(try JSONSerialization.jsonObject(with: try Fixtures.tickers) as? [[String: Any]])
        // One row a year ahead of the capture (and of the fixed clock's 07:00).
        let moved = json.map { row -> [String: Any] in
            var row = row
            if row["symbol"] as? String == "btcusdt" { row["at"] = 1_700_614_292_000 }
            return row
        }
        try JSONSerialization.data(withJSONObject: moved).write(to: tickers)
        var request = Settings()
        request.fetch.tickers = .at(tickers.path)
        request.fetch.rates = .at(Fixtures.ratesURL.path, .rates)
        let prepared = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).prepare(request.report, fetch: request.fetch)
        #expect(prepared.report.rows.first { $0.symbol == "btcusdt" }?.updatedAt == nil)
        #expect(prepared.snapshot.tickers.first { $0.symbol == "btcusdt" }.map { $0.updatedAt == nil } == true)
        #expect(prepared.report.dataDate == "2022-11-22")
    }

    @Test("every market stale: the exchange appears halted")
    func allStale() throws {
        let report = try Self.build(
            tickers: [Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: Self.at)],
            rates: try Fixtures.rates, origin: .network, fetchedAt: Self.utc("2022-11-22T03:00:00Z"))
        #expect(report.freshness.halt == .allStale)
        #expect(report.notices.map(\.kind) == [.exchangeHalted])
    }

    @Test("every volume zero, as after WazirX paused trading in July 2024: halted")
    func noVolume() throws {
        let report = try Self.build(
            tickers: [
                Fixtures.ticker("btcinr", base: "btc", quote: "inr", last: "5000000", volume: "0", at: Self.at),
                Fixtures.ticker("ethinr", base: "eth", quote: "inr", last: "250000", volume: "0.0", at: Self.at),
            ],
            rates: try Fixtures.rates)
        #expect(report.freshness.halt == .noVolume)
        #expect(report.notices.map(NoticeText.text) == ["WazirX appears halted: no market traded anything in 24 h."])
    }

    @Test("files and the sample are judged against their newest ticker, not today")
    func replayNotStale() throws {
        let report = try Self.build(
            tickers: [Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: Self.at)],
            rates: try Fixtures.rates, origin: .file, fetchedAt: Self.utc("2026-11-21T07:00:00Z"))
        #expect(report.freshness.staleMarkets == 0)
        #expect(report.notices.isEmpty)
    }

    static func replay(rates: URL) async throws -> Report {
        var request = Settings()
        request.fetch.tickers = .at(Fixtures.tickersURL.path)
        request.fetch.rates = .at(rates.path, .rates)
        request.output.noHistory = true
        return try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(request)
    }

    @Test("a file of several days: the tickers are priced at the day in effect then, not the newest")
    func dayInEffect() async throws {
        let folder = try TemporaryFolder()
        // The real day of 2022-11-21, and after it a made-up 2022-11-22 published 14 h after the tickers.
        let real = try String(contentsOf: Fixtures.ratesURL, encoding: .utf8)
        let later = real.replacingOccurrences(
            of: "<Cube time='2022-11-21'>", with: "<Cube time='2022-11-22'><Cube currency='USD' rate='2'/></Cube><Cube time='2022-11-21'>")
        #expect(later != real)
        let file = folder.url.appendingPathComponent("two-days.xml")
        try Data(later.utf8).write(to: file)
        let report = try await Self.replay(rates: file)
        #expect(report.rates.date == "2022-11-21")
        #expect(report.freshness.ratesAhead == false && report.notices.isEmpty)
    }

    @Test("rates all published after the tickers: the oldest day, and a notice saying so")
    func ratesAhead() async throws {
        let report = try await Self.replay(rates: Fixtures.historyURL)
        #expect(report.rates.date == "2024-11-28")
        #expect(report.freshness.ratesAhead)
        #expect(report.notices.map(\.kind) == [.ratesAhead])
        #expect(
            report.notices.first.map(NoticeText.text)
                == "ECB rates are of 2024-11-28, published after these tickers (the rates in effect were those of 2022-11-21); prices are converted at later rates."
        )
        #expect(try JSONRenderer().render(report).contains(#""rates_ahead" : true"#))
    }

    @Test(
        "same-day rates are not ahead of tickers once they can be out (15:00 Frankfurt), whatever the 16:30 slack for lateness",
        arguments: [("2022-11-22T15:15:00Z", false), ("2022-11-22T14:30:00Z", false), ("2022-11-22T13:30:00Z", true)])
    func sameDayRates(tickerTime: String, ahead: Bool) throws {
        let at = String(Int(Self.utc(tickerTime).timeIntervalSince1970) * 1000)
        let report = try Self.build(
            tickers: [Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: at)],
            rates: Fixtures.ecbXML(date: "2022-11-22", rates: Self.usd), fetchedAt: Self.utc("2022-11-22T16:00:00Z"))
        #expect(report.freshness.ratesAhead == ahead)
        #expect(report.notices.contains { $0.kind == .ratesAhead } == ahead)
        #expect(
            TARGETCalendar.ratesInEffect(
                [ExchangeRates(date: "2022-11-22", perEuro: [:]), ExchangeRates(date: "2022-11-21", perEuro: [:])], at: Self.utc(tickerTime))?.date
                == (ahead ? "2022-11-21" : "2022-11-22"))
    }
}
