import Foundation

/// One of the report's number styles (money, signed percent, plain number…) in one locale, learnt
/// once from Foundation's own output and then applied to digits directly.
///
/// Written by hand because no mirrored library formats a `Decimal` faster than Foundation: a
/// `Decimal.FormatStyle` call goes through ICU and `Decimal.description` every time, and a market
/// has dozens of cells. Here the prefixes, suffixes, separators and grouping sizes are read from a few
/// probe values formatted by Foundation; every style is then checked against Foundation on a set
/// of values covering signs, zero, grouping and rounding ties (by the tests for the locales a
/// report uses unless told otherwise, `PeopleNumberFormatter.Styles.verified`; as it is learnt for
/// any other), and a style that does not agree byte for byte is not used: those cells keep going
/// through Foundation, as does any value whose digits this type does not handle (NaN, a negative
/// rounded to zero, over 38 digits).
struct LocaleNumberStyle: Sendable, Equatable {
    struct Affixes: Sendable, Equatable {
        var prefix: [UInt8]
        var suffix: [UInt8]
    }

    var positive: Affixes
    var negative: Affixes
    /// Zero, and for signed styles anything that rounds to zero.
    var zero: Affixes
    var decimalSeparator: [UInt8]
    var groupingSeparator: [UInt8]
    /// Digits in the group nearest the separator, and in every group further left (3 and 2 in
    /// en_IN's 12,34,567); 0 when the style does not group.
    var primaryGroup: Int
    var secondaryGroup: Int
    /// Fewest digits the leftmost group must have for grouping to happen at all (ICU's minimum
    /// grouping digits: pl_PL writes 1234 but 12 345).
    var minimumGrouping: Int

    /// Formats `value` with `fraction` fraction digits, or up to `fraction.upperBound` with
    /// trailing zeros dropped down to `fraction.lowerBound`; half away from zero.
    /// `nil` when Foundation must do it.
    func format(_ value: Decimal, fraction: ClosedRange<Int>) -> String? {
        DecimalParts(value).flatMap { format($0, fraction: fraction) }
    }

    func format(_ parts: DecimalParts, fraction: ClosedRange<Int>) -> String? {
        if parts.isZero { return text(parts, fraction: fraction, affixes: zero) }
        guard let rounded = parts.rounded(scale: fraction.upperBound) else { return nil }
        if rounded.isZero {
            // ICU writes `-0.00` for a small negative, and no sign for a small positive
            // in the signed styles: leave both to Foundation.
            return nil
        }
        return text(rounded, fraction: fraction, affixes: rounded.isNegative ? negative : positive)
    }

