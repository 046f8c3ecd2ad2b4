import Foundation
import GRDB
// SQLite's C interface, as GRDB itself imports it.
import GRDBSQLite

extension StoredNumber {
    /// `FastDecimal(readLast(column)?.value)`, read from column `index` of the statement's
    /// current row: what the trends multiply by a day's rate. A month of history is 13,500 last
    /// prices; each read as a `DatabaseValue` (a blob's `Data` allocated per row), made a
    /// `Decimal` and read back into a `FastDecimal` was most of reading it.
    ///
    /// The value is the one `readLast` gives, field for field: its `decimal` is that `Decimal`
    /// byte for byte (`Parts.decimal` and `readLong` make it from these very fields), and it is
    /// refused where `readLast` refuses it (out of `DecimalText.inRange`). Text, which only
    /// figures past 38 digits are stored as, goes the long way.
    static func readLastFast(_ statement: OpaquePointer, _ index: Int32) -> FastDecimal? {
        let value: FastDecimal
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER where FastDecimal.isAvailable:
            let parts = Parts(full: sqlite3_column_int64(statement, index))
            // Zero as v3 read it back, which `Parts.decimal` does not check for range.
            if parts.mantissa == 0 { return fastZero }
            value = FastDecimal(high: 0, low: parts.mantissa.magnitude, exponent: parts.exponent, isNegative: parts.mantissa < 0, isCompact: true)
        case SQLITE_BLOB where FastDecimal.isAvailable:
            let bytes = UnsafeRawBufferPointer(start: sqlite3_column_blob(statement, index), count: Int(sqlite3_column_bytes(statement, index)))
            // `DecimalParts.decimal` refuses a zero mantissa; a blob's exponent is always in range.
            guard let parts = longParts(bytes), !parts.isZero else { return nil }
            value = FastDecimal(high: parts.high, low: parts.low, exponent: parts.exponent, isNegative: parts.isNegative, isCompact: true)
        default:
            return readLast(DatabaseValue(sqliteStatement: statement, index: index)).map { FastDecimal($0.value) }
        }
        // `DecimalText.inRange`, on the parts it would read back from the `Decimal`.
        return (-20..<20).contains(FastDecimal.digitCount(value.high, value.low) - 1 + value.exponent) ? value : nil
    }

    private static let fastZero: FastDecimal? = zero.map { FastDecimal($0) }
}
