package import Foundation
import GRDB
// SQLite's C interface, as GRDB itself imports it.
import GRDBSQLite

/// The snapshots of past runs, in an SQLite database (GRDB).
///
/// Prices are stored exactly, never as floating point: each reads back as the `Decimal` its plain
/// text parses to (`StoredNumber`), in about 18 KB a day of 450 markets (schema v5,
/// `HistoryStore+Schema.swift`). Each snapshot is written in one transaction, and recording the
/// same snapshot (same newest-ticker time) twice stores it once.
package struct HistoryStore: Sendable {
    package let path: String
    let database: DatabaseQueue
    let mapped: Bool

    /// `mapped`: the file read through memory mapping (`PRAGMA mmap_size`), for a command that
    /// reads many pages once (`history` of years touches two pages a day, and reading them a
    /// `pread` each, copied into SQLite's cache, was a sixth of its time). SQLite reads a mapped
    /// page in place; a writer's change (under the locks as ever) reaches it through the same
    /// page cache.
    package init(path: String, mapped: Bool = false) throws(HistoryError) {
        self.path = path
        self.mapped = mapped
        try Self.refuseSymbolicLinks(at: path)
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            database = try DatabaseQueue(path: path, configuration: Self.configuration(mapped: mapped))
            let migrator = Self.migrator
            let applied = try database.read { db in try migrator.appliedIdentifiers(db) }
            // Up to date, as nearly always: no write transaction of the migrator's (a read-only
            // `history` took the database's write lock, behind any report recording its run).
            if applied != Set(migrator.migrations) {
                do {
                    try migrator.migrate(database)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_READONLY && applied.contains("v4") {
                    // A v4 file this user may only read is read as it is: v5 adds an index, which
                    // the queries go without (more slowly); the next run that may write adds it.
                }
            }
            // v4 left the v3 tables' pages free inside the file (as large as the data was):
            // given back once, outside the migration's transaction. Interrupted, SQLite's own
            // journal keeps the file whole, and the next run does without.
            if applied.contains("v3") && !applied.contains("v4") { try database.vacuum() }
        } catch {
            throw .cannotOpen(path: path, reason: Self.describe(error))
        }
    }

    static func configuration(mapped: Bool) -> Configuration {
        // SQLite's defaults kept: a rollback journal and `synchronous = FULL`. A run commits
        // its snapshot once, after its reports are on disk; the journal's syncs (four, about a
        // millisecond on the benchmark's disk) are what make a completed run's day survive a
        // power cut, not only a crash of the program. WAL with `synchronous = NORMAL` would
        // save them but may lose the last commits to a power cut, and keeps `-wal`/`-shm`
        // files beside the database that a copy of `history.sqlite` alone would miss.
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        // A small page cache: a run reads each page it needs once, and SQLite's 2 MB default
        // was filled a page at a time, each growing the reading thread's heap (an mprotect
        // and page faults apiece: half the syscalls of a run with a month of history).
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -256") }
        if mapped {
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA mmap_size = 1073741824") }
        }
        return configuration
    }

    private init(path: String, database: DatabaseQueue, mapped: Bool) {
        self.path = path
        self.database = database
        self.mapped = mapped
    }

    /// Another connection to the same file, for reading beside this one on another thread (its
    /// schema is this one's, migrated already); `nil` for a store in memory, which has no other.
    package func anotherReader() throws(HistoryError) -> HistoryStore? {
        guard path != ":memory:" else { return nil }
        do {
            return HistoryStore(path: path, database: try DatabaseQueue(path: path, configuration: Self.configuration(mapped: mapped)), mapped: mapped)
        } catch {
            throw .cannotOpen(path: path, reason: Self.describe(error))
        }
    }

    /// An in-memory store, for tests.
    package init() throws(HistoryError) {
        path = ":memory:"
        mapped = false
        do {
            database = try DatabaseQueue()
            try Self.migrator.migrate(database)
        } catch {
            throw .cannotOpen(path: path, reason: Self.describe(error))
        }
    }

    // MARK: - Writing

    /// Records a snapshot; returns false when the same snapshot was already stored.
    @discardableResult
    package func record(_ snapshot: Snapshot) throws(HistoryError) -> Bool {
        try write { db in try Self.insert(snapshot, into: db) }
    }

    static func insert(_ snapshot: Snapshot, into db: Database) throws -> Bool {
        let sourceTime = milliseconds(snapshot.sourceTime)
        if try Int64.fetchOne(db, sql: "SELECT id FROM run WHERE source_time = ?", arguments: [sourceTime]) != nil {
            return false
        }
        try insertRates(snapshot.rates, into: db)
        try db.execute(
            sql: """
                INSERT INTO run (source_time, fetched_at, rates_date, tickers_status, tickers_location,
                                 rates_status, rates_location, kind)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                sourceTime, milliseconds(snapshot.fetchedAt), snapshot.rates.date,
                snapshot.source(.tickers).status.rawValue, snapshot.source(.tickers).location,
                snapshot.source(.rates).status.rawValue, snapshot.source(.rates).location, snapshot.kind.rawValue,
            ])
        let runID = db.lastInsertedRowID
        var names = try MarketNames.load(db)
        // A symbol twice in one snapshot is stored once, the first (v3's key was run and symbol).
        var seen = Set<[UInt8]>()
        var rows: [(nameID: Int64, ticker: Ticker)] = []
        rows.reserveCapacity(snapshot.tickers.count)
        for ticker in snapshot.tickers where seen.insert(Array(ticker.symbol.utf8)).inserted {
            rows.append((try names.id(for: ticker, in: db), ticker))
        }
        // In key order, so that the run's rows are appended to the B-tree and fill its pages.
        rows.sort { $0.nameID < $1.nameID }
        let statement = try db.makeStatement(sql: insertMarket)
        for row in rows {
            try execute(statement, marketRow(row.ticker, runID: runID, nameID: row.nameID, runTime: sourceTime), in: db)
        }
        return true
    }

    /// Runs `statement` once with `values`, bound with SQLite's own functions: GRDB's
    /// `StatementArguments` boxed and checked each of a run's ten values a market, which was
    /// most of recording it.
    static func execute(_ statement: Statement, _ values: [DatabaseValue], in db: Database) throws {
        let raw = statement.sqliteStatement
        func check(_ code: Int32, _ expected: Int32 = SQLITE_OK) throws {
            guard code == expected else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
            }
        }
        sqlite3_reset(raw)
        // Copied by SQLite as it binds (SQLITE_TRANSIENT): the values are gone before the step.
        let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value.storage {
            case .null: try check(sqlite3_bind_null(raw, index))
            case .int64(let number): try check(sqlite3_bind_int64(raw, index, number))
            case .double(let number): try check(sqlite3_bind_double(raw, index, number))
            case .string(let text): try check(sqlite3_bind_text(raw, index, text, -1, transient))
            case .blob(let data):
                try check(data.withUnsafeBytes { sqlite3_bind_blob(raw, index, $0.baseAddress, Int32($0.count), transient) })
            }
        }
        let code = sqlite3_step(raw)
        sqlite3_reset(raw)
        try check(code, SQLITE_DONE)
    }

    static let insertMarket = """
        INSERT INTO market (run_id, name_id, last, open, high, low, bid, ask, volume, at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// A ticker's row in the forms of `StoredNumber`, in `insertMarket`'s order.
    static func marketRow(_ ticker: Ticker, runID: Int64, nameID: Int64, runTime: Int64) -> [DatabaseValue] {
        let last = StoredNumber.Parts(ticker.last)
        func figure(_ value: Decimal?) -> DatabaseValue { StoredNumber.figure(value, last: last) }
        return [
            runID.databaseValue, nameID.databaseValue, StoredNumber.last(ticker.last), figure(ticker.open), figure(ticker.high),
            figure(ticker.low), figure(ticker.bid), figure(ticker.ask), figure(ticker.volume),
            StoredNumber.time(ticker.updatedAt.map(milliseconds), runTime: runTime),
        ]
    }

    static func insertRates(_ rates: ExchangeRates, into db: Database) throws {
        let statement = try db.makeStatement(sql: "INSERT OR IGNORE INTO rate (date, currency, per_euro) VALUES (?, ?, ?)")
        for (currency, rate) in rates.perEuro.sorted(by: { $0.key < $1.key }) {
            try statement.execute(arguments: [rates.date, currency, StoredNumber.last(rate)])
        }
    }

    /// Stores ECB rates of days that may have no run (a backfill's 90-day file).
    package func recordRates(_ days: [ExchangeRates]) throws(HistoryError) {
        try write { db in
            for day in days { try Self.insertRates(day, into: db) }
        }
    }

    // MARK: - Reading

    /// The source time of the newest stored run; `nil` for an empty store.
    package func newestRunTime() throws(HistoryError) -> Date? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT MAX(source_time) FROM run").map(Self.date) }
    }

    /// Runs whose source time lies in `range`, oldest first.
    package func runs(in range: ClosedRange<Date>) throws(HistoryError) -> [RunSummary] {
        try read { db in
            // Columns by position from the statement: by name, through `Row`, they were a tenth
            // of reading ten years' runs.
            let statement = try db.makeStatement(sql: "SELECT id, source_time, kind, rates_date FROM run WHERE source_time BETWEEN ? AND ? ORDER BY source_time")
            try statement.setArguments([Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound)])
            let rows = try Row.fetchCursor(statement)
            let raw = statement.sqliteStatement
            var runs: [RunSummary] = []
            while try rows.next() != nil {
                runs.append(
                    RunSummary(
                        id: Int64(sqliteStatement: raw, index: 0), sourceTime: Self.date(Int64(sqliteStatement: raw, index: 1)),
                        kind: Snapshot.Kind(rawValue: String(sqliteStatement: raw, index: 2)) ?? .report, ratesDate: String(sqliteStatement: raw, index: 3)))
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
    /// rates. `history --days 3650` of one asset read every market of every run through
    /// `snapshot(of:)`: 1.6 million rows parsed and converted for 3,650 points.
    ///
    /// Names are judged in Swift (`lowercased()`, as `snapshot(of:)`'s callers judge every row,
    /// where SQLite folds ASCII only) against the few hundred stored names; then only the rows of
    /// those names in those runs are read, each found through the (run, name) key.
    ///
    /// `currencies`: the only ECB rates read (each day's others left out), `nil` for all: every
    /// currency of 3,650 days was a fifth of `history --days 3650`, for the two or three a
    /// conversion asks for.
    public func markets(of asset: String, in runs: [RunSummary], currencies: Set<String>? = nil) throws(HistoryError) -> [Int64: (tickers: [Ticker], rates: ExchangeRates?)] {
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
            // markets by key, rows of other runs in that span dropped: the runs' ids as an
            // `IN` list of 3,650 literals were parsed and sorted into a table by SQLite first.
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
            var pricing = Set<String>()
            for quote in Set(found.map { $0.ticker.quoteAsset.lowercased() }) where quote != "inr" && quote != "usdt" {
                pricing.insert(quote + "usdt")
                pricing.insert(quote + "inr")
            }
            if !pricing.isEmpty {
                // Any spelling of a pricing market (`WRXUSDT`), as the converter judges them.
                found += try fetch(names.filter { !isAsset($0.name) && pricing.contains($0.name.symbol.lowercased()) }.map(\.id))
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
    /// one query and in a buffer used again for the next run: ten years of an asset held at once
    /// were 7,300 tickers in 3,650 arrays. The pricing markets are those of every quote asset the
    /// asset's stored names have, known before reading: a run's pricing markets of a quote none
    /// of its own markets has change nothing it converts (`CurrencyConverter` prices each quote
    /// asset from its own `Xusdt`/`Xinr` market only).
    package func forEachRun(
        of asset: String, in runs: [RunSummary], currencies: Set<String>? = nil,
        _ body: (RunSummary, [NamedTicker], ExchangeRates?) -> Void
    ) throws(HistoryError) {
        guard let earliest = runs.map(\.sourceTime).min(), let latest = runs.map(\.sourceTime).max() else { return }
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
            var pricing = Set<String>()
            for quote in quotes where quote != "inr" && quote != "usdt" {
                pricing.insert(quote + "usdt")
                pricing.insert(quote + "inr")
            }
            var ids = own
            if !pricing.isEmpty {
                let ownIDs = Set(own)
                for (id, name) in namesByID where !ownIDs.contains(id) && pricing.contains(name.symbol.lowercased()) { ids.append(id) }
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
                let rows = try Row.fetchCursor(statement)
                let raw = statement.sqliteStatement
                while try rows.next() != nil {
                    guard let position = positions[Int64(sqliteStatement: raw, index: 0)] else { continue }
                    hand(upTo: position)
                    let nameID = Int64(sqliteStatement: raw, index: 1)
                    guard let name = namesByID[nameID],
                        let ticker = Self.ticker(name: name, runTime: runTimes[position], { DatabaseValue(sqliteStatement: raw, index: $0) })
                    else { continue }
                    tickers.append((nameID, ticker))
                }
            }
            hand(upTo: order.count)
        }
    }

    /// What trends need of several runs, in one query: each market's symbol, quote asset and last
    /// price (the base asset is left empty), keyed by run, each run's ECB rates beside it.
    package func lastPrices(of runs: [RunSummary]) throws(HistoryError) -> [Int64: (tickers: [Ticker], rates: ExchangeRates?)] {
        var result: [Int64: (tickers: [Ticker], rates: ExchangeRates?)] = [:]
        try forEachLastPrices(of: runs) { names, id, prices, rates in
            result[id] = (prices.compactMap { price in
                names[price.nameID].map { Ticker(symbol: $0.symbol, baseAsset: "", quoteAsset: $0.quoteAsset, last: price.last) }
            }, rates)
        }
        return result
    }

    /// A stored market's last price in one run, by the id of its name.
    typealias LastPrice = (nameID: Int64, last: Decimal)

    /// The last prices of `runs`, in one query, handed to `body` one run at a time with the
    /// stored names and the run's ECB rates, in name order, in a buffer used again for the next
    /// run: a month of 10,000 markets held at once was 76 MB of tickers. Only the last price is
    /// read, built from its stored integer without text; markets go by the id of their name, so
    /// that a caller works out what a name means once, not once a day (a `Ticker` and a hashed
    /// symbol per row were most of a month's cost). Rows whose last price cannot be read are left
    /// out; a run without stored markets is handed with none.
    func forEachLastPrices(of runs: [RunSummary], _ body: (MarketNames, Int64, [LastPrice], ExchangeRates?) -> Void) throws(HistoryError) {
        guard !runs.isEmpty else { return }
        try read { db in
            let ratesByDate = try Self.rates(onOrBefore: Set(runs.map(\.ratesDate)), in: db)
            var ratesByRun: [Int64: ExchangeRates?] = [:]
            for run in runs { ratesByRun[run.id] = ratesByDate[run.ratesDate] ?? nil }
            let ids = ratesByRun.keys.sorted()
            let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
            let names = try MarketNames.load(db)
            let statement = try db.makeStatement(
                sql: "SELECT run_id, name_id, last FROM market WHERE run_id IN (\(placeholders)) ORDER BY run_id, name_id")
            try statement.setArguments(StatementArguments(ids))
            var handed = Set<Int64>()
            var currentID: Int64 = -1
            var prices: [LastPrice] = []
            func hand() {
                guard currentID >= 0 else { return }
                body(names, currentID, prices, ratesByRun[currentID] ?? nil)
                handed.insert(currentID)
                prices.removeAll(keepingCapacity: true)
            }
            // Each column read from the statement by position (as `forEachRun` does): a `Row`'s
            // generic subscript looked up type metadata per value, half of reading a month.
            let rows = try Row.fetchCursor(statement)
            let raw = statement.sqliteStatement
            while try rows.next() != nil {
                let id = Int64(sqliteStatement: raw, index: 0)
                if id != currentID {
                    hand()
                    currentID = id
                }
                guard let last = StoredNumber.readLast(DatabaseValue(sqliteStatement: raw, index: 2))?.value else { continue }
                prices.append((Int64(sqliteStatement: raw, index: 1), last))
            }
            hand()
            // A run without stored markets still has its rates, as before.
            for id in ids where !handed.contains(id) { body(names, id, [], ratesByRun[id] ?? nil) }
        }
    }

    /// Every currency the ECB rates of `runs` have, EUR included: what an error offers instead of
    /// a currency none of them has.
    package func currencies(of runs: [RunSummary]) throws(HistoryError) -> Set<String> {
        try read { db in
            let byDate = try Self.rates(onOrBefore: Set(runs.map(\.ratesDate)), in: db)
            return Set(runs.compactMap { byDate[$0.ratesDate] ?? nil }.flatMap(\.currencies))
        }
    }

    /// The newest stored ECB rates dated `date` or earlier.
    package func rates(onOrBefore date: String) throws(HistoryError) -> ExchangeRates? {
        try read { db in try Self.rates(onOrBefore: date, in: db) }
    }

    static func rates(onOrBefore date: String, in db: Database) throws -> ExchangeRates? {
        try rates(onOrBefore: [date], in: db)[date] ?? nil
    }

    /// For each of `dates`, the newest stored ECB rates dated that day or earlier, read in one
    /// query over the span of `dates`: a `history` of ten years asked 3,650 times, a query each.
    ///
    /// `currencies`: the only rates read, `nil` for all. A day is the same day either way: one
    /// whose rates lack the wanted currencies is still the newest day, as with all of them read.
    static func rates(onOrBefore dates: Set<String>, currencies: Set<String>? = nil, in db: Database) throws -> [String: ExchangeRates?] {
        guard let lowest = dates.min(), let highest = dates.max() else { return [:] }
        let first = try String.fetchOne(db, sql: "SELECT MAX(date) FROM rate WHERE date <= ?", arguments: [lowest]) ?? lowest
        var days: [ExchangeRates] = []
        let span: StatementArguments = [first, highest]
        if let currencies {
            return try rates(onOrBefore: dates, currencies: currencies, from: first, to: highest, in: db)
        } else {
            let rows = try Row.fetchCursor(
                db, sql: "SELECT date, currency, per_euro FROM rate WHERE date BETWEEN ? AND ? ORDER BY date", arguments: span)
            while let row = try rows.next() {
                let day: String = row[0]
                if days.last?.date != day { days.append(ExchangeRates(date: day, perEuro: [:])) }
                if let value = StoredNumber.readLast(row[2])?.value, value > 0 { days[days.count - 1].perEuro[row[1]] = value }
            }
        }
        var result: [String: ExchangeRates?] = [:]
        result.reserveCapacity(dates.count)
        for date in dates {
            // The last day not after `date`: days are in date order.
            var low = 0
            var high = days.count
            while low < high {
                let middle = (low + high) / 2
                if days[middle].date <= date { low = middle + 1 } else { high = middle }
            }
            result[date] = low > 0 ? days[low - 1] : nil
        }
        return result
    }

    /// `rates(onOrBefore:currencies:in:)` for some currencies, over the stored days `first...last`:
    /// only the wanted currencies' rows read, through the `rate_by_currency` index (schema v5),
    /// a run of rows per currency; a `history` of ten years read every currency of every day
    /// twice (once for the days, once for the rates), a third of its time. The days come from
    /// those rows: a date with a wanted rate is a stored day. Only a date none of whose rates is
    /// wanted asks the key for the newest stored day not after it, as the days' list would say.
    static func rates(onOrBefore dates: Set<String>, currencies: Set<String>, from first: String, to last: String, in db: Database) throws -> [String: ExchangeRates?] {
        let wanted = currencies.sorted()
        let list = Array(repeating: "?", count: wanted.count).joined(separator: ",")
        // Each day's rates made as its first row comes (rows come by currency, then date).
        var days: [String: ExchangeRates] = [:]
        days.reserveCapacity(dates.count)
        let statement = try db.makeStatement(sql: "SELECT date, currency, per_euro FROM rate WHERE currency IN (\(list)) AND date BETWEEN ? AND ?")
        try statement.setArguments(StatementArguments(wanted) + [first, last])
        let rows = try Row.fetchCursor(statement)
        let raw = statement.sqliteStatement
        while try rows.next() != nil {
            let day = String(sqliteStatement: raw, index: 0)
            if let value = StoredNumber.readLast(DatabaseValue(sqliteStatement: raw, index: 2))?.value, value > 0 {
                days[day, default: ExchangeRates(date: day, perEuro: [:])].perEuro[String(sqliteStatement: raw, index: 1)] = value
            } else if days[day] == nil {
                days[day] = ExchangeRates(date: day, perEuro: [:])
            }
        }
        var result: [String: ExchangeRates?] = [:]
        result.reserveCapacity(dates.count)
        for date in dates {
            if let rates = days[date] {
                result[date] = rates
            } else if let day = try String.fetchOne(db, sql: "SELECT MAX(date) FROM rate WHERE date <= ?", arguments: [date]) {
                result[date] = days[day] ?? ExchangeRates(date: day, perEuro: [:])
            } else {
                result[date] = .some(nil)
            }
        }
        return result
    }

    static let marketColumns = "run_id, name_id, last, open, high, low, bid, ask, volume, at"

    /// Each run's source time, which market rows' times are stored relative to.
    static func runTimes(_ runList: String, in db: Database) throws -> [Int64: Int64] {
        var times: [Int64: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, source_time FROM run WHERE id IN (\(runList))") {
            times[row[0]] = row[1]
        }
        return times
    }

    /// A row of `marketColumns`; `nil` when its name, run or last price cannot be read.
    static func ticker(_ row: Row, names: MarketNames, runTimes: [Int64: Int64]) -> Ticker? {
        guard let name = names[row[1]] else { return nil }
        return ticker(row, name: name, runTimes: runTimes)
    }

    static func ticker(_ row: Row, name: MarketNames.Name, runTimes: [Int64: Int64]) -> Ticker? {
        guard let runTime = runTimes[row[0]] else { return nil }
        return ticker(name: name, runTime: runTime) { row[Int($0)] }
    }

    /// A row of `marketColumns`, each column's value given by `column`: straight from the
    /// statement (`DatabaseValue(sqliteStatement:index:)`), where a `Row`'s generic subscript
    /// looks up `DatabaseValue`'s conformances for every figure.
    static func ticker(name: MarketNames.Name, runTime: Int64, _ column: (Int32) -> DatabaseValue) -> Ticker? {
        guard let last = StoredNumber.readLast(column(2)) else { return nil }
        func figure(_ index: Int32) -> Decimal? { StoredNumber.readFigure(column(index), last: last.parts) }
        return Ticker(
            symbol: name.symbol, baseAsset: name.baseAsset, quoteAsset: name.quoteAsset, open: figure(3), low: figure(5),
            high: figure(4), last: last.value, volume: figure(8), bid: figure(6), ask: figure(7),
            updatedAt: StoredNumber.readTime(column(9), runTime: runTime).map(date))
    }

    // MARK: - Backfill progress

    /// Whether `symbol` was backfilled for at least `days` days on the UTC day of `now`: a backfill
    /// finished yesterday lacks yesterday's close, so a later day's run fetches again.
    package func backfilled(_ symbol: String, days: Int, on now: Date) throws(HistoryError) -> Bool {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT days, completed_at FROM backfill_progress WHERE symbol = ?", arguments: [symbol])
            else { return false }
            let completed = Self.date(row["completed_at"] as Int64)
            return (row["days"] as Int) >= days && ReportDates.day(completed) == ReportDates.day(now)
        }
    }

    /// Stores one symbol's backfilled days and marks it done, in one transaction.
    package func recordBackfill(symbol: String, days: Int, snapshots: [Snapshot], at time: Date) throws(HistoryError) {
        try write { db in
            for snapshot in snapshots { try Self.mergeBackfill(snapshot, into: db) }
            try db.execute(
                sql: "INSERT OR REPLACE INTO backfill_progress (symbol, days, completed_at) VALUES (?, ?, ?)",
                arguments: [symbol, days, Self.milliseconds(time)])
        }
    }

    /// A backfilled day gathers the markets of every symbol backfilled for it into one run.
    static func mergeBackfill(_ snapshot: Snapshot, into db: Database) throws {
        let sourceTime = milliseconds(snapshot.sourceTime)
        if try Int64.fetchOne(db, sql: "SELECT id FROM run WHERE source_time = ?", arguments: [sourceTime]) == nil {
            var empty = snapshot
            empty.tickers = []
            _ = try insert(empty, into: db)
        }
        guard let runID = try Int64.fetchOne(db, sql: "SELECT id FROM run WHERE source_time = ?", arguments: [sourceTime]) else { return }
        var names = try MarketNames.load(db)
        let insert = try db.makeStatement(sql: insertMarket)
        for ticker in snapshot.tickers {
            // Replaces the run's market of that symbol whatever its assets, as v3's (run, symbol) key did.
            try db.execute(
                sql: "DELETE FROM market WHERE run_id = ? AND name_id IN (SELECT id FROM market_name WHERE symbol = ?)",
                arguments: [runID, ticker.symbol])
            // Klines have no bid or ask: a backfilled day stores none.
            var kline = ticker
            kline.bid = nil
            kline.ask = nil
            try execute(insert, marketRow(kline, runID: runID, nameID: try names.id(for: ticker, in: db), runTime: sourceTime), in: db)
        }
    }

    // MARK: - Plumbing

    func read<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try database.read(body)
        } catch {
            throw .failed(path: path, reason: Self.describe(error))
        }
    }

    func write<T>(_ body: (Database) throws -> T) throws(HistoryError) -> T {
        do {
            return try database.write(body)
        } catch {
            throw .failed(path: path, reason: Self.describe(error))
        }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
        return "\(error.localizedDescription)"
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func date(_ milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
