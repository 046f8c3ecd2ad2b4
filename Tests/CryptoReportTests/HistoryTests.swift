import Foundation
import GRDB
import Testing

@testable import CryptoReport

@Suite("History store and trends")
struct HistoryTests {
    static let day: TimeInterval = 86400
    static let captured = Date(timeIntervalSince1970: 1_669_078_293)  // newest ticker of the capture

    /// The real capture moved `daysAgo` days back, every price times `factor`, with ECB rates of
    /// that earlier day (the real rates times `rateFactor`).
    static func snapshot(daysAgo: Int, factor: Decimal, rateFactor: Decimal = 1, kind: Snapshot.Kind = .report) throws -> Snapshot {
        let tickers = try TickerDecoder().decode(try Fixtures.tickers).tickers.map { ticker -> Ticker in
            var moved = ticker
            moved.last = ticker.last * factor
            moved.open = ticker.open.map { $0 * factor }
            moved.updatedAt = ticker.updatedAt?.addingTimeInterval(-Double(daysAgo) * day)
            return moved
        }
        var rates = try ECBRatesParser().parseLatest(try Fixtures.rates)
        rates.perEuro = rates.perEuro.mapValues { $0 * rateFactor }
        rates.date = ReportDates.day(captured.addingTimeInterval(-Double(daysAgo + 1) * day))
        let time = captured.addingTimeInterval(-Double(daysAgo) * day)
        return Snapshot(sourceTime: time, fetchedAt: time, kind: kind, tickers: tickers, rates: rates)
    }

    /// Equal to 30 significant digits: the ECB cross rate divides, so the last of 38 digits may differ.
    static func close(_ a: Decimal?, _ b: Decimal) -> Bool {
        guard let a else { return false }
        let difference = a - b
        let magnitude = b < 0 ? -b : b
        return (difference < 0 ? -difference : difference) <= magnitude * Fixtures.decimal("1e-30")
    }

    static func currentReport(currency: CurrencyCode = "SEK") async throws -> Report {
        var request = Settings()
        request.report.currency = currency
        request.fetch.sample = true
        request.report.selection = Selection(symbols: ["btc", "eth"])
        return try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(request)
    }

    @Test("recording the same snapshot twice stores it once")
    func idempotent() throws {
        let store = try HistoryStore()
        let snapshot = try Self.snapshot(daysAgo: 1, factor: 1)
        #expect(try store.record(snapshot))
        #expect(try store.record(snapshot) == false)
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        #expect(runs.count == 1)
        let stored = try store.snapshot(of: runs[0])
        #expect(stored.tickers == snapshot.tickers, "raw values come back exactly")
        #expect(stored.rates == snapshot.rates)
    }

    @Test("trends against hand-computed figures, each day converted at its own rates")
    func trendFigures() async throws {
        let store = try HistoryStore()
        // 30 days ago: prices 0.8×, SEK 10% cheaper per EUR than today (rates ×0.9 for SEK only is
        // not needed: scaling every rate alike leaves cross rates unchanged), so use plain rates.
        try store.record(try Self.snapshot(daysAgo: 30, factor: Fixtures.decimal("0.8")))
        try store.record(try Self.snapshot(daysAgo: 7, factor: Fixtures.decimal("0.9")))
        try store.record(try Self.snapshot(daysAgo: 1, factor: Fixtures.decimal("1.25")))
        let report = try await Self.currentReport()
        let trends = try TrendCalculator(store: store).trends(for: report.rows, currency: "SEK", at: Self.captured)
        let btc = try #require(report.rows.first { $0.symbol == "btcusdt" })
        let trend = try #require(trends["btcusdt"])
        // Same ECB cross rates every day, so the % changes are those of the USDT prices.
        #expect(trend.sincePrevious == (1 - Fixtures.decimal("1.25")) / Fixtures.decimal("1.25") * 100)
        #expect(trend.change7d == (1 - Fixtures.decimal("0.9")) / Fixtures.decimal("0.9") * 100)
        #expect(trend.change30d == (1 - Fixtures.decimal("0.8")) / Fixtures.decimal("0.8") * 100)
        // The series starts at the 30-day change's basis, so that a chart of it (and its rebased
        // comparison) shows that change: 30 days ago, 7 days ago, yesterday, today.
        #expect(trend.series.count == 4)
        #expect(trend.series.last == btc.price)
        #expect(Self.close(trend.series.first, btc.price * Fixtures.decimal("0.8")))
        #expect(Trend.percent(from: trend.series.first, to: btc.price) == trend.change30d)
    }

    @Test("a past day's SEK price uses that day's SEK rate")
    func ownDayRates() async throws {
        let store = try HistoryStore()
        // Same USDT prices a day ago, but SEK then cost 10% more per USD: a SEK trend must show it.
        var past = try Self.snapshot(daysAgo: 1, factor: 1)
        past.rates.perEuro["SEK"] = (past.rates.perEuro["SEK"] ?? 0) * Fixtures.decimal("1.1")
        try store.record(past)
        let report = try await Self.currentReport()
        let trends = try TrendCalculator(store: store).trends(for: report.rows, currency: "SEK", at: Self.captured)
        let change = try #require(trends["btcusdt"]?.sincePrevious)
        #expect(Self.close(change, (1 - Fixtures.decimal("1.1")) / Fixtures.decimal("1.1") * 100))
        let usdTrends = try TrendCalculator(store: store).trends(for: try await Self.currentReport(currency: "USD").rows, currency: "USD", at: Self.captured)
        #expect(usdTrends["btcusdt"]?.sincePrevious == 0)
    }

