import Foundation

/// A price chart for people: a dated axis under the line, the low, the high and the reader's own
/// alert limits (dashed lines) labelled in a margin the line never crosses (`ChartLabels`).
/// Inline SVG, drawn by the project because no library in reach writes small static SVG; only
/// numbers and escaped text go into the markup.
enum PriceChart {
    struct Point {
        /// `2022-11-22`.
        var day: String
        var value: Decimal
    }

    struct Limit {
        /// `above 180 000 kr`.
        var label: String
        /// `▲ 180 000 kr`: the label where the words would leave the line too little room.
        var glyphLabel: String? = nil
        var value: Decimal
        /// `up` for an upper limit, `down` for a lower one: the colour of what crossing it means.
        var direction: String
    }

    /// - Parameters:
    ///   - limits: drawn as dashed lines where they fall near the prices, marked at the edge
    ///     (`↑ above 250 000 kr`) where they lie far beyond; a limit with an empty label is drawn
    ///     unlabelled.
    ///   - format: the figure as people read it, for the low and high labels.
    ///   - months: the months' short names on the axis, in the page's language.
    ///   - monthFirst: `Nov 22` rather than `22 Nov` (`writesMonthFirst`).
    static func svg(
        _ points: [Point], limits: [Limit] = [], width: Int = 320, height: Int = 130, fontSize: Int = 11, label: String,
        months: [String] = englishMonths, monthFirst: Bool = false, format: (Decimal) -> String
    ) -> String {
        guard points.count > 1, let first = points.first, let last = points.last,
            let dataLow = points.map(\.value).min(), let dataHigh = points.map(\.value).max()
        else { return "" }
        let values = points.map { double($0.value) }
        let scale = ChartLabels.scale(low: double(dataLow), high: double(dataHigh), limits: limits.map { double($0.value) })
        let em = Double(fontSize)
        // A limit is named with its direction's word when the margin that takes still leaves the
        // line most of the width, with a glyph otherwise (a card's narrow picture).
        let worded = limits.map(\.label).map { ChartLabels.width($0, em: em) + 6 }.max() ?? 0
        let useWords = worded <= Double(width) * 0.45
        let plotTop = em * 0.6, plotBottom = Double(height) - em * 1.7
        let span = scale.high - scale.low
        func y(_ value: Double) -> Double {
            let fraction = span > 0 ? (value - scale.low) / span : 0.5
            return plotBottom - fraction * (plotBottom - plotTop)
        }
        // The margin's labels, in the order they are kept when not all fit: the high, the low,
        // then the limits.
        var labels: [(text: String, wanted: Double, className: String?)] = [(format(dataHigh), y(double(dataHigh)), nil)]
        if dataLow != dataHigh { labels.append((format(dataLow), y(double(dataLow)), nil)) }
        for (limit, onScale) in zip(limits, scale.onScale) where !limit.label.isEmpty {
            let className = "limit \(limit.direction)"
            let text = useWords ? limit.label : limit.glyphLabel ?? limit.label
            if onScale {
                labels.append((text, y(double(limit.value)), className))
            } else {
                let above = double(limit.value) > scale.high
                labels.append(((above ? "↑ " : "↓ ") + text, above ? plotTop : plotBottom, className))
            }
        }
        let placed = ChartLabels.stack(
            labels.map(\.wanted), gap: em * ChartLabels.labelGap, top: em * 0.5, bottom: ChartLabels.labelBottom(height: Double(height), em: em))
        let shown = zip(labels, placed).compactMap { label, centre in centre.map { (label, $0) } }
        // The plot leaves a right margin as wide as the longest label, and a bottom one for the dates.
        let labelWidth = (shown.map { ChartLabels.width($0.0.text, em: em) }.max() ?? 0) + 6
        let plot = (left: 2.0, right: Double(width) - labelWidth)
        func x(_ index: Int) -> Double { plot.left + Double(index) / Double(points.count - 1) * (plot.right - plot.left) }
        // Whole units of a viewBox some hundreds wide: finer is invisible and costs bytes.
        func number(_ value: Double) -> String { String(Int(value.rounded())) }

        let direction = last.value > first.value ? "up" : last.value < first.value ? "down" : "flat"
        var svg =
            "<svg class=\"chart-svg \(direction)\" viewBox=\"0 0 \(width) \(height)\" font-size=\"\(fontSize)\" role=\"img\" aria-label=\"\(escape(label))\">"
        // Gridlines at the low and the high; dashed lines at the limits on the scale.
        for value in dataHigh == dataLow ? [dataHigh] : [dataHigh, dataLow] {
            let lineY = number(y(double(value)))
            svg += "<line class=\"grid\" x1=\"\(number(plot.left))\" x2=\"\(number(plot.right))\" y1=\"\(lineY)\" y2=\"\(lineY)\"/>"
        }
        for (limit, onScale) in zip(limits, scale.onScale) where onScale {
            let lineY = number(y(double(limit.value)))
            svg += "<line class=\"limit \(limit.direction)\" x1=\"\(number(plot.left))\" x2=\"\(number(plot.right))\" y1=\"\(lineY)\" y2=\"\(lineY)\"/>"
        }
        for (label, centre) in shown {
            let className = label.className.map { " class=\"\($0)\"" } ?? ""
            svg += "<text\(className) x=\"\(number(plot.right + 4))\" y=\"\(number(centre + em * 0.35))\">\(escape(label.text))</text>"
        }
        let line = values.enumerated().map { "\(number(x($0.offset))),\(number(y($0.element)))" }.joined(separator: " ")
        svg += "<polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.6\" stroke-linejoin=\"round\" points=\"\(line)\"/>"
        // The first, middle and last days under the plot, as many as fit.
        let middle = points.count / 2
        func day(_ text: String) -> String { shortDay(text, months: months, monthFirst: monthFirst) }
        let days = (first: day(first.day), middle: points.count > 4 ? day(points[middle].day) : nil, last: day(last.day))
        let fits = ChartLabels.ticks(days, at: x(middle), left: plot.left, right: plot.right, em: em)
        var ticks: [(Int, String, String)] = []
        if fits.first { ticks.append((0, "start", days.first)) }
        if fits.middle, let text = days.middle { ticks.append((middle, "middle", text)) }
        ticks.append((points.count - 1, "end", days.last))
        for (index, anchor, text) in ticks {
            svg += "<text class=\"day\" x=\"\(number(x(index)))\" y=\"\(height - 3)\" text-anchor=\"\(anchor)\">\(escape(text))</text>"
        }
        return svg + "</svg>"
    }

