import Foundation
import GRDB
import Testing

@testable import CryptoReport

/// Schema v4 (names stored once, figures as integers): every value reads back as v3 gave it, a v3
/// database migrates keeping everything, and an interrupted migration leaves the v3 database.
@Suite("History schema v4")
struct HistorySchemaTests {
    struct Abort: Error {}

    static let posix = Locale(identifier: "en_US_POSIX")

    /// What v3 gave back for a figure it was handed: its plain text, parsed again.
    static func v3(_ value: Decimal?) -> Decimal? {
        value.flatMap { DecimalText.parse(DecimalParts.plainText($0)) }
    }

    /// The same value and the same stored form (a `Decimal` equal in value may differ in digits).
    static func same(_ a: Decimal?, _ b: Decimal?) -> Bool {
        a == b && a.map(DecimalParts.plainText) == b.map(DecimalParts.plainText)
    }

    static func same(_ a: Ticker, _ b: Ticker) -> Bool {
        Array(a.symbol.utf8) == Array(b.symbol.utf8) && Array(a.baseAsset.utf8) == Array(b.baseAsset.utf8)
            && Array(a.quoteAsset.utf8) == Array(b.quoteAsset.utf8) && same(a.last, b.last) && same(a.open, b.open)
            && same(a.high, b.high) && same(a.low, b.low) && same(a.bid, b.bid) && same(a.ask, b.ask)
            && same(a.volume, b.volume) && a.updatedAt == b.updatedAt
    }

    /// A ticker as v3 gave it back; none for a name the feed could not have sent (the empty one),
    /// which reads leave out (issue 32: a shared database is checked as the feed is).
    static func v3(_ ticker: Ticker) -> Ticker? {
        guard let last = v3(ticker.last), [ticker.symbol, ticker.baseAsset, ticker.quoteAsset].allSatisfy(MarketNames.isFeedIdentifier) else { return nil }
        return Ticker(
            symbol: ticker.symbol, baseAsset: ticker.baseAsset, quoteAsset: ticker.quoteAsset, open: v3(ticker.open), low: v3(ticker.low),
            high: v3(ticker.high), last: last, volume: v3(ticker.volume), bid: v3(ticker.bid), ask: v3(ticker.ask),
            updatedAt: ticker.updatedAt.map { HistoryStore.date(HistoryStore.milliseconds($0)) })
    }

    /// Keyed by the symbol's bytes: two spellings of one name are two markets to SQLite.
    static func bySymbol(_ tickers: [Ticker]) -> [[UInt8]: Ticker] {
        var result: [[UInt8]: Ticker] = [:]
        for ticker in tickers where result[Array(ticker.symbol.utf8)] == nil { result[Array(ticker.symbol.utf8)] = ticker }
        return result
    }

    static func d(_ text: String) -> Decimal { Fixtures.decimal(text) }

