package import Foundation

/// Machine-readable numbers: `.` as decimal separator, no grouping, never an exponent.
package enum PlainNumber {
    /// Derived figures are rounded to this many significant digits: more than the 10 the CSV
    /// promises, and no more than a spreadsheet's double can hold, so a loaded file shows the
    /// same digits as the text.
    package static let significantDigits = 15

    package static func format(_ value: Decimal, significantDigits: Int = significantDigits) -> String {
        guard !value.isNaN else { return "" }
        guard !value.isZero else { return "0" }
        if let parts = DecimalParts(value), let rounded = parts.rounded(scale: significantDigits - 1 - parts.magnitude) {
            return rounded.plainText
        }
        var input = value
        var rounded = Decimal()
        let scale = significantDigits - 1 - magnitude(of: value)
        NSDecimalRound(&rounded, &input, scale, .plain)
        return rounded.description
    }

    /// `format(value, significantDigits:)`'s bytes, without a `String` for the common case.
    static func append<Sink: ByteSink & ~Copyable>(_ value: Decimal, significantDigits: Int = significantDigits, to bytes: inout Sink) {
        if !value.isZero, let parts = DecimalParts(value), let rounded = parts.rounded(scale: significantDigits - 1 - parts.magnitude) {
            rounded.appendPlain(to: &bytes)
        } else {
            bytes.append(utf8: format(value, significantDigits: significantDigits))
        }
    }

    package static func format(_ value: Decimal?) -> String {
        value.map { format($0) } ?? ""
    }

    /// ⌊log10 |value|⌋ for a non-zero value: 0 for 1.5, −6 for 0.0000086, 6 for 1398000.
    package static func magnitude(of value: Decimal) -> Int {
        if let parts = DecimalParts(value), !parts.isZero { return parts.magnitude }
        // Decimal's description is plain digits; reading it avoids a lossy Double logarithm.
        let text = (value < 0 ? -value : value).description
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts.first.map(String.init) ?? ""
        if integer != "0" && !integer.isEmpty { return integer.count - 1 }
        let fraction = parts.count > 1 ? parts[1] : ""
        let zeros = fraction.prefix { $0 == "0" }.count
        return -(zeros + 1)
    }
}
