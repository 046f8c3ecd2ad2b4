import Foundation
import GRDB

/// Recording runs: a snapshot in one transaction, its rates, its markets in key order.
extension HistoryStore {
    /// Records a snapshot; returns false when the same snapshot was already stored.
    @discardableResult
    package func record(_ snapshot: Snapshot) throws(HistoryError) -> Bool {
        try write { db in try Self.insert(snapshot, into: db) }
    }

    /// Deletes a recorded snapshot's run and its markets (`DayRecord.forget`): a day whose
    /// reports could not be put in place after its commit.
    package func forget(_ snapshot: Snapshot) throws(HistoryError) {
        try write { db in
            try db.execute(sql: "DELETE FROM run WHERE source_time = ?", arguments: [Self.milliseconds(snapshot.sourceTime)])
        }
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
        var seen = Set<MarketNames.Bytes>()
        var rows: [(nameID: Int64, ticker: Ticker)] = []
        rows.reserveCapacity(snapshot.tickers.count)
        for ticker in snapshot.tickers where seen.insert(MarketNames.Bytes(ticker.symbol)).inserted {
            rows.append((try names.id(for: ticker, in: db), ticker))
        }
        // In key order, so that the run's rows are appended to the B-tree and fill its pages.
        rows.sort { $0.nameID < $1.nameID }
        let statement = try db.makeStatement(sql: insertMarket)
        for row in rows {
            try execute(statement, marketRow(row.ticker, runID: runID, nameID: row.nameID, runTime: sourceTime), in: db)
        }
        try keepPacks(newRun: runID, at: sourceTime, in: db)
        return true
    }

    /// Packs a new (or newly merged) run's last prices when it is among the newest
    /// (`PackedLasts.keptFor`), and drops the packs of runs now older than that, or gone: a pack
    /// is only ever read for a report's month.
    static func keepPacks(newRun runID: Int64, at sourceTime: Int64, in db: Database) throws {
        let newest = try Int64.fetchOne(db, sql: "SELECT MAX(source_time) FROM run") ?? sourceTime
        let oldest = newest - Int64(PackedLasts.keptFor * 1000)
        // By the few packs, each run found by its key: not a scan of the runs' times. A pack whose
        // run was deleted with foreign keys off (the sqlite3 shell's default) goes too.
        try db.execute(
            sql: "DELETE FROM run_lasts WHERE COALESCE((SELECT source_time FROM run WHERE id = run_lasts.run_id), -1) < ?",
            arguments: [oldest])
        if sourceTime >= oldest { try packLasts(ofRun: runID, in: db) }
    }

    /// Stores the run's pack, made from its stored rows as the trends would read them
    /// (`StoredNumber.readLastFast`), so that both ways give the same prices.
    static func packLasts(ofRun runID: Int64, in db: Database) throws {
        let statement = try db.makeStatement(sql: "SELECT name_id, last FROM market WHERE run_id = ? ORDER BY name_id")
        try statement.setArguments([runID])
        var prices: [LastPrice] = []
        var unreadable = 0
        try forEachRow(of: statement, in: db) { raw in
            if let last = StoredNumber.readLastFast(raw, 1) {
                prices.append((Int64(sqliteStatement: raw, index: 0), last))
            } else {
                unreadable += 1
            }
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO run_lasts (run_id, lasts) VALUES (?, ?)",
            arguments: [runID, Data(PackedLasts.pack(prices, unreadable: unreadable))])
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
}
