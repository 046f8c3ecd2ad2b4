import Foundation

/// The model's sentences and labels for people, worded in a page language (`PageStrings`): set
/// by `init` in the page's language, and again in English for the run's Markdown without
/// formatting every market a second time.
extension ReportViewModel {
    /// This model with the texts the built-in Markdown report reads worded in `strings`'
    /// language. The charts, the details and the rows' pictures keep the language they were made
    /// in: Markdown shows none of them (a user's own Markdown template gets a model of its own).
    func worded(_ strings: PageStrings, report: Report) -> ReportViewModel {
        let locale = Locale(identifier: report.localeIdentifier)
        var copy = self
        copy.word(
            report, strings: strings, numbers: PeopleNumberFormatter(currency: report.currency, locale: locale),
            time: PeopleTime(zone: report.timeZone, locale: locale))
        copy.views = []
        copy.views = [copy]
        return copy
    }

    /// Sets every text of the summary, header and footer that `strings` words; the figures in them
    /// are already formatted.
    mutating func word(_ report: Report, strings t: PageStrings, numbers: PeopleNumberFormatter, time: PeopleTime) {
        let locale = Locale(identifier: report.localeIdentifier)
        let summary = report.summary
        func count(_ value: Int) -> String { value.formatted(.number.locale(locale)) }
        self.t = t
        lang = t.code
        scriptStrings = t.scriptJSON
        title = t.format(.title, report.currency, report.dataDate)
        newestTickerAt = summary.newestTickerAt.map(time.minute) ?? t[.unknown]
        rates = summary.ratesUsed.map {
            // The market by its pair, as the table names it: BTC/USDT, not btcusdt.
            let market =
                $0.via.hasPrefix($0.quoteAsset) && $0.via.count > $0.quoteAsset.count
                ? "\($0.quoteAsset.uppercased())/\($0.via.dropFirst($0.quoteAsset.count).uppercased())" : $0.via
            let via = $0.via.hasPrefix("ECB") ? "" : t.format(.rateVia, market)
            let unit = CurrencyCode.atPar($0.quoteAsset)
            return Text(text: "1 \(unit) = \(numbers.rate($0.rate)) \(report.currency)\(via)")
        }
        counts.assetsPhrase = t.format(summary.counts.assets == 1 ? .assetOne : .assetOther, counts.assets)
        inrPremiumDetail =
            summary.inrPremium.map {
                t.format(.inrPremiumDetail, numbers.number($0.usdtInrLast), numbers.number($0.ecbUsdInr))
            } ?? ""
        sources = report.sources.map {
            let name =
                switch $0.source {
                case .tickers: t[.sourceTickers]
                case .rates: t[.sourceRates]
                case .klines: t[.sourceKlines]
                case .binanceTickers: t[.sourceBinanceTickers]
                case .binanceInfo: t[.sourceBinanceInfo]
                case .binanceUSTickers: t[.sourceBinanceUSTickers]
                case .binanceUSInfo: t[.sourceBinanceUSInfo]
                case .wazirxAssets, .notice: ""
                }
            // The sample's location is worded by Fetching in English ("built-in sample NAME"):
            // the page says it in its own language.
            let sample = "built-in sample "
            let location =
                $0.origin == .sample && $0.location.hasPrefix(sample)
                ? t[.statusSample] + " " + $0.location.dropFirst(sample.count) : $0.location
            return Source(
                name: name, url: location, fetchedAt: time.minute($0.fetchedAt),
                status: $0.status.rawValue, isLink: $0.location.hasPrefix("http://") || $0.location.hasPrefix("https://"))
        }
        notices = report.notices.map { Text(text: NoticeText.text($0, time: time.minute, strings: t)) }
        func status(_ source: DataSource) -> String {
            guard let info = report.sources.first(where: { $0.source == source }) else { return "" }
            switch info.origin {
            case .network: return t.format(.statusLive, time.minute(info.fetchedAt))
            case .cache: return t.format(.statusCache, time.minute(info.fetchedAt))
            case .file: return t[.statusFile]
            case .sample: return t[.statusSample]
            }
        }
        tickersStatus = status(report.exchange.tickers)
        ratesStatus = status(.rates)
        holdingsChanges = Self.holdingsChanges(report.holdings, strings: t, numbers: numbers)
        holdingsChange = holdingsChanges.map(\.text).joined(separator: " · ")
        hasHoldingsChange = !holdingsChanges.isEmpty
        alerts = Self.alertLines(report, strings: t)
        (firstAlerts, moreAlerts, moreAlertsLabel) = Self.folded(alerts, strings: t, count: count)
        hasMoreAlerts = !moreAlerts.isEmpty
        comparisonTitle = t[summary.comparedByChoice ? .comparisonChosenHeading : .comparisonHeading]
        trendHeading = t.format(.trendSpan, count(trendDays))
        comparisonNote =
            comparisonGap.map { gap in
                switch gap {
                case .tooFewMarkets: t[.comparisonNeedsMarkets]
                case .noHistory: t[.comparisonNeedsHistory]
                case .tooFewDays: t[.comparisonNeedsDays]
                }
            } ?? ""
        hasComparisonNote = !comparisonNote.isEmpty
        said = Said(
            generated: t.format(.generated, generatedAt), newestTicker: t.format(.newestTicker, newestTickerAt, tickersStatus),
            ecbRates: t.format(.ecbRatesStatus, ecbDate, ratesStatus),
            tickersConverted: t.format(.tickersConverted, counts.converted, counts.tickers),
            skipped: t.format(.skipped, counts.skipped)
                + (summary.counts.notTrading > 0 ? " · " + t.format(.notTrading, count(summary.counts.notTrading)) : ""),
            unconvertible: t.format(.unconvertible, counts.unconvertible),
            ecbReferenceRates: t.format(.ecbReferenceRates, ecbDate), topVolume: t.format(.topVolume, report.currency),
            volumeFloor: t.format(.volumeFloor, volumeFloor)
                + (summary.belowVolumeFloor > 0 ? t.format(.volumeFloorLeftOut, count(summary.belowVolumeFloor)) : "") + ".",
            method: t.format(.method, report.currency, ecbDate), disclaimer: t.format(.disclaimer, t.localeName(report.localeIdentifier)),
            pulse: t.format(.pulse, breadth.advancers, breadth.decliners, breadth.unchanged))
    }