    /// How many days a dated series spans, as a change over it is counted: `2022-10-23` …
    /// `2022-11-22` is 30, the span of the 30-day change. `nil` when the days are not known or not dates.
    static func daysCovered(_ days: [String]) -> Int? {
        guard let first = days.first.flatMap(dayNumber), let last = days.last.flatMap(dayNumber), last >= first else { return nil }
        return last - first
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

    /// `2022-11-22` as `22 Nov` (`22 nov` in Swedish, `Nov 22` in American English): the axis
    /// needs no year for a month.
    static func shortDay(_ day: String, months: [String] = englishMonths, monthFirst: Bool = false) -> String {
        let parts = day.split(separator: "-")
        guard parts.count == 3, let month = Int(parts[1]), months.indices.contains(month - 1), let date = Int(parts[2]) else { return day }
        return monthFirst ? "\(months[month - 1]) \(date)" : "\(date) \(months[month - 1])"
    }

    /// Whether the locale writes a short date month first, as CLDR's `MMMd` has it for the
    /// United States, Canada and the Philippines (`Nov 22`); the rest of English, and Swedish,
    /// write the day first. Read from the identifier, not ICU: a date pattern per report for
    /// one word's order.
    static func writesMonthFirst(_ localeIdentifier: String) -> Bool {
        let parts = localeIdentifier.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == "." || $0 == "@" }).map(String.init)
        guard parts.first?.lowercased() == "en" else { return false }
        return parts.dropFirst().contains { ["US", "CA", "PH"].contains($0.uppercased()) }
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
