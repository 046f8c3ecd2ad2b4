/// The table of every market: most of the page's rows, each figure with its second currency's
/// beside it (`data-alt`) when the page has one.
extension HTMLWriter {
    mutating func table(_ model: ReportViewModel) {
        let t = model.t
        out += "<section class=\"card table-card\" id=\"markets\" aria-label=\""; put(t[.allMarkets])
        out += "\">\n  <div class=\"table-head\"><h2>"; put(t[.allMarkets]); out += "</h2><span class=\"small\">"; put(t[.pricesIn]); out += " "
        for alternative in model.alternative { out += "<span data-alt=\""; put(alternative.currency); out += "\">" }
        put(model.currency)
        for _ in model.alternative { out += "</span>" }
        put(t[.tableNote]); out += "</span></div>\n"
        if model.hasRows {
            out += "  <div class=\"tools\" id=\"tools\" hidden>\n    <input type=\"search\" id=\"search\" placeholder=\""; put(t[.searchPlaceholder])
            out += "\" aria-label=\""; put(t[.searchLabel])
            out += "\" autocomplete=\"off\" spellcheck=\"false\">\n    <span class=\"small\" id=\"shown\" aria-live=\"polite\"></span>\n"
            out += "    <details class=\"columns\"><summary>"; put(t[.columns])
            out +=
                "</summary><div id=\"column-choice\"></div></details>\n  </div>\n  <div class=\"table-wrap\">\n    <table class=\"markets\">\n      <thead>\n"
            header(model)
            out += "      </thead>\n      <tbody>\n"
            // By position: each row is passed where it is, not copied (thirty strings retained
            // and released per market).
            for index in model.rows.indices {
                row(model.rows[index], model)
                flushIfFull()
            }
            out += "      </tbody>\n    </table>\n    <p class=\"empty\" id=\"no-match\" hidden>"; put(t[.noMatch]); out += "</p>\n  </div>\n"
        } else {
            out += "  <p class=\"empty\">"; put(t[.noMarkets]); out += "</p>\n"
        }
        out += "</section>\n"
    }

    private mutating func header(_ model: ReportViewModel) {
        let t = model.t
        func column(_ key: String, _ label: PageStrings.Key, numeric: Bool = true, title: PageStrings.Key? = nil) {
            if numeric { out += "<th scope=\"col\" class=\"num\" data-k=\"" } else { out += "<th scope=\"col\" data-k=\"" }
            out.append(key)
            if let title { out += "\" title=\""; put(t[title]) }
            out += "\">"; put(t[label]); out += "</th>"
        }
        func pair(_ first: String, _ firstLabel: PageStrings.Key, _ second: String, _ secondLabel: PageStrings.Key) {
            out += "<th scope=\"col\" class=\"num\"><span data-k=\""; out.append(first); out += "\">"; put(t[firstLabel])
            out += "</span> <span class=\"lo\" data-k=\""; out.append(second); out += "\">"; put(t[secondLabel]); out += "</span></th>"
        }
        out += "        <tr>"
        column("n", .market, numeric: false)
        column("p", .price)
        column("c", .change24h)
        if model.hasSincePrevious { column("s", .sinceLast, title: .sinceLastTitle) }
        if model.hasChange7d { column("w", .change7d, title: .change7dTitle) }
        if model.hasChange30d { column("m", .change30d, title: .change30dTitle) }
        if model.hasSparklines { out += "<th scope=\"col\" data-k=\"t\">"; put(model.trendHeading); out += "</th>" }
        pair("h", .high, "l", .low)
        pair("b", .bid, "a", .ask)
        pair("q", .spreadPct, "r", .spread)
        pair("x", .volumeValue, "v", .volume)
        out += "</tr>\n"
    }