    @Test(
        "trends from runs priced ahead are the trends read when asked",
        arguments: [
            ("a report newer than every run", 0.0, false),
            ("a replayed day older than the newest run", -10.0, false),
            ("names stored after the read-ahead", 0.0, true),
        ])
    func readAhead(_ situation: String, shift: Double, laterNames: Bool) async throws {
        let store = try HistoryStore()
        // Beyond the month, at its edge, the week's, and a few recent days; one a backfill.
        for (days, factor) in [(40, "0.5"), (31, "0.7"), (30, "0.8"), (8, "0.85"), (7, "0.9"), (3, "1.1"), (1, "1.25")] {
            try store.record(try Self.snapshot(daysAgo: days, factor: Fixtures.decimal(factor), kind: days == 3 ? .backfill : .report))
        }
        let ahead = try TrendCalculator.readAhead(store, currencies: ["SEK", "USD"])
        if laterNames {
            // A run with a market first stored after the read-ahead: its slot comes after the others'.
            var extra = try Self.snapshot(daysAgo: 2, factor: Fixtures.decimal("1.2"))
            extra.tickers.insert(Ticker(symbol: "newcoininr", baseAsset: "newcoin", quoteAsset: "inr", last: 7), at: 0)
            try store.record(extra)
        }
        let now = Self.captured.addingTimeInterval(shift * Self.day)
        for currency: CurrencyCode in ["SEK", "USD"] {
            var rows = try await Self.currentReport(currency: currency).rows
            rows.append(MarketRow(symbol: "NEWCOININR", baseAsset: "newcoin", quoteAsset: "inr", currency: currency.code, price: 8, fxRate: 1))
            let asked = try TrendCalculator(store: store).trends(for: rows, currency: currency.code, at: now)
            let readAhead = try TrendCalculator(store: store, ahead: ahead).trends(for: rows, currency: currency.code, at: now)
            #expect(readAhead == asked, "\(situation), \(currency)")
            #expect(asked["btcusdt"]?.series.count ?? 0 > 2, "the case has history to read")
            #expect((asked["newcoininr"]?.series.count ?? 0) == (laterNames && shift == 0 ? 2 : 1))
        }
    }

