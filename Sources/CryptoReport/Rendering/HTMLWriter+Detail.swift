/// Each market's detail (`#btcusdt`), written tight as the template writes it, and the history
/// data its script draws from.
extension HTMLWriter {
    mutating func details(_ model: ReportViewModel) {
        let t = model.t
        out += "<div class=\"details\">\n"
        model.forEachDetail { each in
            detail(each, t)
            flushIfFull()
        }
        out += "</div>\n"
        for view in model.views where view.hasHistoryData {
            out += "<script type=\"application/json\" class=\"history-data\" data-cur=\""; put(view.viewIndex); out += "\">"
            out.append(view.historyData)
            out += "</script>\n"
        }
        out += "\n"
        if model.hasHistoryData {
            out += "<template id=\"points-table\"><h3>"; put(t[.earlierPoints]);
            out += "</h3><div class=\"points\"><table class=\"mini\"><thead><tr><th scope=\"col\">"
            put(t[.dayUTC]); out += "<th scope=\"col\" class=\"num\">"; put(t[.price]); out += "<th scope=\"col\" class=\"num\">"; put(t[.change])
            out += "</thead><tbody></tbody></table></div></template>"
        }
        out += "\n"
    }

    private mutating func detail(_ detail: ReportViewModel.Detail, _ t: PageStrings) {
        let alt = detail.alt
        /// `{{#alt}} data-alt="…"{{/alt}}`, the value written by `value` from the second currency's.
        func altAttribute(_ value: (inout HTMLWriter, ReportViewModel.Detail) -> Void) {
            for other in alt {
                out += " data-alt=\""; value(&self, other); out += "\""
            }
        }
        func altAttribute(_ field: (ReportViewModel.Detail) -> String) {
            for other in alt { out += " data-alt=\""; put(field(other)); out += "\"" }
        }
        out += "<section class=\"detail\" id=\""; put(detail.anchor); out += "\" role=\"dialog\" aria-modal=\"true\" aria-label=\""
        if detail.hasName { put(detail.name); out += " " }
        put(detail.pair)
        out += "\"><div class=\"detail-card\">\n<header class=\"detail-head\"><div><h2>"
        if detail.hasName { out += "<span class=\"asset-name\">"; put(detail.name); out += "</span> " }
        put(detail.pair); out += " <span class=\"sym\" aria-hidden=\"true\">";
        put(detail.symbol)
        out += "</span></h2><div class=\"chart-head\"><span class=\"big\""; altAttribute { $0.price }; out += ">"; put(detail.price)
        out += "</span> <span class=\"pill "; put(detail.changeClass); out += "\""
        altAttribute { writer, other in
            writer.put(other.arrow); writer.out += " "; writer.put(other.change)
        }
        out += ">"; put(detail.arrow); out += " "; put(detail.change); out += "</span> <span class=\""; put(detail.changeClass); out += "\""
        altAttribute { $0.changeMoney }; out += ">"; put(detail.changeMoney)
        out += "</span> <span class=\"small\">"; put(t[.change24h])
        out += "</span></div></div><a class=\"close\" href=\"#m-"; put(detail.anchor); out += "\" aria-label=\""; put(t[.close])
        out += "\">✕</a></header>\n<dl class=\"facts\">"
        func fact(_ label: PageStrings.Key, _ value: (inout HTMLWriter, ReportViewModel.Detail) -> Void) {
            out += "<div><dt>"; put(t[label]); out += "<dd"; altAttribute(value); out += ">"; value(&self, detail); out += "</div>"
        }
        // The text passed as itself: a key path applied to the detail copied all of it. The
        // second currency's by a closure: a key path literal was fetched and retained each time.
        func fact(_ label: PageStrings.Key, _ field: (ReportViewModel.Detail) -> String, _ text: String) {
            out += "<div><dt>"; put(t[label]); out += "<dd"; altAttribute(field); out += ">"; put(text); out += "</div>"
        }
        fact(.open24h, { $0.open }, detail.open)
        fact(.high, { $0.high }, detail.high)
        fact(.low, { $0.low }, detail.low)
        fact(.bid, { $0.bid }, detail.bid)
        fact(.ask, { $0.ask }, detail.ask)
        fact(.spread) { writer, detail in
            writer.put(detail.spread); writer.out += " · "; writer.put(detail.spreadPct)
        }
        fact(.volume, { $0.volume }, detail.volume)
        fact(.volumeValue, { $0.volumeValue }, detail.volumeValue)
        out += "<div><dt>"; put(t[.tickerTime]); out += "<dd>"; put(detail.updatedAt); out += "</div>"
        if detail.hasRate {
            fact(.rateUsed) { writer, detail in
                writer.out += "1 "; writer.put(detail.quote); writer.out += " = "; writer.put(detail.fxRate); writer.out += " "; writer.put(detail.currency)
            }
        }
        out += "</dl>\n"
        if detail.hasSeries {
            out += "<h3>"; put(t[.priceByDay]); out += "</h3><div class=\"history\"><p class=\"small\">"; put(t[.chartNeedsScript]); out += "</p></div>"
            if detail.hasLimits {
                func limits(_ of: ReportViewModel.Detail) {
                    put(t[.alertLimits]); out += " "
                    for limit in of.limits { out += "<span class=\"limit-name\">"; put(limit.text); out += "</span>" }
                    out += "</p>"
                }
                out += "<p class=\"small"
                if !alt.isEmpty { out += " cur-0" }
                out += "\">"
                limits(detail)
                for other in alt { out += "<p class=\"small cur-1\">"; limits(other) }
            }
        } else {
            out += "<p class=\"small\">"; put(detail.noChart); out += "</p>"
        }
        out += "\n"
        if detail.hasOthers { others(detail, t) }
        if detail.hasSeries { out += "<div class=\"earlier\"></div>" }
        out += "\n</div></section>\n"
    }

    private mutating func others(_ detail: ReportViewModel.Detail, _ t: PageStrings) {
        out += "<h3>"; put(t[.otherMarketsOf]); out += " "; put(detail.base); out += "</h3><table class=\"mini\"><thead><tr><th scope=\"col\">"
        put(t[.market]); out += "<th scope=\"col\" class=\"num\">"; put(t[.price]); out += "<th scope=\"col\" class=\"num\">"; put(t[.versus])
        out += " "; put(detail.pair); out += "</thead><tbody>"
        for other in detail.others {
            out += "<tr><th scope=\"row\">"
            if other.isShown {
                out += "<a href=\"#"; put(other.anchor); out += "\">"; put(other.pair); out += "</a>"
            } else {
                put(other.pair)
            }
            out += "<td class=\"num\""
            for second in other.alt { out += " data-alt=\""; put(second.price); out += "\"" }
            out += ">"; put(other.price); out += "<td class=\"num "; put(other.premiumClass); out += "\""
            for second in other.alt { out += " data-alt=\""; put(second.premium); out += "\"" }
            out += ">"; put(other.premium)
        }
        out += "</tbody></table>"
    }
}
