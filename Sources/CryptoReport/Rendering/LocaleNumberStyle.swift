import Foundation

/// One of the report's number styles (money, signed percent, plain number…) in one locale, learnt
/// once from Foundation's own output and then applied to digits directly.
///
/// Written by hand because no mirrored library formats a `Decimal` faster than Foundation: a
/// `Decimal.FormatStyle` call per cell went through ICU and `Decimal.description` every time, 80
/// times per market. Here the prefixes, suffixes, separators and grouping sizes are read from a few
/// probe values formatted by Foundation; every style is then checked against Foundation on a set
/// of values covering signs, zero, grouping and rounding ties, and a style that does not agree
/// byte for byte is not used: those cells keep going through Foundation, as does any value whose
/// digits this type does not handle (NaN, a negative rounded to zero, over 38 digits).
struct LocaleNumberStyle: Sendable {
    struct Affixes: Sendable {
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
        var digits: [UInt8] = []
        digits.reserveCapacity(40)
        parts.appendDigits(to: &digits)
        // Digits of the integer part and of the fraction, as printed.
        let fractionShown = max(fraction.lowerBound, min(fraction.upperBound, -parts.exponent))
        var integer: ArraySlice<UInt8>
        var fractionDigits: [UInt8] = []
        if parts.isZero {
            integer = [UInt8(ascii: "0")]
        } else if parts.exponent >= 0 {
            integer = ArraySlice(digits + [UInt8](repeating: UInt8(ascii: "0"), count: parts.exponent))
        } else {
            let point = digits.count + parts.exponent
            if point > 0 {
                integer = digits[0..<point]
                fractionDigits = Array(digits[point...])
            } else {
                integer = [UInt8(ascii: "0")]
                fractionDigits = [UInt8](repeating: UInt8(ascii: "0"), count: -point) + digits
            }
        }
        if fractionDigits.count < fractionShown {
            fractionDigits += [UInt8](repeating: UInt8(ascii: "0"), count: fractionShown - fractionDigits.count)
        }
        var out: [UInt8] = []
        out.reserveCapacity(affixes.prefix.count + affixes.suffix.count + integer.count * 2 + fractionDigits.count + 4)
        out += affixes.prefix
        appendGrouped(integer, to: &out)
        if !fractionDigits.isEmpty {
            out += decimalSeparator
            out += fractionDigits
        }
        out += affixes.suffix
        return String(decoding: out, as: UTF8.self)
    }

    private func appendGrouped(_ integer: ArraySlice<UInt8>, to out: inout [UInt8]) {
        let count = integer.count
        guard primaryGroup > 0, count >= primaryGroup + minimumGrouping else {
            out += integer
            return
        }
        // Where separators go, counted as digits left of the decimal point.
        var breaks: [Int] = [primaryGroup]
        let step = secondaryGroup > 0 ? secondaryGroup : primaryGroup
        while let last = breaks.last, last + step < count { breaks.append(last + step) }
        var index = integer.startIndex
        for position in (0..<count).reversed() {
            out.append(integer[index])
            index += 1
            if position > 0 && breaks.contains(position) { out += groupingSeparator }
        }
    }

    // MARK: - Learning a style from Foundation

    /// Learns a style from `reference` (Foundation's text for a value shown with a given number of
    /// fraction digits), or `nil` when the probes do not show a pattern this type can follow.
    static func learn(signed: Bool, reference: (Decimal, ClosedRange<Int>) -> String) -> LocaleNumberStyle? {
        func probe(_ text: String, _ fractionDigits: Int) -> String {
            reference(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) ?? 0, fractionDigits...fractionDigits)
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
        for text in checkValues {
            guard let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
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
