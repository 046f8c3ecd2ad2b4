import Foundation
import Testing

@testable import CryptoReport

/// A chart's labels never overlap one another, a limit's label or the line: the low, the high
/// and the limits stacked in the right margin, far limits kept as edge markers, dates thinned.
@Suite("Chart labels that never overlap")
struct ChartLabelsTests {
    struct Text {
        var x, y: Double
        var anchor, className, text: String
    }

    static func texts(_ svg: String) -> [Text] {
        svg.matches(of: /<text(?: class="([^"]*)")? x="(-?\d+)" y="(-?\d+)"(?: text-anchor="(\w+)")?>([^<]*)<\/text>/).compactMap { match in
            guard let x = Double(match.2), let y = Double(match.3) else { return nil }
            return Text(x: x, y: y, anchor: match.4.map(String.init) ?? "start", className: match.1.map(String.init) ?? "", text: String(match.5))
        }
    }

    static func polyline(_ svg: String) -> [(x: Double, y: Double)] {
        guard let points = svg.firstMatch(of: /<polyline[^>]* points="([^"]+)"/)?.1 else { return [] }
        return points.split(separator: " ").compactMap { pair in
            let xy = pair.split(separator: ",").compactMap { Double($0) }
            return xy.count == 2 ? (xy[0], xy[1]) : nil
        }
    }

    /// A label's box, at the layout's width a character and one em high (the browser test
    /// measures the real ones).
    static func box(_ text: Text, em: Double) -> (left: Double, right: Double, top: Double, bottom: Double) {
        let width = ChartLabels.width(text.text, em: em)
        let left = text.anchor == "end" ? text.x - width : text.anchor == "middle" ? text.x - width / 2 : text.x
        return (left, left + width, text.y - em * 0.8, text.y + em * 0.2)
    }

    static func overlapping(_ texts: [Text], em: Double) -> [(String, String)] {
        var found: [(String, String)] = []
        for (i, a) in texts.enumerated() {
            for b in texts[(i + 1)...] {
                let p = box(a, em: em), q = box(b, em: em)
                if p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom { found.append((a.text, b.text)) }
            }
        }
        return found
    }

    static func points(_ prices: [Decimal], from day: Int = 17) -> [PriceChart.Point] {
        prices.enumerated().map { PriceChart.Point(day: String(format: "2022-11-%02d", day + $0.offset), value: $0.element) }
    }

    static func money(_ value: Decimal) -> String {
        PeopleNumberFormatter(currency: "USD", locale: Locale(identifier: "en_US")).money(value)
    }

    /// The reviewer's page: BTC in USD over six days, one limit inside the prices' range and one
    /// below it, stretching the scale; in the card's size and the detail's.
    @Test("limits that stretch the scale: every label in the margin, none touching another or the line", arguments: [(250, 130, 12), (420, 180, 11)])
    func stretchedScale(width: Int, height: Int, fontSize: Int) {
        let prices: [Decimal] = [16_400, 16_900, 17_605.52, 17_100, 16_600, 15_988]
        let limits = [
            PriceChart.Limit(label: "above $16,785.56", value: 16_785.56, direction: "up"),
            PriceChart.Limit(label: "below $15,000.00", value: 15_000, direction: "down"),
        ]
        let svg = PriceChart.svg(Self.points(prices), limits: limits, width: width, height: height, fontSize: fontSize, label: "BTC", format: Self.money)
        let texts = Self.texts(svg), line = Self.polyline(svg)
        let em = Double(fontSize)
        let margin = texts.filter { $0.className != "day" }
        #expect(margin.map(\.text).sorted() == ["$15,988.00", "$17,605.52", "above $16,785.56", "below $15,000.00"])
        #expect(Self.overlapping(texts, em: em).isEmpty, "\(Self.overlapping(texts, em: em))")
        let lineRight = line.map(\.x).max() ?? 0
        #expect(margin.allSatisfy { $0.x > lineRight }, "every label right of the line")
        #expect(margin.allSatisfy { Self.box($0, em: em).right <= Double(width) + 1 && Self.box($0, em: em).top >= -1 }, "inside the picture")
        #expect(svg.components(separatedBy: "<line class=\"limit ").count - 1 == 2, "both limits are near enough to draw")
    }

    /// The reviewer's BTC card: SEK over 31 days, a limit above inside the prices' range and one
    /// below just under the low.
    static func btcCard(width: Int = 250, height: Int = 130, fontSize: Int = 12) -> String {
        // 24 October to 23 November, falling from the high to the last price.
        let days = (24...31).map { "2022-10-\($0)" } + (1...23).map { String(format: "2022-11-%02d", $0) }
        let prices = (0..<31).map { $0 == 30 ? Decimal(string: "171447.35") ?? 0 : (Decimal(string: "209843.87") ?? 0) - Decimal($0 * 1_600) }
        let money = { (value: Decimal) in PeopleNumberFormatter(currency: "SEK", locale: Locale(identifier: "sv_SE")).money(value) }
        let limits = [(Decimal(180_000), "up", "över "), (Decimal(160_852.53), "down", "under ")].map {
            PriceChart.Limit(label: $0.2 + money($0.0), glyphLabel: ($0.1 == "up" ? "▲ " : "▼ ") + money($0.0), value: $0.0, direction: $0.1)
        }
        let points = zip(days, prices).map { PriceChart.Point(day: $0, value: $1) }
        return PriceChart.svg(
            points, limits: limits, width: width, height: height, fontSize: fontSize, label: "BTC",
            months: ["jan", "feb", "mars", "apr", "maj", "juni", "juli", "aug", "sep", "okt", "nov", "dec"], format: money)
    }

    @Test("the low label and the last date never share a line; stacked labels keep a gap; the card keeps its middle date")
    func marginClearOfDates() {
        for (width, height, fontSize) in [(250, 130, 12), (420, 180, 11)] {
            let svg = Self.btcCard(width: width, height: height, fontSize: fontSize), em = Double(fontSize)
            let texts = Self.texts(svg), days = texts.filter { $0.className == "day" }, margin = texts.filter { $0.className != "day" }
            #expect(days.map(\.text) == ["24 okt", "8 nov", "23 nov"], "\(width): \(days.map(\.text))")
            let dateTop = (days.map(\.y).min() ?? 0) - em * 0.93
            #expect(margin.allSatisfy { $0.y + em * 0.24 + 1.5 <= dateTop }, "\(width): a margin label sits on the date row: \(margin.map(\.y)) vs \(dateTop)")
            let ys = margin.map(\.y).sorted()
            #expect(zip(ys, ys.dropFirst()).allSatisfy { $1 - $0 >= em * 1.16 + 1.5 }, "\(width): stacked labels touch: \(ys)")
        }
    }

    @Test("a limit says above or below where the margin has room, ▲ or ▼ where it has not")
    func limitWords() {
        let card = Self.texts(Self.btcCard()).filter { $0.className.hasPrefix("limit") }.map(\.text)
        #expect(card == ["▲ 180\u{00A0}000,00\u{00A0}kr", "▼ 160\u{00A0}852,53\u{00A0}kr"], "\(card)")
        let wide = Self.texts(Self.btcCard(width: 420, height: 180, fontSize: 11)).filter { $0.className.hasPrefix("limit") }.map(\.text)
        #expect(wide == ["över 180\u{00A0}000,00\u{00A0}kr", "under 160\u{00A0}852,53\u{00A0}kr"], "\(wide)")
    }

    @Test("a limit far outside the prices is an edge marker with its value; the line keeps the whole height")
    func farLimitIsAMarker() {
        let prices: [Decimal] = [170_000, 172_000, 171_000, 173_500, 171_447]
        let limits = [
            PriceChart.Limit(label: "below 1 000 kr", value: 1_000, direction: "down"),
            PriceChart.Limit(label: "above 900 000 kr", value: 900_000, direction: "up"),
            PriceChart.Limit(label: "above 172 500 kr", value: 172_500, direction: "up"),
        ]
        let svg = PriceChart.svg(Self.points(prices), limits: limits, width: 250, height: 130, fontSize: 12, label: "BTC", format: { "\($0) kr" })
        let texts = Self.texts(svg), line = Self.polyline(svg)
        #expect(svg.components(separatedBy: "<line class=\"limit ").count - 1 == 1, "only the near limit is drawn as a line")
        let bottomMarker = texts.first { $0.text == "↓ below 1 000 kr" }, topMarker = texts.first { $0.text == "↑ above 900 000 kr" }
        #expect(bottomMarker?.className == "limit down" && topMarker?.className == "limit up")
        #expect((bottomMarker?.y ?? 0) > (texts.first { $0.text == "170000 kr" }?.y ?? .infinity), "the low limit's marker is at the bottom")
        #expect((topMarker?.y ?? .infinity) < 20, "the high limit's marker is at the top")
        // Top of the plot 7, bottom 110: the prices alone span it.
        #expect(line.map(\.y).min() == 7 && line.map(\.y).max() == 110)
        #expect(Self.overlapping(texts, em: 12).isEmpty, "\(Self.overlapping(texts, em: 12))")
    }

    @Test("more labels than the margin holds: the low and high stay, no two overlap")
    func crowdedMargin() {
        let prices: [Decimal] = [100, 101, 100.5, 100.2]
        let limits = (0..<9).map { PriceChart.Limit(label: "limit \($0)", value: Decimal(100) + Decimal($0) / 10, direction: $0 % 2 == 0 ? "up" : "down") }
        let svg = PriceChart.svg(Self.points(prices), limits: limits, width: 250, height: 80, fontSize: 12, label: "X", format: { "\($0)" })
        let texts = Self.texts(svg)
        #expect(texts.contains { $0.text == "101" } && texts.contains { $0.text == "100" })
        #expect(texts.filter { $0.className != "day" }.count < 11)
        #expect(Self.overlapping(texts, em: 12).isEmpty, "\(Self.overlapping(texts, em: 12))")
    }

    @Test("the dates under a narrow plot are thinned until they fit")
    func datesFit() {
        let long = Self.points([1, 2, 3, 4, 5, 6], from: 17)
        let svg = PriceChart.svg(
            long, width: 250, height: 130, fontSize: 12, label: "X",
            months: ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober", "november", "december"],
            format: { "\($0) 000 000,00 kr" })
        let days = Self.texts(svg).filter { $0.className == "day" }
        #expect(days.last?.text == "22 november")
        #expect(Self.overlapping(days, em: 12).isEmpty, "\(days.map(\.text))")
        // The plot of the old layout: 22 November under the end, 20 November in the middle.
        let wide = PriceChart.svg(Self.points((1...30).map { Decimal($0) }, from: 1), width: 420, height: 180, fontSize: 11, label: "X", format: { "\($0)" })
        #expect(Self.texts(wide).filter { $0.className == "day" }.map(\.text) == ["1 Nov", "16 Nov", "30 Nov"])
    }

    @Test("an undated trend's picture labels its low and high right of the line too")
    func labelledSparkline() {
        let svg = Sparkline.svg([100, 250, 90, 240], width: 320, height: 110, labels: ("90,00 kr", "250,00 kr"), label: "X")
        let line = Self.polyline(svg), texts = Self.texts(svg)
        #expect(texts.map(\.text) == ["250,00 kr", "90,00 kr"])
        #expect(texts.allSatisfy { text in line.allSatisfy { $0.x < text.x } }, "\(texts.map(\.x)) vs \(line.map(\.x))")
        #expect(texts.allSatisfy { Double($0.text.count) * 10 * ChartLabels.characterWidth + $0.x <= 320 })
    }

    @Test("stacking keeps labels a gap apart, inside their bounds, each at its height when there is room")
    func stack() {
        #expect(ChartLabels.stack([10, 50, 90], gap: 12, top: 5, bottom: 100) == [10, 50, 90])
        #expect(ChartLabels.stack([50, 52], gap: 12, top: 5, bottom: 100) == [50, 62])
        #expect(ChartLabels.stack([99, 100, 100], gap: 12, top: 5, bottom: 100) == [76, 88, 100])
        #expect(ChartLabels.stack([0, 0], gap: 12, top: 5, bottom: 100) == [5, 17])
        let crowded = ChartLabels.stack([50, 50, 50, 50, 50], gap: 20, top: 0, bottom: 50)
        #expect(crowded.compactMap { $0 }.count == 3 && crowded[0] != nil && crowded[1] != nil)
        let placed = crowded.compactMap { $0 }.sorted()
        #expect(zip(placed, placed.dropFirst()).allSatisfy { $1 - $0 >= 20 } && placed.allSatisfy { (0...50).contains($0) })
    }
}
