package import Foundation

/// A `Decimal`'s sign, 128-bit mantissa and decimal exponent, read straight from its storage.
///
/// Written by hand because no mirrored library does this: on Linux `Decimal.description` divides
/// the 128-bit mantissa by ten once per digit and allocates as it goes, and it sat under every
/// figure the reports print (57 % of a 10,000-market report). With the mantissa as two `UInt64`s,
/// the digit count is a comparison and the digits are two hardware divisions per 19 digits.
///
/// Foundation keeps the parts private; the storage layout (an 8-bit exponent, a byte of length and
/// flags, two reserved bytes, eight little-endian 16-bit mantissa words) is the one NSDecimal has
/// always had. `layout` proves it at first use against values built through the public API;
/// where it does not hold, `init` returns `nil` and callers take Foundation's own path.
package struct DecimalParts: Sendable, Equatable {
    package var isNegative: Bool
    package var exponent: Int
    /// The mantissa's upper and lower 64 bits.
    package var high: UInt64
    package var low: UInt64

    package init(isNegative: Bool, exponent: Int, high: UInt64, low: UInt64) {
        self.isNegative = isNegative
        self.exponent = exponent
        self.high = high
        self.low = low
    }

    /// `nil` for NaN, and wherever the storage layout is not the one known here.
    package init?(_ value: Decimal) {
        // Two 64-bit loads (`FastDecimal`) rather than a loop over the mantissa's words.
        guard Self.layout != nil else { return nil }
        let parts = FastDecimal(value)
        if parts.isNaN { return nil }
        if parts.isZero {
            self.init(isNegative: false, exponent: 0, high: 0, low: 0)
        } else {
            self.init(isNegative: parts.isNegative, exponent: parts.exponent, high: parts.high, low: parts.low)
        }
    }

    package var isZero: Bool { high == 0 && low == 0 }

    /// `value > 0` read from the sign and mantissa: Decimal's own comparison normalises both
    /// sides first, and a report makes a few of them per market.
    package static func isPositive(_ value: Decimal) -> Bool {
        guard FastDecimal.isAvailable else { return value > 0 }
        return FastDecimal(value).isPositive
    }

    /// `value >= 0`, as `isPositive`.
    package static func isNonNegative(_ value: Decimal) -> Bool {
        guard FastDecimal.isAvailable else { return value >= 0 }
        return !FastDecimal(value).isNegative
    }

    /// How the length and flags are packed into the second byte.
    struct Layout: Sendable {
        var lengthShift: UInt8
        var negativeBit: UInt8
        var compactBit: UInt8

        /// The storage of a non-zero value, marked compact as `Decimal(string:)` marks what it parses.
        func write(_ parts: DecimalParts, into raw: UnsafeMutableRawBufferPointer) {
            var length = 0
            for index in 0..<8 where (index < 4 ? parts.low >> (16 * UInt64(index)) : parts.high >> (16 * UInt64(index - 4))) & 0xFFFF != 0 {
                length = index + 1
            }
            for index in 0..<20 { raw[index] = 0 }
            raw[0] = UInt8(bitPattern: Int8(truncatingIfNeeded: parts.exponent))
            raw[1] = UInt8(length) << lengthShift | (parts.isNegative ? negativeBit : 0) | compactBit
            for index in 0..<length {
                let word = index < 4 ? parts.low >> (16 * UInt64(index)) : parts.high >> (16 * UInt64(index - 4))
                raw[4 + 2 * index] = UInt8(truncatingIfNeeded: word)
                raw[5 + 2 * index] = UInt8(truncatingIfNeeded: word >> 8)
            }
        }

        func read(_ raw: UnsafeRawBufferPointer, into parts: inout DecimalParts) -> Bool {
            guard raw.count == 20 else { return false }
            let flags = raw[1]
            let length = Int((flags >> lengthShift) & 0x0F)
            // NaN is the one value with length 0 and the sign set.
            let negative = flags & negativeBit != 0
            if length == 0 {
                if negative { return false }
                parts = DecimalParts(isNegative: false, exponent: 0, high: 0, low: 0)
                return true
            }
            guard length <= 8 else { return false }
            var words = (UInt64(0), UInt64(0))
            for index in 0..<length {
                let word = UInt64(raw[4 + 2 * index]) | UInt64(raw[5 + 2 * index]) << 8
                if index < 4 {
                    words.1 |= word << (16 * UInt64(index))
                } else {
                    words.0 |= word << (16 * UInt64(index - 4))
                }
            }
            parts = DecimalParts(
                isNegative: negative, exponent: Int(Int8(bitPattern: raw[0])), high: words.0, low: words.1)
            return true
        }
    }

    /// swift-foundation packs length in the high nibble, the sign in bit 3; Darwin's NSDecimal
    /// bit fields put length in the low nibble and the sign in bit 4.
    static let layout: Layout? = {
        let candidates = [
            Layout(lengthShift: 4, negativeBit: 0x08, compactBit: 0x04), Layout(lengthShift: 0, negativeBit: 0x10, compactBit: 0x20),
        ]
        for candidate in candidates {
            if proves(candidate) { return candidate }
        }
        return nil
    }()

    private static func proves(_ layout: Layout) -> Bool {
        let probes: [(Decimal, DecimalParts)] = [
            (
                Decimal(sign: .minus, exponent: -3, significand: 12345),
                DecimalParts(isNegative: true, exponent: -3, high: 0, low: 12345)
            ),
            (
                Decimal(sign: .plus, exponent: 7, significand: Decimal(UInt64.max)),
                DecimalParts(isNegative: false, exponent: 7, high: 0, low: UInt64.max)
            ),
            // (2^64 − 1) × (2^16 + 1) = 2^80 + 2^64 − 2^16 − 1 (it ends in 5): stored as is.
            (
                Decimal(UInt64.max) * Decimal(65537),
                DecimalParts(isNegative: false, exponent: 0, high: 0x1_0000, low: 0xFFFF_FFFF_FFFE_FFFF)
            ),
            (Decimal(0), DecimalParts(isNegative: false, exponent: 0, high: 0, low: 0)),
        ]
        for (value, expected) in probes {
            var parts = DecimalParts(isNegative: false, exponent: 0, high: 0, low: 0)
            let valid = withUnsafeBytes(of: value) { layout.read($0, into: &parts) }
            guard valid, parts == expected || (expected.isZero && parts.isZero) else { return false }
        }
        var nan = DecimalParts(isNegative: false, exponent: 0, high: 0, low: 0)
        let nanRead = withUnsafeBytes(of: Decimal.nan) { layout.read($0, into: &nan) }
        guard !nanRead else { return false }
        // Writing: the bytes `Decimal(string:)` makes, compact flag included.
        for (text, parts) in [
            ("-12.345", DecimalParts(isNegative: true, exponent: -3, high: 0, low: 12345)),
            ("1208944266358702884192255e7", DecimalParts(isNegative: false, exponent: 7, high: 0x1_0000, low: 0xFFFF_FFFF_FFFE_FFFF)),
        ] {
            guard let parsed = Decimal(string: text) else { return false }
            var built = Decimal()
            withUnsafeMutableBytes(of: &built) { layout.write(parts, into: $0) }
            let same = withUnsafeBytes(of: parsed) { a in withUnsafeBytes(of: built) { b in a.elementsEqual(b) } }
            guard same else { return false }
        }
        return true
    }

    /// The `Decimal` of these parts, stored as `Decimal(string:)` stores a parsed number: `nil`
    /// for zero (whose stored exponent depends on the text) or an exponent outside −128…127.
    package var decimal: Decimal? {
        guard Self.layout != nil, !isZero, (-128...127).contains(exponent) else { return nil }
        return FastDecimal(high: high, low: low, exponent: exponent, isNegative: isNegative, isCompact: true).decimal
    }

    /// Parses plain decimal text (`-12.5`, `5.3e-7`: a grammar already checked by the caller)
    /// into compact parts: trailing zeros of the mantissa moved into the exponent, as
    /// `Decimal(string:)` does. `nil` past 38 significant digits.
    package static func parse(_ text: UnsafeBufferPointer<UInt8>) -> DecimalParts? {
        var parts = DecimalParts(isNegative: false, exponent: 0, high: 0, low: 0)
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        var index = 0
        let count = text.count
        if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            parts.isNegative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        while index < count {
            let byte = text[index]
            if byte == UInt8(ascii: ".") {
                inFraction = true
            } else if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if digits > 0 || digit != 0 {
                    digits += 1
                    guard digits <= 38 else { return nil }
                    // × 10 + digit on 128 bits; 38 digits always fit.
                    let low = parts.low.multipliedFullWidth(by: 10)
                    let (sum, carry) = low.low.addingReportingOverflow(digit)
                    parts.low = sum
                    parts.high = parts.high &* 10 &+ low.high &+ (carry ? 1 : 0)
                }
                if inFraction { fractionDigits += 1 }
            } else {
                break
            }
            index += 1
        }
        var exponent = 0
        if index < count {
            // `e`, an optional sign, at most three digits (checked by the caller).
            index += 1
            var negative = false
            if index < count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                negative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            while index < count {
                exponent = exponent * 10 + Int(text[index] &- UInt8(ascii: "0"))
                index += 1
            }
            if negative { exponent = -exponent }
        }
        parts.exponent = exponent - fractionDigits
        return parts.compacted()
    }

    // MARK: - Digits

    static let powersOfTen: [UInt64] = (0...19).map { power in
        var value: UInt64 = 1
        for _ in 0..<power { value &*= 10 }
        return value
    }

    /// 10^19: the mantissa is printed as up to three runs of 19 digits.
    static let tenToThe19: UInt64 = 10_000_000_000_000_000_000

    /// (high:low) / divisor and the remainder; the divisor must be non-zero.
    static func divide(_ high: UInt64, _ low: UInt64, by divisor: UInt64) -> (high: UInt64, low: UInt64, remainder: UInt64) {
        // Most mantissas fit 64 bits: one 64-bit division, not a 128-by-64 one (`__udivti3`).
        if high == 0 { return (0, low / divisor, low % divisor) }
        let quotientHigh = high / divisor
        let (quotientLow, remainder) = divisor.dividingFullWidth((high: high % divisor, low: low))
        return (quotientHigh, quotientLow, remainder)
    }

    /// The mantissa's digits in at most three 19-digit chunks, most significant first.
    func chunks() -> (count: Int, values: (UInt64, UInt64, UInt64)) {
        if high == 0 && low < Self.tenToThe19 { return (1, (low, 0, 0)) }
        let first = Self.divide(high, low, by: Self.tenToThe19)
        if first.high == 0 && first.low < Self.tenToThe19 { return (2, (first.low, first.remainder, 0)) }
        let second = Self.divide(first.high, first.low, by: Self.tenToThe19)
        return (3, (second.low, second.remainder, first.remainder))
    }

    /// Number of digits in the mantissa (0 for zero).
    package var digitCount: Int { FastDecimal.digitCount(high, low) }

    /// ⌊log10 |value|⌋ for a non-zero value.
    package var magnitude: Int { digitCount - 1 + exponent }

    /// `00` to `99`, each two digits, at twice its value: a literal, so no lazy global is
    /// checked on every use.
    static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    /// The mantissa's digits, right-aligned at the end of `buffer` (64 bytes hold the most, 39);
    /// returns how many. No array is made.
    func writeDigits(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let split = chunks()
        var position = buffer.count
        // Two digits per division where two are left to write (the value's, or the zeros that
        // pad it to `width`): the writers print every figure of every market through here.
        let pairs = Self.digitPairs.utf8Start
        func write(_ value: UInt64, width: Int) {
            var rest = value
            var written = 0
            repeat {
                if rest >= 10 || written + 2 <= width {
                    let pair = Int(truncatingIfNeeded: rest % 100)
                    rest /= 100
                    position -= 2
                    buffer[position] = pairs[2 * pair]
                    buffer[position + 1] = pairs[2 * pair + 1]
                    written += 2
                } else {
                    position -= 1
                    buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                    rest /= 10
                    written += 1
                }
            } while rest != 0 || written < width
        }
        if split.count > 2 { write(split.values.2, width: 19) }
        if split.count > 1 { write(split.values.1, width: 19) }
        write(split.values.0, width: 1)
        return buffer.count - position
    }

    /// The text `Decimal.description` gives: plain digits, `-` for negatives, never an exponent,
    /// and the mantissa's own trailing zeros kept; the digits made on the stack, as the writers
    /// print every figure of every market this way.
    func appendPlain<Sink: ByteSink & ~Copyable>(to bytes: inout Sink) {
        if isZero {
            bytes.append(UInt8(ascii: "0"))
            return
        }
        if isNegative { bytes.append(UInt8(ascii: "-")) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch in
            let count = writeDigits(into: scratch)
            let digits = UnsafeBufferPointer(rebasing: scratch[(64 - count)...])
            if exponent >= 0 {
                bytes.append(digits)
                for _ in 0..<exponent { bytes.append(UInt8(ascii: "0")) }
                return
            }
            let fraction = -exponent
            if count > fraction {
                bytes.append(UnsafeBufferPointer(rebasing: digits[0..<(count - fraction)]))
                bytes.append(UInt8(ascii: "."))
                bytes.append(UnsafeBufferPointer(rebasing: digits[(count - fraction)...]))
            } else {
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "."))
                for _ in 0..<(fraction - count) { bytes.append(UInt8(ascii: "0")) }
                bytes.append(digits)
            }
        }
    }

    /// `Decimal.description` without its cost; Foundation's own for NaN or an unknown layout.
    package static func plainText(_ value: Decimal) -> String {
        DecimalParts(value)?.plainText ?? value.description
    }

    package var plainText: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(48)
        appendPlain(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - Rounding

    /// Rounded to `scale` fraction digits, half away from zero (`NSDecimalRound`'s `.plain`), and
    /// compacted as `NSDecimalRound` leaves it: `1.2999` to three digits is `1.3`, not `1.30`.
    /// `nil` when the rounded mantissa would not fit 128 bits (never for the figures rounded here).
    package func rounded(scale: Int) -> DecimalParts? {
        let drop = -scale - exponent
        guard drop > 0 else { return self }
        guard drop <= 38 else { return nil }
        var high = self.high
        var low = self.low
        var roundUp: Bool
        if drop <= 19 {
            let divisor = Self.powersOfTen[drop]
            let step = Self.divide(high, low, by: divisor)
            (high, low) = (step.high, step.low)
            roundUp = step.remainder >= divisor / 2
        } else {
            let first = Self.divide(high, low, by: Self.tenToThe19)
            let divisor = Self.powersOfTen[drop - 19]
            let second = Self.divide(first.high, first.low, by: divisor)
            (high, low) = (second.high, second.low)
            // The remainder is second.remainder × 10^19 + first.remainder, and half is
            // 5 × 10^(drop − 1): with drop ≥ 20, comparing the upper part decides.
            roundUp = second.remainder >= Self.powersOfTen[drop - 20] * 5
        }
        if roundUp {
            let (sum, carry) = low.addingReportingOverflow(1)
            low = sum
            if carry {
                guard high < UInt64.max else { return nil }
                high += 1
            }
        }
        return DecimalParts(isNegative: isNegative, exponent: exponent + drop, high: high, low: low).compacted()
    }

    /// Trailing zeros of the mantissa moved into the exponent.
    package func compacted() -> DecimalParts {
        var result = self
        // In 64 bits while the mantissa fits them (nearly always): a division by the constant
        // 10 is then a multiplication, where the 128-bit one was a call per trailing zero.
        while result.high == 0, result.low != 0, result.low % 10 == 0 {
            result.low /= 10
            result.exponent += 1
        }
        while !result.isZero {
            let step = Self.divide(result.high, result.low, by: 10)
            guard step.remainder == 0 else { break }
            (result.high, result.low) = (step.high, step.low)
            result.exponent += 1
        }
        return result
    }
}
