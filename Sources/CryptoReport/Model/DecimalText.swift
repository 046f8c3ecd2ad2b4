package import Foundation

/// Strict decimal parsing for numbers that arrive as text.
///
/// `Decimal(string:)` alone is lenient: it reads `"12abc"` as 12 and `"1,5"` as 1. Prices must be
/// all-or-nothing, so the text is checked against a plain decimal grammar first:
/// optional sign, digits with an optional fraction, an optional exponent (`5.3e-7` is real WazirX
/// data). `NaN`, `Infinity`, hex, grouping and blanks are rejected.
///
/// Magnitudes are bounded too: Foundation's `Decimal` traps on overflow (past about 1e165), and a
/// report multiplies up to four inputs (volume × last × crypto rate × fiat cross rate). Keeping
/// every input between 1e-20 and 1e20 keeps every product below 1e100, far from the trap; no real
/// price, volume or ECB rate comes near either bound.
package enum DecimalText {
    static let largest = Decimal(sign: .plus, exponent: 20, significand: 1)
    static let smallest = Decimal(sign: .plus, exponent: -20, significand: 1)

    /// Longest text accepted; a longer "number" is hostile, not a price.
    static let maximumLength = 64

    package static func parse(_ text: String) -> Decimal? {
        // Over the string's bytes (on the stack for a short string): an array of them, and
        // stepping String.UTF8View indices, were most of the cost of a price.
        var text = text
        return text.withUTF8 { parse(bytes: $0) }
    }

    package static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Decimal? {
        guard bytes.count <= maximumLength, let value = unbounded(bytes) else { return nil }
        return inRange(value) ? value : nil
    }

    /// The value of a plain decimal of any length and magnitude, for `parse` and `refusal`.
    private static func unbounded(_ bytes: UnsafeBufferPointer<UInt8>) -> Decimal? {
        guard !bytes.isEmpty, isPlainDecimal(bytes) else { return nil }
        // The digits straight into a Decimal, stored as Decimal(string:) would store them;
        // zero, over 38 digits and far exponents take Foundation's parser.
        if let parts = DecimalParts.parse(bytes), let value = parts.decimal { return value }
        // No locale: `.` separates the fraction, as the API writes it, and no locale's ICU data is
        // loaded for it (a `Locale` per call was once half the cost of reading a ticker).
        guard let value = Decimal(string: String(decoding: bytes, as: UTF8.self)), !value.isNaN else { return nil }
        return value
    }

    /// What `refusal` says of a value outside `inRange`.
    static let outOfRange = "outside the range 1e-20 to 1e20"

    /// Why `parse` refuses a text that is a plain decimal: its length or its magnitude, for a
    /// message (`"1e30" is outside the range …`); `nil` for a text that is no decimal at all, or
    /// that `parse` takes.
    package static func refusal(_ text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes -> String? in
            // A negative value is refused for its sign, which the caller says.
            guard let value = unbounded(bytes), !value.isSignMinus else { return nil }
            if bytes.count > maximumLength { return "longer than \(maximumLength) characters" }
            return inRange(value) ? nil : outOfRange
        }
    }

    /// Zero, or a magnitude from 1e-20 up to (not including) 1e20; never NaN. JSON numbers are
    /// held to the same bounds as numbers sent as text.
    package static func inRange(_ value: Decimal) -> Bool {
        guard !value.isNaN else { return false }
        // ⌊log10 |value|⌋ from the exponent and digit count, without Decimal's comparisons.
        if FastDecimal.isAvailable {
            let parts = FastDecimal(value)
            return parts.isZero || (-20..<20).contains(FastDecimal.digitCount(parts.high, parts.low) - 1 + parts.exponent)
        }
        let magnitude = value < 0 ? -value : value
        return magnitude.isZero || (magnitude >= smallest && magnitude < largest)
    }

    private static func isPlainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        func isByte(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }
        func digits() -> Int {
            let start = index
            while isDigit(index) { index += 1 }
            return index - start
        }
        if isByte(UInt8(ascii: "-")) || isByte(UInt8(ascii: "+")) { index += 1 }
        var mantissaDigits = digits()
        if isByte(UInt8(ascii: ".")) {
            index += 1
            mantissaDigits += digits()
        }
        guard mantissaDigits > 0 else { return false }
        if isByte(UInt8(ascii: "e")) || isByte(UInt8(ascii: "E")) {
            index += 1
            if isByte(UInt8(ascii: "-")) || isByte(UInt8(ascii: "+")) { index += 1 }
            // Decimal's exponent range is about ±128; keep exponents to three digits at most.
            let exponentDigits = digits()
            guard exponentDigits > 0, exponentDigits <= 3 else { return false }
        }
        return index == bytes.count
    }
}
