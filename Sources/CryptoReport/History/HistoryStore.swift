import Foundation
import GRDB

/// The snapshots of past runs, in an SQLite database (GRDB).
///
/// Prices are stored as the decimal text the API sent, never as floating point. Each snapshot is
/// written in one transaction, and recording the same snapshot (same newest-ticker time) twice
/// stores it once. The schema is versioned by GRDB's migrator.
package struct HistoryStore: Sendable {
    package let path: String
    let database: DatabaseQueue

    package init(path: String) throws(HistoryError) {
        self.path = path
        try Self.refuseSymbolicLinks(at: path)
        do {
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            database = try DatabaseQueue(path: path, configuration: configuration)
            try Self.migrator.migrate(database)
        } catch {
            throw .cannotOpen(path: path, reason: Self.describe(error))
        }
    }

    /// An in-memory store, for tests.
    package init() throws(HistoryError) {
        path = ":memory:"
        do {
            database = try DatabaseQueue()
            try Self.migrator.migrate(database)
        } catch {
            throw .cannotOpen(path: path, reason: Self.describe(error))
        }
    }

    // MARK: - Schema

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE run (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        source_time INTEGER NOT NULL UNIQUE,
                        fetched_at INTEGER NOT NULL,
                        rates_date TEXT NOT NULL,
                        tickers_status TEXT NOT NULL,
                        tickers_location TEXT NOT NULL,
                        rates_status TEXT NOT NULL,
                        rates_location TEXT NOT NULL
                    );
                    CREATE TABLE market (
                        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                        symbol TEXT NOT NULL,
                        base_asset TEXT NOT NULL,
                        quote_asset TEXT NOT NULL,
                        last TEXT NOT NULL,
                        open TEXT, high TEXT, low TEXT, bid TEXT, ask TEXT, volume TEXT,
                        at INTEGER,
                        PRIMARY KEY (run_id, symbol)
                    );
                    CREATE TABLE rate (
                        date TEXT NOT NULL,
                        currency TEXT NOT NULL,
                        per_euro TEXT NOT NULL,
                        PRIMARY KEY (date, currency)
                    );
                    """)
        }
        // v2: backfilled days are told apart from report runs, and a backfill can resume.
        migrator.registerMigration("v2") { db in
            try db.execute(
                sql: """
                    ALTER TABLE run ADD COLUMN kind TEXT NOT NULL DEFAULT 'report';
                    CREATE INDEX market_symbol ON market(symbol);
                    CREATE TABLE backfill_progress (
                        symbol TEXT PRIMARY KEY,
                        days INTEGER NOT NULL,
                        completed_at INTEGER NOT NULL
                    );
                    """)
        }
        // v3: no query reads markets by symbol alone (trends and `history` go by run), so the
        // symbol index was a fifth of the database and of each day's growth for nothing.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "DROP INDEX IF EXISTS market_symbol")
        }
        return migrator
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
        let statement = try db.makeStatement(
            sql: """
                INSERT OR IGNORE INTO market (run_id, symbol, base_asset, quote_asset, last, open, high, low, bid, ask, volume, at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for ticker in snapshot.tickers {
            try statement.execute(arguments: [
                runID, ticker.symbol, ticker.baseAsset, ticker.quoteAsset, DecimalParts.plainText(ticker.last),
                ticker.open.map(DecimalParts.plainText), ticker.high.map(DecimalParts.plainText), ticker.low.map(DecimalParts.plainText), ticker.bid.map(DecimalParts.plainText),
                ticker.ask.map(DecimalParts.plainText), ticker.volume.map(DecimalParts.plainText), ticker.updatedAt.map(milliseconds),
            ])
        }
        return true
    }

    static func insertRates(_ rates: ExchangeRates, into db: Database) throws {
        let statement = try db.makeStatement(sql: "INSERT OR IGNORE INTO rate (date, currency, per_euro) VALUES (?, ?, ?)")
        for (currency, rate) in rates.perEuro.sorted(by: { $0.key < $1.key }) {
            try statement.execute(arguments: [rates.date, currency, DecimalParts.plainText(rate)])
        }
    }

    /// Stores ECB rates of days that may have no run (a backfill's 90-day file).
    package func recordRates(_ days: [ExchangeRates]) throws(HistoryError) {
        try write { db in
            for day in days { try Self.insertRates(day, into: db) }
        }
    }

    // MARK: - Reading

    /// Runs whose source time lies in `range`, oldest first.
    package func runs(in range: ClosedRange<Date>) throws(HistoryError) -> [RunSummary] {
        try read { db in
            try Row.fetchAll(
                db, sql: "SELECT id, source_time, kind, rates_date FROM run WHERE source_time BETWEEN ? AND ? ORDER BY source_time",
                arguments: [Self.milliseconds(range.lowerBound), Self.milliseconds(range.upperBound)]
            ).map { row in
                RunSummary(
                    id: row["id"], sourceTime: Self.date(row["source_time"]),
                    kind: Snapshot.Kind(rawValue: row["kind"]) ?? .report, ratesDate: row["rates_date"])
            }
        }
    }

    /// The run's markets and the ECB rates of its day (or the nearest earlier day stored).
    package func snapshot(of run: RunSummary) throws(HistoryError) -> (tickers: [Ticker], rates: ExchangeRates?) {
        try read { db in
            let tickers = try Row.fetchAll(db, sql: "SELECT * FROM market WHERE run_id = ? ORDER BY rowid", arguments: [run.id])
                .compactMap(Self.ticker)
            return (tickers, try Self.rates(onOrBefore: run.ratesDate, in: db))
        }
    }

    /// One asset's markets in each of `runs`, with what converting them needs, keyed by run: the
    /// markets whose symbol or base asset is `asset` (lower case), the `Xusdt` and `Xinr` markets
    /// that price their quote assets (`CurrencyConverter`), in the order they were stored, and each
    /// run's ECB rates. `history --days 3650` of one asset read every market of every run through
    /// `snapshot(of:)`: 1.6 million rows parsed and converted for 3,650 points.
    ///
    /// One scan of the table finds the asset's markets (`+run_id`: through the primary key's
    /// index, SQLite fetched every row of every run by rowid, ten times slower); the pricing
    /// markets are then looked up by run and symbol in that index. SQLite folds the case of ASCII
    /// only, so rows whose names hold capitals or any non-ASCII character are read in the scan too
    /// and judged by Swift's `lowercased()`, as `snapshot(of:)`'s callers judge every row.
    public func markets(of asset: String, in runs: [RunSummary]) throws(HistoryError) -> [Int64: (tickers: [Ticker], rates: ExchangeRates?)] {
        guard !runs.isEmpty else { return [:] }
        return try read { db in
            var result: [Int64: (tickers: [Ticker], rates: ExchangeRates?)] = [:]
            var ratesByDate: [String: ExchangeRates?] = [:]
            for run in runs where result[run.id] == nil {
                if ratesByDate[run.ratesDate] == nil { ratesByDate[run.ratesDate] = try Self.rates(onOrBefore: run.ratesDate, in: db) }
                result[run.id] = ([], ratesByDate[run.ratesDate] ?? nil)
            }
            let runList = result.keys.sorted().map(String.init).joined(separator: ",")
            let columns = "run_id, rowid, symbol, base_asset, quote_asset, last, open, high, low, bid, ask, volume, at"
            typealias Found = (run: Int64, rowid: Int64, ticker: Ticker)
            func fetch(_ sql: String, _ arguments: StatementArguments) throws -> [Found] {
                var found: [Found] = []
                let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
                while let row = try rows.next() {
                    if let ticker = Self.ticker(row) { found.append((row["run_id"], row["rowid"], ticker)) }
                }
                return found
            }
            func isAsset(_ ticker: Ticker) -> Bool {
                ticker.symbol.lowercased() == asset || ticker.baseAsset.lowercased() == asset
            }
            let scanned = try fetch(
                """
                SELECT \(columns) FROM market WHERE +run_id IN (\(runList))
                AND (symbol = ?1 COLLATE NOCASE OR base_asset = ?1 COLLATE NOCASE OR lower(symbol) <> symbol
                     OR length(symbol) <> length(CAST(symbol AS BLOB)) OR length(base_asset) <> length(CAST(base_asset AS BLOB)))
                """, [asset])
            var found = scanned.filter { isAsset($0.ticker) }
            var pricing = Set<String>()
            for quote in Set(found.map { $0.ticker.quoteAsset.lowercased() }) where quote != "inr" && quote != "usdt" {
                pricing.insert(quote + "usdt")
                pricing.insert(quote + "inr")
            }
            if !pricing.isEmpty {
                let wanted = pricing.sorted()
                let placeholders = Array(repeating: "?", count: wanted.count).joined(separator: ",")
                let exact = try fetch("SELECT \(columns) FROM market WHERE run_id IN (\(runList)) AND symbol IN (\(placeholders))", StatementArguments(wanted))
                // A pricing market stored under another spelling (`WRXUSDT`) was read by the scan.
                let spelled = scanned.filter { !pricing.contains($0.ticker.symbol) && pricing.contains($0.ticker.symbol.lowercased()) }
                found += (exact + spelled).filter { !isAsset($0.ticker) }
            }
            found.sort { ($0.run, $0.rowid) < ($1.run, $1.rowid) }
            for item in found { result[item.run]?.tickers.append(item.ticker) }
            return result
        }
    }

    /// What trends need of several runs, in one query: each market's symbol, quote asset and last
    /// price (the base asset is left empty), keyed by run, each run's ECB rates beside it.
    /// The other six prices are not read: parsing them was most of a report's history cost.
    package func lastPrices(of runs: [RunSummary]) throws(HistoryError) -> [Int64: (tickers: [Ticker], rates: ExchangeRates?)] {
        guard !runs.isEmpty else { return [:] }
        return try read { db in
            var result: [Int64: (tickers: [Ticker], rates: ExchangeRates?)] = [:]
            var ratesByDate: [String: ExchangeRates?] = [:]
            for run in runs where result[run.id] == nil {
                if ratesByDate[run.ratesDate] == nil { ratesByDate[run.ratesDate] = try Self.rates(onOrBefore: run.ratesDate, in: db) }
                result[run.id] = ([], ratesByDate[run.ratesDate] ?? nil)
            }
            let ids = result.keys.sorted()
            let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ",")
            let rows = try Row.fetchCursor(
                db, sql: "SELECT run_id, symbol, quote_asset, last FROM market WHERE run_id IN (\(placeholders)) ORDER BY run_id, rowid",
                arguments: StatementArguments(ids))
            var currentID: Int64 = -1
            var tickers: [Ticker] = []
            while let row = try rows.next() {
                let id: Int64 = row[0]
                if id != currentID {
                    if currentID >= 0 { result[currentID]?.tickers = tickers }
                    currentID = id
                    tickers = []
                }
                guard let last = (row[3] as String?).flatMap(DecimalText.parse) else { continue }
                tickers.append(Ticker(symbol: row[1], baseAsset: "", quoteAsset: row[2], last: last))
            }
            if currentID >= 0 { result[currentID]?.tickers = tickers }
            return result
        }
    }

    /// The newest stored ECB rates dated `date` or earlier.
    package func rates(onOrBefore date: String) throws(HistoryError) -> ExchangeRates? {
        try read { db in try Self.rates(onOrBefore: date, in: db) }
    }

    static func rates(onOrBefore date: String, in db: Database) throws -> ExchangeRates? {
        guard let day = try String.fetchOne(db, sql: "SELECT MAX(date) FROM rate WHERE date <= ?", arguments: [date]) else {
            return nil
        }
        var perEuro: [String: Decimal] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT currency, per_euro FROM rate WHERE date = ?", arguments: [day]) {
            if let value = DecimalText.parse(row["per_euro"]), value > 0 { perEuro[row["currency"]] = value }
        }
        return ExchangeRates(date: day, perEuro: perEuro)
    }

    static func ticker(_ row: Row) -> Ticker? {
        func number(_ column: String) -> Decimal? { (row[column] as String?).flatMap(DecimalText.parse) }
        guard let last = number("last") else { return nil }
        return Ticker(
            symbol: row["symbol"], baseAsset: row["base_asset"], quoteAsset: row["quote_asset"], open: number("open"),
            low: number("low"), high: number("high"), last: last, volume: number("volume"), bid: number("bid"),
            ask: number("ask"), updatedAt: (row["at"] as Int64?).map(date))
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
        for ticker in snapshot.tickers {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO market (run_id, symbol, base_asset, quote_asset, last, open, high, low, volume, at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    runID, ticker.symbol, ticker.baseAsset, ticker.quoteAsset, DecimalParts.plainText(ticker.last), ticker.open.map(DecimalParts.plainText),
                    ticker.high.map(DecimalParts.plainText), ticker.low.map(DecimalParts.plainText), ticker.volume.map(DecimalParts.plainText), ticker.updatedAt.map(milliseconds),
                ])
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
