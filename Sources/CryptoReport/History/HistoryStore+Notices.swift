package import Foundation
import GRDB

/// What the notices need of the history: the alerts of the run before, and the notices that
/// could not be delivered yet.
extension HistoryStore {
    /// A notice a run could not deliver, kept for the next.
    package struct PendingNotice: Sendable, Equatable {
        package var id: Int64
        package var createdAt: Date
        /// One line per alert, as it was first worded.
        package var text: String
        /// The alerts as the notice's JSON lists them.
        package var alerts: String
    }

    /// The alerts the report run of `exchange` before this one fired: the newest with data up to
    /// `time` that was fetched before `fetchedAt` (this run's, recorded already, was not; a run
    /// on the same data as an earlier one is stored once, as that one). nil when there is no such
    /// run: then every firing alert is new.
    package func firedAlerts(before time: Date, fetchedBefore fetchedAt: Date, exchange: Exchange) throws(HistoryError) -> Set<String>? {
        try read { db in
            guard
                let run = try Int64.fetchOne(
                    db,
                    sql: """
                        SELECT id FROM run WHERE source_time <= ? AND fetched_at < ? AND kind = 'report' AND exchange = ?
                        ORDER BY source_time DESC, fetched_at DESC LIMIT 1
                        """,
                    arguments: [Self.milliseconds(time), Self.milliseconds(fetchedAt), exchange.rawValue])
            else { return nil }
            return Set(try String.fetchAll(db, sql: "SELECT key FROM fired_alert WHERE run_id = ?", arguments: [run]))
        }
    }

    package func pendingNotices() throws(HistoryError) -> [PendingNotice] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, created_at, text, alerts FROM pending_notice ORDER BY id").map { row in
                PendingNotice(id: row[0], createdAt: Self.date(row[1]), text: row[2], alerts: row[3])
            }
        }
    }

    package func keepNotice(text: String, alerts: String, at time: Date) throws(HistoryError) {
        try write { db in
            try db.execute(
                sql: "INSERT INTO pending_notice (created_at, text, alerts) VALUES (?, ?, ?)", arguments: [Self.milliseconds(time), text, alerts])
        }
    }

    package func forgetNotice(_ id: Int64) throws(HistoryError) {
        try write { db in try db.execute(sql: "DELETE FROM pending_notice WHERE id = ?", arguments: [id]) }
    }
}
