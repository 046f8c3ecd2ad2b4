package import Foundation
import GRDB
// SQLite's C interface, as GRDB itself imports it.
import GRDBSQLite

/// Reading stored runs: their summaries, their markets (all, one asset's, or only the last prices).
extension HistoryStore {
    /// The source time of the newest stored run; `nil` for an empty store.
    package func newestRunTime() throws(HistoryError) -> Date? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(source_time) FROM run").map(Self.date) }
    }

    /// Runs whose source time lies in `range`, oldest first.
    package func runs(in range: ClosedRange<Date>) throws(HistoryError) -> [RunSummary] {
        try read { db in
            // Columns by position from the statement, not by name through `Row`, which looks
            // each one up.
            let statement = try db.makeStatement(
                sql: "SELECT id, source_time, kind, rates_date, exchange FROM run WHERE source_time BETWEEN ? AND ? ORDER BY source_time")
            try statement.setArguments([Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound)])
            let rows = try Row.fetchCursor(statement)
            let raw = statement.sqliteStatement
            var runs: [RunSummary] = []
            while try rows.next() != nil {
                runs.append(
                    RunSummary(
                        id: Int64(sqliteStatement: raw, index: 0), sourceTime: Self.date(Int64(sqliteStatement: raw, index: 1)),
                        kind: Snapshot.Kind(rawValue: String(sqliteStatement: raw, index: 2)) ?? .report, ratesDate: String(sqliteStatement: raw, index: 3),
                        exchange: Exchange(rawValue: String(sqliteStatement: raw, index: 4)) ?? .wazirx))
            }
            return runs
        }
    }

    /// The run's markets, in the order their names were first stored, and the ECB rates of its
    /// day (or the nearest earlier day stored).
    package func snapshot(of run: RunSummary) throws(HistoryError) -> (tickers: [Ticker], rates: ExchangeRates?) {
        try read { db in
            let names = try MarketNames.load(db)
            let runTimes = try Self.runTimes(String(run.id), in: db)
            let rows = try Row.fetchCursor(db, sql: "SELECT \(Self.marketColumns) FROM market WHERE run_id = ? ORDER BY name_id", arguments: [run.id])
            var tickers: [Ticker] = []
            while let row = try rows.next() {
                if let ticker = Self.ticker(row, names: names, runTimes: runTimes) { tickers.append(ticker) }
            }
            return (tickers, try Self.rates(onOrBefore: run.ratesDate, in: db))
        }
    }

    /// `history` reads through `forEachRun`, a run at a time; this, all at once, is what its
    /// tests hold that to (and is itself held to `snapshot(of:)`).
    ///
    /// One asset's markets in each of `runs`, with what converting them needs, keyed by run: the
    /// markets whose symbol or base asset is `asset` (lower case), the `Xusdt` and `Xinr` markets
    /// that price their quote assets (`CurrencyConverter`), in stored order, and each run's ECB
    /// rates. Only those rows are read and converted, not every market of every run as
    /// `snapshot(of:)` would read them.
    ///
    /// Names are judged in Swift (`lowercased()`, as `snapshot(of:)`'s callers judge every row,
    /// where SQLite folds ASCII only) against the few hundred stored names; then only the rows of
    /// those names in those runs are read, each found through the (run, name) key.
    ///
    /// `currencies`: the only ECB rates read (each day's others left out), `nil` for all: a
    /// conversion asks for two or three of a day's currencies.
    public func markets(of asset: String, in runs: [RunSummary], currencies: Set<String>? = nil) throws(HistoryError) -> [Int64: (
        tickers: [Ticker], rates: ExchangeRates?
    )] {
        guard let earliest = runs.map(\.sourceTime).min(), let latest = runs.map(\.sourceTime).max() else { return [:] }
        return try read { db in
            var result: [Int64: (tickers: [Ticker], rates: ExchangeRates?)] = [:]
            result.reserveCapacity(runs.count)
            let ratesByDate = try Self.rates(onOrBefore: Set(runs.map(\.ratesDate)), currencies: currencies, in: db)
            // Each run's stored time is the milliseconds its summary's date was made from, and
            // gives them back exactly: no query of its own.
            var runTimes: [Int64: Int64] = [:]
            runTimes.reserveCapacity(runs.count)
            for run in runs {
                result[run.id] = ([], ratesByDate[run.ratesDate] ?? nil)
                runTimes[run.id] = Self.milliseconds(run.sourceTime)
            }
            let names = try MarketNames.load(db).all
            var namesByID: [Int64: MarketNames.Name] = [:]
            for (id, name) in names { namesByID[id] = name }
            typealias Found = (run: Int64, nameID: Int64, ticker: Ticker)
            // The runs by their source times (the `run` table's unique index) joined to the
            // markets by key, rows of other runs in that span dropped: the runs' ids as a long
            // `IN` list would be parsed and sorted into a table by SQLite first.
            let span: StatementArguments = [Self.milliseconds(earliest), Self.milliseconds(latest)]
            func fetch(_ ids: [Int64]) throws -> [Found] {
                guard !ids.isEmpty else { return [] }
                let idList = ids.map(String.init).joined(separator: ",")
                var found: [Found] = []
                found.reserveCapacity(runs.count * ids.count)
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT m.run_id, m.name_id, m.last, m.open, m.high, m.low, m.bid, m.ask, m.volume, m.at
                        FROM run r JOIN market m ON m.run_id = r.id AND m.name_id IN (\(idList))
                        WHERE r.source_time BETWEEN ? AND ?
                        """, arguments: span)
                while let row = try rows.next() {
                    let run: Int64 = row[0]
                    guard runTimes[run] != nil else { continue }
                    if let name = namesByID[row[1]], let ticker = Self.ticker(row, name: name, runTimes: runTimes) { found.append((run, row[1], ticker)) }
                }
                return found
            }
            func isAsset(_ name: MarketNames.Name) -> Bool {
                name.symbol.lowercased() == asset || name.baseAsset.lowercased() == asset
            }
            var found = try fetch(names.filter { isAsset($0.name) }.map(\.id))
            // The markets that may price its quotes: those whose base is one (any spelling), as
            // the converter finds them.
            let quotes = Set(found.map { $0.ticker.quoteAsset.lowercased() })
            if !quotes.isEmpty {
                found += try fetch(names.filter { !isAsset($0.name) && quotes.contains($0.name.baseAsset.lowercased()) }.map(\.id))
            }
            found.sort { ($0.run, $0.nameID) < ($1.run, $1.nameID) }
            for item in found { result[item.run]?.tickers.append(item.ticker) }
            return result
        }
    }

    /// A stored market of one run, with the id of its name.
    package typealias NamedTicker = (nameID: Int64, ticker: Ticker)

    /// `markets(of:in:currencies:)` handed to `body` one run at a time, in the order of the runs'
    /// source times, every run of `runs` once (one without the asset's markets with none), from
    /// one query and in a buffer used again for the next run, so that ten years of an asset are
    /// never held at once. The pricing markets are those of every quote asset the
    /// asset's stored names have, known before reading: a run's pricing markets of a quote none
    /// of its own markets has change nothing it converts (`CurrencyConverter` prices each quote
    /// asset from its own `Xusdt`/`Xinr` market only).
    /// Returns how many of the rows read could not be made tickers (left out).
    @discardableResult
    package func forEachRun(
        of asset: String, in runs: [RunSummary], currencies: Set<String>? = nil,
        _ body: (RunSummary, [NamedTicker], ExchangeRates?) -> Void
    ) throws(HistoryError) -> Int {
        guard let earliest = runs.map(\.sourceTime).min(), let latest = runs.map(\.sourceTime).max() else { return 0 }
        var unreadable = 0
        let order = runs.enumerated().sorted { ($0.element.sourceTime, $0.offset) < ($1.element.sourceTime, $1.offset) }.map(\.element)
        try read { db in
            let ratesByDate = try Self.rates(onOrBefore: Set(runs.map(\.ratesDate)), currencies: currencies, in: db)
            var positions: [Int64: Int] = [:]
            positions.reserveCapacity(order.count)
            for (position, run) in order.enumerated() { positions[run.id] = position }
            // Each run's stored time is the milliseconds its summary's date was made from, and
            // gives them back exactly: no query of its own.
            let runTimes = order.map { Self.milliseconds($0.sourceTime) }
            var namesByID: [Int64: MarketNames.Name] = [:]
            var own: [Int64] = []
            var quotes = Set<String>()
            for (id, name) in try MarketNames.load(db).all {
                namesByID[id] = name
                if name.symbol.lowercased() == asset || name.baseAsset.lowercased() == asset {
                    own.append(id)
                    quotes.insert(name.quoteAsset.lowercased())
                }
            }
            // The markets that may price the asset's quotes: those whose base is one of them
            // (`CurrencyConverter` finds them by base and quote, never by joining names).
            var ids = own
            if !quotes.isEmpty {
                let ownIDs = Set(own)
                for (id, name) in namesByID where !ownIDs.contains(id) && quotes.contains(name.baseAsset.lowercased()) { ids.append(id) }
            }
            var next = 0
            var tickers: [NamedTicker] = []
            func hand(upTo position: Int) {
                while next < position {
                    let run = order[next]
                    body(run, tickers, ratesByDate[run.ratesDate] ?? nil)
                    tickers.removeAll(keepingCapacity: true)
                    next += 1
                }
            }
            if !ids.isEmpty {
                // Run by run in source-time order (the `run` table's unique index), each run's
                // markets found by key, in name order.
                let statement = try db.makeStatement(
                    sql: """
                        SELECT m.run_id, m.name_id, m.last, m.open, m.high, m.low, m.bid, m.ask, m.volume, m.at
                        FROM run r JOIN market m ON m.run_id = r.id AND m.name_id IN (\(ids.sorted().map(String.init).joined(separator: ",")))
                        WHERE r.source_time BETWEEN ? AND ? ORDER BY r.source_time, m.name_id
                        """)
                try statement.setArguments([Self.milliseconds(earliest), Self.milliseconds(latest)])
                try Self.forEachRow(of: statement, in: db) { raw in
                    guard let position = positions[Int64(sqliteStatement: raw, index: 0)] else { return }
                    hand(upTo: position)
                    let nameID = Int64(sqliteStatement: raw, index: 1)
                    guard let name = namesByID[nameID],
                        let ticker = Self.ticker(name: name, runTime: runTimes[position], { DatabaseValue(sqliteStatement: raw, index: $0) })
                    else {
                        unreadable += 1
                        return
                    }
                    tickers.append((nameID, ticker))
                }
            }
            hand(upTo: order.count)
        }
        return unreadable
    }

    /// What trends need of several runs, in one query: each market's symbol, base and quote asset
    /// and last price, keyed by run, each run's ECB rates beside it.
    package func lastPrices(of runs: [RunSummary]) throws(HistoryError) -> [Int64: (tickers: [Ticker], rates: ExchangeRates?)] {
        var result: [Int64: (tickers: [Ticker], rates: ExchangeRates?)] = [:]
        try forEachLastPrices(of: runs) { names, id, prices, rates in
            result[id] = (
                prices.compactMap { price in
                    names[price.nameID].map { Ticker(symbol: $0.symbol, baseAsset: $0.baseAsset, quoteAsset: $0.quoteAsset, last: price.last.decimal) }
                }, rates
            )
        }
        return result
    }

    /// A stored market's last price in one run, by the id of its name.
    typealias LastPrice = (nameID: Int64, last: FastDecimal)

    /// The last prices of `runs`, handed to `body` one run at a time with the stored names and
    /// the run's ECB rates, in name order, in a buffer used again for the next run, so that a
    /// month's markets are never held at once, read in one query for all the runs: only the
    /// last price, as a `FastDecimal` made from its stored integer or blob
    /// (`StoredNumber.readLastFast`). Markets go by the id of their name, so that a caller works
    /// out what a name means once, not once a day, with no `Ticker` and no hashed symbol per
    /// row. Rows whose last price cannot be read are left out; a run without
    /// stored markets is handed with none. Runs are handed in no set order.
    ///
    /// `currencies`: the only ECB rates read (each day's others left out), `nil` for all, as
    /// `markets(of:in:currencies:)` takes them. Returns how many rows were left out.
    @discardableResult
    func forEachLastPrices(
        of runs: [RunSummary], currencies: Set<String>? = nil, _ body: (MarketNames, Int64, [LastPrice], ExchangeRates?) -> Void
    ) throws(HistoryError) -> Int {
        guard !runs.isEmpty else { return 0 }
        var unreadable = 0
        try read { db in
            let ratesByDate = try Self.rates(onOrBefore: Set(runs.map(\.ratesDate)), currencies: currencies, in: db)
            var ratesByRun: [Int64: ExchangeRates?] = [:]
            for run in runs { ratesByRun[run.id] = ratesByDate[run.ratesDate] ?? nil }
            let names = try MarketNames.load(db)
            var prices: [LastPrice] = []
            var handed = Set<Int64>()
            let ids = ratesByRun.keys.sorted()
            // Run ids are integers: written into the queries as they are.
            func list(_ ids: [Int64]) -> String { ids.map(String.init).joined(separator: ",") }
            let unpacked = ids
            let statement = try db.makeStatement(
                sql: "SELECT run_id, name_id, last FROM market WHERE run_id IN (\(list(unpacked))) ORDER BY run_id, name_id")
            var currentID: Int64 = -1
            func hand() {
                guard currentID >= 0 else { return }
                body(names, currentID, prices, ratesByRun[currentID] ?? nil)
                handed.insert(currentID)
                prices.removeAll(keepingCapacity: true)
            }
            // Each column read from the statement by position (as `forEachRun` does): a `Row`'s
            // generic subscript looks up type metadata per value.
            try Self.forEachRow(of: statement, in: db) { raw in
                let id = Int64(sqliteStatement: raw, index: 0)
                if id != currentID {
                    hand()
                    currentID = id
                }
                guard let last = StoredNumber.readLastFast(raw, 2) else {
                    unreadable += 1
                    return
                }
                prices.append((Int64(sqliteStatement: raw, index: 1), last))
            }
            hand()
            // A run without stored markets is still handed, with its rates.
            for id in unpacked where !handed.contains(id) { body(names, id, [], ratesByRun[id] ?? nil) }
        }
        return unreadable
    }
}
