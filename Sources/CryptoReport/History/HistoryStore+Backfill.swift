package import Foundation
import GRDB

/// What `backfill` stores: the days it fetched and which symbols are done.
extension HistoryStore {
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
}