    /// Odd values: every optional field empty, zero, negatives, the smallest and largest figures a
    /// ticker may hold, 38 digits, a product's long mantissa, trailing zeros, names differing only
    /// in case or in Unicode normalization, a name of no ASCII, and times off by milliseconds,
    /// decades, or not at all.
    static func oddTickers(at time: Date) -> [Ticker] {
        [
            Ticker(symbol: "nullsinr", baseAsset: "nulls", quoteAsset: "inr", last: Self.d("1")),
            Ticker(
                symbol: "zerousdt", baseAsset: "zero", quoteAsset: "usdt", open: Self.d("0"), low: Self.d("0.000"), high: Self.d("0"), last: Self.d("0"),
                volume: Self.d("0"), bid: Self.d("0"), ask: Self.d("0"), updatedAt: time),
            Ticker(
                symbol: "NEGINR", baseAsset: "NEG", quoteAsset: "INR", open: Self.d("-12.5"), low: Self.d("-0.0001"), high: Self.d("12.5"), last: Self.d("-3"),
                volume: Self.d("-99999999999999999999"), bid: Self.d("-3.0001"), ask: Self.d("-2.99"), updatedAt: time.addingTimeInterval(-0.001)),
            Ticker(
                symbol: "tinyusdt", baseAsset: "tiny", quoteAsset: "usdt", open: Self.d("0.00000000000000000001"), low: Self.d("5.3e-7"),
                high: Self.d("0.00000000000000000009"), last: Self.d("0.00000000000000000001"), volume: Self.d("99999999999999999999"),
                bid: Self.d("0.1234567890123456789012345678901234567"), ask: Self.d("12345678901234567890123456789012345678"),
                updatedAt: time.addingTimeInterval(-40 * 365 * 86400)),
            Ticker(
                symbol: "longinr", baseAsset: "long", quoteAsset: "inr", open: Self.d("1.0246") * Self.d("10.9873") / Self.d("3"),
                low: Self.d("1398000.0"), high: Self.d("1430027.0"), last: Self.d("1398000.0") * Self.d("1.0003"), volume: Self.d("6.94353"),
                bid: Self.d("0001398000.00"), ask: Self.d("36028797018963968"), updatedAt: time.addingTimeInterval(86400 * 3650 + 0.007)),
            Ticker(symbol: "casebtc", baseAsset: "case", quoteAsset: "btc", last: Self.d("0.5"), bid: Self.d("0.4"), updatedAt: time),
            Ticker(symbol: "CASEBTC", baseAsset: "CASE", quoteAsset: "BTC", last: Self.d("0.6"), ask: Self.d("0.7"), updatedAt: time),
            Ticker(symbol: "caf\u{e9}inr", baseAsset: "caf\u{e9}", quoteAsset: "inr", last: Self.d("2"), updatedAt: time),
            Ticker(symbol: "cafe\u{301}inr", baseAsset: "cafe\u{301}", quoteAsset: "inr", last: Self.d("3"), updatedAt: time),
            Ticker(symbol: "ÄBC\u{1F600}WRX", baseAsset: "Äbc\u{1F600}", quoteAsset: "WRX", last: Self.d("2.5"), updatedAt: time),
            Ticker(symbol: "", baseAsset: "", quoteAsset: "", last: Self.d("36028797018963967"), volume: Self.d("36028797018963968")),
        ]
    }

    static func realSnapshot(daysAgo: Int, factor: Decimal = 1) throws -> Snapshot {
        var snapshot = try HistoryTests.snapshot(daysAgo: daysAgo, factor: factor)
        snapshot.tickers += oddTickers(at: snapshot.sourceTime)
        return snapshot
    }

    @Test("every field of the real capture and of odd tickers reads back as v3 gave it")
    func roundTrip() throws {
        let store = try HistoryStore()
        let snapshots = [try Self.realSnapshot(daysAgo: 2), try Self.realSnapshot(daysAgo: 1, factor: Self.d("1.0003"))]
        for snapshot in snapshots { try store.record(snapshot) }
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        #expect(runs.count == 2)
        for (run, snapshot) in zip(runs, snapshots) {
            let stored = try store.snapshot(of: run).tickers
            let expected = snapshot.tickers.compactMap(Self.v3)
            #expect(stored.count == expected.count)
            let bySymbol = Self.bySymbol(stored)
            for ticker in expected {
                let read = bySymbol[Array(ticker.symbol.utf8)]
                #expect(read.map { Self.same($0, ticker) } == true, "\(ticker.symbol): \(String(describing: read)) ≠ \(ticker)")
            }
            // Trends read the last price alone, without text.
            let last = try #require(try store.lastPrices(of: [run])[run.id])
            #expect(last.tickers.count == expected.count)
            for ticker in last.tickers {
                #expect(Self.same(ticker.last, bySymbol[Array(ticker.symbol.utf8)]?.last))
            }
        }
    }

