/// The built-in Markdown report (`Templates/report.md.mustache`) written straight from the view
/// model. Written by hand because swift-mustache looks up every tag by name through the context
/// stack, which for the daily table costs more than the rest of the run (docs/performance.md,
/// 2026-11-28). A user's own `report.md.mustache` still goes
/// through Mustache. `MarkdownWriterTests` renders both ways on every kind of report and requires
/// the same bytes, so a change to the template that is not made here too fails there.
enum MarkdownWriter {
    static func render(_ model: ReportViewModel) -> String {
        var out = ReportBytes(reserving: 4096 + model.rows.count * 160)
        write(model, to: &out)
        return out.text
    }

    /// The report's bytes into `out` (a staged file's pieces, a few markets at a time).
    static func write(_ model: ReportViewModel, to out: inout ReportBytes) {
        // Every `{{tag}}` of the template, escaped as its content type does.
        func put(_ text: String) { MarkdownContentType.appendEscaped(text, to: &out.bytes) }

        out += "# "; put(model.title); out += "\n\n"
        if model.hasAlerts {
            out += "## 🔔 Alerts\n\n"
            for alert in model.alerts { out += "- **"; put(alert.text); out += "**\n" }
            out += "\n"
        }
        if model.hasNotices {
            for notice in model.notices { out += "> - ⚠ **"; put(notice.text); out += "**\n" }
            out += "\n"
        }
        if model.hasHoldings {
            out += "## 💼 Holdings\n\nTotal: **"; put(model.holdingsTotal); out += "**"
            if model.hasHoldingsChange { out += " ("; put(model.holdingsChange); out += ")" }
            out += "\n\n| Asset | Amount | Market | Price | Value | Share | Gain |\n|:---|---:|:---|---:|---:|---:|---:|\n"
            for line in model.holdings {
                out += "| "; put(line.asset); out += " | "; put(line.amount); out += " | "; put(line.market); out += " | "; put(line.price)
                out += " | "; put(line.value); out += " | "; put(line.share); out += " | "; put(line.gain); out += " |\n"
            }
            out += "\n"
        }
        out += "- Generated: "; put(model.generatedAt)
        out += "\n- Newest ticker: "; put(model.newestTickerAt); out += " ("; put(model.tickersStatus)
        out += ")\n- ECB reference rates: "; put(model.ecbDate); out += " ("; put(model.ratesStatus)
        out += ")\n- Rates used:\n"
        for rate in model.rates { out += "  - "; put(rate.text); out += "\n" }
        let counts = model.counts
        out += "- Markets: "; put(counts.shown); out += " shown; "; put(counts.converted); out += " of "; put(counts.tickers)
        out += " tickers converted ("; put(counts.assetsPhrase); out += "); "; put(counts.skipped); out += " skipped, "
        put(counts.unconvertible); out += " unconvertible\n"
        let breadth = model.breadth
        out += "- Breadth (24 h): ▲ "; put(breadth.advancers); out += " up · ▼ "; put(breadth.decliners)
        out += " down · ■ "; put(breadth.unchanged); out += " unchanged\n"
        if model.hasMovers {
            out += "- Top lists: markets that traded at least "; put(model.volumeFloor); out += " in 24 h"
            if model.hasBelowVolumeFloor {
                out += " ("; put(model.belowVolumeFloor); out += " left out; the table keeps every market)"
            }
            out += "\n"
        }
        if model.hasInrPremium {
            out += "- INR premium: "; put(model.inrPremium); out += " ("; put(model.inrPremiumDetail); out += ")\n"
        }
        out += "\n"

        func top(_ title: String, _ columns: String, _ rows: [ReportViewModel.MarketLine], _ cells: (ReportViewModel.MarketLine) -> Void) {
            guard !rows.isEmpty else { return }
            out.append("## \(title)\n\n| Market | \(columns) |\n|:---|---:|---:|\n")
            for row in rows {
                out += "| "; put(row.pair); out += " | "
                cells(row)
                out += " |\n"
            }
            out += "\n"
        }
        func priceAndChange(_ row: ReportViewModel.MarketLine) { put(row.price); out += " | "; put(row.arrow); out += " "; put(row.change) }
        top("Top gainers", "Price | 24h", model.gainers, priceAndChange)
        top("Top losers", "Price | 24h", model.losers, priceAndChange)
        top("Top volume", "Volume value | 24h", model.topVolume) {
            put($0.volumeValue); out += " | "; put($0.arrow); out += " "; put($0.change)
        }
        top("Widest spreads", "Spread % | Spread", model.widestSpreads) {
            put($0.spreadPct); out += " | "; put($0.spread)
        }

        out += "## All markets\n\nPrices in "; put(model.currency)
        out += "; 24 h change from the open; spread over the mid price; volume in base-asset units.\n\n"
        if model.hasRows {
            var header = "| Market | Price | 24h |", rule = "|:---|---:|---:|"
            if model.hasSincePrevious { header += " Since last |"; rule += "---:|" }
            if model.hasChange7d { header += " 7 d |"; rule += "---:|" }
            if model.hasChange30d { header += " 30 d |"; rule += "---:|" }
            if model.hasSparklines { header += " "; header += MarkdownContentType.escape(model.trendHeading); header += " |"; rule += ":---|" }
            out.append(header + " High | Low | Spread % | Volume | Volume value |\n")
            out.append(rule + "---:|---:|---:|---:|---:|\n")
            for row in model.rows {
                out += "| "; put(row.pair)
                if row.stale { out += " (stale)" }
                out += " | "; put(row.price); out += " | "; put(row.arrow); out += " "; put(row.change); out += " |"
                if model.hasSincePrevious { out += " "; put(row.sincePrevious); out += " |" }
                if model.hasChange7d { out += " "; put(row.change7d); out += " |" }
                if model.hasChange30d { out += " "; put(row.change30d); out += " |" }
                if model.hasSparklines { out += " "; put(row.sparkline); out += " |" }
                out += " "; put(row.high); out += " | "; put(row.low); out += " | "; put(row.spreadPct)
                out += " | "; put(row.volume); out += " | "; put(row.volumeValue); out += " |\n"
            }
        } else {
            out += "No markets to show.\n"
        }
        out += "\n"
        if model.hasWarnings {
            out += "## Warnings ("; put(model.warningCount); out += ")\n\n"
            for warning in model.warnings { out += "- "; put(warning.text); out += "\n" }
            out += "\n"
        }
        out += "## Sources\n\n"
        for source in model.sources {
            out += "- "; put(source.name); out += ": "; put(source.url); out += " ("; put(source.status)
            out += ", fetched "; put(source.fetchedAt); out += ")\n"
        }
        out += "\nAll prices are in "; put(model.currency)
        out += ". USDT is taken at par with USD; USD and INR are converted with the ECB euro reference rates of "
        put(model.ecbDate)
        out += ". Markets quoted in other assets (BTC, WRX, …) are converted through that asset's USDT or INR market."
        out += " Reference figures only, not investment advice.\n"
    }
}
