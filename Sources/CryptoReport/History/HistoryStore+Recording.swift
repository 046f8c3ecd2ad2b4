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
        if let stored = try Int64.fetchOne(db, sql: "SELECT id FROM run WHERE source_time = ?", arguments: [sourceTime]) {
            // The same data again: its holdings are what the reader holds now.
            try insertHoldings(snapshot.holdingsTotals, runID: stored, replacing: true, into: db)
            return false
        }
        try insertRates(snapshot.rates, into: db)
        try db.execute(
            sql: """
                INSERT INTO run (source_time, fetched_at, rates_date, tickers_status, tickers_location,
                                 rates_status, rates_location, kind, exchange)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                sourceTime, milliseconds(snapshot.fetchedAt), snapshot.rates.date,
                snapshot.source(snapshot.exchange.tickers).status.rawValue, snapshot.source(snapshot.exchange.tickers).location,
                snapshot.source(.rates).status.rawValue, snapshot.source(.rates).location, snapshot.kind.rawValue,
                snapshot.exchange.rawValue,
            ])
        let runID = db.lastInsertedRowID
        for key in Set(snapshot.firedAlerts) {
            try db.execute(sql: "INSERT INTO fired_alert (run_id, key) VALUES (?, ?)", arguments: [runID, key])
        }
        try insertHoldings(snapshot.holdingsTotals, runID: runID, replacing: false, into: db)
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
        return true
    }

    /// Totals as exact decimal text, as the feed's figures are kept. `replacing`: the run's
    /// earlier totals go first, every currency's, so that a rerun with other currencies or no
    /// holdings leaves none of them behind.
    static func insertHoldings(_ totals: [String: Decimal], runID: Int64, replacing: Bool, into db: Database) throws {
        if replacing { try db.execute(sql: "DELETE FROM holdings_total WHERE run_id = ?", arguments: [runID]) }
        for (currency, total) in totals.sorted(by: { $0.key < $1.key }) {
            try db.execute(
                sql: "INSERT INTO holdings_total (run_id, currency, total) VALUES (?, ?, ?)",
                arguments: [runID, currency, DecimalParts.plainText(total)])
        }
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
