import Foundation
import GRDB
import Testing

@testable import CryptoReport

/// `history` reads an asset's runs one at a time (`HistoryStore.forEachRun`), the rates of its
/// currencies through the `rate_by_currency` index (v5), and makes only the chosen market's row
/// when a run holds the same markets as the one before. These tests hold it to the path it
/// replaced, on the real capture with markets that make the choice hard.
@Suite("History export path")
struct HistoryExportPathTests {
    static let captured = HistoryTests.captured

    /// What `history` did before: every run's asset and pricing markets read at once by
    /// `markets(of:in:currencies:)`, the asset's markets analysed whole and one chosen by
    /// `MarketSelector`.
    static func reference(_ store: HistoryStore, symbol: String, currency: String, runs: [RunSummary]) throws -> [HistoryExporter.Point] {
        let wanted = symbol.lowercased()
        var points: [HistoryExporter.Point] = []
        let stored = try store.markets(of: wanted, in: runs, currencies: [currency.uppercased(), "USD", "INR"])
        let selector = MarketSelector(Selection(markets: .primary, symbols: [wanted]))
        for run in runs {
            guard let snapshot = stored[run.id], let rates = snapshot.rates else { continue }
            guard let converter = try? CurrencyConverter(rates: rates, target: currency),
                let quoteRates = try? converter.quoteRates(for: snapshot.tickers)
            else { continue }
            let own = snapshot.tickers.filter { $0.symbol.lowercased() == wanted || $0.baseAsset.lowercased() == wanted }
            let rows = MarketAnalyser().analyse(own, rates: quoteRates, currency: converter.target).rows
            guard let row = rows.first(where: { $0.symbol.lowercased() == wanted }) ?? selector.select(rows).first else { continue }
            points.append(HistoryExporter.Point(time: run.sourceTime, kind: run.kind, row: row, ratesDate: rates.date))
        }
        return points
    }

    /// Seven days of the real capture at other prices, with markets added and taken away from
    /// day to day: a second spelling of BTC's primary market (two kept, ordered by figures) on
    /// some days, a BTC market quoted in WRX, a quote priced only by a market missing one day,
    /// days whose rates lack SEK or USD, a backfilled day.
    static func store(at path: String? = nil) throws -> HistoryStore {
        let store = try path.map { try HistoryStore(path: $0) } ?? HistoryStore()
        for daysAgo in (1...7).reversed() {
            var snapshot = try HistoryTests.snapshot(
                daysAgo: daysAgo, factor: Decimal(10 + daysAgo) / 10, rateFactor: daysAgo == 5 ? Decimal(string: "1.1") ?? 1 : 1,
                kind: daysAgo == 6 ? .backfill : .report)
            let at = snapshot.sourceTime
            snapshot.tickers += [
                Ticker(symbol: "ÄBCWRX", baseAsset: "Äbc", quoteAsset: "WRX", last: Decimal(daysAgo) / 4, updatedAt: at),
                Ticker(symbol: "qrsfoo", baseAsset: "qrs", quoteAsset: "foo", open: 2, last: 3, volume: 10, updatedAt: at),
                Ticker(symbol: "ethfoo", baseAsset: "eth", quoteAsset: "foo", open: 5, last: Decimal(daysAgo), volume: 1, updatedAt: at),
            ]
            if daysAgo != 3 { snapshot.tickers.append(Ticker(symbol: "FOOUSDT", baseAsset: "FOO", quoteAsset: "USDT", last: Decimal(daysAgo) / 8)) }
            if daysAgo == 2 || daysAgo == 4 {
                snapshot.tickers.append(
                    Ticker(
                        symbol: "BTCUSDT", baseAsset: "BTC", quoteAsset: "USDT", open: 100, last: Decimal(100 + daysAgo), volume: Decimal(daysAgo * 1000),
                        updatedAt: at))
            }
            if daysAgo <= 3 { snapshot.tickers.append(Ticker(symbol: "btcwrx", baseAsset: "btc", quoteAsset: "wrx", last: 90_000, volume: 1, updatedAt: at)) }
            if daysAgo == 4 { snapshot.rates.perEuro["SEK"] = nil }
            if daysAgo == 2 { snapshot.rates.perEuro["USD"] = nil }
            try store.record(snapshot)
        }
        return store
    }

