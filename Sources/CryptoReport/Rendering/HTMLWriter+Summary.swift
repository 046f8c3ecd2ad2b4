/// The part of the page above the converter and the table, once per currency (`{{#views}}`): the
/// header, alerts and notices, the cards, the top lists, the charts and the comparison.
extension HTMLWriter {
    /// The alerts section: the first alerts, the rest folded behind `moreLabel`, each linked to
    /// its market's detail on `page` (this one when empty). The report and the index share it.
    mutating func alerts(
        heading: String, label: String, first: [ReportViewModel.AlertLine], more: [ReportViewModel.AlertLine], moreLabel: String,
        page: String = ""
    ) {
        func item(_ writer: inout HTMLWriter, _ alert: ReportViewModel.AlertLine) {
            writer.out += "    <li>"
            if alert.hasAnchor {
                writer.out += "<a href=\""; writer.put(page); writer.out += "#"; writer.put(alert.anchor); writer.out += "\">"
                writer.put(alert.text); writer.out += "</a>"
            } else {
                writer.put(alert.text)
            }
            writer.out += "</li>\n"
        }
        out += "<section class=\"alerts\" aria-label=\""; put(label); out += "\">\n  <h2>"; put(heading)
        out += "</h2>\n  <ul>\n"
        for alert in first { item(&self, alert) }
        out += "  </ul>\n"
        if !more.isEmpty {
            out += "  <details class=\"more-alerts\"><summary>"; put(moreLabel); out += "</summary>\n  <ul>\n"
            for alert in more { item(&self, alert) }
            out += "  </ul>\n  </details>\n"
        }
        out += "</section>\n"
    }

    mutating func summary(_ view: ReportViewModel) {
        let t = view.t
        if view.isSwitchable { out += "<div class=\"cur-"; put(view.viewIndex); out += "\">" }
        out += "<header>\n  <h1>"; put(view.title); out += "</h1>\n  <p class=\"pulse\">"
        put(view.said.pulse); out += "<span class=\"age\" data-time=\""; put(view.dataTime); out += "\" data-max-age=\""; put(view.dataMaxAge)
        out += "\"></span></p>\n</header>\n"
        if view.hasAlerts {
            alerts(heading: t[.alerts], label: t[.alerts], first: view.firstAlerts, more: view.moreAlerts, moreLabel: view.moreAlertsLabel)
        }
        if view.hasNotices {
            out += "<section class=\"notices\" aria-label=\""; put(t[.notices]); out += "\">\n  <ul>\n"
            for notice in view.notices { out += "    <li>"; put(notice.text); out += "</li>\n" }
            out += "  </ul>\n</section>\n"
        }
        if view.hasHoldings { holdings(view) }
        if view.isSwitchable { out += "</div>" }
    }

    /// What follows the table, once per currency: the cards, the top lists, the charts and the
    /// comparison.
    mutating func summaryAfterTable(_ view: ReportViewModel) {
        let t = view.t
        if view.isSwitchable { out += "<div class=\"cur-"; put(view.viewIndex); out += "\">" }
        out += "<p class=\"sub\"><span>"; put(view.said.generated); out += "</span><span>"; put(view.said.newestTicker)
        out += "</span><span>"; put(view.said.ecbRates); out += "</span></p>\n"
        cards(view)
        out += "\n"
        if view.hasMovers { movers(view) }
        out += "\n"
        if view.hasCharts {
            out += "<section class=\"grid charts\" aria-label=\""; put(t[.priceCharts]); out += "\">\n"
            for chart in view.charts {
                out += "  <div class=\"card chart\">\n    <h2><a href=\"#"; put(chart.anchor); out += "\">"; put(chart.pair)
                out += "</a> · "; put(chart.span); out += "</h2>\n    <div class=\"chart-head\"><span class=\"big\">"; put(chart.price)
                out += "</span> <span class=\""; put(chart.changeClass); out += "\">"; put(chart.change30d); out += "</span></div>\n    "
                if chart.dated {
                    out += "<div class=\"chart-box\" data-cur=\""; put(view.viewIndex); out += "\" data-market=\""; put(chart.anchor)
                    out += "\" data-label=\""; put(chart.label); out += "\"></div>"
                }
                out.append(chart.svg)
                out += "\n  </div>\n"
            }
            out += "</section>\n"
        }
        if view.hasComparison {
            out += "<section class=\"card compare-card\" aria-label=\""; put(t[.comparison]); out += "\">\n  <h2>"; put(view.comparisonTitle)
            out += "</h2>\n  "
            out.append(view.comparison)
            out += "\n  <ul class=\"plain legend\">"
            for entry in view.compared {
                out += "<li><span class=\"swatch s"; put(entry.index); out += "\" aria-hidden=\"true\"></span>"; put(entry.name)
                out += " <span class=\""; put(entry.changeClass); out += "\">"; put(entry.change); out += "</span></li>"
            }
            out += "</ul>\n</section>\n"
        }
        if view.hasComparisonNote {
            out += "<section class=\"card compare-card\" aria-label=\""; put(t[.comparison]); out += "\"><h2>"; put(view.comparisonTitle)
            out += "</h2><p class=\"small\">"; put(view.comparisonNote); out += "</p></section>\n"
        }
        if view.hasChartsNote { out += "<p class=\"card small charts-note\">"; put(t[.chartsNote]); out += "</p>\n" }
        if view.isSwitchable { out += "</div>" }
    }

