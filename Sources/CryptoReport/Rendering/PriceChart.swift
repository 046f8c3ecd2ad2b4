import Foundation

/// A price chart for people: a dated axis under the line, the low and high labelled in a margin
/// the line never crosses, and the reader's own alert limits as dashed lines. Inline SVG, drawn by
/// the project because no library in reach writes small static SVG; only numbers and escaped text
/// go into the markup.
enum PriceChart {
    struct Point {
        /// `2022-11-22`.
        var day: String
        var value: Decimal
    }

    struct Limit {
        /// `above 180 000 kr`.
        var label: String
        var value: Decimal
        /// `up` for an upper limit, `down` for a lower one: the colour of what crossing it means.
        var direction: String
    }

    /// - Parameters:
    ///   - format: the figure as people read it, for the low, high and limit labels.
    ///   - months: the months' short names on the axis, in the page's language.
    static func svg(
        _ points: [Point], limits: [Limit] = [], width: Int = 320, height: Int = 130, fontSize: Int = 11, label: String,
        months: [String] = englishMonths, format: (Decimal) -> String
    ) -> String {
        guard points.count > 1, let first = points.first, let last = points.last else { return "" }
        let values = points.map { double($0.value) }
        let limitValues = limits.map { double($0.value) }
        guard let low = (values + limitValues).min(), let high = (values + limitValues).max(),
            let dataLow = points.map(\.value).min(), let dataHigh = points.map(\.value).max()
        else { return "" }
        let highText = format(dataHigh), lowText = format(dataLow)
        // The plot leaves a right margin as wide as the longer label (about 0.6 em a character in
        // a system sans-serif) and a bottom one for the dates.
        let em = Double(fontSize)
        let labelWidth = Double(max(highText.count, lowText.count)) * em * 0.6 + 6
        let plot = (left: 2.0, top: em * 0.6, right: Double(width) - labelWidth, bottom: Double(height) - em * 1.7)
        let span = high - low
        func x(_ index: Int) -> Double { plot.left + Double(index) / Double(points.count - 1) * (plot.right - plot.left) }
        func y(_ value: Double) -> Double {
            let fraction = span > 0 ? (value - low) / span : 0.5
            return plot.bottom - fraction * (plot.bottom - plot.top)
        }
        // Whole units of a viewBox some hundreds wide: finer is invisible and costs bytes.
        func number(_ value: Double) -> String { String(Int(value.rounded())) }

        let direction = last.value > first.value ? "up" : last.value < first.value ? "down" : "flat"
        var svg = "<svg class=\"chart-svg \(direction)\" viewBox=\"0 0 \(width) \(height)\" font-size=\"\(fontSize)\" role=\"img\" aria-label=\"\(escape(label))\">"
        // Gridlines at the low and the high, labelled outside the plot.
        // The two labels kept a line apart, however close the low and the high.
        let highY = y(double(dataHigh)), lowY = max(y(double(dataLow)), highY + em)
        for (value, text, lineY) in dataHigh == dataLow ? [(dataHigh, highText, highY)] : [(dataHigh, highText, highY), (dataLow, lowText, lowY)] {
            svg += "<line class=\"grid\" x1=\"\(number(plot.left))\" x2=\"\(number(plot.right))\" y1=\"\(number(y(double(value))))\" y2=\"\(number(y(double(value))))\"/>"
            svg += "<text x=\"\(number(plot.right + 4))\" y=\"\(number(lineY + em * 0.35))\">\(escape(text))</text>"
        }
        for limit in limits {
            let lineY = number(y(double(limit.value)))
            svg += "<line class=\"limit \(limit.direction)\" x1=\"\(number(plot.left))\" x2=\"\(number(plot.right))\" y1=\"\(lineY)\" y2=\"\(lineY)\"/>"
            svg += "<text class=\"limit \(limit.direction)\" x=\"\(number(plot.left + 4))\" y=\"\(number(y(double(limit.value)) - 3))\">\(escape(limit.label))</text>"
        }
        let line = values.enumerated().map { "\(number(x($0.offset))),\(number(y($0.element)))" }.joined(separator: " ")
        svg += "<polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.6\" stroke-linejoin=\"round\" points=\"\(line)\"/>"
        // The first, middle and last days under the plot.
        let middle = points.count / 2
        let ticks: [(Int, String)] = points.count > 4 ? [(0, "start"), (middle, "middle"), (points.count - 1, "end")] : [(0, "start"), (points.count - 1, "end")]
        for (index, anchor) in ticks {
            svg += "<text class=\"day\" x=\"\(number(x(index)))\" y=\"\(height - 3)\" text-anchor=\"\(anchor)\">\(escape(shortDay(points[index].day, months: months)))</text>"
        }
        return svg + "</svg>"
    }

    /// How many calendar days a dated series covers, its first and last included: `2022-11-17` …
    /// `2022-11-22` is 6. `nil` when the days are not known or not dates.
    static func daysCovered(_ days: [String]) -> Int? {
        guard let first = days.first.flatMap(dayNumber), let last = days.last.flatMap(dayNumber), last >= first else { return nil }
        return last - first + 1
    }

    /// Days since 1970-01-01 of `2022-11-22` (proleptic Gregorian, as ISO 8601 dates are).
    static func dayNumber(_ day: String) -> Int? {
        let parts = day.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let date = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(date)
        else { return nil }
        // Howard Hinnant's days_from_civil: years start in March, so the leap day is last.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + date - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Charts are pictures: a `Double` is exact enough for a pixel.
    static func double(_ value: Decimal) -> Double { NSDecimalNumber(decimal: value).doubleValue }

    static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `2022-11-22` as `22 Nov` (`22 nov` in Swedish): the axis needs no year for a month.
    static func shortDay(_ day: String, months: [String] = englishMonths) -> String {
        let parts = day.split(separator: "-")
        guard parts.count == 3, let month = Int(parts[1]), months.indices.contains(month - 1), let date = Int(parts[2]) else { return day }
        return "\(date) \(months[month - 1])"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
