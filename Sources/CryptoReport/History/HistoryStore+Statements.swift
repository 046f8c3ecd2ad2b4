import Foundation
import GRDB
// SQLite's C interface, as GRDB itself imports it.
import GRDBSQLite

/// Binding a statement's values, stepping through its rows, and making tickers of stored market rows.
extension HistoryStore {
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

    /// Steps `statement` through its rows with SQLite's own `sqlite3_step`, calling `row` with the
    /// statement on each (its columns read by position), then resets it: GRDB's row cursor
    /// retained and released a `Row` per step, a sixth of reading a month of last prices.
    static func forEachRow(of statement: Statement, in db: Database, _ row: (OpaquePointer) throws -> Void) throws {
        let raw = statement.sqliteStatement
        defer { sqlite3_reset(raw) }
        while true {
            let code = sqlite3_step(raw)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: db.lastErrorMessage, sql: statement.sql)
            }
            try row(raw)
        }
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
}
