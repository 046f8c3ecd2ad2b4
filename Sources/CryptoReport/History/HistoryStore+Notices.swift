package import Foundation
import GRDB

/// What the notices need of the history: the alerts of the run before, and the notices that
/// could not be delivered yet.
extension HistoryStore {
    /// A notice a run could not deliver, kept for the next.
    package struct PendingNotice: Sendable, Equatable {
        package var id: Int64
        /// The target that missed it (`NoticeTarget.identity`); nil for a notice kept before
        /// notices were kept per target, meant for every target.
        package var target: String?
        package var createdAt: Date
        /// One line per alert, as it was first worded.
        package var text: String
        /// The alerts as the notice's JSON lists them.
        package var alerts: String

        /// The notice reads as the tool words one, checked as the feed's text is (a shared
        /// history may be edited by anyone in its group): lines without control, format or
        /// markup-hiding characters, and a JSON list of alerts.
        package var isOwnForm: Bool {
            // The direction marks a right-to-left locale's numbers carry (U+200E, U+200F, U+061C)
            // are the tool's own; any other format or control character is not.
            let marks: Set<Unicode.Scalar> = ["\u{200E}", "\u{200F}", "\u{061C}"]
            let plain = String(String.UnicodeScalarView(text.unicodeScalars.filter { !marks.contains($0) }))
            return !plain.split(separator: "\n", omittingEmptySubsequences: false).contains { SourceText.containsUnsafe(String($0)) }
                && (try? JSONSerialization.jsonObject(with: Data(alerts.utf8))) is [Any]
        }
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

    /// Every undelivered notice, oldest first.
    package func pendingNotices() throws(HistoryError) -> [PendingNotice] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, target, created_at, text, alerts FROM pending_notice ORDER BY created_at, id").map { row in
                PendingNotice(id: row[0], target: row[1], createdAt: Self.date(row[2]), text: row[3], alerts: row[4])
            }
        }
    }

    /// Keeps the notice for each of `targets` (identities), as first meant at `time`.
    package func keepNotice(text: String, alerts: String, at time: Date, for targets: [String]) throws(HistoryError) {
        try write { db in
            for target in targets {
                try db.execute(
                    sql: "INSERT INTO pending_notice (target, created_at, text, alerts) VALUES (?, ?, ?, ?)",
                    arguments: [target, Self.milliseconds(time), text, alerts])
            }
        }
    }

    package func forgetNotice(_ id: Int64) throws(HistoryError) {
        try write { db in try db.execute(sql: "DELETE FROM pending_notice WHERE id = ?", arguments: [id]) }
    }

    /// Undelivered notices dropped for one target (nil: those meant for every target).
    package struct DroppedNotices: Sendable, Equatable {
        package var target: String?
        package var count: Int
    }

    /// Drops the notices first meant before `time`, and returns how many per target.
    package func dropNotices(before time: Date) throws(HistoryError) -> [DroppedNotices] {
        try write { db in
            let dropped = try Row.fetchAll(
                db, sql: "SELECT target, COUNT(*) FROM pending_notice WHERE created_at < ? GROUP BY target ORDER BY MIN(id)",
                arguments: [Self.milliseconds(time)]
            ).map { DroppedNotices(target: $0[0], count: $0[1]) }
            try db.execute(sql: "DELETE FROM pending_notice WHERE created_at < ?", arguments: [Self.milliseconds(time)])
            return dropped
        }
    }

    /// Keeps at most `limit` notices per target, the newest; returns how many were dropped per target.
    package func dropNotices(beyond limit: Int) throws(HistoryError) -> [DroppedNotices] {
        try write { db in
            // Each notice's rank within its target, newest first.
            let ranked = """
                SELECT id, target, ROW_NUMBER() OVER (PARTITION BY target ORDER BY created_at DESC, id DESC) AS rank FROM pending_notice
                """
            let dropped = try Row.fetchAll(
                db, sql: "SELECT target, COUNT(*) FROM (\(ranked)) WHERE rank > ? GROUP BY target ORDER BY MIN(id)", arguments: [limit]
            ).map { DroppedNotices(target: $0[0], count: $0[1]) }
            if !dropped.isEmpty {
                try db.execute(sql: "DELETE FROM pending_notice WHERE id IN (SELECT id FROM (\(ranked)) WHERE rank > ?)", arguments: [limit])
            }
            return dropped
        }
    }
}