    @Test("a month priced from only the rates it needs is priced as from every rate, days lacking a currency included")
    func pricesFromNeededRates() throws {
        let store = try HistoryStore()
        for (days, dropped) in [(6, nil), (5, "SEK"), (4, "USD"), (3, "INR"), (2, "GBP"), (1, nil)] as [(Int, String?)] {
            var snapshot = try Self.snapshot(daysAgo: days, factor: Fixtures.decimal("1.0\(days)"), rateFactor: Fixtures.decimal("1.00\(days)"))
            if let dropped { snapshot.rates.perEuro[dropped] = nil }
            try store.record(snapshot)
        }
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        for currency in ["SEK", "USD", "EUR", "INR", "GBP"] {
            func priced(_ currencies: Set<String>?) throws -> [Int64: [Decimal?]] {
                var result: [Int64: [Decimal?]] = [:]
                try store.forEachLastPrices(of: runs, currencies: currencies) { names, id, prices, rates in
                    result[id] = StoredDayPricer(names: names, currency: currency).prices(prices, rates: rates)
                }
                return result
            }
            let all = try priced(nil)
            #expect(all.count == 6 && (currency == "EUR" || all.values.contains { $0.allSatisfy { $0 == nil } }), "a day lacks \(currency)")
            #expect(try priced([currency, "USD", "INR"]) == all, "\(currency)")
            if currency != "INR" { #expect(try priced([currency]) != all, "without INR's rates, INR markets go unpriced") }
            var ahead = [StoredPrices(currency: currency)]
            try StoredPrices.add(runs, to: &ahead, from: store)
            for run in runs { #expect(ahead[0].prices(of: run) == all[run.id], "\(currency), run \(run.id)") }
        }
    }

    @Test("each row's trend by position is the one its symbol's key gives, a symbol listed twice included")
    func trendsByPosition() async throws {
        let store = try HistoryStore()
        for (days, factor) in [(30, "0.8"), (7, "0.9"), (2, "1.1"), (1, "1.25")] {
            try store.record(try Self.snapshot(daysAgo: days, factor: Fixtures.decimal(factor)))
        }
        var rows = try await Self.currentReport().rows
        // The same symbol again in capitals, at another price, and once more in lower case.
        let btc = try #require(rows.first { $0.symbol == "btcusdt" })
        var twice = btc
        twice.symbol = "BTCUSDT"
        twice.price = btc.price * 2
        rows.insert(twice, at: 0)
        var again = btc
        again.price = btc.price * 3
        rows.append(again)
        let calculator = TrendCalculator(store: store)
        let byKey = try calculator.trends(for: rows, currency: "SEK", at: Self.captured)
        let byPosition = try calculator.rowTrends(for: rows, currency: "SEK", at: Self.captured)
        #expect(byPosition.count == rows.count)
        for (row, trend) in zip(rows, byPosition) { #expect(trend == byKey[row.symbol.lowercased()], "\(row.symbol)") }
        #expect(byPosition[0].series.last == btc.price * 3, "every listing has the last one's trend")
        #expect(byPosition.contains { $0.series.count > 2 })
    }

    @Test("runs priced in parts are priced as all at once, in every currency, whatever was priced before")
    func pricedInParts() throws {
        let store = try HistoryStore()
        for days in 1...12 {
            var snapshot = try Self.snapshot(daysAgo: days, factor: Fixtures.decimal("1.0\(days)"), rateFactor: Fixtures.decimal("1.00\(days)"))
            if days == 5 { snapshot.rates.perEuro["SEK"] = nil }
            if days < 4 { snapshot.tickers.append(Ticker(symbol: "newcoininr", baseAsset: "newcoin", quoteAsset: "inr", last: Fixtures.decimal("7.\(days)"))) }
            try store.record(snapshot)
        }
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        func priced(first: [RunSummary]) throws -> [StoredPrices] {
            var prices = ["SEK", "USD", "INR"].map(StoredPrices.init)
            try StoredPrices.add(first, to: &prices, from: store)
            try StoredPrices.add(runs, to: &prices, from: store)
            return prices
        }
        let atOnce = try priced(first: [])
        for first in [Array(runs.prefix(3)), [runs[7]], Array(runs.suffix(2))] {
            let inParts = try priced(first: first)
            for (a, b) in zip(atOnce, inParts) {
                #expect(a.slots == b.slots)
                for run in runs { #expect(a.prices(of: run) == b.prices(of: run) && b.prices(of: run) != nil, "\(a.currency), run \(run.id)") }
            }
        }
        // The day without SEK has no SEK prices, only nils; the others all of theirs.
        let sek = atOnce[0]
        #expect(runs.contains { run in sek.prices(of: run)?.allSatisfy { $0 == nil } == true })
        #expect(runs.filter { run in sek.prices(of: run)?.contains { $0 != nil } == true }.count == runs.count - 1)
    }

    @Test("no history, no figures; 7 and 30 days only where history reaches")
    func emptyWhereUncovered() async throws {
        let store = try HistoryStore()
        let report = try await Self.currentReport()
        let none = try TrendCalculator(store: store).trends(for: report.rows, currency: "SEK", at: Self.captured)
        var alone = Trend(series: [report.rows.first { $0.symbol == "btcusdt" }?.price ?? 0])
        alone.days = [ReportDates.day(Self.captured)]
        #expect(none["btcusdt"] == alone)
        try store.record(try Self.snapshot(daysAgo: 3, factor: 1))
        let some = try TrendCalculator(store: store).trends(for: report.rows, currency: "SEK", at: Self.captured)
        #expect(some["btcusdt"]?.sincePrevious == 0)
        #expect(some["btcusdt"]?.change7d == nil)
        #expect(some["btcusdt"]?.change30d == nil)
    }

    @Test("migrations: from an empty file and from the v1 schema, keeping the data")
    func migrations() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("old.sqlite").path
        let old = try DatabaseQueue(path: path)
        try HistoryStore.migrator.migrate(old, upTo: "v1")
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO run (source_time, fetched_at, rates_date, tickers_status, tickers_location, rates_status, rates_location)
                    VALUES (1669078293000, 1669078293000, '2022-11-21', 'live', 'x', 'live', 'y');
                    INSERT INTO market (run_id, symbol, base_asset, quote_asset, last) VALUES (1, 'btcusdt', 'btc', 'usdt', '15988');
                    INSERT INTO rate (date, currency, per_euro) VALUES ('2022-11-21', 'USD', '1.0246');
                    """)
        }
        try old.close()
        let store = try HistoryStore(path: path)
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        #expect(runs.map(\.kind) == [.report])
        #expect(try store.snapshot(of: runs[0]).tickers.map(\.last) == [15988])
        #expect(try store.backfilled("btcusdt", days: 1, on: Date()) == false)
        // v3 drops the symbol index v2 made: nothing reads by it.
        let indexes = try store.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'market'") }
        #expect(!indexes.contains("market_symbol"))

        let fresh = try HistoryStore(path: folder.url.appendingPathComponent("new.sqlite").path)
        #expect(try fresh.runs(in: Date(timeIntervalSince1970: 0)...Date()).isEmpty)
    }

    @Test(
        "sparklines",
        arguments: [
            (["1", "2", "3", "4", "5", "6", "7", "8"], "▁▂▃▄▅▆▇█"), (["5", "5", "5"], "▄▄▄"), (["3"], ""), (["2", "1", "2"], "█▁█"),
        ])
    func unicodeSparkline(values: [String], expected: String) {
        #expect(Sparkline.unicode(values.map(Fixtures.decimal)) == expected)
    }

    /// The lines are drawn between the series' first least and first greatest value, as
    /// `min()` and `max()` of the `Decimal`s find them: values a `Double` cannot tell apart
    /// (30 digits), equal values written differently (`1.5`, `1.50`) and negatives included.
    @Test("sparkline extremes are Decimal's own")
    func sparklineExtremes() {
        let pool: [Decimal] = [
            Decimal(string: "1.000000000000000000000000000001")!, Decimal(string: "1.000000000000000000000000000002")!, 1,
            Decimal(sign: .plus, exponent: -1, significand: 15), Decimal(sign: .plus, exponent: -2, significand: 150),
            Decimal(string: "-2.0000000000000000000000000003")!, Decimal(string: "-2.0000000000000000000000000004")!, 0,
            Decimal(string: "12345678901234567890.123456789012345678")!, Decimal(string: "12345678901234567890.123456789012345679")!,
        ]
        var seed: UInt64 = 7
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for _ in 0..<2000 {
            let values = (0..<(1 + next(12))).map { _ in pool[next(pool.count)] }
            let found = Sparkline.Points(values).findExtremes()
            let low = values.indices.min { values[$0] < values[$1] }
            let high = values.indices.max { values[$0] < values[$1] }
            #expect(found?.low == low && found?.high == high, "\(values)")
        }
        // Apart only past a `Double`'s 16 digits: flat, not a crash on a block for NaN.
        #expect(Sparkline.unicode([pool[0], pool[1], pool[2]]) == "▄▄▄")
        #expect(Sparkline.svg([pool[0], pool[1], pool[2]]).contains("points=\"2.0,12.0 50.0,12.0 98.0,12.0\""))
        #expect(Sparkline.unicode([pool[3], pool[4]]) == "▄▄")
    }

    @Test("a price as a sparkline's Double is the one pow gave, for every exponent a Decimal has")
    func sparklineDoubles() throws {
        var checked = 0
        for exponent in -128...127 {
            for (high, low): (UInt64, UInt64) in [(0, 1), (0, 7), (0, 123_456_789), (0, .max), (12_345, 678_901_234_567), (.max >> 1, .max)] {
                for isNegative in [false, true] {
                    let parts = DecimalParts(isNegative: isNegative, exponent: exponent, high: high, low: low)
                    guard let value = parts.decimal else { continue }
                    let mantissa = Double(high) * 18_446_744_073_709_551_616.0 + Double(low)
                    let magnitude = exponent >= 0 ? mantissa * pow(10, Double(exponent)) : mantissa / pow(10, Double(-exponent))
                    let expected = isNegative ? -magnitude : magnitude
                    #expect(Sparkline.double(value).bitPattern == expected.bitPattern, "\(parts)")
                    checked += 1
                }
            }
        }
        #expect(checked > 3000)
    }

    /// The line as `Sparkline.svg` drew it before it was written as bytes with its x written once.
    static func referenceSVG(_ values: [Decimal], width: Int, height: Int, labels: (low: String, high: String)?, label: String?) -> String {
        let series = Sparkline.Points(values)
        guard values.count > 1, let first = values.first, let last = values.last, let (low, high) = series.extremes else { return "" }
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        let pad = 2.0
        let margin = labels.map { Double(max($0.low.count, $0.high.count)) * 10 * 0.62 + 6 } ?? 0
        let bottom = series.doubles[low]
        let span = series.doubles[high] - bottom
        var points: [String] = []
        for (index, value) in series.doubles.enumerated() {
            let x = pad + Double(index) / Double(values.count - 1) * (Double(width) - margin - 2 * pad)
            let fraction = span > 0 ? (value - bottom) / span : 0.5
            let y = pad + (1 - fraction) * (Double(height) - 2 * pad)
            points.append(String(format: "%.1f,%.1f", x, y))
        }
        let direction = last > first ? "up" : last < first ? "down" : "flat"
        var svg =
            "<svg class=\"spark \(direction)\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"\(escape(label ?? "\(values.count)-day price trend"))\">"
        svg += "<polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"\(points.joined(separator: " "))\"/>"
        if let labels {
            let x = Int((Double(width) - margin + 4).rounded())
            svg += "<text x=\"\(x)\" y=\"10\">\(escape(labels.high))</text>"
            svg += "<text x=\"\(x)\" y=\"\(height - 3)\">\(escape(labels.low))</text>"
        }
        return svg + "</svg>"
    }

    @Test("SVG sparklines of every length, size and label are the markup they were, byte for byte")
    func svgSparklines() {
        var generator = NumberReferenceTests.SeededGenerator(state: 31)
        for count in 0...70 {
            let values = (0..<count).map { _ in Decimal(Int(generator.next() % 100_000)) / 1000 }
            for (width, height, labels, label) in [
                (100, 24, nil, nil), (100, 24, nil, "30-day trend"), (320, 110, ("1 000,00 kr", "2 000,00 kr"), "Trend <&> 7 d"), (100, 24, ("1", "2"), nil),
            ] as [(Int, Int, (low: String, high: String)?, String?)] {
                #expect(
                    Sparkline.svg(values, width: width, height: height, labels: labels, label: label)
                        == Self.referenceSVG(values, width: width, height: height, labels: labels, label: label), "\(count) points, \(width)")
            }
        }
        let flat = [Decimal](repeating: 5, count: 31)
        #expect(Sparkline.svg(flat) == Self.referenceSVG(flat, width: 100, height: 24, labels: nil, label: nil))
    }

    @Test("SVG sparkline golden")
    func svgSparkline() {
        let svg = Sparkline.svg(["1", "3", "2"].map(Fixtures.decimal), width: 100, height: 24)
        #expect(
            svg
                == #"<svg class="spark up" viewBox="0 0 100 24" width="100" height="24" role="img" aria-label="3-day price trend"><polyline fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" points="2.0,22.0 50.0,2.0 98.0,12.0"/></svg>"#
        )
    }

    @Test("a run records its snapshot; the next run shows the trend in every format")
    func endToEnd() async throws {
        let folder = try TemporaryFolder()
        var request = Settings()
        request.report.currency = "SEK"
        request.output.destination = .directory(folder.url.path)
        request.fetch.tickers = .at(Fixtures.tickersURL.path)
        request.fetch.rates = .at(Fixtures.ratesURL.path, .rates)
        let store = try HistoryStore(path: folder.url.appendingPathComponent("history.sqlite").path)
        try store.record(try Self.snapshot(daysAgo: 7, factor: Fixtures.decimal("0.5")))
        let outcome = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).run(request)
        #expect(outcome.report.hasHistory)
        let btc = try #require(outcome.report.rows.first { $0.symbol == "btcusdt" })
        #expect(btc.trend?.change7d == 100)
        let csv = try String(contentsOf: folder.url.appendingPathComponent("cryptoreport-2022-11-22-SEK.csv"), encoding: .utf8)
        #expect(csv.contains("2022-11-22T00:51:32Z,false,100,100,,wazirx\r\n"))
        let markdown = try String(contentsOf: folder.url.appendingPathComponent("cryptoreport-2022-11-22-SEK.md"), encoding: .utf8)
        #expect(markdown.contains("| 7-day trend |"), "a week ago to today: 7 days, as 7 d counts them")
        #expect(markdown.contains("▁█"))
        let html = try String(contentsOf: folder.url.appendingPathComponent("cryptoreport-2022-11-22-SEK.html"), encoding: .utf8)
        #expect(html.contains(#"<svg class="spark up""#))
        #expect(try store.runs(in: Date(timeIntervalSince1970: 0)...Date()).count == 2, "this run was recorded")
        // Integrity after the write.
        let check = try DatabaseQueue(path: folder.url.appendingPathComponent("history.sqlite").path)
        #expect(try await check.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    }

    @Test("stored rows of the month that cannot be read are said once, and only their markets go without that day")
    func damagedTrendRows() async throws {
        let folder = try TemporaryFolder()
        var request = Settings()
        // Two currencies: one warning for the run, not one a currency.
        request.report.currencies = ["SEK", "USD"]
        request.output.destination = .directory(folder.url.path)
        request.fetch.tickers = .at(Fixtures.tickersURL.path)
        request.fetch.rates = .at(Fixtures.ratesURL.path, .rates)
        let path = folder.url.appendingPathComponent("history.sqlite").path
        try HistoryStore(path: path).record(try Self.snapshot(daysAgo: 7, factor: Fixtures.decimal("0.5")))
        let database = try DatabaseQueue(path: path)
        try await database.write {
            try $0.execute(sql: "UPDATE market SET last = 'abc' WHERE name_id IN (SELECT id FROM market_name WHERE symbol = 'btcusdt')")
        }
        try database.close()
        let log = LogRecorder()
        let outcome = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime), logger: log.logger).run(request)
        #expect(
            log.messages.filter { $0.contains("cannot be read") } == [
                "History: \(path): 1 stored row of the month the trends read cannot be read (not figures this tool writes); "
                    + "the database may be damaged. The trends leave them out."
            ])
        #expect(outcome.report.rows.first { $0.symbol == "btcusdt" }?.trend?.change7d == nil)
        #expect(outcome.report.rows.first { $0.symbol == "ethusdt" }?.trend?.change7d != nil, "the other markets keep their day")
    }

    @Test("history export: one asset's series, each point at its own day's rates")
    func export() throws {
        let store = try HistoryStore()
        var older = try Self.snapshot(daysAgo: 2, factor: Fixtures.decimal("0.5"))
        older.rates.perEuro["SEK"] = Fixtures.decimal("11")
        try store.record(older)
        try store.record(try Self.snapshot(daysAgo: 1, factor: 1))
        let exporter = HistoryExporter(store: store)
        let points = try exporter.series(symbol: "btc", currency: "SEK", days: 90, now: Self.captured)
        #expect(points.map(\.row.symbol) == ["btcusdt", "btcusdt"])
        // btcusdt last 15988 USDT; SEK per USD = ECB SEK / ECB USD of that day.
        #expect(points[0].row.price == Fixtures.decimal("15988") * Fixtures.decimal("0.5") * (Fixtures.decimal("11") / Fixtures.decimal("1.0246")))
        #expect(points[1].row.price == Fixtures.decimal("15988") * (Fixtures.decimal("10.9873") / Fixtures.decimal("1.0246")))
        let csv = HistoryRenderer(symbol: "btc", currency: "SEK").csv(points)
        #expect(csv.hasPrefix("time,symbol,currency,price,open,high,low,change_pct,volume,volume_value,fx_rate,rates_date,kind,source\r\n"))
        #expect(csv.contains(",btcusdt,SEK,85822.760101503,"))
        #expect(try exporter.series(symbol: "btcinr", currency: "SEK", days: 90, now: Self.captured).map(\.row.symbol) == ["btcinr", "btcinr"])
        let json = try HistoryRenderer(symbol: "btc", currency: "SEK").json(points)
        #expect(json.contains(#""rates_date" : "2022-11-19""#))
        // The same fields as the CSV: every CSV column but the currency, which the document states once.
        for column in HistoryRenderer.csvColumns where column != "currency" {
            #expect(json.contains("\"\(column)\" : "), "\(column) missing from the JSON export")
        }
        #expect(HistoryRenderer(symbol: "btc", currency: "SEK").markdown(points, locale: Locale(identifier: "sv_SE")).contains("Trend: ▁█"))
        // One point makes no trend: the line is left out rather than left empty.
        let one = HistoryRenderer(symbol: "btc", currency: "SEK").markdown(Array(points.prefix(1)), locale: Locale(identifier: "sv_SE"))
        #expect(!one.contains("Trend") && one.contains("| Time |"))
    }

    @Test("history export reads one asset's markets and their pricing markets: the same rows as converting every stored market")
    func exportReadsOnlyWhatItNeeds() throws {
        let store = try HistoryStore()
        var older = try Self.snapshot(daysAgo: 2, factor: Fixtures.decimal("0.5"))
        // Names SQLite's lower() does not fold, and a market quoted in an asset priced via WRX.
        older.tickers.append(Ticker(symbol: "ÄBCWRX", baseAsset: "Äbc", quoteAsset: "WRX", last: Fixtures.decimal("2.5")))
        older.tickers.append(Ticker(symbol: "XYZBTC", baseAsset: "XYZ", quoteAsset: "btc", last: Fixtures.decimal("0.001")))
        // A quote asset priced only by a market spelt in capitals.
        older.tickers.append(Ticker(symbol: "qrsfoo", baseAsset: "qrs", quoteAsset: "foo", last: Fixtures.decimal("3")))
        older.tickers.append(Ticker(symbol: "FOOUSDT", baseAsset: "FOO", quoteAsset: "USDT", last: Fixtures.decimal("0.25")))
        try store.record(older)
        try store.record(try Self.snapshot(daysAgo: 1, factor: 1))
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Self.captured)
        let names = Set(older.tickers.flatMap { [$0.symbol.lowercased(), $0.baseAsset.lowercased()] })
        #expect(names.count > 500)
        // What `history` did before: every market of the run converted, then the one chosen.
        var whole: [Int64: (rows: [MarketRow], rates: ExchangeRates?)] = [:]
        let converters = try runs.map { run in
            let stored = try store.snapshot(of: run)
            let converter = try CurrencyConverter(rates: try #require(stored.rates), target: "SEK")
            whole[run.id] = (try Self.rows(stored.tickers, converter), stored.rates)
            return converter
        }
        for name in names.sorted() {
            let subset = try store.markets(of: name, in: runs)
            for (run, converter) in zip(runs, converters) {
                let read = try #require(subset[run.id])
                #expect(read.rates == whole[run.id]?.rates)
                #expect(Self.chosen(name, try Self.rows(read.tickers, converter)) == Self.chosen(name, whole[run.id]?.rows ?? []), "\(name) in run \(run.id)")
                #expect(read.tickers.count < 40, "\(name): \(read.tickers.count) markets read")
            }
        }
    }

    /// `--source`: a market's trend compares it with its own exchange's runs, never another's.
    @Test("runs record their exchange; trends compare a market only with its own exchange's earlier runs")
    func trendsByExchange() throws {
        let store = try HistoryStore()
        var binance = try Self.snapshot(daysAgo: 2, factor: 2)
        binance.sources = [.binanceTickers: .init(status: .live, location: "https://api.binance.com/api/v3/ticker/24hr")]
        try store.record(binance)
        try store.record(try Self.snapshot(daysAgo: 1, factor: 1))
        let runs = try store.runs(in: Date.distantPast...Date.distantFuture)
        #expect(runs.map(\.exchange) == [.binance, .wazirx])
        let today = try Self.snapshot(daysAgo: 0, factor: 1)
        let rows = try Self.rows(today.tickers, try CurrencyConverter(rates: today.rates, target: "USD"))
        let wazirx = try TrendCalculator(store: store, exchange: .wazirx).trends(for: rows, currency: "USD", at: Self.captured)
        #expect(wazirx["btcusdt"]?.series.count == 2, "yesterday's WazirX run and today's row")
        let fromBinance = try TrendCalculator(store: store, exchange: .binance).trends(for: rows, currency: "USD", at: Self.captured)
        #expect(fromBinance["btcusdt"]?.series.count == 2, "the Binance run of two days ago and today's row")
        #expect(fromBinance["btcusdt"]?.series.first != wazirx["btcusdt"]?.series.first)
        let none = try TrendCalculator(store: store, exchange: .binanceUS).trends(for: rows, currency: "USD", at: Self.captured)
        #expect((none["btcusdt"]?.series.count ?? 0) <= 1, "no Binance.US run stored")
    }

    @Test("history export: each point says its exchange, and --source keeps to one exchange's runs")
    func exportByExchange() throws {
        let store = try HistoryStore()
        var binance = try Self.snapshot(daysAgo: 2, factor: 2)
        binance.sources = [.binanceTickers: .init(status: .live, location: "https://api.binance.com/api/v3/ticker/24hr")]
        try store.record(binance)
        try store.record(try Self.snapshot(daysAgo: 1, factor: 1))
        let every = try HistoryExporter(store: store).series(symbol: "btc", currency: "USD", days: 90, now: Self.captured)
        #expect(every.map(\.row.exchange) == [.binance, .wazirx])
        let renderer = HistoryRenderer(symbol: "btc", currency: "USD")
        let lines = renderer.csv(every).split(separator: "\r\n")
        #expect(lines.first?.hasSuffix(",kind,source") == true)
        #expect(lines.dropFirst().map { $0.split(separator: ",").suffix(2).joined(separator: ",") } == ["report,binance", "report,wazirx"])
        let json = try renderer.json(every)
        #expect(json.contains(#""source" : "binance""#) && json.contains(#""source" : "wazirx""#), "\(json)")
        #expect(json == (try renderer.encoded(every)))
        let markdown = renderer.markdown(every, locale: Locale(identifier: "en_US"))
        #expect(markdown.contains("| ECB rates | Source | Exchange |"), "\(markdown)")
        #expect(markdown.contains("| report | Binance |") && markdown.contains("| report | WazirX |"), "\(markdown)")

        let onlyBinance = HistoryExporter(store: store, exchange: .binance)
        #expect(try onlyBinance.series(symbol: "btc", currency: "USD", days: 90, now: Self.captured).map(\.time) == [every[0].time])
        #expect(try HistoryExporter(store: store, exchange: .wazirx).series(symbol: "btc", currency: "USD", days: 90, now: Self.captured).count == 1)
        // An exchange the history has no run of: said, with those it has, not an empty export.
        let none = HistoryExporter(store: store, exchange: .binanceUS)
        #expect(try none.series(symbol: "btc", currency: "USD", days: 90, now: Self.captured).isEmpty)
        #expect(throws: HistoryError.noRunsOfExchange(path: store.path, exchange: .binanceUS, recorded: [.wazirx, .binance])) {
            try none.emptyWindow(symbol: "btc", currency: "USD", now: Self.captured)
        }
        #expect(
            HistoryError.noRunsOfExchange(path: "h.sqlite", exchange: .binanceUS, recorded: [.wazirx, .binance]).errorDescription
                == "History: h.sqlite holds no run of Binance.US; choose --source wazirx or binance, or leave --source out.")
    }

    @Test("trends price each stored day as converting every stored market of it does")
    func trendsPriceAsTheConverter() throws {
        let store = try HistoryStore()
        // A name of an id far past the others (ids are rowids, which a hand-edited file may spread).
        try store.write { try $0.execute(sql: "INSERT INTO market_name (id, symbol, base_asset, quote_asset) VALUES (5000000000, 'XYZBTC', 'XYZ', 'btc')") }
        var snapshots = [
            try Self.snapshot(daysAgo: 3, factor: Fixtures.decimal("0.5")),
            try Self.snapshot(daysAgo: 2, factor: Fixtures.decimal("0.7"), rateFactor: Fixtures.decimal("1.1")), try Self.snapshot(daysAgo: 1, factor: 1),
        ]
        for index in snapshots.indices {
            // Quote assets priced through WRX and BTC, one priced only by a market spelt in
            // capitals (and not at all on the middle day), a symbol stored in two spellings.
            snapshots[index].tickers += [
                Ticker(symbol: "ÄBCWRX", baseAsset: "Äbc", quoteAsset: "WRX", last: Fixtures.decimal("2.5")),
                Ticker(symbol: "XYZBTC", baseAsset: "XYZ", quoteAsset: "btc", last: Fixtures.decimal("0.001")),
                Ticker(symbol: "qrsfoo", baseAsset: "qrs", quoteAsset: "foo", last: Fixtures.decimal("3")),
                Ticker(symbol: "QRSFOO", baseAsset: "QRS", quoteAsset: "FOO", last: Fixtures.decimal("4")),
            ]
            if index != 1 { snapshots[index].tickers.append(Ticker(symbol: "FOOUSDT", baseAsset: "FOO", quoteAsset: "USDT", last: Fixtures.decimal("0.25"))) }
            try store.record(snapshots[index])
        }
        let converter = try CurrencyConverter(rates: snapshots[2].rates, target: "SEK")
        let rows = try Self.rows(snapshots[2].tickers, converter)
        let trends = try TrendCalculator(store: store).trends(for: rows, currency: "SEK", at: Self.captured)
        // What trends did before: every stored market of the day converted, each row's symbol
        // priced by the last stored market of that symbol in any spelling.
        var expected: [String: [Decimal]] = [:]
        for run in try store.runs(in: Date(timeIntervalSince1970: 0)...Self.captured) {
            let stored = try store.snapshot(of: run)
            let day = try CurrencyConverter(rates: try #require(stored.rates), target: "SEK")
            let rates = try day.quoteRates(for: stored.tickers).rates
            var prices: [String: Decimal] = [:]
            for ticker in stored.tickers {
                if let rate = rates[ticker.quoteAsset.lowercased()] {
                    prices[ticker.symbol.lowercased()] = (FastDecimal(ticker.last) * FastDecimal(rate.rate)).decimal
                }
            }
            for (symbol, price) in prices { expected[symbol, default: []].append(price) }
        }
        #expect(expected["qrsfoo"]?.count == 2 && expected["äbcwrx"]?.count == 3 && expected["xyzbtc"]?.count == 3)
        for row in rows {
            let series = try #require(trends[row.symbol.lowercased()]?.series)
            #expect(Array(series.dropLast()) == expected[row.symbol.lowercased()] ?? [], "\(row.symbol)")
            #expect(trends[row.symbol.lowercased()]?.days.count == series.count, "\(row.symbol)")
        }
        // Each price's day: every day for a market priced on each, the days it was for one that was not.
        let day = { (daysAgo: Int) in ReportDates.day(Self.captured.addingTimeInterval(-Double(daysAgo) * Self.day)) }
        let today = ReportDates.day(Self.captured)
        #expect(trends["btcusdt"]?.days == [day(3), day(2), day(1), today])
        #expect(trends["qrsfoo"]?.days == [day(3), day(1), today])
    }

    static func rows(_ tickers: [Ticker], _ converter: CurrencyConverter) throws -> [MarketRow] {
        MarketAnalyser().analyse(tickers, rates: try converter.quoteRates(for: tickers), currency: converter.target).rows
    }

    static func chosen(_ name: String, _ rows: [MarketRow]) -> MarketRow? {
        rows.first { $0.symbol.lowercased() == name } ?? MarketSelector(Selection(markets: .primary, symbols: [name])).select(rows).first
    }

    @Test("history export: a currency no run has, or a market no run holds, is a usage error; no run is an empty series")
    func exportErrors() throws {
        let store = try HistoryStore()
        let exporter = HistoryExporter(store: store)
        #expect(try exporter.series(symbol: "btc", currency: "XYZ", days: 90, now: Self.captured).isEmpty)
        try store.record(try Self.snapshot(daysAgo: 1, factor: 1))
        #expect {
            try exporter.series(symbol: "btc", currency: "XYZ", days: 90, now: Self.captured)
        } throws: { error in
            guard case let .currencyNotRecorded(currency, available)? = error as? HistoryError else { return false }
            return currency == "XYZ" && available.contains("SEK") && (error as? HistoryError)?.exitStatus == .usage
        }
        // A currency a shared database was made to hold is no ECB code: never named in the error.
        try store.write { db in
            try db.execute(sql: "INSERT INTO rate (date, currency, per_euro) SELECT date, ?, per_euro FROM rate LIMIT 1", arguments: ["S\u{1B}[31mK"])
        }
        #expect {
            try exporter.series(symbol: "btc", currency: "XYZ", days: 90, now: Self.captured)
        } throws: { error in
            guard case let .currencyNotRecorded(_, available)? = error as? HistoryError else { return false }
            return !available.isEmpty && available.allSatisfy { $0.count == 3 && $0.allSatisfy(\.isUppercase) }
        }
        #expect(throws: HistoryError.noSeries(symbol: "nosuch", days: 90, runs: 1)) {
            try exporter.series(symbol: "NoSuch", currency: "SEK", days: 90, now: Self.captured)
        }
        #expect(
            HistoryError.noSeries(symbol: "nosuch", days: 90, runs: 1).errorDescription
                == "History: no market matches \"nosuch\" in the 1 recorded run of the last 90 days.")
        #expect(HistoryError.failed(path: "h", reason: "file is not a database").asInput.exitStatus == .noInput)
    }

    /// A `--days 3` export of 2 rows said nothing of the day whose rates lack the currency.
    @Test("history export: runs whose rates lack the currency are left out and said, once, with their count")
    func exportUnpricedRuns() throws {
        let store = try HistoryStore()
        let said = Said()
        let exporter = HistoryExporter(store: store) { said.append($0) }
        try store.record(try Self.snapshot(daysAgo: 3, factor: 1))
        var withoutSEK = try Self.snapshot(daysAgo: 2, factor: 1)
        withoutSEK.rates.perEuro["SEK"] = nil
        try store.record(withoutSEK)
        // Neither the asset nor SEK: not counted, the run holding nothing to leave out.
        var neither = try Self.snapshot(daysAgo: 4, factor: 1)
        neither.rates.perEuro["SEK"] = nil
        neither.tickers.removeAll { $0.baseAsset.lowercased() == "btc" }
        try store.record(neither)
        try store.record(try Self.snapshot(daysAgo: 1, factor: 1))
        let points = try exporter.series(symbol: "btc", currency: "SEK", days: 10, now: Self.captured)
        #expect(points.count == 2)
        let warning = HistoryError.unpricedRuns(path: store.path, symbol: "btc", currency: "SEK", runs: 1)
        #expect(said.all == [warning])
        #expect(warning.errorDescription == "History: \(store.path): 1 recorded run of \"btc\" has no SEK among its ECB rates.")
        // Every run priced: nothing said.
        let quiet = Said()
        _ = try HistoryExporter(store: store) { quiet.append($0) }.series(symbol: "btc", currency: "USD", days: 10, now: Self.captured)
        #expect(quiet.all.isEmpty)
    }

    final class Said: @unchecked Sendable {
        private let lock = NSLock()
        private var errors: [HistoryError] = []
        func append(_ error: HistoryError) { lock.withLock { errors.append(error) } }
        var all: [HistoryError] { lock.withLock { errors } }
    }

    @Test("history and backfill find the database where the configuration file puts the reports")
    func configFileOutput() throws {
        let folder = try TemporaryFolder()
        let config = folder.url.appendingPathComponent("config.toml")
        try Data("output = \"reports\"\ncurrency = \"SEK\"\nformats = [\"csv\"]\n".utf8).write(to: config)
        // The built-in sample is not recorded unless a database is named: its 2022 day would sit among real ones.
        let sample = try ExecutableTests.run(["--sample", "--config", config.path], in: folder.url)
        #expect(sample.stdout == "reports/cryptoreport-2022-11-22-SEK.csv\n", "\(sample.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("reports/history.sqlite").path))
        let report = try ExecutableTests.run(
            ["--tickers-url", Fixtures.tickersURL.path, "--ecb-url", Fixtures.ratesURL.path, "--config", config.path], in: folder.url)
        #expect(report.stdout == "reports/cryptoreport-2022-11-22-SEK.csv\n", "\(report.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("reports/history.sqlite").path))
        let export = try ExecutableTests.run(["history", "--symbol", "btc", "--days", "3650", "--config", config.path], in: folder.url)
        #expect(export.status == 0, "\(export.stderr)")
        // One point, in the file's currency.
        #expect(export.stdout.split(separator: "\r\n").count == 2)
        #expect(export.stdout.contains(",btcusdt,SEK,"))
        #expect(export.stdout.hasSuffix(",report,wazirx\r\n"), "the run's exchange, last")
        // --source: the runs of one exchange; one the history has none of is 64, a name no exchange has too.
        let wazirx = try ExecutableTests.run(["history", "--symbol", "btc", "--days", "3650", "--source", "wazirx", "--config", config.path], in: folder.url)
        #expect(wazirx.status == 0 && wazirx.stdout == export.stdout, "\(wazirx.stderr)")
        let binance = try ExecutableTests.run(["history", "--symbol", "btc", "--days", "3650", "--source", "binance", "--config", config.path], in: folder.url)
        #expect(binance.status == 64 && binance.stdout.isEmpty)
        #expect(
            binance.stderr.hasSuffix("reports/history.sqlite holds no run of Binance; choose --source wazirx, or leave --source out.\n"),
            "\(binance.stderr)")
        let kraken = try ExecutableTests.run(["history", "--symbol", "btc", "--source", "kraken", "--config", config.path], in: folder.url)
        #expect(kraken.status == 64)
        #expect(kraken.stderr.contains("'kraken' is invalid for '--source <name>': expected wazirx, binance or binance-us"), "\(kraken.stderr)")
        // A window with no run: an empty export, and a line saying what would reach the newest run.
        let empty = try ExecutableTests.run(["history", "--symbol", "btc", "--days", "30", "--config", config.path], in: folder.url)
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.split(separator: "\r\n").count == 1)
        let needed = Int((Date().timeIntervalSince(Fixtures.captureTime) / 86400).rounded(.up))
        #expect(
            empty.stderr
                == "cryptoreport: history: no run in the last 30 days; the newest recorded run is of 2022-11-22 00:51 UTC: --days \(needed) reaches it.\n")
        // A market or currency that no run has is 64 whatever --days is.
        for arguments in [["--symbol", "nosuchcoin", "--days", "30"], ["--symbol", "btc", "--days", "30", "--currency", "XYZ"]] {
            let refused = try ExecutableTests.run(["history"] + arguments + ["--config", config.path], in: folder.url)
            #expect(refused.status == 64, "\(arguments) \(refused.stderr)")
            #expect(refused.stdout.isEmpty && refused.stderr.hasPrefix("cryptoreport: History: no "), "\(refused.stderr)")
        }
        let unknown = try ExecutableTests.run(["history", "--symbol", "btc", "--days", "3650", "--currency", "XYZ", "--config", config.path], in: folder.url)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("cryptoreport: History: no recorded ECB rates have XYZ; choose one of AUD,"))
        // A configuration made for reports on standard output is no reason to refuse an export.
        let stdoutConfig = folder.url.appendingPathComponent("stdout.toml")
        try Data("output = \"-\"\nhistory = \"reports/history.sqlite\"\n".utf8).write(to: stdoutConfig)
        let fromStdoutConfig = try ExecutableTests.run(["history", "--symbol", "btc", "--days", "3650", "--config", stdoutConfig.path], in: folder.url)
        #expect(fromStdoutConfig.status == 0, "\(fromStdoutConfig.stderr)")
        #expect(fromStdoutConfig.stdout.contains(",btcusdt,USD,"))
        // No database: 64, the message naming the path, and --history only where none was named.
        let elsewhere = try TemporaryFolder()
        let missing = try ExecutableTests.run(["history", "--symbol", "btc", "--no-config"], in: elsewhere.url)
        #expect(missing.status == 64)
        #expect(
            missing.stderr.hasSuffix(
                "Output/history.sqlite, where the reports keep it; run a report first (a --sample run records one only when given --history), backfill, or name one with --history.\n"
            ), "\(missing.stderr)")
        let named = try ExecutableTests.run(["history", "--symbol", "btc", "--history", "none.sqlite", "--no-config"], in: elsewhere.url)
        #expect(named.status == 64)
        #expect(named.stderr == "cryptoreport: History: no database at none.sqlite; run a report first, or backfill.\n", "\(named.stderr)")
        // A database holding no run (a backfill that failed before its first day makes one): the
        // same 64 and a sentence, not an empty export.
        _ = try HistoryStore(path: elsewhere.url.appendingPathComponent("empty.sqlite").path)
        for extra in [[], ["--currency", "XYZ"], ["--format", "json"]] {
            let empty = try ExecutableTests.run(["history", "--symbol", "nosuch", "--history", "empty.sqlite", "--no-config"] + extra, in: elsewhere.url)
            #expect(empty.status == 64 && empty.stdout.isEmpty, "\(extra): \(empty.stdout)")
            #expect(
                empty.stderr
                    == "cryptoreport: History: empty.sqlite holds no run yet; run a report first (a --sample run records one only when given --history), or backfill.\n",
                "\(empty.stderr)")
        }
        let corrupt = folder.url.appendingPathComponent("corrupt.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: corrupt)
        let unreadable = try ExecutableTests.run(["history", "--symbol", "btc", "--history", corrupt.path, "--no-config"], in: folder.url)
        #expect(unreadable.status == 66)
        #expect(unreadable.stderr.hasPrefix("cryptoreport: History: cannot read \(corrupt.path):"), "\(unreadable.stderr)")
        #expect(unreadable.stderr.split(separator: "\n").count == 1)
    }
}