    @Test("a symbol twice in one snapshot is stored once, the first; a backfill replaces a run's market of the symbol")
    func keys() throws {
        let store = try HistoryStore()
        let time = HistoryTests.captured
        let rates = ExchangeRates(date: "2022-11-21", perEuro: ["USD": Self.d("1.0246")])
        let first = Ticker(symbol: "abcinr", baseAsset: "abc", quoteAsset: "inr", last: Self.d("1"), bid: Self.d("0.9"))
        let second = Ticker(symbol: "abcinr", baseAsset: "ABC", quoteAsset: "inr", last: Self.d("2"))
        try store.record(Snapshot(sourceTime: time, fetchedAt: time, tickers: [first, second], rates: rates))
        var run = try #require(try store.runs(in: Date(timeIntervalSince1970: 0)...Date()).first)
        #expect(try store.snapshot(of: run).tickers == [first])
        let kline = Ticker(symbol: "abcinr", baseAsset: "Abc", quoteAsset: "inr", open: Self.d("3"), last: Self.d("4"), bid: Self.d("5"))
        try store.recordBackfill(
            symbol: "abcinr", days: 1, snapshots: [Snapshot(sourceTime: time, fetchedAt: time, kind: .backfill, tickers: [kline], rates: rates)],
            at: time)
        run = try #require(try store.runs(in: Date(timeIntervalSince1970: 0)...Date()).first)
        var expected = kline
        expected.bid = nil
        #expect(try store.snapshot(of: run).tickers == [expected])
    }

