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

    /// - Returns: empty unless two series have two days or more in common with the window.
    static func svg(_ series: [Series], width: Int = 640, height: Int = 220, fontSize: Int = 12, label: String, months: [String] = PriceChart.englishMonths) -> String {
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
        let plot = (left: 2.0, top: em * 0.6, right: Double(width) - em * 2.6, bottom: Double(height) - em * 1.7)
        let span = high - low
        func x(_ day: Int) -> Double { plot.left + Double(day) / Double(days.count - 1) * (plot.right - plot.left) }
        func y(_ value: Double) -> Double { plot.bottom - (span > 0 ? (value - low) / span : 0.5) * (plot.bottom - plot.top) }
        func number(_ value: Double) -> String { String(Int(value.rounded())) }

        var svg = "<svg class=\"chart-svg compare\" viewBox=\"0 0 \(width) \(height)\" font-size=\"\(fontSize)\" role=\"img\" aria-label=\"\(escape(label))\">"
        let base = number(y(100))
        svg += "<line class=\"grid\" x1=\"\(number(plot.left))\" x2=\"\(number(plot.right))\" y1=\"\(base)\" y2=\"\(base)\"/>"
        svg += "<text x=\"\(number(plot.right + 4))\" y=\"\(number(y(100) + em * 0.35))\">100</text>"
        for (number_, line) in rebased.enumerated() {
            let points = line.map { "\(number(x($0.0))),\(number(y($0.1)))" }.joined(separator: " ")
            svg += "<polyline class=\"s\(number_)\" fill=\"none\" stroke-width=\"1.8\" stroke-linejoin=\"round\" points=\"\(points)\"/>"
        }
        let middle = days.count / 2
        for (day, anchor) in [(0, "start"), (middle, "middle"), (days.count - 1, "end")] {
            svg += "<text class=\"day\" x=\"\(number(x(day)))\" y=\"\(height - 3)\" text-anchor=\"\(anchor)\">\(escape(PriceChart.shortDay(days[day], months: months)))</text>"
        }
        return svg + "</svg>"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
