/// The markup of a market's detail, which the page's script fills from the table row, the
/// detail data and the history data when a reader opens it; and those data.
extension HTMLWriter {
    mutating func details(_ model: ReportViewModel) {
        let t = model.t
        out += "<template id=\"detail\"><section class=\"detail\" role=\"dialog\" aria-modal=\"true\"><div class=\"detail-card\">\n"
        out +=
            "<header class=\"detail-head\"><div><h2><span class=\"asset-name\"></span> <span class=\"d-pair\"></span> <span class=\"sym\" aria-hidden=\"true\"></span></h2>"
        out += "<div class=\"chart-head\"><span class=\"big\"></span> <span class=\"pill\"></span> <span class=\"d-money\"></span> <span class=\"small\">"
        put(t[.change24h]); out += "</span></div></div><a class=\"close\" aria-label=\""; put(t[.close]); out += "\">✕</a></header>\n<dl class=\"facts\">"
        for (label, field) in [
            (PageStrings.Key.open24h, "open"), (.high, "high"), (.low, "low"), (.bid, "bid"), (.ask, "ask"), (.spread, "spread"), (.volume, "volume"),
            (.volumeValue, "value"), (.tickerTime, "time"),
        ] {
            out += "<div><dt>"; put(t[label]); out += "<dd class=\"d-"; out.append(field); out += "\"></div>"
        }
        out += "<div class=\"d-rate\"><dt>"; put(t[.rateUsed]); out += "<dd></div></dl>\n<h3 class=\"d-series\">"; put(t[.priceByDay])
        out += "</h3><div class=\"history d-series\"></div><p class=\"small d-limits\">"; put(t[.alertLimits])
        out += " </p><p class=\"small d-no-chart\">"; put(model.detailNoChart); out += "</p>\n<div class=\"d-others\"><h3>"; put(t[.otherMarketsOf])
        out += " <span class=\"d-base\"></span></h3><table class=\"mini\"><thead><tr><th scope=\"col\">"; put(t[.market])
        out += "<th scope=\"col\" class=\"num\">"; put(t[.price]); out += "<th scope=\"col\" class=\"num\">"; put(t[.versus])
        out += " <span class=\"d-pair\"></span></thead><tbody></tbody></table></div><div class=\"earlier\"></div>\n</div></section></template>\n"
        out += "<script type=\"application/json\" id=\"detail-data\">"; out.append(model.makeDetailData()); out += "</script>\n"
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
}