    private mutating func row(_ row: ReportViewModel.MarketLine, _ model: ReportViewModel) {
        let t = model.t
        let alt = row.alt
        /// `{{#alt}} data-alt="{{field}}"{{/alt}}`.
        func altAttribute(_ field: (ReportViewModel.MarketLine) -> String) {
            for other in alt { out += " data-alt=\""; put(field(other)); out += "\"" }
        }
        func title(_ row: ReportViewModel.MarketLine) {
            put(row.pair); out += " · "; put(t[.rate]); out += " "; put(row.fxRate); out += " · "; put(t[.updated]); out += " "; put(row.updatedAt)
        }
        out += "        <tr id=\"m-"; put(row.anchor); out += "\" title=\""; title(row); out += "\""
        for other in alt { out += " data-alt-title=\""; title(other); out += "\"" }
        out += " data-q=\""; put(row.symbol); out += " "; put(row.base); out += " "; put(row.quote)
        out += "\" data-n=\""; put(row.pair); out += "\" data-v=\""; put(row.sortValues); out += "\">\n"
        out += "          <th scope=\"row\"><div class=\"pair\"><a href=\"#"; put(row.anchor); out += "\" title=\""; put(t[.detailsOf]); out += " "
        put(row.pair); out += "\">"; put(row.pair)
        if row.stale {
            out += " <span class=\"stale\" title=\""; put(t[.staleTitle]); out += "\">"; put(t[.stale]); out += "</span>"
        }
        if row.hasCrossCheck {
            out += " <span class=\"xcheck\" title=\""; put(row.crossCheck); out += "\">"; put(t[.crossCheckMark]); out += "</span>"
        }
        if row.hasLimit {
            out += " <span class=\"limit-mark\" title=\""; put(row.limitTitle); out += "\">"; put(t[.limitMark]); out += "</span>"
        }
        out += "</a></div>"
        if row.hasName { out += "<span class=\"asset-name\">"; put(row.name); out += "</span>" }
        out += "<span class=\"sym\">"; put(row.symbol); out += "</span></th>\n"
        out += "          <td class=\"num\""; altAttribute { $0.price }; out += ">"; put(row.price); out += "</td>\n"
        out += "          <td class=\"num chg "; put(row.changeClass); out += "\""; altAttribute { $0.change }
        out += ">"; put(row.change); out += "</td>\n"
        out += "          "
        if model.hasSincePrevious {
            out += "<td class=\"num "; put(row.sincePreviousClass); out += "\""; altAttribute { $0.sincePrevious }; out += ">"; put(row.sincePrevious);
            out += "</td>"
        }
        out += "\n          "
        if model.hasChange7d {
            out += "<td class=\"num "; put(row.change7dClass); out += "\""; altAttribute { $0.change7d }; out += ">"; put(row.change7d); out += "</td>"
        }
        out += "\n          "
        if model.hasChange30d {
            out += "<td class=\"num "; put(row.change30dClass); out += "\""; altAttribute { $0.change30d }; out += ">"; put(row.change30d); out += "</td>"
        }
        out += "\n          "
        if model.hasSparklines { out += "<td class=\"spark-cell\">"; out.append(row.sparklineSVG); out += "</td>" }
        out += "\n"
        // Each cell's text passed as itself: a key path applied to the row copied the whole row
        // (thirty strings retained and released) for every cell. The second currency's text is
        // read by a closure, not a key path: each key path literal was fetched and retained
        // for every cell, second currency or not.
        func two(_ first: (ReportViewModel.MarketLine) -> String, _ firstText: String, _ second: (ReportViewModel.MarketLine) -> String, _ secondText: String) {
            out += "          <td class=\"num two\"><span"; altAttribute(first); out += ">"; put(firstText)
            out += "</span><span class=\"lo\""; altAttribute(second); out += ">"; put(secondText); out += "</span></td>\n"
        }
        two({ $0.high }, row.high, { $0.low }, row.low)
        two({ $0.bid }, row.bid, { $0.ask }, row.ask)
        two({ $0.spreadPct }, row.spreadPct, { $0.spread }, row.spread)
        two({ $0.volumeValue }, row.volumeValue, { $0.volume }, row.volume)
        out += "        </tr>\n"
    }
}
