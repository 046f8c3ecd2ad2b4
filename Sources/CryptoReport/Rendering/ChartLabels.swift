import Foundation

/// Where a price chart's labels go, so that none overlaps another, a limit's label or the line:
/// the low, the high and the reader's alert limits are labelled in a right margin the line never
/// enters, stacked a line apart and each as near its own height as the others allow; the dates
/// under the plot are thinned until they fit. `Templates/report.js` lays out a market's detail
/// chart by the same rules (its `stack` and `scale`): a change here is a change there.
enum ChartLabels {
    /// How a sans-serif of the system writes a character, in ems, on average and generously
    /// (digits are 0.55–0.64 em): a label measured by it never runs into its neighbour.
    static let characterWidth = 0.62

    /// A label's width in ems, character by character, at DejaVu Sans's widths (the widest
    /// sans-serif a reader is likely to have) rounded up: digits are as wide as most letters,
    /// spaces and separators half that. A margin sized by `characterWidth` alone would be too
    /// wide for a price, and crowd out the date in the middle of a card's axis.
    static func width(_ text: String, em: Double) -> Double {
        text.unicodeScalars.reduce(0) { sum, scalar in
            let ems: Double
            switch scalar {
            case "0"..."9": ems = 0.64
            case " ", "\u{00A0}", "\u{202F}", ",", ".", "'", ":": ems = 0.32
            case "i", "j", "l", "r", "t", "f", "I", "|": ems = 0.45
            case "m", "w", "M", "W", "%": ems = 1.0
            case "A"..."Z": ems = 0.75
            case "a"..."z", "å", "ä", "ö", "é": ems = 0.64
            default: ems = 0.84
            }
            return sum + ems * em
        }
    }

    /// Stacked labels' centres keep this far apart, in ems: a text's box is some 1.15 em high,
    /// so two labels keep a visible gap between them.
    static let labelGap = 1.35

    /// The lowest a margin label's centre may sit in a picture `height` high: clear of the date
    /// row (its baseline 3 below the foot), so that the last date and the low label never read
    /// as one line ("22 nov 159 854,34 kr").
    static func labelBottom(height: Double, em: Double) -> Double { height - 3 - em * 1.6 - 2 }

    /// The value range a chart is drawn over: the data's own, stretched to take in the limits
    /// within one data span of it. A limit further out would squeeze the line into a strip; it
    /// is marked at the edge it lies beyond instead (`edge`), with its value.
    static func scale(low: Double, high: Double, limits: [Double]) -> (low: Double, high: Double, onScale: [Bool]) {
        let span = high - low
        let reach = span > 0 ? span : max(abs(high) * 0.05, 1e-9)
        let onScale = limits.map { $0 >= low - reach && $0 <= high + reach }
        let kept = zip(limits, onScale).filter(\.1).map(\.0)
        return (min(low, kept.min() ?? low), max(high, kept.max() ?? high), onScale)
    }

    /// The centres of labels that want to sit at `wanted` (in drawing order: the first are kept
    /// when not all fit), at least `gap` apart and within `top...bottom`. Returns `nil` for a
    /// label left out.
    static func stack(_ wanted: [Double], gap: Double, top: Double, bottom: Double) -> [Double?] {
        let room = max(0, bottom - top)
        let fitting = min(wanted.count, Int((room / gap).rounded(.down)) + 1)
        let order = (0..<fitting).sorted { wanted[$0] != wanted[$1] ? wanted[$0] < wanted[$1] : $0 < $1 }
        var placed = order.map { min(max(wanted[$0], top), bottom) }
        // Down from the top, each at least a gap below the one above; then up from the bottom,
        // each at least a gap above the one below: the first pass never leaves one too high,
        // the second never too low, and capacity keeps the first in bounds.
        for index in placed.indices.dropFirst() { placed[index] = max(placed[index], placed[index - 1] + gap) }
        if let last = placed.indices.last { placed[last] = min(placed[last], bottom) }
        for index in placed.indices.reversed().dropFirst() { placed[index] = min(placed[index], placed[index + 1] - gap) }
        var result = [Double?](repeating: nil, count: wanted.count)
        for (position, index) in order.enumerated() { result[index] = placed[position] }
        return result
    }

    /// Which of the first, middle and last date ticks fit under a plot from `left` to `right`
    /// without touching: the middle goes first, then the first.
    static func ticks(_ texts: (first: String, middle: String?, last: String), at middleX: Double, left: Double, right: Double, em: Double) -> (
        first: Bool, middle: Bool
    ) {
        func width(_ text: String) -> Double { Self.width(text, em: em) }
        let gap = em * 0.5
        let first = left + width(texts.first) + gap <= right - width(texts.last)
        guard first, let middle = texts.middle else { return (first, false) }
        let half = width(middle) / 2
        return (true, middleX - half >= left + width(texts.first) + gap && middleX + half <= right - width(texts.last) - gap)
    }
}
