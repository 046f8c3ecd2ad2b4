import Foundation
import GRDB

/// Reading the stored ECB rates: each day's newest rates on or before it.
extension HistoryStore {
    /// Every currency the ECB rates of `runs` have, EUR included: what an error offers instead of
    /// a currency none of them has.
    package func currencies(of runs: [RunSummary]) throws(HistoryError) -> Set<String> {
        try read { db in
            let byDate = try Self.rates(onOrBefore: Set(runs.map(\.ratesDate)), in: db)
            // Codes as the ECB writes them only: a shared database may hold any text, and these
            // are named in an error.
            return Set(runs.compactMap { byDate[$0.ratesDate] ?? nil }.flatMap(\.currencies)).filter { code in
                code.utf8.count == 3 && code.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }
            }
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
    /// query over the span of `dates`, not a query per date.
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
            // Columns by position from the statement, as below.
            let statement = try db.makeStatement(sql: "SELECT date, currency, per_euro FROM rate WHERE date BETWEEN ? AND ? ORDER BY date")
            try statement.setArguments(span)
            let rows = try Row.fetchCursor(statement)
            let raw = statement.sqliteStatement
            while try rows.next() != nil {
                let day = String(sqliteStatement: raw, index: 0)
                if days.last?.date != day { days.append(ExchangeRates(date: day, perEuro: [:])) }
                if let value = positiveRate(raw) { days[days.count - 1].perEuro[String(sqliteStatement: raw, index: 1)] = value }
            }
        }
        var result: [String: ExchangeRates?] = [:]
        result.reserveCapacity(dates.count)
        for date in dates {
            // Days are in date order; a date before them all has none (an entry of `nil`).
            result[date] = .some(lastDay(notAfter: date, in: days).map { days[$0] })
        }
        return result
    }

    /// `rates(onOrBefore:currencies:in:)` for some currencies, over the stored days `first...last`:
    /// only the wanted currencies' rows read, through the `rate_by_currency` index (schema v5),
    /// a run of rows per currency, not every currency of every day. The days come from
    /// those rows: a date with a wanted rate is a stored day. Only a date none of whose rates is
    /// wanted asks the key for the newest stored day not after it, as the days' list would say.
    static func rates(onOrBefore dates: Set<String>, currencies: Set<String>, from first: String, to last: String, in db: Database) throws -> [String:
        ExchangeRates?]
    {
        let wanted = currencies.sorted()
        let list = Array(repeating: "?", count: wanted.count).joined(separator: ",")
        // The days in date order, each made as its first row comes. Rows come by currency, then
        // date (the index's order, so no sort): each currency's rows walk the days from the
        // first, and find their day by comparing dates in turn, so no row's date and currency
        // are hashed.
        var days: [ExchangeRates] = []
        days.reserveCapacity(dates.count)
        let statement = try db.makeStatement(
            sql: "SELECT date, currency, per_euro FROM rate WHERE currency IN (\(list)) AND date BETWEEN ? AND ? ORDER BY currency, date")
        try statement.setArguments(StatementArguments(wanted) + [first, last])
        let rows = try Row.fetchCursor(statement)
        let raw = statement.sqliteStatement
        var currency = ""
        var position = 0
        while try rows.next() != nil {
            let code = String(sqliteStatement: raw, index: 1)
            if code != currency {
                currency = code
                position = 0
            }
            let day = String(sqliteStatement: raw, index: 0)
            while position < days.count && days[position].date < day { position += 1 }
            if position == days.count || days[position].date != day {
                days.insert(ExchangeRates(date: day, perEuro: Dictionary(minimumCapacity: wanted.count)), at: position)
            }
            if let value = positiveRate(raw) { days[position].perEuro[code] = value }
        }
        func day(_ date: String) -> ExchangeRates? {
            let index = Self.lastDay(notAfter: date, in: days)
            return index.flatMap { days[$0].date == date ? days[$0] : nil }
        }
        var result: [String: ExchangeRates?] = [:]
        result.reserveCapacity(dates.count)
        for date in dates {
            if let rates = day(date) {
                result[date] = rates
            } else if let stored = try String.fetchOne(db, sql: "SELECT MAX(date) FROM rate WHERE date <= ?", arguments: [date]) {
                result[date] = day(stored) ?? ExchangeRates(date: stored, perEuro: [:])
            } else {
                result[date] = .some(nil)
            }
        }
        return result
    }

    /// The position of the last of `days` (in date order) dated `date` or earlier.
    private static func lastDay(notAfter date: String, in days: [ExchangeRates]) -> Int? {
        var low = 0
        var high = days.count
        while low < high {
            let middle = (low + high) / 2
            if days[middle].date <= date { low = middle + 1 } else { high = middle }
        }
        return low > 0 ? low - 1 : nil
    }

    /// The rate in column 2 of the statement's row, when it reads as a positive number
    /// (`StoredNumber.readLast`, `> 0`): read as a `FastDecimal` and its sign tested in its parts,
    /// without a `DatabaseValue` or `Decimal`'s comparison, which aligns both operands.
    private static func positiveRate(_ statement: SQLiteStatement) -> Decimal? {
        guard let value = StoredNumber.readLastFast(statement, 2), value.isPositive else { return nil }
        return value.decimal
    }
}