    private func text(_ parts: DecimalParts, fraction: ClosedRange<Int>, affixes: Affixes) -> String {
        // Written on the stack, sized for the longest text these digits can make, then made a
        // string: no byte array first, and no allocation of that size in the string's own
        // storage for a text short enough to be held inline.
        let digits = parts.isZero ? 1 : parts.digitCount
        let integerDigits = max(1, digits + max(0, parts.exponent))
        let fractionDigits = max(fraction.upperBound, max(0, -parts.exponent))
        let capacity =
            affixes.prefix.count + affixes.suffix.count + decimalSeparator.count + fractionDigits
            + integerDigits * (1 + groupingSeparator.count)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var out = BufferWriter(buffer: buffer)
            append(parts, fraction: fraction, affixes: affixes, to: &out)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<out.count]), as: UTF8.self)
        }
    }

    /// Bytes written into memory sized beforehand (`text`).
    private struct BufferWriter: ByteSink {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        var count = 0

        @inline(__always)
        mutating func append(_ byte: UInt8) {
            buffer[count] = byte
            count += 1
        }

        @inline(__always)
        mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
            guard let base = bytes.baseAddress, let target = buffer.baseAddress else { return }
            (target + count).update(from: base, count: bytes.count)
            count += bytes.count
        }
    }

    /// The text's bytes, made in one pass: the mantissa's digits into a stack buffer, then the
    /// integer digits (grouped), the separator and the fraction digits straight into `out`.
    private func append<Out: ByteSink>(_ parts: DecimalParts, fraction: ClosedRange<Int>, affixes: Affixes, to out: inout Out) {
        out.append(affixes.prefix)
        let fractionShown = max(fraction.lowerBound, min(fraction.upperBound, -parts.exponent))
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch in
            let count = parts.isZero ? 0 : parts.writeDigits(into: scratch)
            let digits = UnsafeBufferPointer(rebasing: scratch[(64 - count)...])
            // Integer digits: the mantissa's, then its exponent's zeros; or those left of the
            // point; "0" when the value is below one.
            let exponent = parts.exponent
            let integerCount: Int
            let fromMantissa: Int
            if count == 0 {
                (integerCount, fromMantissa) = (1, 0)
            } else if exponent >= 0 {
                (integerCount, fromMantissa) = (count + exponent, count)
            } else if count + exponent > 0 {
                (integerCount, fromMantissa) = (count + exponent, count + exponent)
            } else {
                (integerCount, fromMantissa) = (1, 0)
            }
            let grouped = primaryGroup > 0 && integerCount >= primaryGroup + minimumGrouping
            let step = secondaryGroup > 0 ? secondaryGroup : primaryGroup
            for index in 0..<integerCount {
                out.append(index < fromMantissa ? digits[index] : UInt8(ascii: "0"))
                // Digits still to come left of the point: a separator where a group ends.
                let left = integerCount - 1 - index
                if grouped && left >= primaryGroup && (left - primaryGroup) % step == 0 { out.append(groupingSeparator) }
            }
            // Fraction digits: zeros between the point and the mantissa, the mantissa's own,
            // then zeros up to the digits shown.
            var written = 0
            if count > 0 && exponent < 0 {
                let leadingZeros = max(0, -(count + exponent))
                if leadingZeros + count - fromMantissa > 0 { out.append(decimalSeparator) }
                for _ in 0..<leadingZeros { out.append(UInt8(ascii: "0")) }
                out.append(UnsafeBufferPointer(rebasing: digits[fromMantissa...]))
                written = leadingZeros + count - fromMantissa
            }
            if written < fractionShown {
                if written == 0 { out.append(decimalSeparator) }
                for _ in written..<fractionShown { out.append(UInt8(ascii: "0")) }
            }
        }
        out.append(affixes.suffix)
    }

    // MARK: - Learning a style from Foundation

    /// Learns a style from `reference` (Foundation's text for a value shown with a given number of
    /// fraction digits), or `nil` when the probes do not show a pattern this type can follow or,
    /// when `checked`, when the style does not write what Foundation writes for every check value.
    static func learn(signed: Bool, checked: Bool = true, reference: (Decimal, ClosedRange<Int>) -> String) -> LocaleNumberStyle? {
        // Probes and check values read without a locale (`.` separates the fraction):
        // en_US_POSIX's would load that locale's ICU data first.
        func probe(_ text: String, _ fractionDigits: Int) -> String {
            reference(Decimal(string: text) ?? 0, fractionDigits...fractionDigits)
        }
        guard let long = split(probe("1234567890.5", 1)), long.digits.filter({ $0.isASCIIDigit }).count == 11,
            let negative = split(probe("-1234567890.5", 1)), negative.digits == long.digits,
            let zero = split(probe("0", 0)), zero.digits == [UInt8(ascii: "0")],
            let short = split(probe("1234.5", 1)), let five = split(probe("12345.5", 1))
        else { return nil }
        // The number body: digit runs and the separators between them.
        var runs: [[UInt8]] = []
        var separators: [[UInt8]] = []
        var current: [UInt8] = []
        var separator: [UInt8] = []
        for byte in long.digits {
            if byte.isASCIIDigit {
                if !separator.isEmpty {
                    separators.append(separator)
                    separator = []
                    runs.append(current)
                    current = []
                }
                current.append(byte)
            } else {
                separator.append(byte)
            }
        }
        runs.append(current)
        guard runs.count >= 2, runs.last == [UInt8(ascii: "5")], let decimalSeparator = separators.last else { return nil }
        let groups = runs.dropLast().map(\.count)
        let groupSeparators = Set(separators.dropLast())
        guard groupSeparators.count <= 1 else { return nil }
        var style = LocaleNumberStyle(
            positive: Affixes(prefix: long.prefix, suffix: long.suffix),
            negative: Affixes(prefix: negative.prefix, suffix: negative.suffix),
            zero: Affixes(prefix: zero.prefix, suffix: zero.suffix),
            decimalSeparator: decimalSeparator, groupingSeparator: groupSeparators.first ?? [],
            primaryGroup: 0, secondaryGroup: 0, minimumGrouping: 1)
        if groups.count > 1 {
            style.primaryGroup = groups[groups.count - 1]
            style.secondaryGroup = groups.count > 2 ? groups[groups.count - 2] : style.primaryGroup
            let shortGrouped = short.digits.contains { !$0.isASCIIDigit && !decimalSeparator.contains($0) }
            let fiveGrouped = five.digits.contains { !$0.isASCIIDigit && !decimalSeparator.contains($0) }
            if !shortGrouped { style.minimumGrouping = fiveGrouped ? 2 : 3 }
        }
        // Unsigned styles show no sign on zero either way; signed ones drop it there.
        if !signed { style.zero = style.positive }
        // Trust it only where it writes what Foundation writes.
        guard checked else { return style }
        for text in checkValues {
            guard let value = Decimal(string: text) else { return nil }
            for digits in [0...0, 2...2, 3...3, 8...8, 0...8] {
                let expected = reference(value, digits)
                if let mine = style.format(value, fraction: digits), mine != expected {
                    return nil
                }
            }
        }
        return style
    }

    /// Signs, zero, every grouping width, ties at each rounding position, carries into a new digit.
    static let checkValues = [
        "0", "1", "-1", "0.5", "-0.5", "1.005", "-1.005", "0.125", "9.995", "99.5", "999.5", "999999.995",
        "1234", "-1234", "12345.678", "123456.5", "1234567.25", "-98765432.125", "12345678901234567890.5",
        "0.0000086", "0.00049", "0.0005", "171447.3476", "100000", "1000000000",
    ]

    /// A formatted probe cut into prefix, number body and suffix: the body runs from the first
    /// ASCII digit to the last.
    private static func split(_ text: String) -> (prefix: [UInt8], digits: [UInt8], suffix: [UInt8])? {
        let bytes = Array(text.utf8)
        guard let first = bytes.firstIndex(where: \.isASCIIDigit), let last = bytes.lastIndex(where: \.isASCIIDigit)
        else { return nil }
        return (Array(bytes[..<first]), Array(bytes[first...last]), Array(bytes[(last + 1)...]))
    }
}

extension UInt8 {
    fileprivate var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
}
