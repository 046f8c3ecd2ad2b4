package import Foundation

/// A `Decimal` as Foundation stores it — sign, 128-bit mantissa, decimal exponent, compact flag —
/// with Foundation's own `+`, `−`, `×` and `÷` worked out in machine integers.
///
/// Written by hand because no mirrored library does decimal arithmetic that agrees with
/// Foundation's (swift-numerics has no decimals; BigInt rounds its own way), and Foundation's is
/// slow on Linux: every operation copies the mantissa into `[UInt16]` arrays and divides a product
/// by 10,000 and 10 a word at a time until it fits (`_fitMantissa`, `_integerDivideByShort`), and
/// every market's row and trend takes a dozen of them.
///
/// Every result is the `Decimal` Foundation gives, to the stored byte:
/// - a product whose mantissa passes 128 bits is cut (not rounded: Foundation's `_fitMantissa`
///   computes a rounded value and returns the cut one) by the fewest powers of ten that fit it;
/// - a quotient is `⌊a × 10^38 / b⌋` cut the same way, its exponent `e_a − e_b − 38` plus the cut;
/// - a sum aligns the exponents exactly, as `_normalize` does when the scaled mantissa fits;
/// - every result then has its trailing zeros moved into the exponent (`compact()`), and an
///   operand Foundation passes through unchanged (`0 + x`) is passed through unchanged.
/// Where matching Foundation would take more than that — an exponent leaving −128…127, a sum
/// past 128 bits, operands 19 or more orders apart in a division (Foundation then rescales them
/// lossily), a zero quotient — the operation is handed to Foundation itself. `FastDecimalTests`
/// compares every operation with Foundation's, bytes included, on random and edge operands.
package struct FastDecimal: Sendable, Equatable {
    package var high: UInt64
    package var low: UInt64
    /// As stored: −128…127.
    package var exponent: Int
    package var isNegative: Bool
    /// Foundation's `_isCompact`, carried so that the `Decimal` made back is Foundation's byte for byte.
    package var isCompact: Bool

    package init(high: UInt64, low: UInt64, exponent: Int, isNegative: Bool, isCompact: Bool) {
        self.high = high
        self.low = low
        self.exponent = exponent
        self.isNegative = isNegative
        self.isCompact = isCompact
    }

    package init(_ value: Decimal) {
        guard let layout = DecimalParts.layout else {
            self.init(publicParts: value)
            return
        }
        self = withUnsafeBytes(of: value) { raw in
            let flags = raw[1]
            // Words past the length are not part of the value.
            let bits = 16 * min(8, Int((flags >> layout.lengthShift) & 0x0F))
            var low = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt64.self))
            var high = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
            if bits < 64 {
                low &= (1 << UInt64(bits)) &- 1
                high = 0
            } else if bits < 128 {
                high &= (1 << UInt64(bits - 64)) &- 1
            }
            return FastDecimal(
                high: high, low: low, exponent: Int(Int8(bitPattern: raw[0])), isNegative: flags & layout.negativeBit != 0,
                isCompact: flags & layout.compactBit != 0)
        }
    }

    /// Only where `DecimalParts` knows no storage layout (`isAvailable` is false, and callers
    /// compute with Foundation instead): the value from its text, its stored form not kept.
    package init(publicParts value: Decimal) {
        self.init(high: 0, low: 0, exponent: 0, isNegative: true, isCompact: false)
        guard !value.isNaN else { return }
        // The significand's text is the mantissa's digits (at most 39: below 2^128).
        var (high, low): (UInt64, UInt64) = (0, 0)
        for byte in value.significand.magnitude.description.utf8 where byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
            let product = low.multipliedFullWidth(by: 10)
            let (sum, carry) = product.low.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            (high, low) = (high &* 10 &+ product.high &+ (carry ? 1 : 0), sum)
        }
        self = FastDecimal(high: high, low: low, exponent: value.exponent, isNegative: value.sign == .minus && !value.isZero, isCompact: true)
    }

    /// Whether values are read and written in Foundation's own storage, so that results are
    /// Foundation's byte for byte; everywhere swift-foundation or Darwin's Foundation runs.
    package static var isAvailable: Bool { DecimalParts.layout != nil }

    /// NaN is stored as Foundation stores it: no mantissa, the sign set.
    package var isZero: Bool { high == 0 && low == 0 && !isNegative }
    package var isNaN: Bool { high == 0 && low == 0 && isNegative }

    /// The `Decimal` of these parts, stored as Foundation stores its results.
    package var decimal: Decimal {
        let words = high == 0 && low == 0 ? 0 : (128 - Self.leadingZeros(high, low) + 15) / 16
        let exponent = Int8(clamping: exponent)
        guard let layout = DecimalParts.layout else {
            let mantissa = Decimal(high) * (Decimal(UInt64.max) + 1) + Decimal(low)
            return Decimal(sign: isNegative ? .minus : .plus, exponent: Int(exponent), significand: mantissa)
        }
        var value = Decimal()
        withUnsafeMutableBytes(of: &value) { raw in
            raw[0] = UInt8(bitPattern: exponent)
            raw[1] = UInt8(words) << layout.lengthShift | (isNegative ? layout.negativeBit : 0) | (isCompact ? layout.compactBit : 0)
            raw[2] = 0
            raw[3] = 0
            raw.storeBytes(of: low.littleEndian, toByteOffset: 4, as: UInt64.self)
            raw.storeBytes(of: high.littleEndian, toByteOffset: 12, as: UInt64.self)
        }
        return value
    }

    /// Foundation's `Decimal.zero`, which its operations return for a zero product, quotient or difference.
    static let zero = FastDecimal(Decimal.zero)

    /// The literals the reports compute with, stored as Foundation stores `100` and `2`.
    package static let hundred = FastDecimal(100 as Decimal)
    package static let two = FastDecimal(2 as Decimal)
    package static let one = FastDecimal(1 as Decimal)

    /// `value > 0`.
    package var isPositive: Bool { !isNegative && !isZero }

    // MARK: - Operations on Decimals

    /// `a × b` as Foundation computes it.
    package static func multiply(_ a: Decimal, _ b: Decimal) -> Decimal {
        (FastDecimal(a) * FastDecimal(b)).decimal
    }

    /// `a ÷ b` as Foundation computes it.
    package static func divide(_ a: Decimal, _ b: Decimal) -> Decimal {
        (FastDecimal(a) / FastDecimal(b)).decimal
    }

    /// `a + b` as Foundation computes it.
    package static func add(_ a: Decimal, _ b: Decimal) -> Decimal {
        (FastDecimal(a) + FastDecimal(b)).decimal
    }

    /// `a − b` as Foundation computes it.
    package static func subtract(_ a: Decimal, _ b: Decimal) -> Decimal {
        (FastDecimal(a) - FastDecimal(b)).decimal
    }

    /// Foundation's own result, for the cases not reproduced here (NaN included).
    private static func foundation(_ a: FastDecimal, _ b: FastDecimal, _ operation: (Decimal, Decimal) -> Decimal) -> FastDecimal {
        FastDecimal(operation(a.decimal, b.decimal))
    }

    // MARK: - Arithmetic

    package static func * (a: FastDecimal, b: FastDecimal) -> FastDecimal {
        if a.isNaN || b.isNaN { return foundation(a, b, *) }
        if a.isZero || b.isZero { return zero }
        let product = multiplyFull(a.high, a.low, b.high, b.low)
        var exponent = a.exponent + b.exponent
        var high = product.1
        var low = product.0
        if product.3 != 0 || product.2 != 0 {
            // The fewest powers of ten that bring the product under 2^128: as many as the upper
            // half has digits. Cut, not rounded (see the type's comment).
            let cut = digitCount(product.3, product.2)
            (high, low) = divide(product, byPowerOfTen: cut)
            exponent += cut
        }
        guard (-128...127).contains(exponent) else { return foundation(a, b, *) }
        return compacted(high: high, low: low, exponent: exponent, isNegative: a.isNegative != b.isNegative)
    }

    package static func / (a: FastDecimal, b: FastDecimal) -> FastDecimal {
        guard !a.isNaN, !b.isNaN, !b.isZero, a.exponent - b.exponent < 19 else { return foundation(a, b, /) }
        if a.isZero { return zero }
        // ⌊a × 10^38 / b⌋ cut by 10^k to fit 128 bits is ⌊a × 10^(38 − k) / b⌋: the largest
        // j = 38 − k with a × 10^j < b × 2^128, found from the bit lengths and checked exactly.
        let bitsA = 128 - leadingZeros(a.high, a.low)
        let bitsB = 128 - leadingZeros(b.high, b.low)
        var j = min(38, ((bitsB - 1 + 128 - bitsA) * 1233) >> 12)
        var scaled = multiplyFull(a.high, a.low, powersOfTen[j].high, powersOfTen[j].low)
        while j < 38 {
            let next = multiplyFull(a.high, a.low, powersOfTen[j + 1].high, powersOfTen[j + 1].low)
            guard less(next.3, next.2, than: b.high, b.low) else { break }
            scaled = next
            j += 1
        }
        // The estimate is a lower bound (1233/4096 < log10 2), so this never runs; kept so that
        // a wrong estimate costs time, not a wrong figure.
        while !less(scaled.3, scaled.2, than: b.high, b.low) && j > 0 {
            j -= 1
            scaled = multiplyFull(a.high, a.low, powersOfTen[j].high, powersOfTen[j].low)
        }
        let (high, low) = divide(scaled, by: b.high, b.low)
        let exponent = a.exponent - b.exponent - j
        // A zero quotient is left by Foundation unnormalised (even as NaN); never for report figures.
        guard high != 0 || low != 0, (-128...127).contains(exponent) else { return foundation(a, b, /) }
        return compacted(high: high, low: low, exponent: exponent, isNegative: a.isNegative != b.isNegative)
    }

    package static func + (a: FastDecimal, b: FastDecimal) -> FastDecimal {
        if a.isNaN || b.isNaN { return foundation(a, b, +) }
        if a.isZero { return b }
        if b.isZero { return a }
        // Both mantissas at the smaller exponent: exact when the scaled one fits 128 bits.
        var (ah, al, bh, bl) = (a.high, a.low, b.high, b.low)
        let exponent = min(a.exponent, b.exponent)
        if a.exponent != b.exponent {
            let shift = abs(a.exponent - b.exponent)
            guard shift <= 38 else { return foundation(a, b, +) }
            let power = powersOfTen[shift]
            if a.exponent > b.exponent {
                let scaled = multiplyFull(ah, al, power.high, power.low)
                guard scaled.3 == 0 && scaled.2 == 0 else { return foundation(a, b, +) }
                (ah, al) = (scaled.1, scaled.0)
            } else {
                let scaled = multiplyFull(bh, bl, power.high, power.low)
                guard scaled.3 == 0 && scaled.2 == 0 else { return foundation(a, b, +) }
                (bh, bl) = (scaled.1, scaled.0)
            }
        }
        if a.isNegative == b.isNegative {
            let (sumLow, carry) = al.addingReportingOverflow(bl)
            let (sumHigh, overflow1) = ah.addingReportingOverflow(bh)
            let (sumHighCarried, overflow2) = sumHigh.addingReportingOverflow(carry ? 1 : 0)
            // Past 128 bits Foundation cuts the sum to fit (`_fitMantissa`); rare enough to leave to it.
            guard !overflow1 && !overflow2 else { return foundation(a, b, +) }
            return compacted(high: sumHighCarried, low: sumLow, exponent: exponent, isNegative: a.isNegative)
        }
        if ah == bh && al == bl { return zero }
        let aLarger = ah > bh || (ah == bh && al > bl)
        let (th, tl, sh, sl) = aLarger ? (ah, al, bh, bl) : (bh, bl, ah, al)
        let (differenceLow, borrow) = tl.subtractingReportingOverflow(sl)
        let differenceHigh = th &- sh &- (borrow ? 1 : 0)
        return compacted(high: differenceHigh, low: differenceLow, exponent: exponent, isNegative: aLarger ? a.isNegative : b.isNegative)
    }

    package static prefix func - (value: FastDecimal) -> FastDecimal {
        // Foundation negates only a non-zero value (NaN included: it stays NaN).
        guard value.high != 0 || value.low != 0 else { return value }
        var negated = value
        negated.isNegative.toggle()
        return negated
    }

    package static func - (a: FastDecimal, b: FastDecimal) -> FastDecimal {
        a + (-b)
    }

    /// Trailing zeros moved into the exponent, up to Foundation's largest exponent, 127.
    private static func compacted(high: UInt64, low: UInt64, exponent: Int, isNegative: Bool) -> FastDecimal {
        var (high, low, exponent) = (high, low, exponent)
        while exponent < 127 {
            // (high × 2^64 + low) mod 10, with 2^64 ≡ 6 (mod 10): no division for the usual non-zero digit.
            guard ((high % 10) * 6 + low % 10) % 10 == 0 else { break }
            let quotientHigh = high / 10
            (low, _) = divideStep(high % 10, low, by: 10)
            high = quotientHigh
            exponent += 1
        }
        return FastDecimal(high: high, low: low, exponent: exponent, isNegative: isNegative, isCompact: true)
    }

    // MARK: - Comparison

    /// Exact numeric order (Foundation's own comparison rescales lossily when exponents are far
    /// apart); NaN first, as Foundation orders it.
    package static func compare(_ a: FastDecimal, _ b: FastDecimal) -> Int {
        if a.isNaN || b.isNaN { return a.isNaN == b.isNaN ? 0 : (a.isNaN ? -1 : 1) }
        let signA = a.isZero ? 0 : (a.isNegative ? -1 : 1)
        let signB = b.isZero ? 0 : (b.isNegative ? -1 : 1)
        if signA != signB { return signA < signB ? -1 : 1 }
        if signA == 0 { return 0 }
        let magnitude = compareMagnitudes(a, b)
        return signA > 0 ? magnitude : -magnitude
    }

    private static func compareMagnitudes(_ a: FastDecimal, _ b: FastDecimal) -> Int {
        if a.exponent == b.exponent { return compare128(a.high, a.low, b.high, b.low) }
        // Scale the larger exponent's mantissa down to the other's, in 256 bits; past 38 orders
        // the larger exponent wins outright, as a non-zero mantissa is below 10^39.
        let shift = abs(a.exponent - b.exponent)
        if shift > 38 { return a.exponent > b.exponent ? 1 : -1 }
        let power = powersOfTen[shift]
        if a.exponent > b.exponent {
            let scaled = multiplyFull(a.high, a.low, power.high, power.low)
            if scaled.3 != 0 || scaled.2 != 0 { return 1 }
            return compare128(scaled.1, scaled.0, b.high, b.low)
        }
        let scaled = multiplyFull(b.high, b.low, power.high, power.low)
        if scaled.3 != 0 || scaled.2 != 0 { return -1 }
        return compare128(a.high, a.low, scaled.1, scaled.0)
    }

    static func compare128(_ ah: UInt64, _ al: UInt64, _ bh: UInt64, _ bl: UInt64) -> Int {
        if ah != bh { return ah < bh ? -1 : 1 }
        if al != bl { return al < bl ? -1 : 1 }
        return 0
    }

    // MARK: - 128- and 256-bit integers

    /// 10^0 … 10^38 as 128-bit pairs.
    static let powersOfTen: [(high: UInt64, low: UInt64)] = {
        var powers: [(high: UInt64, low: UInt64)] = [(0, 1)]
        for _ in 1...38 {
            let (high, low) = powers[powers.count - 1]
            let lowProduct = low.multipliedFullWidth(by: 10)
            powers.append((high &* 10 &+ lowProduct.high, lowProduct.low))
        }
        return powers
    }()

    static func leadingZeros(_ high: UInt64, _ low: UInt64) -> Int {
        high != 0 ? high.leadingZeroBitCount : 64 + low.leadingZeroBitCount
    }

    static func less(_ ah: UInt64, _ al: UInt64, than bh: UInt64, _ bl: UInt64) -> Bool {
        ah < bh || (ah == bh && al < bl)
    }

    /// Decimal digits of a 128-bit value (0 for zero): the smallest k with 10^k above it.
    static func digitCount(_ high: UInt64, _ low: UInt64) -> Int {
        if high == 0 && low == 0 { return 0 }
        // ⌊bits × log10 2⌋ (1233/4096 is exact enough up to 128 bits), then one comparison.
        let estimate = ((128 - leadingZeros(high, low)) * 1233) >> 12
        let power = powersOfTen[estimate]
        return less(high, low, than: power.high, power.low) ? estimate : estimate + 1
    }

    /// The 256-bit product, least significant limb first.
    static func multiplyFull(_ ah: UInt64, _ al: UInt64, _ bh: UInt64, _ bl: UInt64) -> (UInt64, UInt64, UInt64, UInt64) {
        let ll = al.multipliedFullWidth(by: bl)
        if ah == 0 && bh == 0 { return (ll.low, ll.high, 0, 0) }
        let lh = al.multipliedFullWidth(by: bh)
        let hl = ah.multipliedFullWidth(by: bl)
        let hh = ah.multipliedFullWidth(by: bh)
        let (m1, c1) = ll.high.addingReportingOverflow(lh.low)
        let (m2, c2) = m1.addingReportingOverflow(hl.low)
        let (n1, d1) = hh.low.addingReportingOverflow(lh.high)
        let (n2, d2) = n1.addingReportingOverflow(hl.high)
        let (n3, d3) = n2.addingReportingOverflow((c1 ? 1 : 0) + (c2 ? 1 : 0))
        let top = hh.high &+ (d1 ? 1 : 0) &+ (d2 ? 1 : 0) &+ (d3 ? 1 : 0)
        return (ll.low, m2, n3, top)
    }

    /// ⌊value / 10^power⌋ for a 256-bit value whose quotient fits 128 bits (power ≤ 39).
    static func divide(_ value: (UInt64, UInt64, UInt64, UInt64), byPowerOfTen power: Int) -> (high: UInt64, low: UInt64) {
        // ⌊⌊x / a⌋ / b⌋ = ⌊x / ab⌋: at most 19 digits a step, each a few hardware divisions.
        var limbs = value
        var left = power
        while left > 0 {
            let step = min(left, 19)
            let divisor = powersOfTen[step].low
            let q3 = limbs.3 / divisor
            var remainder = limbs.3 % divisor
            let q2: UInt64
            let q1: UInt64
            let q0: UInt64
            (q2, remainder) = divideStep(remainder, limbs.2, by: divisor)
            (q1, remainder) = divideStep(remainder, limbs.1, by: divisor)
            (q0, remainder) = divideStep(remainder, limbs.0, by: divisor)
            limbs = (q0, q1, q2, q3)
            left -= step
        }
        return (limbs.1, limbs.0)
    }

    /// (high:low) / divisor for high < divisor: the full-width division is a library call,
    /// a 64-bit one an instruction, and a product's upper limbs are often zero.
    @inline(__always)
    static func divideStep(_ high: UInt64, _ low: UInt64, by divisor: UInt64) -> (UInt64, UInt64) {
        if high == 0 { return (low / divisor, low % divisor) }
        let result = divisor.dividingFullWidth((high: high, low: low))
        return (result.quotient, result.remainder)
    }

    /// ⌊value / (dh:dl)⌋ for a 256-bit value below divisor × 2^128, so that the quotient fits 128 bits.
    static func divide(_ value: (UInt64, UInt64, UInt64, UInt64), by dh: UInt64, _ dl: UInt64) -> (high: UInt64, low: UInt64) {
        if dh == 0 {
            // value < dl × 2^128: the top limb is zero and the next below dl.
            let (q1, r1) = divideStep(value.2, value.1, by: dl)
            let (q0, _) = divideStep(r1, value.0, by: dl)
            return (q1, q0)
        }
        // Knuth's algorithm D with a two-limb divisor, normalised so that its top bit is set.
        let shift = UInt64(dh.leadingZeroBitCount)
        let d1 = shift == 0 ? dh : dh << shift | dl >> (64 - shift)
        let d0 = dl << shift
        let u3 = shift == 0 ? value.3 : value.3 << shift | value.2 >> (64 - shift)
        let u2 = shift == 0 ? value.2 : value.2 << shift | value.1 >> (64 - shift)
        let u1 = shift == 0 ? value.1 : value.1 << shift | value.0 >> (64 - shift)
        let u0 = value.0 << shift
        let upper = divide3by2(u3, u2, u1, d1, d0)
        let lower = divide3by2(upper.r1, upper.r0, u0, d1, d0)
        return (upper.q, lower.q)
    }

    /// ⌊(u2:u1:u0) / (d1:d0)⌋ and the remainder, for (u2:u1) < (d1:d0) and d1's top bit set.
    private static func divide3by2(
        _ u2: UInt64, _ u1: UInt64, _ u0: UInt64, _ d1: UInt64, _ d0: UInt64
    ) -> (q: UInt64, r1: UInt64, r0: UInt64) {
        var estimate: UInt64
        var remainder: UInt64
        var remainderOverflow = false
        if u2 >= d1 {
            // u2 == d1: the estimate is 2^64 − 1, and (u2:u1) − estimate × d1 = u1 + d1.
            estimate = .max
            (remainder, remainderOverflow) = u1.addingReportingOverflow(d1)
        } else {
            (estimate, remainder) = d1.dividingFullWidth((high: u2, low: u1))
        }
        // With the whole divisor checked, the estimate comes down to the exact quotient digit.
        while !remainderOverflow {
            let product = estimate.multipliedFullWidth(by: d0)
            guard product.high > remainder || (product.high == remainder && product.low > u0) else { break }
            estimate -= 1
            (remainder, remainderOverflow) = remainder.addingReportingOverflow(d1)
        }
        // (u1:u0) − estimate × (d1:d0), modulo 2^128: the true remainder is below the divisor.
        let low = estimate.multipliedFullWidth(by: d0)
        let high = estimate.multipliedFullWidth(by: d1)
        let t0 = low.low
        let t1 = high.low &+ low.high
        let (r0, borrow) = u0.subtractingReportingOverflow(t0)
        let r1 = u1 &- t1 &- (borrow ? 1 : 0)
        return (estimate, r1, r0)
    }
}
