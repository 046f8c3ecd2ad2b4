import Foundation

/// Small price charts drawn by the project: Unicode blocks for Markdown, inline SVG for HTML.
public enum Sparkline {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// `▁▂▄█`: one block per value, scaled between the series' low and high.
    public static func unicode(_ values: [Decimal]) -> String {
        guard values.count > 1, let low = values.min(), let high = values.max() else { return "" }
        guard high > low else { return String(repeating: "▄", count: values.count) }
        return String(values.map { value in
            let level = NSDecimalNumber(decimal: (value - low) / (high - low) * 7).doubleValue
            return blocks[min(7, max(0, Int(level.rounded())))]
        })
    }

    /// An inline SVG line chart, coloured by the direction from first to last value.
    /// Only numbers go into the markup, so it is safe to insert unescaped.
    public static func svg(_ values: [Decimal], width: Int = 100, height: Int = 24, labels: (low: String, high: String)? = nil) -> String {
        guard values.count > 1, let first = values.first, let last = values.last, let low = values.min(), let high = values.max()
        else { return "" }
        let pad = 2.0
        let span = high - low
        let points = values.enumerated().map { index, value -> String in
            let x = pad + Double(index) / Double(values.count - 1) * (Double(width) - 2 * pad)
            let fraction = span > 0 ? NSDecimalNumber(decimal: (value - low) / span).doubleValue : 0.5
            let y = pad + (1 - fraction) * (Double(height) - 2 * pad)
            return String(format: "%.1f,%.1f", x, y)
        }.joined(separator: " ")
        let direction = last > first ? "up" : last < first ? "down" : "flat"
        var svg = "<svg class=\"spark \(direction)\" viewBox=\"0 0 \(width) \(height)\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"\(values.count)-day price trend\">"
        svg += "<polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.5\" stroke-linejoin=\"round\" points=\"\(points)\"/>"
        if let labels {
            svg += "<text x=\"\(width - 2)\" y=\"10\" text-anchor=\"end\">\(escape(labels.high))</text>"
            svg += "<text x=\"\(width - 2)\" y=\"\(height - 3)\" text-anchor=\"end\">\(escape(labels.low))</text>"
        }
        return svg + "</svg>"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
