import Foundation

/// Several markets on one chart, each rebased to 100 on the window's first day, so that a reader
/// sees which moved most whatever their prices. Inline SVG as `PriceChart` draws it: numbers and
/// escaped text only; the legend is the page's own HTML.
enum ComparisonChart {
    struct Series {
        /// `BTC/USDT`.
        var name: String
        /// Day (`2022-11-22`) and price, oldest first.
        var points: [PriceChart.Point]
    }

    /// Why a comparison the reader asked for (`--compare`) cannot be drawn: said on standard
    /// error and on the page, where the chart would be.
    enum Gap: Equatable {
        /// Fewer than two of the chosen markets are in the table.
        case tooFewMarkets
        /// The run keeps no history (`--no-history`, `--output -`).
        case noHistory
        /// The history holds fewer than two days of prices for the chosen markets.
        case tooFewDays
    }

    /// The series a chart can draw: two days of prices or more, from a positive first price.
    static func usable(_ series: [Series]) -> [Series] {
        series.filter { $0.points.count > 1 && ($0.points.first?.value ?? 0) > 0 }
    }

    /// `nil` when `series` make a chart; else why not, knowing how many markets were chosen and
    /// whether the run has a history at all.
    static func gap(_ series: [Series], chosen: Int, hasHistory: Bool) -> Gap? {
        if usable(series).count > 1 && Set(series.flatMap { $0.points.map(\.day) }).count > 1 { return nil }
        if chosen < 2 { return .tooFewMarkets }
        return hasHistory ? .tooFewDays : .noHistory
    }

    /// The chart is as wide as its card at any width and `height` CSS pixels high: its text and
    /// heights are drawn in pixels, its lines in a stretched box (`preserveAspectRatio="none"`,
    /// strokes kept even by `vector-effect`), and dates placed in percent of the width. A viewBox
    /// scaled to the card would make its text tiny on a phone or the chart tall on a laptop.
    /// The stylesheet leaves a right margin for the `100` label (`.chart-svg.compare`).
    ///
    /// - Returns: empty unless two series have two days or more in common with the window.
    static func svg(
        _ series: [Series], height: Int = 240, fontSize: Int = 12, label: String, months: [String] = PriceChart.englishMonths, monthFirst: Bool = false
    ) -> String {
        let days = Array(Set(series.flatMap { $0.points.map(\.day) })).sorted()
        let usable = usable(series)
        guard days.count > 1, usable.count > 1 else { return "" }
        let index = Dictionary(uniqueKeysWithValues: days.enumerated().map { ($0.element, $0.offset) })
        let rebased = usable.map { one -> [(Int, Double)] in
            let base = PriceChart.double(one.points.first?.value ?? 1)
            return one.points.compactMap { point in index[point.day].map { ($0, PriceChart.double(point.value) / base * 100) } }
        }
        let all: [Double] = rebased.flatMap { line in line.map { $0.1 } } + [100]
        guard let low = all.min(), let high = all.max() else { return "" }
        let em = Double(fontSize)
        let plot = (top: em * 0.6, bottom: Double(height) - em * 1.7)
        let span = high - low
        // x in thousandths of the width, stretched to it; y in pixels.
        func x(_ day: Int) -> Double { Double(day) / Double(days.count - 1) * 1000 }
        func y(_ value: Double) -> Double { plot.bottom - (span > 0 ? (value - low) / span : 0.5) * (plot.bottom - plot.top) }
        func number(_ value: Double) -> String { String(Int(value.rounded())) }

        var svg = "<svg class=\"chart-svg compare\" width=\"100%\" height=\"\(height)\" font-size=\"\(fontSize)\" role=\"img\" aria-label=\"\(escape(label))\">"
        let base = number(y(100))
        svg += "<line class=\"grid\" x1=\"0\" x2=\"100%\" y1=\"\(base)\" y2=\"\(base)\"/>"
        svg += "<text x=\"100%\" dx=\"4\" y=\"\(number(y(100) + em * 0.35))\">100</text>"
        svg += "<svg width=\"100%\" height=\"\(height)\" viewBox=\"0 0 1000 \(height)\" preserveAspectRatio=\"none\">"
        for (number_, line) in rebased.enumerated() {
            let points = line.map { "\(number(x($0.0))),\(number(y($0.1)))" }.joined(separator: " ")
            svg +=
                "<polyline class=\"s\(number_)\" fill=\"none\" stroke-width=\"1.8\" stroke-linejoin=\"round\" vector-effect=\"non-scaling-stroke\" points=\"\(points)\"/>"
        }
        svg += "</svg>"
        // The first, middle and last days; the middle only when it is another day well apart.
        let middle = days.count / 2
        let ticks = days.count > 4 ? [(0, "start"), (middle, "middle"), (days.count - 1, "end")] : [(0, "start"), (days.count - 1, "end")]
        for (day, anchor) in ticks {
            let percent = String(format: "%.1f", x(day) / 10).replacingOccurrences(of: ".0", with: "")
            svg +=
                "<text class=\"day\" x=\"\(percent)%\" y=\"\(height - 3)\" text-anchor=\"\(anchor)\">\(escape(PriceChart.shortDay(days[day], months: months, monthFirst: monthFirst)))</text>"
        }
        return svg + "</svg>"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
