/// `index.html` (`Templates/index.html.mustache`) written straight from its view model, as the
/// report's page is, so no run parses the template or pays swift-mustache's conformance lookups
/// for every value it reflects. `IndexWriterTests` renders both ways and requires the same
/// bytes, so a change to the template not made here too fails there.
extension HTMLWriter {
    static func index(_ model: IndexRenderer.ViewModel) -> String {
        var writer = HTMLWriter(capacity: 8_192 + model.pageStyle.utf8.count + model.reports.count * 320)
        writer.index(model)
        return writer.out.text
    }

    private mutating func index(_ model: IndexRenderer.ViewModel) {
        let t = model.t
        out += "<!DOCTYPE html>\n<html lang=\""; put(model.lang)
        out += "\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<meta name=\"color-scheme\" content=\"light dark\">\n<title>"; put(model.title); out += "</title>\n<style>\n"
        out.append(model.pageStyle)
        out += "</style>\n</head>\n<body>\n<main>\n<header>\n  <h1>"; put(model.title)
        out += "</h1>\n  <p class=\"sub\"><span>"; put(model.generatedLine); out += "</span><span>"; put(model.reportCount)
        out += "</span></p>\n</header>\n"
        indexSummary(model)
        if model.hasLatest {
            out += "<section class=\"card\" aria-label=\""; put(t[.latestReports]); out += "\">\n  <h2>"; put(t[.latest])
            out += "</h2>\n  <ul class=\"plain\">\n"
            for latest in model.latest {
                out += "    <li>"; put(latest.currency); out += ": "
                links(latest.files)
                out += "</li>\n"
            }
            out += "  </ul>\n  <div class=\"small\">"; put(t[.latestNote]); out += "</div>\n</section>\n"
        }
        out += "<section class=\"card table-card\" aria-label=\""; put(t[.reports])
        out += "\">\n  <div class=\"table-head\"><h2 style=\"margin: 0\">"; put(t[.reports])
        out += "</h2><span class=\"small\">"; put(t[.newestFirst]); out += "</span></div>\n"
        if model.hasReports {
            out += "  <div class=\"table-wrap\">\n    <table>\n      <thead>\n        <tr><th scope=\"col\">"; put(t[.date])
            out += "</th><th scope=\"col\">"; put(t[.currency]); out += "</th><th scope=\"col\">"; put(t[.files])
            out += "</th></tr>\n      </thead>\n      <tbody>\n"
            for entry in model.reports {
                out += "        <tr>\n          <th scope=\"row\">"; put(entry.date); out += "</th>\n          <td>"; put(entry.currency)
                out += "</td>\n          <td>"
                links(entry.files)
                if entry.hasAlerts {
                    out += "<a class=\"down\" href=\""; put(entry.alertsHref); out += "\">"; put(t[.alertsFile]); out += "</a>"
                }
                out += "</td>\n        </tr>\n"
            }
            out += "      </tbody>\n    </table>\n  </div>\n"
        } else {
            out += "  <p class=\"empty\">"; put(t[.noReports]); out += "</p>\n"
        }
        out += "</section>\n<footer>\n  <p>"; put(model.footer); out += "</p>\n</footer>\n</main>\n</body>\n</html>\n"
    }

    private mutating func links(_ files: [IndexRenderer.Link]) {
        for file in files { out += "<a href=\""; put(file.href); out += "\">"; put(file.label); out += "</a> " }
    }

    private mutating func indexSummary(_ model: IndexRenderer.ViewModel) {
        let t = model.t, summary = model.summary
        if summary.hasAlerts {
            alerts(
                heading: model.latestAlertsLine, label: t[.alerts], first: summary.firstAlerts, more: summary.moreAlerts,
                moreLabel: summary.moreAlertsLabel, page: summary.alertsPage)
        }
        out += "<section class=\"grid cards\" aria-label=\""; put(t[.latestSummary]); out += "\">\n  "
        breadthCard(summary.breadth, heading: model.breadthLine, strings: t)
        if summary.hasInrPremium {
            out += "  <div class=\"card\">\n    <h2>"; put(t[.inrPremium]); out += "</h2>\n    <div class=\"big "; put(summary.inrPremiumClass)
            out += "\">"; put(summary.inrPremium); out += "</div>\n    <div class=\"small\">"; put(summary.inrPremiumDetail); out += "</div>\n  </div>\n"
        }
        out += "</section>\n<section class=\"grid movers\" aria-label=\""; put(t[.movers]); out += "\">\n"
        if summary.hasGainers { movers(summary.gainers, heading: model.topGainersLine) }
        if summary.hasLosers { movers(summary.losers, heading: model.topLosersLine) }
        out += "</section>\n"
    }

    private mutating func movers(_ movers: [IndexRenderer.Mover], heading: String) {
        out += "  <div class=\"card\">\n    <h2>"; put(heading); out += "</h2>\n    <ul class=\"plain\">\n"
        for mover in movers {
            out += "      <li><span class=\"m\" title=\""; put(mover.symbol); out += "\">"; put(mover.pair)
            out += "</span><span class=\"num s\">"; put(mover.price); out += "</span><span class=\"num pill "; put(mover.changeClass)
            out += "\">"; put(mover.arrow); out += " "; put(mover.change); out += "</span></li>\n"
        }
        out += "    </ul>\n  </div>\n"
    }
}