    /// The holdings' changes over 24 h, 7 and 30 days that the data tells, each in money and %.
    static func holdingsChanges(_ value: HoldingsValue?, strings t: PageStrings, numbers: PeopleNumberFormatter) -> [HoldingsChange] {
        guard let value else { return [] }
        let day = value.change24h.map { HoldingsValue.Change(money: $0, percent: value.change24hPercent) }
        return [(day, PageStrings.Key.periodDay), (value.change7d, .period7d), (value.change30d, .period30d)].compactMap { change, period in
            guard let change else { return nil }
            let money = (change.money > 0 ? "+" : "") + numbers.money(change.money)
            let text = money + (change.percent.map { " (" + numbers.percent($0) + ")" } ?? "") + " " + t[period]
            return HoldingsChange(text: text, changeClass: changeClass(change.money))
        }
    }

    /// Alerts shown before the rest are folded away; two more are shown rather than folded.
    static let alertsShownAtOnce = 5

    /// The first alerts, the rest, and the line that unfolds them ("26 more alerts"): all of
    /// them first when folding would hide no more than two.
    static func folded(
        _ alerts: [AlertLine], strings: PageStrings, count: (Int) -> String
    ) -> (first: [AlertLine], more: [AlertLine], label: String) {
        let split = alerts.count > alertsShownAtOnce + 2 ? alertsShownAtOnce : alerts.count
        let more = Array(alerts[split...])
        return (Array(alerts[..<split]), more, more.isEmpty ? "" : strings.format(.moreAlerts, count(more.count)))
    }

    /// - Parameter linked: the page the alerts link to has the report's details.
    static func alertLines(_ report: Report, strings: PageStrings, linked pageHasDetails: Bool = true) -> [AlertLine] {
        guard !report.alerts.isEmpty else { return [] }
        let onPage = pageHasDetails ? Set(report.rows.lazy.map(\.symbol)) : []
        return zip(report.alerts, AlertText.messages(report, strings: strings, inReportLocale: true)).map { alert, text in
            // A holdings alert links to the holdings' section, which every page has with them.
            if alert.rule.watchesHoldings { return AlertLine(text: text, anchor: "holdings", hasAnchor: true) }
            let linked = onPage.contains(alert.symbol)
            return AlertLine(text: text, anchor: linked ? anchor(alert.symbol) : "", hasAnchor: linked)
        }
    }
}
