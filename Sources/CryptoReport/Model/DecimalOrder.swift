package import Foundation

/// A `Decimal`'s place in numeric order, worked out once so that sorting many rows does not
/// compare `Decimal`s (each comparison compacts both sides). Equal keys are equal values. NaN
/// (never a figure) compares through `Decimal` itself.
package struct DecimalOrder: Comparable, Sendable {
    package let value: Decimal
    /// −1, 0 or 1.
    let sign: Int
    let magnitude: Int
    /// The mantissa scaled to 39 digits (below 2^130, so three limbs): values of one magnitude
    /// then compare as integers, the 39-digit mantissas of products included.
    let top: UInt64
    let high: UInt64
    let low: UInt64
    let keyed: Bool

    package init(_ value: Decimal) {
        self.value = value
        let parts = FastDecimal(value)
        guard FastDecimal.isAvailable, !parts.isNaN else {
            (sign, magnitude, top, high, low, keyed) = (0, 0, 0, 0, 0, false)
            return
        }
        if parts.isZero {
            (sign, magnitude, top, high, low, keyed) = (0, 0, 0, 0, 0, true)
            return
        }
        let digits = FastDecimal.digitCount(parts.high, parts.low)
        let power = FastDecimal.powersOfTen[39 - digits]
        let scaled = FastDecimal.multiplyFull(parts.high, parts.low, power.high, power.low)
        (sign, magnitude, top, high, low, keyed) = (parts.isNegative ? -1 : 1, digits - 1 + parts.exponent, scaled.2, scaled.1, scaled.0, true)
    }

    package static func < (left: DecimalOrder, right: DecimalOrder) -> Bool {
        guard left.keyed && right.keyed else { return left.value < right.value }
        if left.sign != right.sign { return left.sign < right.sign }
        if left.sign == 0 { return false }
        let smaller: Bool
        if left.magnitude != right.magnitude {
            smaller = left.magnitude < right.magnitude
        } else if left.top != right.top {
            smaller = left.top < right.top
        } else if left.high != right.high {
            smaller = left.high < right.high
        } else if left.low != right.low {
            smaller = left.low < right.low
        } else {
            return false
        }
        return left.sign > 0 ? smaller : !smaller
    }

    package static func == (left: DecimalOrder, right: DecimalOrder) -> Bool {
        guard left.keyed && right.keyed else { return left.value == right.value }
        return left.sign == right.sign
            && (left.sign == 0 || (left.magnitude == right.magnitude && left.top == right.top && left.high == right.high && left.low == right.low))
    }
}
