import Foundation
import GRDB

/// The history database's schema, versioned by GRDB's migrator: each version a migration, each
/// migration one transaction.
extension HistoryStore {
    static var migrator: DatabaseMigrator { migrator(interruptingV4: nil) }

    /// `interruptingV4`: run at the end of the v4 migration, for tests that abort it halfway.
    static func migrator(interruptingV4: (@Sendable (Database) throws -> Void)?) -> DatabaseMigrator {
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
        // symbol index only added to the database and to each day's growth.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: "DROP INDEX IF EXISTS market_symbol")
        }
        // v4: compact market rows, without names or numbers as text.
        // Names are stored once (`market_name`); rows are keyed by run, then name, in a
        // table without rowid (a day's rows are appended at the end of one B-tree); numbers,
        // times and rates take the integer forms of `StoredNumber`. Like every migration it
        // runs in one transaction: interrupted, the database is the v3 one it was.
        migrator.registerMigration("v4") { db in
            try db.execute(
                sql: """
                    CREATE TABLE market_name (
                        id INTEGER PRIMARY KEY,
                        symbol TEXT NOT NULL,
                        base_asset TEXT NOT NULL,
                        quote_asset TEXT NOT NULL,
                        UNIQUE (symbol, base_asset, quote_asset)
                    );
                    INSERT INTO market_name (symbol, base_asset, quote_asset)
                        SELECT symbol, base_asset, quote_asset FROM market
                        GROUP BY symbol, base_asset, quote_asset ORDER BY MIN(rowid);
                    """ + Self.marketTable("market_v4") + """
                        ;
                        CREATE TABLE rate_v4 (
                            date TEXT NOT NULL,
                            currency TEXT NOT NULL,
                            per_euro NOT NULL,
                            PRIMARY KEY (date, currency)
                        ) WITHOUT ROWID;
                        """)
            try copyV3Rates(in: db)
            try copyV3Markets(in: db)
            try db.execute(sql: "DROP TABLE market; ALTER TABLE market_v4 RENAME TO market")
            try interruptingV4?(db)
        }
        // v5: `history` of one asset reads the rates of one currency (and USD and INR) over up
        // to ten years; keyed by date, that meant every currency of every day. An index by
        // currency holding the rate too gives a run of rows per currency, with no lookup into
        // the table.
        migrator.registerMigration("v5") { db in
            try db.execute(sql: "CREATE INDEX rate_by_currency ON rate (currency, date, per_euro)")
        }
        // v6: a table of the newest runs' last prices packed a run to a blob, which versions
        // before 2026-11-28 read for the trends' month. It is no longer written or read (the rows
        // are), but stays in the schema: a file migrated by either version opens in the other,
        // whose triggers drop a run's pack whenever its rows change.
        migrator.registerMigration("v6", foreignKeyChecks: .immediate) { db in
            try db.execute(
                sql: """
                    CREATE TABLE run_lasts (
                        run_id INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
                        lasts BLOB NOT NULL
                    );
                    CREATE TRIGGER market_insert_drops_lasts AFTER INSERT ON market
                        BEGIN DELETE FROM run_lasts WHERE run_id = NEW.run_id; END;
                    CREATE TRIGGER market_update_drops_lasts AFTER UPDATE ON market
                        BEGIN DELETE FROM run_lasts WHERE run_id IN (OLD.run_id, NEW.run_id); END;
                    CREATE TRIGGER market_delete_drops_lasts AFTER DELETE ON market
                        BEGIN DELETE FROM run_lasts WHERE run_id = OLD.run_id; END;
                    """)
        }
        // v7: each run's exchange (`--source`), so that trends compare a market only with its
        // own exchange's earlier runs. Runs stored before were all WazirX's.
        migrator.registerMigration("v7") { db in
            try db.execute(sql: "ALTER TABLE run ADD COLUMN exchange TEXT NOT NULL DEFAULT 'wazirx'")
        }
        // v8: the alerts each run fired, so that a notice is sent once per crossing, and the
        // notices a run could not deliver, sent by the next.
        migrator.registerMigration("v8") { db in
            try db.execute(
                sql: """
                    CREATE TABLE fired_alert (
                        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                        key TEXT NOT NULL,
                        PRIMARY KEY (run_id, key)
                    ) WITHOUT ROWID;
                    CREATE TABLE pending_notice (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        created_at INTEGER NOT NULL,
                        text TEXT NOT NULL,
                        alerts TEXT NOT NULL
                    );
                    """)
        }
        // v9: the holdings' total each run valued them at, per report currency, so that a page
        // draws their value over time and a rule can watch it since the last report.
        migrator.registerMigration("v9") { db in
            try db.execute(
                sql: """
                    CREATE TABLE holdings_total (
                        run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
                        currency TEXT NOT NULL,
                        total TEXT NOT NULL,
                        PRIMARY KEY (run_id, currency)
                    ) WITHOUT ROWID;
                    """)
        }
        // v10: an undelivered notice is kept per target (its `NoticeTarget.identity`), so that the
        // next run sends it only to the targets that missed it. A notice kept before has none
        // (NULL): it was meant for every target.
        migrator.registerMigration("v10") { db in
            try db.execute(sql: "ALTER TABLE pending_notice ADD COLUMN target TEXT")
        }
        return migrator
    }

    /// The v4 market table. Columns without a declared type keep each value as it is given (an
    /// integer form, or the blob or text of a figure the integer form cannot hold).
    static func marketTable(_ name: String) -> String {
        """
        CREATE TABLE \(name) (
            run_id INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
            name_id INTEGER NOT NULL REFERENCES market_name(id),
            last NOT NULL, open, high, low, bid, ask, volume, at,
            PRIMARY KEY (run_id, name_id)
        ) WITHOUT ROWID
        """
    }

    /// Rates as the integer form of a last price (`StoredNumber.last`): a `history` of ten years
    /// reads 3,650 days of them, with no text to parse. Text v3 could not read stays.
    static func copyV3Rates(in db: Database) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT date, currency, per_euro FROM rate ORDER BY date, currency")
        let insert = try db.makeStatement(sql: "INSERT INTO rate_v4 (date, currency, per_euro) VALUES (?, ?, ?)")
        while let row = try rows.next() {
            let text: DatabaseValue = row[2]
            let value = String.fromDatabaseValue(text).flatMap(DecimalText.parse)
            try insert.execute(arguments: [row[0], row[1], value.map(StoredNumber.last) ?? text])
        }
        try db.execute(sql: "DROP TABLE rate; ALTER TABLE rate_v4 RENAME TO rate")
    }

    /// Every v3 row into the v4 table, oldest run first. A figure is read as v3 read it
    /// (`DecimalText.parse`) and stored in the form that reads back the same; text v3 could not
    /// read is kept as it is, so that v4 reads it (or fails to) just the same. Rows of no run
    /// were out of reach in v3 and stay behind.
    static func copyV3Markets(in db: Database) throws {
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT m.run_id, n.id, r.source_time, m.last, m.open, m.high, m.low, m.bid, m.ask, m.volume, m.at
                FROM market m
                JOIN market_name n ON n.symbol = m.symbol AND n.base_asset = m.base_asset AND n.quote_asset = m.quote_asset
                JOIN run r ON r.id = m.run_id
                ORDER BY m.run_id, n.id
                """)
        let insert = try db.makeStatement(
            sql: "INSERT INTO market_v4 (run_id, name_id, last, open, high, low, bid, ask, volume, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        while let row = try rows.next() {
            let lastText: DatabaseValue = row[3]
            let last = (String.fromDatabaseValue(lastText)).flatMap(DecimalText.parse)
            let lastParts = last.flatMap(StoredNumber.Parts.init)
            var values: [DatabaseValue] = [row[0], row[1], last.map(StoredNumber.last) ?? lastText]
            for index in 4...9 {
                let text: DatabaseValue = row[index]
                if let value = String.fromDatabaseValue(text).flatMap(DecimalText.parse) {
                    values.append(StoredNumber.figure(value, last: lastParts))
                } else {
                    values.append(text)
                }
            }
            let runTime: Int64 = row[2]
            let at: DatabaseValue = row[10]
            values.append(Int64.fromDatabaseValue(at).map { StoredNumber.time($0, runTime: runTime) } ?? at)
            try insert.execute(arguments: StatementArguments(values))
        }
    }
}
