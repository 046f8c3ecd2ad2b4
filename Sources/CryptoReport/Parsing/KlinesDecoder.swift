package import Foundation

/// One day of a market from WazirX klines: `[time_in_seconds, open, high, low, close, volume]`.
package struct Kline: Sendable, Equatable {
    package var openTime: Date
    package var open: Decimal?
    package var high: Decimal?
    package var low: Decimal?
    package var close: Decimal
    package var volume: Decimal?
}

/// Decodes `/sapi/v1/klines`: an array of arrays of numbers (or numeric strings).
package struct KlinesDecoder: Sendable {
    package init() {}

    /// The klines whose time and close are readable, and how many rows were not.
    package func decode(_ data: Data, symbol: String) throws(DataError) -> (klines: [Kline], unreadable: Int) {
        guard let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }) else { throw .empty(source: .klines) }
        if first == UInt8(ascii: "<") { throw .htmlInsteadOfData(source: .klines, expected: "a JSON array of klines") }
        let decoder = JSONDecoder()
        guard let rows = try? decoder.decode([[JSONScalar]].self, from: data) else {
            if let apiError = try? decoder.decode(APIErrorBody.self, from: data), let message = apiError.message {
                throw .apiError(source: .klines, code: apiError.code, message: TickerDecoder.oneLine(message, limit: 200))
            }
            throw .malformed(source: .klines, expected: "a JSON array of klines for \(symbol)", detail: "not arrays of numbers")
        }
        let klines = rows.compactMap { row -> Kline? in
            guard row.count >= 5, let seconds = row[0].decimal, seconds >= 0, seconds < 253_402_300_800,
                let close = row[4].decimal, close > 0
            else { return nil }
            func value(_ index: Int) -> Decimal? {
                guard index < row.count, let value = row[index].decimal, value >= 0 else { return nil }
                return value
            }
            return Kline(
                openTime: Date(timeIntervalSince1970: NSDecimalNumber(decimal: seconds).doubleValue), open: value(1),
                high: value(2), low: value(3), close: close, volume: value(5))
        }
        return (klines, rows.count - klines.count)
    }
}
