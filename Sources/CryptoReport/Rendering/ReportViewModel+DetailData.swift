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
    /// The page's details as JSON, escaped for a `<script type="application/json">` element (no
    /// `<`, `>` or `&` in it, so no text can end the element); empty when the page has none.
    /// Written as the history data is (`jsonString`), one pass over the strings, not through
    /// JSONEncoder's generic encoding, which costs more than all the rest of the page
    /// (docs/performance.md).
    func makeDetailData() -> String {
        guard hasDetails else { return "" }
        func list(_ texts: [String]) -> String { "[" + texts.map(Self.jsonString).joined(separator: ",") + "]" }
        var json = "{"
        var first = true
        forEachDetail { detail in
            let views = [detail] + detail.alt
            if !first { json += "," }
            first = false
            json += Self.jsonString(detail.anchor) + ":{\"b\":" + Self.jsonString(detail.base)
            json += ",\"d\":" + list(views.map(\.changeMoney)) + ",\"o\":" + list(views.map(\.open))
            if detail.hasRate { json += ",\"r\":" + list(views.map { "1 \($0.quote) = \($0.fxRate) \($0.currency)" }) }
            json += ",\"u\":" + Self.jsonString(detail.updatedAt)
            if !detail.others.isEmpty {
                json += ",\"x\":["
                json += detail.others.map { other in
                    let otherViews = [other] + other.alt
                    return "{\"a\":" + Self.jsonString(other.anchor) + ",\"c\":" + Self.jsonString(other.premiumClass) + ",\"m\":"
                        + list(otherViews.map(\.premium)) + ",\"p\":" + Self.jsonString(other.pair) + ",\"s\":" + (other.isShown ? "true" : "false")
                        + ",\"v\":" + list(otherViews.map(\.price)) + "}"
                }.joined(separator: ",")
                json += "]"
            }
            json += "}"
        }
        return json + "}"
    }
}