    @Test("every point as the path it replaced made it, over names, currencies and windows")
    func sameAsBefore() throws {
        let store = try Self.store()
        let exporter = HistoryExporter(store: store)
        // The same from a file.
        let folder = try TemporaryFolder()
        let halved = HistoryExporter(store: try Self.store(at: folder.url.appendingPathComponent("history.sqlite").path))
        let names = [
            "btc", "BTCUSDT", "btcinr", "btcwrx", "eth", "ethfoo", "äbc", "ÄBCWRX", "qrs", "qrsfoo", "foo", "foousdt", "wrx", "wrxinr",
            "usdt", "usdtinr", "shib", "xrpinr", "nosuch",
        ]
        var compared = 0
        for days in [2, 4, 90] {
            let runs = try store.runs(in: Self.captured.addingTimeInterval(-Double(days) * HistoryTests.day)...Self.captured)
            for name in names {
                for currency in ["SEK", "USD", "INR", "EUR"] {
                    let expected = try Self.reference(store, symbol: name, currency: currency, runs: runs)
                    for exporter in [exporter, halved] {
                        let series = Result { try exporter.series(symbol: name, currency: currency, days: days, now: Self.captured) }
                        if expected.isEmpty {
                            #expect((try? series.get())?.isEmpty ?? true, "\(name) in \(currency), \(days) days")
                        } else {
                            #expect(try series.get() == expected, "\(name) in \(currency), \(days) days")
                            compared += expected.count
                        }
                    }
                }
            }
        }
        #expect(compared > 600)
        // The same errors, whichever half finds the runs it needs.
        for (name, currency) in [("nosuch", "SEK"), ("btc", "XYZ")] {
            #expect(throws: (any Error).self) { try halved.series(symbol: name, currency: currency, days: 90, now: Self.captured) }
            let one = Result { try exporter.series(symbol: name, currency: currency, days: 90, now: Self.captured) }
            let two = Result { try halved.series(symbol: name, currency: currency, days: 90, now: Self.captured) }
            #expect("\(one)" == "\(two)")
        }
        // The cases the data was made for: two spellings kept on some days, priced or not.
        let btc = try exporter.series(symbol: "btc", currency: "USD", days: 90, now: Self.captured)
        #expect(Set(btc.map(\.row.symbol)) == ["btcusdt", "BTCUSDT"])
        #expect(try exporter.series(symbol: "btc", currency: "INR", days: 90, now: Self.captured).contains { $0.row.symbol == "btcinr" }, "the day without USD")
        #expect(
            try exporter.series(symbol: "ethfoo", currency: "SEK", days: 90, now: Self.captured).count == 4, "not on the day FOO has no price, nor without SEK")
    }

    @Test("the JSON export's bytes are JSONEncoder's, figures missing or not, text to escape or not")
    func jsonAsEncoded() throws {
        let store = try Self.store()
        let exporter = HistoryExporter(store: store)
        for (name, currency) in [("btc", "SEK"), ("qrs", "USD"), ("ethfoo", "INR"), ("ÄBCWRX", "EUR"), ("wrx", "SEK")] {
            var points = try exporter.series(symbol: name, currency: currency, days: 90, now: Self.captured)
            #expect(!points.isEmpty, "\(name)")
            for renderer in [HistoryRenderer(symbol: name.lowercased(), currency: currency), HistoryRenderer(symbol: "a\"b/c\\", currency: currency)] {
                #expect(try renderer.json(points) == renderer.encoded(points), "\(name) \(currency)")
                #expect(try renderer.json([]) == renderer.encoded([]))
            }
            points[0].row.open = nil
            points[0].row.volumeValue = nil
            points[0].row.symbol = "tab\there"
            points[points.count - 1].ratesDate = "2022-11-21"
            let renderer = HistoryRenderer(symbol: name.lowercased(), currency: currency)
            #expect(try renderer.json(points) == renderer.encoded(points), "\(name) \(currency), changed")
            #expect(try renderer.json(Array(points.dropFirst())) == renderer.encoded(Array(points.dropFirst())), "\(name) \(currency), changed")
        }
    }

    @Test("a long series is written as the same bytes as line by line")
    func halvedRendering() throws {
        let points = try HistoryExporter(store: try Self.store()).series(symbol: "btc", currency: "SEK", days: 90, now: Self.captured)
        let long = Array(repeating: points, count: 300).flatMap { $0 }
        let renderer = HistoryRenderer(symbol: "btc", currency: "SEK")
        #expect(try renderer.json(long) == renderer.encoded(long))
        let header = HistoryRenderer.csvColumns.joined(separator: ",") + "\r\n"
        let lineByLine = header + long.map { String(renderer.csv([$0]).dropFirst(header.count)) }.joined()
        #expect(renderer.csv(long) == lineByLine)
        #expect(renderer.csv(long).hasPrefix(header + String(renderer.csv(points).dropFirst(header.count))))
        // Markdown: the table's lines those of each point alone, in order.
        let locale = Locale(identifier: "sv_SE")
        let table = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("| 20") } }
        #expect(table(renderer.markdown(long, locale: locale)) == long.flatMap { table(renderer.markdown([$0], locale: locale)) })
        #expect(table(renderer.markdown(long, locale: locale)).count == long.count)
    }

    @Test("the run-by-run read hands every run once, in time order, with the asset's markets in name order")
    func everyRunOnce() throws {
        let store = try Self.store()
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Self.captured)
        // Given out of order and without one run: handed in time order, the one left out not at all.
        let given = [runs[3], runs[0], runs[6], runs[1]]
        var handed: [Int64] = []
        let whole = try store.markets(of: "btc", in: given)
        try store.forEachRun(of: "btc", in: given) { run, markets, rates in
            handed.append(run.id)
            #expect(markets.map(\.nameID) == markets.map(\.nameID).sorted())
            #expect(markets.map(\.ticker) == whole[run.id]?.tickers)
            #expect(rates == whole[run.id]?.rates)
        }
        #expect(handed == [runs[0].id, runs[1].id, runs[3].id, runs[6].id])
        // An asset with no stored market: every run still handed, with its rates.
        var empty = 0
        try store.forEachRun(of: "nosuch", in: runs) { _, markets, rates in
            empty += markets.isEmpty && rates != nil ? 1 : 0
        }
        #expect(empty == runs.count)
    }

    @Test("v5: the rates of some currencies are read through their index; a v4 file gains it")
    func rateIndex() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("history.sqlite").path
        let old = try DatabaseQueue(path: path)
        try HistoryStore.migrator.migrate(old, upTo: "v4")
        try old.write { db in
            try HistoryStore.insertRates(ExchangeRates(date: "2022-11-18", perEuro: ["USD": Decimal(string: "1.03") ?? 0, "SEK": 11]), into: db)
        }
        try old.close()
        let store = try HistoryStore(path: path)
        try store.read { db in
            #expect(try HistoryStore.migrator.appliedIdentifiers(db).contains("v5"))
            let plan = try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN SELECT date, currency, per_euro FROM rate WHERE currency IN (?, ?) AND date BETWEEN ? AND ?",
                arguments: ["SEK", "USD", "2022-01-01", "2022-12-31"])
            #expect(plan.contains { ($0["detail"] as String? ?? "").contains("COVERING INDEX rate_by_currency") })
        }
        #expect(try store.rates(onOrBefore: "2022-11-20")?.perEuro == ["USD": Decimal(string: "1.03") ?? 0, "SEK": 11])
        // Opened again: nothing left to migrate, the same rates.
        #expect(try HistoryStore(path: path).rates(onOrBefore: "2022-11-18") == store.rates(onOrBefore: "2022-11-18"))
    }
}