    private mutating func holdings(_ view: ReportViewModel) {
        let t = view.t
        out += "<section class=\"card holdings\" id=\""; put(view.holdingsAnchor); out += "\" aria-label=\""; put(t[.holdings])
        out += "\">\n  <h2>"; put(t[.holdings]); out += "</h2>\n  <div class=\"chart-head\"><span class=\"big\">"; put(view.holdingsTotal)
        out += "</span>"
        for change in view.holdingsChanges {
            out += " <span class=\""; put(change.changeClass); out += "\">"; put(change.text); out += "</span>"
        }
        out += "</div>\n"
        if view.hasHoldingsChart {
            out += "  <div class=\"chart-box\" data-cur=\""; put(view.viewIndex); out += "\" data-days=\""; put(view.holdingsDays)
            out += "\" data-values=\""; put(view.holdingsValues); out += "\" data-label=\""; put(t[.holdingsByDay]); out += "\"></div>\n"
        }
        out += "  <table class=\"mini holdings-table\">\n    <thead><tr><th scope=\"col\">"; put(t[.holdingsAsset])
        out += "</th><th scope=\"col\" class=\"num not-narrow\">"; put(t[.holdingsAmount]); out += "</th><th scope=\"col\" class=\"wide-only\">";
        put(t[.market])
        out += "</th><th scope=\"col\" class=\"num wide-only\">"; put(t[.price]); out += "</th><th scope=\"col\" class=\"num\">"; put(t[.holdingsValue])
        out += "</th><th scope=\"col\" class=\"num wide-only\">"; put(t[.holdingsShare]); out += "</th><th scope=\"col\" class=\"num\">"
        put(t[.holdingsGain]); out += "</th></tr></thead>\n    <tbody>\n"
        for line in view.holdings {
            out += "      <tr><th scope=\"row\">"; put(line.asset); out += "</th><td class=\"num not-narrow\">"; put(line.amount)
            out += "</td><td class=\"wide-only\">"; put(line.market); out += "</td><td class=\"num wide-only\">"; put(line.price)
            out += "</td><td class=\"num\">"; put(line.value); out += "</td><td class=\"num wide-only\">"; put(line.share)
            out += "</td><td class=\"num "; put(line.gainClass); out += "\">"; put(line.gain); out += "</td></tr>\n"
        }
        out += "    </tbody>\n  </table>\n</section>\n"
    }

    private mutating func cards(_ view: ReportViewModel) {
        let t = view.t
        out += "<section class=\"grid cards\" aria-label=\""; put(t[.summary]); out += "\">\n  <div class=\"card\">\n    <h2>"; put(t[.markets])
        out += "</h2>\n    <div class=\"big\">"; put(view.counts.shown); out += " <span class=\"small\">"; put(t[.shown])
        out += "</span></div>\n    <div class=\"small\">"; put(view.said.tickersConverted)
        out += "</div>\n    <div class=\"small\">"; put(view.counts.assetsPhrase); out += " · "; put(view.said.skipped)
        out += "</div>\n    <div class=\"small\">"; put(view.said.unconvertible); out += "</div>\n  </div>\n"
        out += "  "
        breadthCard(view.breadth, heading: t[.breadth], strings: t)
        if view.hasInrPremium {
            out += "  <div class=\"card wide\">\n    <h2>"; put(t[.inrPremium]); out += "</h2>\n    <div class=\"big "; put(view.inrPremiumClass)
            out += "\">"; put(view.inrPremium); out += "</div>\n    <div class=\"small\">"; put(view.inrPremiumDetail); out += "</div>\n  </div>\n"
        }
        out += "  <div class=\"card wide\">\n    <h2>"; put(t[.ratesUsed]); out += "</h2>\n    <ul class=\"plain rates\">\n"
        for rate in view.rates { out += "      <li>"; put(rate.text); out += "</li>\n" }
        out += "    </ul>\n    <div class=\"small\">"; put(view.said.ecbReferenceRates); out += "</div>\n  </div>\n</section>\n"
    }

