package import Foundation
import Synchronization

/// Small price charts drawn by the project: Unicode blocks for Markdown, inline SVG for HTML.
package enum Sparkline {
    /// `▁▂▄█`: one block per value, scaled between the series' low and high.
    ///
    /// Drawn in `Double`: a sparkline is a picture, not a figure, and a `Decimal` division per
    /// point would cost more than the rest of a row.
    package static func unicode(_ values: [Decimal]) -> String {
        unicode(Points(values))
    }

    static func unicode(_ series: Points) -> String {
        guard series.count > 1, let (low, high) = series.extremes else { return "" }
        let bottom = series.doubles[low]
        let span = series.doubles[high] - bottom
        // Values a `Double` cannot tell apart (past 16 digits) draw flat, as equal ones do:
        // scaled by a span of 0 they would be NaN, which no block is.
        guard series.values[high] > series.values[low], span > 0 else { return String(repeating: "▄", count: series.count) }
        // The blocks' UTF-8 bytes (U+2581…U+2588: E2 96 81…88), not a `Character` appended per point.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(series.count * 3)
        for point in series.doubles {
            let level = (point - bottom) / span * 7
            bytes.append(0xE2)
            bytes.append(0x96)
            bytes.append(0x81 + UInt8(min(7, max(0, Int(level.rounded())))))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// An inline SVG line chart, coloured by the direction from first to last value.
    /// Only numbers and escaped text go into the markup, so it is safe to insert unescaped.
    /// `label` names it for a screen reader, in the page's language (English by default).
    /// `labels`, the low and the high, go in a right margin the line leaves them (10 px text, as
    /// the stylesheet sets it), so that the line never crosses them.
    package static func svg(_ values: [Decimal], width: Int = 100, height: Int = 24, labels: (low: String, high: String)? = nil, label: String? = nil) -> String
    {
        svg(Points(values), width: width, height: height, labels: labels, label: label)
    }

    static func svg(_ series: Points, width: Int = 100, height: Int = 24, labels: (low: String, high: String)? = nil, label: String? = nil) -> String {
        let values = series.values
        guard values.count > 1, let first = values.first, let last = values.last, let (low, high) = series.extremes else { return "" }
        // A margin for the labels at 10 px, an average character of the page's sans-serif 0.62 em.
        let margin = labels.map { Double(max($0.low.count, $0.high.count)) * 10 * 0.62 + 6 } ?? 0
        let bottom = series.doubles[low]
        let span = series.doubles[high] - bottom
        let direction = last > first ? "up" : last < first ? "down" : "flat"
        // The markup made as bytes, one `String` at the end, not a dozen `String`s joined with
        // the label and numbers interpolated.
        var svg: [UInt8] = []
        svg.reserveCapacity(values.count * 10 + 300)
        svg += "<svg class=\"spark ".utf8
        svg += direction.utf8
        svg += "\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"".utf8
        if let label { svg += escape(label).utf8 } else { svg += "\(values.count)-day price trend".utf8 }
        svg += "\"><polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"".utf8
        // The x of each point depends on the count and the width alone: a row's line of the usual
        // size takes them written once (`DefaultXs`).
        let xs = labels == nil && width == 100 ? DefaultXs.shared.xs(values.count) : nil
        for (index, value) in series.doubles.enumerated() {
            let fraction = span > 0 ? (value - bottom) / span : 0.5
            let y = pad + (1 - fraction) * (Double(height) - 2 * pad)
            if index > 0 { svg.append(UInt8(ascii: " ")) }
            if let xs {
                svg += xs.text[(index == 0 ? 0 : xs.ends[index - 1])..<xs.ends[index]]
            } else {
                appendOneDecimal(x(index, count: values.count, width: width, margin: margin), to: &svg)
            }
            svg.append(UInt8(ascii: ","))
            appendOneDecimal(y, to: &svg)
        }
        svg += "\"/>".utf8
        if let labels {
            let x = Int((Double(width) - margin + 4).rounded())
            svg += "<text x=\"\(x)\" y=\"10\">\(escape(labels.high))</text>".utf8
            svg += "<text x=\"\(x)\" y=\"\(height - 3)\">\(escape(labels.low))</text>".utf8
        }
        svg += "</svg>".utf8
        return String(decoding: svg, as: UTF8.self)
    }

    private static let pad = 2.0

    /// The x of point `index` of `count` in a line `width` wide that leaves `margin` on its right.
    private static func x(_ index: Int, count: Int, width: Int, margin: Double) -> Double {
        pad + Double(index) / Double(count - 1) * (Double(width) - margin - 2 * pad)
    }

    /// The written x of every point of a line 100 wide without labels (a row's), by the number
    /// of points, up to 64: each count's in one buffer, point `i` ending at `ends[i]`, not an
    /// array a point. Each count's written when first drawn, not all 64 at once: a month's rows
    /// use one or two counts.
    private final class DefaultXs: Sendable {
        static let shared = DefaultXs()
        /// Counts up to 64 are kept.
        static let counts = 65
        private let byCount = Mutex([(text: [UInt8], ends: [Int])?](repeating: nil, count: counts))

        func xs(_ count: Int) -> (text: [UInt8], ends: [Int])? {
            guard count < Self.counts else { return nil }
            if let made = byCount.withLock({ $0[count] }) { return made }
            var written: (text: [UInt8], ends: [Int]) = ([], [])
            for index in 0..<count {
                appendOneDecimal(x(index, count: count, width: 100, margin: 0), to: &written.text)
                written.ends.append(written.text.count)
            }
            byCount.withLock { $0[count] = written }
            return written
        }
    }

    /// A series as drawn: its values, each as a `Double` once, and its low and high, found once
    /// for both of a row's lines.
    struct Points {
        let values: [Decimal]
        let doubles: [Double]
        /// See `findExtremes()`.
        private(set) var extremes: (low: Int, high: Int)?

        init(_ values: [Decimal]) {
            self.values = values
            doubles = values.map(Sparkline.double)
            extremes = nil
            extremes = values.count > 1 ? findExtremes() : nil
        }

        var count: Int { values.count }

        /// The positions of the first least and the first greatest value, as `values.min()` and
        /// `values.max()` find them, without comparing every pair of `Decimal`s (a `Decimal`
        /// comparison aligns both mantissas, which is costly). The
        /// `Double`s find them; values whose `Double`s lie within a rounding error of the
        /// extreme's, which a `Double` cannot tell apart, are settled as `Decimal`s. `nil` for
        /// an empty series; a NaN anywhere is left to `Decimal`'s own order.
        func findExtremes() -> (low: Int, high: Int)? {
            guard !values.isEmpty else { return nil }
            guard !doubles.contains(where: \.isNaN) else {
                guard let low = values.indices.min(by: { values[$0] < values[$1] }),
                    let high = values.indices.max(by: { values[$0] < values[$1] })
                else { return nil }
                return (low, high)
            }
            return (extreme(greatest: false), extreme(greatest: true))
        }

        private func extreme(greatest: Bool) -> Int {
            var best = 0
            for index in doubles.indices.dropFirst() where greatest ? doubles[index] > doubles[best] : doubles[index] < doubles[best] {
                best = index
            }
            // Each `Double` is within a few units in the last place of its value (1e-15
            // relative): the true extreme's is within twice that of the one found.
            let tolerance = abs(doubles[best]) * 1e-12
            var found: Int?
            var foundParts: FastDecimal?
            for index in doubles.indices where abs(doubles[index] - doubles[best]) <= tolerance {
                guard let current = found else {
                    found = index
                    foundParts = FastDecimal.isAvailable ? FastDecimal(values[index]) : nil
                    continue
                }
                // The same digits and exponent are the same value: a flat line (a quiet market's
                // every day) compares no `Decimal`s.
                let parts = FastDecimal.isAvailable ? FastDecimal(values[index]) : nil
                if let parts, parts == foundParts { continue }
                if greatest ? values[index] > values[current] : values[index] < values[current] {
                    found = index
                    foundParts = parts
                }
            }
            return found ?? best
        }
    }

    /// A `Decimal` as the nearest-enough `Double`: mantissa × 10^exponent, without
    /// `NSDecimalNumber`'s allocation per value (the sparklines, and the page's history data).
    static func double(_ value: Decimal) -> Double {
        guard let parts = DecimalParts(value) else { return NSDecimalNumber(decimal: value).doubleValue }
        let mantissa = Double(parts.high) * 18_446_744_073_709_551_616.0 + Double(parts.low)
        let magnitude =
            parts.exponent >= 0
            ? mantissa * powerOfTen(parts.exponent) : mantissa / powerOfTen(-parts.exponent)
        return parts.isNegative ? -magnitude : magnitude
    }

    /// `pow(10, Double(power))`, the very `Double`s, made once for a `Decimal`'s exponents: a call
    /// per value, twice for each day of each market's month (its line and the page's history data).
    private static func powerOfTen(_ power: Int) -> Double {
        power >= 0 && power < powersOfTen.count ? powersOfTen[power] : pow(10, Double(power))
    }

    private static let powersOfTen: [Double] = (0...128).map { pow(10, Double($0)) }

    /// `String(format: "%.1f", value)` for a coordinate, without a format call per point: the
    /// nearest tenth of the exact binary value, ties to even, as printf rounds. `fma` gives the
    /// error of `value × 10`, which decides the cases the product rounded onto a half.
    static func appendOneDecimal(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite, abs(value) < 1e15 else {
            bytes += Array(String(format: "%.1f", value).utf8)
            return
        }
        let scaled = value * 10
        let error = fma(value, 10, -scaled)
        var tenths = scaled.rounded(.towardZero)
        let rest = scaled - tenths
        if abs(rest) > 0.5 || (abs(rest) == 0.5 && (error * rest > 0 || (error == 0 && Int64(tenths) % 2 != 0))) {
            tenths += rest > 0 ? 1 : -1
        }
        var units = Int64(tenths)
        if units < 0 || (units == 0 && value.sign == .minus) {
            bytes.append(UInt8(ascii: "-"))
            units = -units
        }
        appendDigits(UInt64(units / 10), to: &bytes)
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(units % 10))
    }

    /// `String(value)`'s digits, without a `String` and an `Array` per coordinate.
    static func appendDigits(_ value: UInt64, to bytes: inout [UInt8]) {
        // One or two digits (a coordinate's whole part, most changes in hundredths) straight in.
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        if value < 100 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            var rest = value
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    private static func escape(_ text: String) -> String {
        // A label seldom holds anything to escape: checked once, before three
        // `replacingOccurrences` that each copy it.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }) else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