    @Test("the integer forms read back as the plain text did, over many figures")
    func storedNumbers() throws {
        var generator = NumberReferenceTests.SeededGenerator(state: 20_221_122)
        var checked = 0
        for _ in 0..<20000 {
            let digits = Int(generator.next() % 38) + 1
            var text = (0..<digits).map { _ in String(generator.next() % 10) }.joined()
            let point = Int(generator.next() % UInt64(digits + 1))
            if point < digits { text.insert(".", at: text.index(text.startIndex, offsetBy: point)) }
            let exponent = Int(generator.next() % 41) - 20
            let sign = generator.next() % 4 == 0 ? "-" : ""
            guard let value = DecimalText.parse("\(sign)\(text)e\(exponent)"), let lastValue = DecimalText.parse("\(sign)\(text)") else { continue }
            let expected = Self.v3(value)
            let last = StoredNumber.readLast(StoredNumber.last(lastValue))
            #expect(Self.same(last?.value, Self.v3(lastValue)), "last \(lastValue)")
            for base in [last?.parts, StoredNumber.Parts(lastValue), nil] {
                let read = StoredNumber.readFigure(StoredNumber.figure(value, last: base), last: base)
                #expect(Self.same(read, expected), "\(value) beside \(String(describing: base))")
            }
            checked += 1
        }
        #expect(checked > 10000, "most figures drawn are within a ticker's range")
        for milliseconds: Int64 in [0, 1, 999, 1000, -1000, 1_669_078_293_000, 1_669_078_293_001, .max, .min, .max / 2, .min / 2] {
            for runTime: Int64 in [0, 1_669_078_293_000, .max, .min] {
                #expect(StoredNumber.readTime(StoredNumber.time(milliseconds, runTime: runTime), runTime: runTime) == milliseconds)
            }
        }
        #expect(StoredNumber.time(nil, runTime: 5) == .null)
        // The forms chosen: an integer for real prices, a blob for a product's long mantissa,
        // text past 38 digits.
        #expect(StoredNumber.last(Self.d("1398000.0")) == (1398 << 6 | (3 + 32)).databaseValue)
        #expect(StoredNumber.figure(Self.d("1399000"), last: StoredNumber.Parts(Self.d("1398000"))) == Int64(2).databaseValue)
        #expect(StoredNumber.figure(Self.d("1399000.5"), last: StoredNumber.Parts(Self.d("1398000"))) == ((13_990_005 << 6 | 31) << 1 | 1).databaseValue)
        #expect(
            StoredNumber.last(Self.d("21615.96940084552698"))
                == Data([UInt8(bitPattern: -14), 0] + [0xFA, 0xA3, 0x4F, 0xE1, 0xF6, 0x88, 0xFF, 0x1D]).databaseValue)
        let long = try #require(DecimalParts(isNegative: false, exponent: -30, high: .max, low: .max).decimal)
        #expect(StoredNumber.last(long) == DecimalParts.plainText(long).databaseValue)
        #expect(Self.same(StoredNumber.readLast(StoredNumber.last(long))?.value, Self.v3(long)))
    }

    @Test("a last price read from the statement for the trends is the one readLast gives, byte for byte, or none where it gives none")
    func lastFromStatement() throws {
        var values: [DatabaseValue] = []
        var generator = NumberReferenceTests.SeededGenerator(state: 20_261_124)
        for _ in 0..<5000 {
            let digits = Int(generator.next() % 38) + 1
            let text = (0..<digits).map { _ in String(generator.next() % 10) }.joined()
            let exponent = Int(generator.next() % 61) - 30
            let sign = generator.next() % 4 == 0 ? "-" : ""
            if let value = DecimalText.parse("\(sign)\(text)e\(exponent)") { values.append(StoredNumber.last(value)) }
        }
        // Forms no writer makes but a file may hold: zero in any exponent, out-of-range integers
        // and blobs, blobs of a zero mantissa, a bad sign byte or a wrong length, text, a real, null.
        for exponent in [-32, -3, 0, 31] { values.append(StoredNumber.Parts(mantissa: 0, exponent: exponent).full.databaseValue) }
        values += [
            StoredNumber.Parts(mantissa: 1, exponent: 25).full.databaseValue, StoredNumber.Parts(mantissa: -7, exponent: -31).full.databaseValue,
            Int64.max.databaseValue, Int64.min.databaseValue,
            Data([10, 0, 0, 0]).databaseValue, Data([UInt8(bitPattern: -14), 2, 5, 5]).databaseValue, Data([0, 0]).databaseValue,
            Data([UInt8(bitPattern: -60), 0, 1, 2, 3]).databaseValue, Data([30, 1, 9]).databaseValue, Data(repeating: 0xFF, count: 18).databaseValue,
            Data([0, 0] + [UInt8](repeating: 7, count: 17)).databaseValue, "12.5".databaseValue, "1e30".databaseValue, "x".databaseValue,
            1.5.databaseValue, .null,
        ]
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
            for value in values { try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: [value]) }
        }
        var read = 0
        var some = 0
        try queue.read { db in
            let statement = try db.makeStatement(sql: "SELECT v FROM t ORDER BY id")
            let rows = try Row.fetchCursor(statement)
            while try rows.next() != nil {
                let expected = StoredNumber.readLast(values[read])?.value
                let fast = StoredNumber.readLastFast(statement.sqliteStatement, 0)
                #expect(fast.map(\.decimal) == expected, "\(values[read])")
                #expect(fast.map { withUnsafeBytes(of: $0.decimal) { Array($0) } } == expected.map { withUnsafeBytes(of: $0) { Array($0) } }, "\(values[read])")
                if fast != nil { some += 1 }
                read += 1
            }
        }
        #expect(read == values.count)
        #expect(some > 2000, "many drawn prices are in range")
    }

    @Test("stored rates of every form are read as readLast reads them, only positive ones kept, by either query")
    func oddStoredRates() throws {
        let store = try HistoryStore()
        let long = Self.d("10.98731234567890123456789")
        let stored: [(String, DatabaseValue)] = [
            ("SEK", StoredNumber.last(Self.d("10.9873"))), ("USD", StoredNumber.last(long)), ("NEG", StoredNumber.last(Self.d("-1.5"))),
            ("ZER", StoredNumber.last(0)), ("TXT", "12.5".databaseValue), ("BAD", "x".databaseValue), ("DBL", 2.5.databaseValue),
            ("BIG", StoredNumber.last(Self.d("1e25"))), ("TNY", StoredNumber.last(Self.d("0.000000000000000000001"))),
        ]
        try store.write { db in
            for (currency, value) in stored {
                try db.execute(sql: "INSERT INTO rate (date, currency, per_euro) VALUES ('2022-11-21', ?, ?)", arguments: [currency, value])
            }
        }
        var expected: [String: Decimal] = [:]
        for (currency, value) in stored {
            if let rate = StoredNumber.readLast(value)?.value, rate > 0 { expected[currency] = rate }
        }
        #expect(Set(expected.keys) == ["SEK", "USD", "TXT"])
        let all = try store.read { try HistoryStore.rates(onOrBefore: ["2022-11-22"], in: $0) }
        let some = try store.read { try HistoryStore.rates(onOrBefore: ["2022-11-22"], currencies: Set(stored.map(\.0)), in: $0) }
        for read in [all, some] {
            let perEuro = try #require(read["2022-11-22"] ?? nil).perEuro
            #expect(perEuro == expected)
            #expect(perEuro.mapValues(DecimalParts.plainText) == expected.mapValues(DecimalParts.plainText))
        }
    }

    @Test("each date's rates are the newest stored on or before it, read for many dates at once")
    func ratesOnOrBefore() throws {
        let store = try HistoryStore()
        try store.recordRates([
            ExchangeRates(date: "2022-11-18", perEuro: ["USD": Self.d("1.03"), "SEK": Self.d("10.9")]),
            ExchangeRates(date: "2022-11-21", perEuro: ["USD": Self.d("1.0246"), "XXX": Self.d("0")]),
        ])
        let dates: Set = ["2022-11-17", "2022-11-18", "2022-11-19", "2022-11-21", "2022-11-25"]
        let read = try store.read { try HistoryStore.rates(onOrBefore: dates, in: $0) }
        #expect(read["2022-11-17"] == .some(nil))
        #expect(read["2022-11-18"]??.perEuro == ["USD": Self.d("1.03"), "SEK": Self.d("10.9")])
        #expect(read["2022-11-19"]??.date == "2022-11-18")
        #expect(read["2022-11-21"]??.perEuro == ["USD": Self.d("1.0246")], "a rate of zero is no rate")
        #expect(read["2022-11-25"]??.date == "2022-11-21")
        for date in dates {
            #expect(try store.rates(onOrBefore: date) == read[date] ?? nil, "\(date) alone")
        }
        // Only some currencies read: the same days (one without them is still that day), fewer rates.
        let some = try store.read { try HistoryStore.rates(onOrBefore: dates, currencies: ["SEK", "INR"], in: $0) }
        for date in dates {
            #expect(some[date]??.date == read[date]??.date, "\(date)")
            #expect(some[date]??.perEuro == read[date]??.perEuro.filter { $0.key == "SEK" }, "\(date)")
        }
        #expect(some["2022-11-25"]??.perEuro == [:])
        // Only a currency whose rate is no rate, or one no day has: the same days, no rates.
        for wanted: Set<String> in [["XXX"], ["NOK"], ["XXX", "NOK"]] {
            let none = try store.read { try HistoryStore.rates(onOrBefore: dates, currencies: wanted, in: $0) }
            for date in dates {
                #expect(none[date]??.date == read[date]??.date, "\(wanted) \(date)")
                #expect(none[date]??.perEuro ?? [:] == [:], "\(wanted) \(date)")
            }
        }
    }

    @Test("some currencies' rates, whose days differ from currency to currency, are those of all the rates read, day by day")
    func someCurrenciesOnDifferentDays() throws {
        let store = try HistoryStore()
        // Each currency's rows come in date order, one currency after another: a later currency
        // has days before, between and after the days an earlier one made.
        func date(_ day: Int) -> String { "2022-11-" + (day < 10 ? "0" : "") + String(day) }
        var days: [ExchangeRates] = []
        for day in 1...28 {
            var perEuro: [String: Decimal] = [:]
            if day % 2 == 0 { perEuro["SEK"] = Self.d("10.\(day)") }
            if day % 3 == 0 { perEuro["USD"] = Self.d("1.0\(day)") }
            if day >= 20 || day == 5 { perEuro["AAA"] = day == 21 ? 0 : Self.d("2.\(day)") }
            if day == 1 || day == 25 { perEuro["NOK"] = Self.d("11.\(day)") }
            if !perEuro.isEmpty { days.append(ExchangeRates(date: date(day), perEuro: perEuro)) }
        }
        try store.recordRates(days)
        let dates = Set((0...30).map(date))
        let all = try store.read { try HistoryStore.rates(onOrBefore: dates, in: $0) }
        for wanted: Set<String> in [["AAA", "SEK", "USD"], ["SEK", "USD"], ["AAA", "USD"], ["USD"], ["AAA"], ["SEK", "NOK"]] {
            let some = try store.read { try HistoryStore.rates(onOrBefore: dates, currencies: wanted, in: $0) }
            #expect(Set(some.keys) == dates, "\(wanted)")
            for date in dates {
                #expect(some[date]??.date == all[date]??.date, "\(wanted) \(date)")
                #expect(some[date]??.perEuro == all[date]??.perEuro.filter { wanted.contains($0.key) }, "\(wanted) \(date)")
            }
        }
    }

    // MARK: - Migration

    /// A v3 database filled as the v3 code wrote it (its SQL, copied here, as v3 had it).
    static func v3Database(at path: String) throws -> (snapshots: [Snapshot], rates: [ExchangeRates]) {
        let old = try DatabaseQueue(path: path)
        try HistoryStore.migrator.migrate(old, upTo: "v3")
        var snapshots = [
            try realSnapshot(daysAgo: 3), try realSnapshot(daysAgo: 2, factor: Self.d("1.0003")), try realSnapshot(daysAgo: 1, factor: Self.d("0.97")),
        ]
        snapshots[1].kind = .backfill
        snapshots[2].rates.perEuro["SEK"] = Self.d("11.0001")
        let text = { (value: Decimal?) in value.map(DecimalParts.plainText) }
        try old.write { db in
            for snapshot in snapshots {
                for (currency, rate) in snapshot.rates.perEuro {
                    try db.execute(
                        sql: "INSERT OR IGNORE INTO rate (date, currency, per_euro) VALUES (?, ?, ?)",
                        arguments: [snapshot.rates.date, currency, DecimalParts.plainText(rate)])
                }
                try db.execute(
                    sql: """
                        INSERT INTO run (source_time, fetched_at, rates_date, tickers_status, tickers_location, rates_status, rates_location, kind)
                        VALUES (?, ?, ?, 'live', 'x', 'live', 'y', ?)
                        """,
                    arguments: [
                        HistoryStore.milliseconds(snapshot.sourceTime), HistoryStore.milliseconds(snapshot.fetchedAt), snapshot.rates.date,
                        snapshot.kind.rawValue,
                    ])
                let runID = db.lastInsertedRowID
                for ticker in snapshot.tickers {
                    try db.execute(
                        sql: """
                            INSERT OR IGNORE INTO market (run_id, symbol, base_asset, quote_asset, last, open, high, low, bid, ask, volume, at)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            runID, ticker.symbol, ticker.baseAsset, ticker.quoteAsset, text(ticker.last), text(ticker.open), text(ticker.high),
                            text(ticker.low), text(ticker.bid), text(ticker.ask), text(ticker.volume), ticker.updatedAt.map(HistoryStore.milliseconds),
                        ])
                }
            }
            // Text v3 could not read: a row it skipped, a figure it left empty.
            try db.execute(
                sql: """
                    INSERT INTO market (run_id, symbol, base_asset, quote_asset, last, open, at) VALUES
                        (1, 'badlastinr', 'badlast', 'inr', 'abc', '1', NULL),
                        (1, 'badopeninr', 'badopen', 'inr', '2', '1e999', 5)
                    """)
            try db.execute(sql: "INSERT INTO backfill_progress (symbol, days, completed_at) VALUES ('btcinr', 30, 1669078293000)")
        }
        try old.close()
        var expected = snapshots
        expected[0].tickers.append(
            Ticker(symbol: "badopeninr", baseAsset: "badopen", quoteAsset: "inr", last: Self.d("2"), updatedAt: Date(timeIntervalSince1970: 0.005)))
        return (expected, snapshots.map(\.rates))
    }

    /// Every market, rate and run read back as v3 gave them.
    static func expectV3Values(_ store: HistoryStore, _ v3: (snapshots: [Snapshot], rates: [ExchangeRates])) throws {
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        #expect(runs.map(\.kind) == v3.snapshots.map(\.kind))
        #expect(runs.map(\.sourceTime) == v3.snapshots.map { HistoryStore.date(HistoryStore.milliseconds($0.sourceTime)) })
        for (run, snapshot) in zip(runs, v3.snapshots) {
            let read = try store.snapshot(of: run)
            let expected = snapshot.tickers.compactMap(Self.v3)
            #expect(read.tickers.count == expected.count)
            let bySymbol = Self.bySymbol(read.tickers)
            for ticker in expected {
                #expect(bySymbol[Array(ticker.symbol.utf8)].map { Self.same($0, ticker) } == true, "\(ticker.symbol) in run \(run.id)")
            }
            let rates = try #require(read.rates)
            let sent = try #require(v3.rates.first { $0.date == rates.date })
            #expect(rates.perEuro.count == sent.perEuro.count)
            for (currency, rate) in sent.perEuro { #expect(Self.same(rates.perEuro[currency], Self.v3(rate)), "\(currency) on \(rates.date)") }
        }
        #expect(try store.backfilled("btcinr", days: 30, on: Date(timeIntervalSince1970: 1_669_078_293)))
    }

    @Test("a v3 database migrates to v4 keeping every ticker field, rate, run and backfill mark")
    func migratesV3() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("history.sqlite").path
        let v3 = try Self.v3Database(at: path)
        let store = try HistoryStore(path: path)
        try Self.expectV3Values(store, v3)
        #expect(try store.read { try HistoryStore.migrator.appliedIdentifiers($0) }.contains("v4"))
        #expect(try store.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        #expect(try store.read { try Int.fetchOne($0, sql: "PRAGMA freelist_count") } == 0, "the old tables' pages were given back")
        // A run recorded after the migration reads back too, beside the migrated ones.
        try store.record(try Self.realSnapshot(daysAgo: 0))
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        #expect(runs.count == 4)
        let trends = try store.lastPrices(of: runs)
        #expect(trends.values.allSatisfy { $0.tickers.count > 450 })
    }

    @Test("a migration stopped halfway leaves the v3 database as it was, and the next open migrates it")
    func interruptedMigration() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("history.sqlite").path
        let v3 = try Self.v3Database(at: path)
        let queue = try DatabaseQueue(path: path)
        #expect(throws: Abort.self) {
            try HistoryStore.migrator(interruptingV4: { _ in throw Abort() }).migrate(queue)
        }
        try queue.read { db in
            #expect(try HistoryStore.migrator.appliedIdentifiers(db) == ["v1", "v2", "v3"])
            #expect(try db.tableExists("market_name") == false)
            #expect(try db.columns(in: "market").map(\.name).contains("symbol"))
            let rows = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM market")
            #expect(
                rows == v3.snapshots.map(\.tickers.count).reduce(0, +) + 1, "each snapshot's markets (one read without its bad `open`) and the row v3 skipped")
        }
        try queue.close()
        try Self.expectV3Values(try HistoryStore(path: path), v3)
    }
}