    private mutating func movers(_ view: ReportViewModel) {
        let t = view.t
        out += "<section class=\"grid movers\" aria-label=\""; put(t[.movers]); out += "\">\n"
        func list(_ title: String, _ legend: String, _ rows: [ReportViewModel.MarketLine], _ item: (inout HTMLWriter, ReportViewModel.MarketLine) -> Void) {
            out += "  <div class=\"card\">\n    <h2>"; put(title); out += "</h2>\n    <p class=\"small list-key\">"; put(legend)
            out += "</p>\n    <ul class=\"plain\">\n"
            for row in rows {
                if row.inTable {
                    out += "      <li><a class=\"m\" href=\"#"; put(row.anchor); out += "\" title=\""; put(row.symbol); out += "\">"; put(row.pair);
                    out += "</a>"
                } else {
                    out += "      <li><span class=\"m\" title=\""; put(row.symbol); out += "\">"; put(row.pair); out += "</span>"
                }
                item(&self, row)
                out += "</li>\n"
            }
            out += "    </ul>\n  </div>\n"
        }
        func priceAndChange(_ writer: inout HTMLWriter, _ row: ReportViewModel.MarketLine) {
            writer.out += "<span class=\"num s\">"; writer.put(row.price); writer.out += "</span><span class=\"num pill "; writer.put(row.changeClass)
            writer.out += "\">"; writer.put(row.arrow); writer.out += " "; writer.put(row.change); writer.out += "</span>"
        }
        if view.hasGainers { list(t[.topGainers], t[.legendPriceChange], view.gainers, priceAndChange) }
        if view.hasLosers { list(t[.topLosers], t[.legendPriceChange], view.losers, priceAndChange) }
        if view.hasTopVolume {
            list(view.said.topVolume, t[.legendChangeVolume], view.topVolume) { writer, row in
                writer.out += "<span class=\"num s "; writer.put(row.changeClass); writer.out += "\">"; writer.put(row.change)
                writer.out += "</span><span class=\"num\">"; writer.put(row.volumeValue); writer.out += "</span>"
            }
        }
        if view.hasWidestSpreads {
            list(t[.widestSpreads], t[.legendSpread], view.widestSpreads) { writer, row in
                writer.out += "<span class=\"num s\">"; writer.put(row.spread); writer.out += "</span><span class=\"num\">"
                writer.put(row.spreadPct); writer.out += "</span>"
            }
        }
        out += "  <p class=\"small floor\">"; put(view.said.volumeFloor); out += "</p>\n</section>\n"
    }

    /// The market-breadth card: counts, a bar in their proportions and its legend. The page and
    /// `index.html` show the same card under their own headings.
    mutating func breadthCard(_ breadth: ReportViewModel.Breadth, heading: String, strings t: PageStrings) {
        out += "<div class=\"card\">\n    <h2>"; put(heading)
        out += "</h2>\n    <div class=\"breadth\"><span class=\"up\" title=\""; put(t[.advancers]); out += "\">▲ "; put(breadth.advancers)
        out += "</span><span class=\"down\" title=\""; put(t[.decliners]); out += "\">▼ "; put(breadth.decliners)
        out += "</span><span class=\"flat\" title=\""; put(t[.unchanged]); out += "\">■ "; put(breadth.unchanged)
        out += "</span></div>\n    <div class=\"bar\" aria-hidden=\"true\"><span class=\"a\" style=\"flex-grow: "; put(breadth.advancersWeight)
        out += "\"></span><span class=\"d\" style=\"flex-grow: "; put(breadth.declinersWeight)
        out += "\"></span><span class=\"u\" style=\"flex-grow: "; put(breadth.unchangedWeight)
        out += "\"></span></div>\n    <div class=\"small\">"; put(t[.breadthLegend]); out += "</div>\n  </div>\n"
    }
}
