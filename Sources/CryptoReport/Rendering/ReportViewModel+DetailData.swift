import Foundation

/// What a market's detail shows beyond its table row, once for the whole page, for the page's
/// script that builds a detail when a reader opens it (`#btcusdt`): the row already holds the
/// price, the change, high and low, bid and ask, the spread and the volume in the currency shown,
/// and the history data the chart. Written into the page, 270 details were most of its bytes and
/// elements, for the few a reader opens.
///
/// `{"btcusdt":{"b":"BTC","u":"2022-11-22 00:51 UTC","o":["173 720,73 kr","16 200,00 US$"],
///   "d":["−2 273,38 kr","−212,00 US$"],"r":["1 USDT = 10,7235 SEK","1 USDT = 1,00000 USD"],
///   "x":[{"p":"BTC/INR","a":"btcinr","s":true,"c":"up","v":["183 433,29 kr","17 105,73 US$"],"m":["+6,99 %","+6,99 %"]}]}}`
/// - every list of texts holds one per currency of the page, in the switch's order;
/// - `b` the base asset, `u` the ticker's time, `o` the open, `d` the change in money, `r` the
///   rate used (absent where the market is quoted in the report currency itself);
/// - `x` the asset's other markets: pair, element id, whether the page has its detail (`s`),
///   the premium's class, and in each currency its price (`v`) and premium over this one (`m`).
extension ReportViewModel {
    struct DetailData: Encodable {
        struct Other: Encodable {
            var p, a: String
            var s: Bool
            var c: String
            var v, m: [String]
        }

        var b, u: String
        var o, d: [String]
        var r: [String]?
        var x: [Other]?
    }

    /// The page's details as JSON, escaped for a `<script type="application/json">` element (no
    /// `<` in it, so no text can end the element); empty when the page has none.
    func makeDetailData() -> String {
        guard hasDetails else { return "" }
        var all: [String: DetailData] = [:]
        forEachDetail { detail in
            let views = [detail] + detail.alt
            let others = detail.others.map { other in
                let otherViews = [other] + other.alt
                return DetailData.Other(
                    p: other.pair, a: other.anchor, s: other.isShown, c: other.premiumClass,
                    v: otherViews.map(\.price), m: otherViews.map(\.premium))
            }
            all[detail.anchor] = DetailData(
                b: detail.base, u: detail.updatedAt, o: views.map(\.open), d: views.map(\.changeMoney),
                r: detail.hasRate ? views.map { "1 \($0.quote) = \($0.fxRate) \($0.currency)" } : nil,
                x: others.isEmpty ? nil : others)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(all) else { return "" }
        return String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
            .replacingOccurrences(of: "&", with: "\\u0026")
    }
}
