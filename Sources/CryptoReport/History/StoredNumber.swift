package import Foundation
package import GRDB

/// How the history database (schema v4) stores a market's decimals and its ticker time: exact,
/// and in as few bytes as SQLite's variable-length integers allow.
///
/// Written by hand because no mirrored library encodes `Decimal` for SQLite: GRDB stores it as
/// text or Double. Text takes several bytes a figure and a reparse on every read; Double is not exact.
///
/// A decimal is stored as it reads back from its plain text (`DecimalText.parse(plainText(v))`,
/// what schema v3 gave back): its compacted mantissa `m` and exponent `e`, as the integer
/// `m × 64 + (e + 32)`. The last price is stored so. The other prices of the row are near it,
/// usually with the same exponent, so they are stored as `(m − m_last) × 2` (a bid equal to the
/// last price costs no byte at all) or, with another exponent, as `full × 2 + 1`. A figure that
/// does not fit (mantissa of 2^55 or more, exponent outside −32…31: a product's 28 digits) is a
/// blob of its exponent, sign and mantissa bytes (half its text), and one of over 38 digits its
/// plain text, as v3 stored it; a column has no declared type, so SQLite keeps each as given.
package enum StoredNumber {
    /// A compacted decimal that fits the integer form.
    package struct Parts: Sendable, Equatable {
        package var mantissa: Int64
        package var exponent: Int

        package init(mantissa: Int64, exponent: Int) {
            self.mantissa = mantissa
            self.exponent = exponent
        }

        /// `nil` when the value needs the text form.
        package init?(_ value: Decimal) {
            guard let raw = DecimalParts(value) else { return nil }
            let parts = raw.compacted()
            guard parts.high == 0, parts.low < StoredNumber.mantissaLimit else { return nil }
            let exponent = parts.isZero ? 0 : parts.exponent
            guard StoredNumber.exponents.contains(exponent) else { return nil }
            self.init(mantissa: parts.isNegative ? -Int64(parts.low) : Int64(parts.low), exponent: exponent)
        }

        /// Inverse of `full`.
        package init(full: Int64) {
            self.init(mantissa: full >> 6, exponent: Int(full & 63) - 32)
        }

        /// `m × 64 + (e + 32)`: no overflow within the limits `init` checks.
        package var full: Int64 { mantissa << 6 | Int64(exponent + 32) }

        /// The `Decimal` that parsing this value's plain text gives, built without the text.
        package var decimal: Decimal? {
            if mantissa == 0 { return StoredNumber.zero }
            let parts = DecimalParts(isNegative: mantissa < 0, exponent: exponent, high: 0, low: mantissa.magnitude)
            let value =
                parts.decimal
                ?? Decimal(sign: mantissa < 0 ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa.magnitude))
            // v3 read its text back through `DecimalText.parse`, which refuses out-of-range figures.
            return DecimalText.inRange(value) ? value : nil
        }
    }

    static let mantissaLimit: UInt64 = 1 << 55
    static let exponents = -32...31
    /// Zero as v3 read it back (its text is "0"), so that even its stored form is the same.
    static let zero: Decimal? = DecimalText.parse("0")

    // MARK: - Writing

    /// The last price: the full integer form, else a blob, else the plain text.
    package static func last(_ value: Decimal) -> DatabaseValue {
        if let parts = Parts(value) { return parts.full.databaseValue }
        return long(value)
    }

    /// A figure the integer form cannot hold: `[exponent, sign, mantissa bytes, least first]`,
    /// or the plain text past 38 digits (which parsing may round: v3 read it so).
    static func long(_ value: Decimal) -> DatabaseValue {
        guard let raw = DecimalParts(value) else { return DecimalParts.plainText(value).databaseValue }
        let parts = raw.compacted()
        guard !parts.isZero, parts.digitCount <= 38, (-128...127).contains(parts.exponent) else {
            return DecimalParts.plainText(value).databaseValue
        }
        var bytes: [UInt8] = [UInt8(bitPattern: Int8(parts.exponent)), parts.isNegative ? 1 : 0]
        var (high, low) = (parts.high, parts.low)
        while high != 0 || low != 0 {
            bytes.append(UInt8(truncatingIfNeeded: low))
            low = low >> 8 | high << 56
            high >>= 8
        }
        return Data(bytes).databaseValue
    }

    static func readLong(_ data: Data) -> Decimal? {
        // Over the blob's own bytes, without a copy into an array per figure.
        guard let value = data.withUnsafeBytes(longParts)?.decimal else { return nil }
        return DecimalText.inRange(value) ? value : nil
    }

    /// The parts of a blob `long` wrote; `nil` for bytes it never writes.
    static func longParts(_ bytes: UnsafeRawBufferPointer) -> DecimalParts? {
        guard bytes.count > 2, bytes.count <= 18, bytes[1] <= 1 else { return nil }
        var parts = DecimalParts(isNegative: bytes[1] == 1, exponent: Int(Int8(bitPattern: bytes[0])), high: 0, low: 0)
        for index in 0..<(bytes.count - 2) {
            let byte = bytes[index + 2]
            if index < 8 {
                parts.low |= UInt64(byte) << (8 * UInt64(index))
            } else {
                parts.high |= UInt64(byte) << (8 * UInt64(index - 8))
            }
        }
        return parts
    }

    /// Another figure of the row, relative to the row's last price when both fit.
    package static func figure(_ value: Decimal?, last: Parts?) -> DatabaseValue {
        guard let value else { return .null }
        guard let parts = Parts(value) else { return long(value) }
        if let last, last.exponent == parts.exponent {
            return ((parts.mantissa - last.mantissa) << 1).databaseValue
        }
        return (parts.full << 1 | 1).databaseValue
    }

    // MARK: - Reading

    /// The last price, and its parts for reading the row's other figures.
    package static func readLast(_ value: DatabaseValue) -> (value: Decimal, parts: Parts?)? {
        switch value.storage {
        case .int64(let full):
            let parts = Parts(full: full)
            return parts.decimal.map { ($0, parts) }
        case .string(let text):
            // A last price in text or a blob was one the integer form could not hold: the row's
            // other figures were written without it, so none is relative to it.
            return DecimalText.parse(text).map { ($0, nil) }
        case .blob(let data):
            return readLong(data).map { ($0, nil) }
        default:
            return nil
        }
    }

    package static func readFigure(_ value: DatabaseValue, last: Parts?) -> Decimal? {
        switch value.storage {
        case .int64(let code):
            if code & 1 == 0 {
                // An even code is only written beside a last price of the integer form.
                guard let last else { return nil }
                return Parts(mantissa: last.mantissa + (code >> 1), exponent: last.exponent).decimal
            }
            return Parts(full: code >> 1).decimal
        case .string(let text):
            return DecimalText.parse(text)
        case .blob(let data):
            return readLong(data)
        default:
            return nil
        }
    }

    // MARK: - Ticker time

    /// The ticker's time relative to its run's source time (they are usually equal, or a second
    /// apart): `delta / 1000 × 2` for whole seconds, `delta × 2 + 1` otherwise, in milliseconds;
    /// the absolute milliseconds as text if that would overflow.
    package static func time(_ milliseconds: Int64?, runTime: Int64) -> DatabaseValue {
        guard let milliseconds else { return .null }
        let (delta, overflow) = runTime.subtractingReportingOverflow(milliseconds)
        if !overflow, delta % 1000 == 0 { return ((delta / 1000) << 1).databaseValue }
        if !overflow, (Int64.min >> 2...Int64.max >> 2).contains(delta) { return (delta << 1 | 1).databaseValue }
        return String(milliseconds).databaseValue
    }

    package static func readTime(_ value: DatabaseValue, runTime: Int64) -> Int64? {
        switch value.storage {
        case .int64(let code):
            let delta: (partialValue: Int64, overflow: Bool) =
                code & 1 == 0 ? (code >> 1).multipliedReportingOverflow(by: 1000) : (code >> 1, false)
            guard !delta.overflow else { return nil }
            let (time, overflow) = runTime.subtractingReportingOverflow(delta.partialValue)
            return overflow ? nil : time
        case .string(let text):
            return Int64(text)
        default:
            return nil
        }
    }
}
