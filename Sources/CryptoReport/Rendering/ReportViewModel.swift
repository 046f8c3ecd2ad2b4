import Foundation

/// What the Mustache templates see: every figure already formatted for people in the report's
/// locale. The names are documented in `Templates/README.md`; keep the two in step.
struct ReportViewModel {
    struct Text { var text: String }

    /// A fired alert's sentence, and its market's detail (`#{{anchor}}`) where the page has one.
    struct AlertLine {
        var text: String
        var anchor: String
        var hasAnchor: Bool
    }

    /// One holding, every figure worded in the report's number style.
    struct HoldingLine {
        var asset, amount, market, price, value, share, gain: String
        /// `up`, `down` or `flat`: the gain's colour.
        var gainClass: String
    }

    /// A change of the holdings' total: `+1 234,56 kr (+1,12 %) in 24 h`.
    struct HoldingsChange {
        var text: String
        var changeClass: String
    }

    struct Counts {
        var tickers, converted, selected, shown, assets, skipped, unconvertible: String
        /// `1 asset`, `267 assets`.
        var assetsPhrase: String
    }

    struct Breadth {
        var advancers, decliners, unchanged: String
        /// Plain integers, for proportions (CSS flex-grow) where grouped digits would not parse.
        var advancersWeight, declinersWeight, unchangedWeight: String

        /// `count` writes a number for people in the page's locale.
        init(_ summary: ReportSummary, count: (Int) -> String) {
            (advancers, decliners, unchanged) = (count(summary.advancers), count(summary.decliners), count(summary.unchanged))
            advancersWeight = String(summary.advancers)
            declinersWeight = String(summary.decliners)
            unchangedWeight = String(summary.unchanged)
        }
    }

    struct Source {
        var name, url, fetchedAt: String
        /// `live`, `file`, `sample` or `cached`.
        var status: String
        /// The location is a web address, not a path or the built-in sample.
        var isLink: Bool
    }

    struct MarketLine {
        var symbol, pair, base, quote: String
        /// What the base asset is called (`Bitcoin`), shown with the symbol and found by the
        /// page's search; empty when unknown (`hasName`).
        var name: String
        var hasName: Bool
        var price, open, high, low, bid, ask: String
        var change, changeClass, arrow: String
        var spread, spreadPct, volume, volumeValue, fxRate, updatedAt: String
        var stale: Bool
        /// `--cross-check`: another exchange prices the asset further apart than the tolerance;
        /// `crossCheck` says which and how far (`On Binance the price is +2,51 % from this one`).
        var hasCrossCheck = false
        var crossCheck = ""
        /// An alert rule sets a price limit on the market, fired or not: `limitTitle` names them.
        var hasLimit = false
        var limitTitle = ""
        var sincePrevious, change7d, change30d: String
        var sincePreviousClass, change7dClass, change30dClass: String
        /// `▁▂▄█`, for Markdown.
        var sparkline: String
        /// Inline SVG markup, numbers only: insert with `{{{sparklineSVG}}}`.
        var sparklineSVG: String
        /// The figures the page's script sorts by, as plain numbers separated by spaces (`-` for
        /// none), in the order `sortKeys` names: the shown text is for people, not for comparing.
        var sortValues: String
        /// The element id of the market's detail: `btcusdt`.
        var anchor: String
        /// The same row in the page's second currency, if it has one: `{{#alt}}`.
        var alt: [MarketLine] = []
        /// The table has this market, and so the page its detail: a top list's entry opens it
        /// (`--top` may leave a mover out of the table).
        var inTable = true
    }

    /// What `Row.sortValues` holds, in order: price, 24 h change, since last, 7 d, 30 d, trend
    /// over the series, high, low, bid, ask, spread %, spread, volume, volume value.
    static let sortKeys = ["p", "c", "s", "w", "m", "t", "h", "l", "b", "a", "q", "r", "v", "x"]

    struct Chart {
        var pair: String
        /// The market's detail: `#{{anchor}}`.
        var anchor: String
        var price: String
        /// `30 days`: the span the chart covers, counted as its change is.
        var span: String
        /// The change over that span: the 30-day change when the chart starts at its reference,
        /// else the change from its first day to today (`–` never stands beside a drawn line).
        var change30d: String
        var changeClass: String
        /// Drawn by the page's script from the history data, as a detail's chart is: the
        /// template's `.chart-box` with `data-market="{{anchor}}"`.
        var dated: Bool
        /// The chart's name for a screen reader: `BTC/USDT price by day`.
        var label: String
        /// An undated trend's line as inline SVG (`{{{svg}}}`), which the script cannot date;
        /// empty for a dated chart.
        var svg: String
    }

    // The texts worded in the page's language (`ReportViewModel+Wording`) start empty and are
    // set once the figures are.
    /// The page's texts in the reader's language: `{{t.close}}`.
    var t = PageStrings.english
    /// `en` or `sv`: `<html lang>`.
    var lang = "en"
    /// The texts the page's script writes, as JSON: `data-strings="{{scriptStrings}}"`.
    var scriptStrings = ""
    /// Sentences of the page with figures in them, worded in its language.
    var said = Said()
    /// The page's stylesheet and script (`Templates/report.css`, `Templates/report.js`), inserted
    /// with `{{{pageStyle}}}` and `{{{pageScript}}}`: they are not templates, and swift-mustache's
    /// parser (for a user's template it renders) costs more than linearly in a template's length.
    var pageStyle = EmbeddedTemplates.pageFiles["report.css"] ?? ""
    var pageScript = EmbeddedTemplates.pageFiles["report.js"] ?? ""
    struct Said {
        /// `Generated 2022-11-22 06:00 UTC`, `Newest ticker … (built-in sample)`, `ECB rates of … (…)`.
        var generated = "", newestTicker = "", ecbRates = ""
        /// `450 of 450 tickers converted`, `0 skipped`, `0 unconvertible`.
        var tickersConverted = "", skipped = "", unconvertible = ""
        /// `ECB reference rates of 2022-11-21`.
        var ecbReferenceRates = ""
        /// `Top volume (SEK)`.
        var topVolume = ""
        /// `Top lists: markets that traded at least … in 24 h; 52 left out (…)`.
        var volumeFloor = ""
        /// The footer's paragraphs.
        var method = "", disclaimer = ""
        /// The header's line of how the market moved: `24 h: ▲ 38 up · ▼ 191 down · ■ 38 unchanged`.
        var pulse = ""
    }

    /// When the data is from (ISO 8601, the newest ticker's time, else the report's), and how old
    /// it may be (`--max-age`'s tickers, in seconds): the page's script says how long ago it was
    /// and warns once the page is read past that age.
    var dataTime = ""
    var dataMaxAge = ""
    /// No chart or trend yet: a first run, or none into this history, says when they come.
    var hasChartsNote = false

    var title = ""
    var currency: String
    var locale: String
    var dataDate: String
    var generatedAt: String
    var newestTickerAt = ""
    var ecbDate: String
    var rates: [Text] = []
    var counts: Counts
    var breadth: Breadth
    var hasInrPremium: Bool
    var inrPremium: String
    var inrPremiumClass: String
    var inrPremiumDetail = ""
    var gainers, losers, topVolume, widestSpreads: [MarketLine]
    var hasGainers, hasLosers, hasTopVolume, hasWidestSpreads, hasMovers: Bool
    var rows: [MarketLine]
    var hasRows: Bool
    var warnings: [Text]
    var hasWarnings: Bool
    var warningCount: String
    var sources: [Source] = []
    var notices: [Text] = []
    var hasNotices: Bool
    var tickersStatus = ""
    var ratesStatus = ""
    var hasHistory: Bool
    var alerts: [AlertLine] = []
    var hasAlerts: Bool
    var holdings: [HoldingLine] = []
    var hasHoldings = false
    var holdingsTotal = ""
    /// Over 24 h, 7 and 30 days, as far as the open prices and the history tell, worded in the
    /// page's language (`word`); `holdingsChange` joins them for a line of text.
    var holdingsChanges: [HoldingsChange] = []
    var holdingsChange = ""
    var hasHoldingsChange = false
    /// The holdings' value by day, drawn by the page's script from `.chart-box` with
    /// `data-days="{{holdingsDays}}"` and `data-values="{{holdingsValues}}"`: the days and the
    /// totals (each with the digits the page shows it with), space-separated; there when the
    /// history holds two days of it.
    var holdingsDays = ""
    var holdingsValues = ""
    var hasHoldingsChart = false
    /// The holdings section's element id: one per currency of the page, the first `holdings`.
    var holdingsAnchor = "holdings"
    /// The first alerts, and the rest behind a disclosure (`moreAlertsLabel`), so that a long
    /// list of alerts does not fill the screen before any price.
    var firstAlerts: [AlertLine] = []
    var moreAlerts: [AlertLine] = []
    var hasMoreAlerts = false
    var moreAlertsLabel = ""
    var charts: [Chart]
    var hasCharts: Bool
    /// Each trend column is shown only when some row has a value for it: a first run with an
    /// empty history shows none of them.
    var hasSincePrevious, hasChange7d, hasChange30d, hasSparklines: Bool
    /// Any of the four.
    var hasTrends: Bool
    /// The days the longest trend covers (30 with a full history, fewer on a young one), and the
    /// trend column's heading that says so: `30-day trend`, `Trend 6 d`.
    var trendDays = 0
    var trendHeading = ""
    /// `10 724,00 kr`: the least volume value that let a market into the top lists.
    var volumeFloor: String
    /// `52`: selected markets the floor (or no trade at all) kept out of the top lists.
    var belowVolumeFloor: String
    var hasBelowVolumeFloor: Bool
    /// One per row of the table, in its order; empty when the model makes each as the page is
    /// written (`lazyDetails`, `forEachDetail`).
    var details: [Detail]
    var hasDetails: Bool
    /// Why a detail has no chart: the history holds no earlier day of the market yet, or the
    /// report was made without one.
    var detailNoChart = ""
    /// Makes the details one at a time, for the built-in page (`lazyDetails`).
    var detailMaker: DetailMaker?
    /// With `detailMaker` and a second currency: where each symbol is in that currency's rows.
    var alternativeRowIndex: [String: Int] = [:]
    /// The details' price history in this model's currency, as JSON for the page's script
    /// (`ReportViewModel+HistoryData`), already escaped for a `<script type="application/json">`.
    var historyData = ""
    var hasHistoryData = false
    /// The parts of the page shown once per currency (the summary, the footer): this model
    /// alone, or the first currency's and the second's (`ReportViewModel+Currencies`).
    var views: [ReportViewModel] = []
    /// The page switches between two currencies.
    var isSwitchable = false
    /// `0` or `1`: which currency a view is in, for the page's `cur-0`/`cur-1` classes.
    var viewIndex = "0"
    var currencyChoices: [CurrencyChoice] = []
    /// `SEK USD`: the page's currencies, in its head, for `index.html` to find the second's page.
    var currencyCodes = ""
    /// The second currency's model, for the figures outside the views: `{{#alternative}}`.
    var alternative: [ReportViewModel] = []
    /// The comparison chart's markets (the top ones by volume value, or `--compare`'s), by their
    /// detail's element id, for the script that draws them from the history data: `data-compare`.
    var comparedAnchors = ""
    /// The chart's name for a screen reader.
    var comparisonLabel = ""
    var hasComparison = false
    /// The comparison's heading: the markets `--compare` chose, or the top ones by volume.
    var comparisonTitle = ""
    /// Why the comparison `--compare` asked for is not drawn, and the page's sentence saying so
    /// where it would be: `{{#hasComparisonNote}}{{comparisonNote}}{{/hasComparisonNote}}`.
    var comparisonGap: ComparisonChart.Gap?
    var comparisonNote = ""
    var hasComparisonNote = false
    /// Its legend, in the chart's colour order: `{{#compared}}{{name}} {{change}}{{/compared}}`.
    var compared: [Compared] = []
    struct Compared {
        var name, change, changeClass: String
        /// `0` to `4`: the line's colour.
        var index: String
    }
    /// The converter's rates as JSON (`ReportViewModel+Converter`), for an HTML-escaped attribute.
    var converterData = ""
    var hasConverter = false

    /// - Parameters:
    ///   - strings: the page's language; by default the report locale's (Swedish for `sv_SE`,
    ///     English otherwise). Markdown is rendered from an English model.
    ///   - withDetails: the HTML page's per-market details and their history data, which
    ///     Markdown does not show: the largest part of the model at many markets.
    ///   - lazyDetails: with `withDetails`, the details are made one at a time as the built-in
    ///     page is written (`forEachDetail`) instead of held in `details`, which stays empty.
    init(_ report: Report, strings: PageStrings? = nil, details withDetails: Bool = true, lazyDetails: Bool = false) {
        let locale = Locale(identifier: report.localeIdentifier)
        let numbers = PeopleNumberFormatter(currency: report.currency, locale: locale)
        let time = PeopleTime(zone: report.timeZone, locale: locale)
        let summary = report.summary
        let t = strings ?? PageStrings(localeIdentifier: report.localeIdentifier)
        func count(_ value: Int) -> String { value.formatted(.number.locale(locale)) }
        // A sparkline's label, made once per number of days, not once per market.
        var madeLabels: [Int: String] = [:]
        for market in report.rows where (market.trend?.series.count ?? 0) > 1 {
            let days = market.trend.map(Self.daysCovered) ?? 0
            if madeLabels[days] == nil { madeLabels[days] = t.format(.trendDays, String(days)) }
        }
        let sparkLabels = madeLabels
        func sparkLabel(_ days: Int) -> String { sparkLabels[days] ?? t.format(.trendDays, String(days)) }
        func row(_ market: MarketRow) -> MarketLine { Self.row(market, numbers: numbers, time: time, strings: t, sparkLabel: sparkLabel) }

        currency = report.currency
        self.locale = report.localeIdentifier
        dataDate = report.dataDate
        generatedAt = time.minute(report.generatedAt)
        dataTime = ISO8601DateFormatter().string(from: report.summary.newestTickerAt ?? report.generatedAt)
        // Printed on the reader's paper: Letter where the locale's country uses it, A4 elsewhere.
        if Self.printsOnLetter(report.localeIdentifier) { pageStyle += "@media print { @page { size: letter landscape; } }\n" }
        // At most a thousand years: a limit past that (`--max-age 1e20s`) is no limit a page can tell.
        dataMaxAge = String(Int(min(report.tickersAgeLimit, 3.2e10).rounded()))
        ecbDate = report.rates.date
        let c = summary.counts
        counts = Counts(
            tickers: count(c.tickersReceived), converted: count(c.converted), selected: count(c.selected),
            shown: count(c.shown), assets: count(c.assets), skipped: count(c.skipped),
            unconvertible: count(c.unconvertible), assetsPhrase: "")
        breadth = Breadth(summary, count: count)
        hasInrPremium = summary.inrPremium != nil
        inrPremium = numbers.percent(summary.inrPremium?.percent)
        inrPremiumClass = Self.changeClass(summary.inrPremium?.percent)
        // The top lists are of every selected market, the table of those `--top` keeps.
        let tableSymbols = c.shown < c.selected ? Set(report.rows.lazy.map(\.symbol)) : nil
        func mover(_ market: MarketRow) -> MarketLine {
            var made = row(market)
            made.inTable = tableSymbols?.contains(market.symbol) ?? true
            return made
        }
        gainers = summary.gainers.map(mover)
        losers = summary.losers.map(mover)
        topVolume = summary.topVolume.map(mover)
        widestSpreads = summary.widestSpreads.map(mover)
        hasGainers = !gainers.isEmpty
        hasLosers = !losers.isEmpty
        hasTopVolume = !topVolume.isEmpty
        hasWidestSpreads = !widestSpreads.isEmpty
        hasMovers = hasGainers || hasLosers || hasTopVolume || hasWidestSpreads
        let makesDetailsLazily = withDetails && lazyDetails
        var madeRows = report.rows.map(row)
        if !report.alertRules.isEmpty {
            for (index, market) in report.rows.enumerated() {
                let limits = Self.limits(for: market, in: report)
                guard !limits.isEmpty else { continue }
                madeRows[index].hasLimit = true
                madeRows[index].limitTitle = t[.alertLimits] + " " + limits.map { Self.limitLabel($0, numbers: numbers, strings: t) }.joined(separator: ", ")
            }
        }
        if !report.priceGaps.isEmpty {
            let gaps = Dictionary(grouping: report.priceGaps, by: \.asset)
            for (index, market) in report.rows.enumerated() {
                guard let found = gaps[market.baseAsset.lowercased()] else { continue }
                madeRows[index].hasCrossCheck = true
                madeRows[index].crossCheck = found.map { t.format(.crossCheckTitle, $0.other.displayName, numbers.percent($0.percent)) }
                    .joined(separator: "; ")
            }
        }
        let maker = makesDetailsLazily ? DetailMaker(report, numbers: numbers, strings: t) : nil
        let converter = Self.converterData([report])
        // The details' price history: all markets' days at once.
        let history = withDetails ? Self.historyData(report, numbers: numbers, strings: t) : ""
        rows = madeRows
        hasRows = !rows.isEmpty
        warnings = DiagnosticText.lines(report).map { Text(text: $0) }
        hasWarnings = !warnings.isEmpty
        warningCount = count(warnings.count)
        hasNotices = !report.notices.isEmpty
        hasHistory = report.hasHistory
        hasAlerts = !report.alerts.isEmpty
        if let value = report.holdings {
            hasHoldings = true
            holdingsTotal = numbers.money(value.total)
            if let past = value.past, past.days.count == past.series.count, past.series.count > 1 {
                holdingsDays = past.days.joined(separator: " ")
                holdingsValues = past.series.map { Self.plainPrice($0, minorUnits: numbers.minorUnits) }.joined(separator: " ")
                hasHoldingsChart = true
            }
            holdings = value.positions.map { position in
                HoldingLine(
                    // The amount exact, as given, with the locale's decimal mark.
                    asset: position.asset.uppercased(),
                    amount: PlainNumber.format(position.amount).replacingOccurrences(of: ".", with: locale.decimalSeparator ?? "."),
                    market: position.market, price: numbers.money(position.price), value: numbers.money(position.value),
                    share: String(numbers.percent(position.sharePercent).drop { $0 == "+" }),
                    gain: position.gain.map { gain in
                        (gain > 0 ? "+" : "") + numbers.money(gain) + (position.gainPercent.map { " (" + numbers.percent($0) + ")" } ?? "")
                    } ?? "", gainClass: Self.changeClass(position.gain))
            }
        }
        // The larger charts: the five markets with the most volume that have a few days of history.
        charts = summary.topVolume.compactMap { mover in
            guard let market = report.rows.first(where: { $0.symbol == mover.symbol }), let trend = market.trend,
                trend.series.count > 2, let low = trend.series.min(), let high = trend.series.max()
            else { return nil }
            let pair = "\(market.baseAsset.uppercased())/\(market.quoteAsset.uppercased())"
            // Dated when the history says which day each price is of (the script draws it); the
            // plain line otherwise.
            let dated = trend.days.count == trend.series.count
            let svg =
                dated
                ? ""
                : Sparkline.svg(
                    trend.series, width: 320, height: 110, labels: (numbers.money(low), numbers.money(high)),
                    label: t.format(.trendDays, String(trend.series.count)))
            // The line starts at the 30-day change's reference when there is one: the change over
            // the line is that change, and on a younger history the change over what is drawn.
            let days = Self.daysCovered(trend)
            let change = Trend.percent(from: trend.series.first, to: market.price)
            return Chart(
                pair: pair, anchor: Self.anchor(market.symbol), price: numbers.money(market.price),
                span: t.format(.daysSpan, count(days)), change30d: numbers.percent(change), changeClass: Self.changeClass(change),
                dated: dated, label: t.format(.priceByDayOf, pair), svg: svg)
        }
        hasCharts = !charts.isEmpty
        hasChartsNote = !hasCharts && !report.rows.isEmpty && !report.rows.contains { ($0.trend?.series.count ?? 0) > 1 }
        let comparedMarkets = Self.comparedMarkets(report)
        let drawable = ComparisonChart.usable(comparedMarkets.map { ComparisonChart.Series(name: Self.anchor($0.0.symbol), points: $0.1) })
        hasComparison = drawable.count > 1 && Set(drawable.flatMap { $0.points.map(\.day) }).count > 1
        comparedAnchors = hasComparison ? drawable.map(\.name).joined(separator: " ") : ""
        comparisonLabel = t[summary.comparedByChoice ? .comparisonChosenLabel : .comparisonLabel]
        comparisonGap = Self.comparisonGap(report)
        compared =
            hasComparison
            ? comparedMarkets.filter { $0.1.count > 1 && ($0.1.first?.value ?? 0) > 0 }.enumerated().map { index, entry in
                let change = entry.1.first.flatMap { first in entry.1.last.map { Trend.percent(from: first.value, to: $0.value) } } ?? nil
                return Compared(
                    name: "\(entry.0.baseAsset.uppercased())/\(entry.0.quoteAsset.uppercased())", change: numbers.percent(change),
                    changeClass: Self.changeClass(change), index: String(index))
            }
            : []
        let trends = report.rows.compactMap(\.trend)
        hasSincePrevious = trends.contains { $0.sincePrevious != nil }
        hasChange7d = trends.contains { $0.change7d != nil }
        hasChange30d = trends.contains { $0.change30d != nil }
        hasSparklines = trends.contains { $0.series.count > 1 }
        hasTrends = hasSincePrevious || hasChange7d || hasChange30d || hasSparklines
        trendDays = trends.filter { $0.series.count > 1 }.map(Self.daysCovered).max() ?? 0
        volumeFloor = numbers.money(summary.volumeFloor, wholeWhenWhole: true)
        belowVolumeFloor = count(summary.belowVolumeFloor)
        hasBelowVolumeFloor = summary.belowVolumeFloor > 0
        if makesDetailsLazily {
            details = []
            detailMaker = maker
            hasDetails = !rows.isEmpty
        } else {
            details = withDetails ? Self.details(report, rows: rows, numbers: numbers, strings: t) : []
            hasDetails = !details.isEmpty
        }
        historyData = history
        hasHistoryData = !historyData.isEmpty
        detailNoChart = t[report.hasHistory ? .noSeries : .noHistory]
        converterData = converter
        hasConverter = !converterData.isEmpty && hasRows
        word(report, strings: t, numbers: numbers, time: time)
        views = [self]
    }

    private static func row(
        _ market: MarketRow, numbers: PeopleNumberFormatter, time: PeopleTime, strings: PageStrings, sparkLabel: (Int) -> String
    ) -> MarketLine {
        // Both lines from one set of points: each value made a `Double` once.
        let points = Sparkline.Points(market.trend?.series ?? [])
        return MarketLine(
            symbol: market.symbol, pair: "\(market.baseAsset.uppercased())/\(market.quoteAsset.uppercased())",
            base: market.baseAsset.uppercased(), quote: market.quoteAsset.uppercased(), name: market.name ?? "", hasName: market.name != nil,
            price: numbers.money(market.price), open: numbers.money(market.open), high: numbers.money(market.high),
            low: numbers.money(market.low), bid: numbers.money(market.bid), ask: numbers.money(market.ask),
            change: numbers.percent(market.changePercent), changeClass: changeClass(market.changePercent),
            arrow: arrow(market.changePercent),
            spread: numbers.money(market.spread), spreadPct: numbers.spreadPercent(market.spreadPercent),
            volume: numbers.quantity(market.volume), volumeValue: numbers.money(market.volumeValue),
            fxRate: numbers.rate(market.fxRate), updatedAt: market.updatedAt.map(time.minute) ?? "",
            stale: market.isStale, sincePrevious: numbers.percent(market.trend?.sincePrevious),
            change7d: numbers.percent(market.trend?.change7d), change30d: numbers.percent(market.trend?.change30d),
            sincePreviousClass: changeClass(market.trend?.sincePrevious), change7dClass: changeClass(market.trend?.change7d),
            change30dClass: changeClass(market.trend?.change30d),
            sparkline: Sparkline.unicode(points),
            // The label only for a line that is drawn: most rows of a first run have none.
            sparklineSVG: points.count > 1
                ? Sparkline.svg(points, label: sparkLabel(market.trend.map(daysCovered) ?? 0))
                : "",
            sortValues: sortValues(market), anchor: anchor(market.symbol))
    }

    private static func sortValues(_ market: MarketRow) -> String {
        var seriesChange: Decimal?
        if let series = market.trend?.series, series.count > 1, let first = series.first, let last = series.last {
            seriesChange = Trend.percent(from: first, to: last)
        }
        let values: [Decimal?] = [
            market.price, market.changePercent, market.trend?.sincePrevious, market.trend?.change7d, market.trend?.change30d,
            seriesChange, market.high, market.low, market.bid, market.ask, market.spreadPercent, market.spread,
            market.volume, market.volumeValue,
        ]
        // Eight significant digits order any two figures a reader could tell apart. Written
        // into one buffer, without a String per figure and their join.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160)
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: " ")) }
            guard let value else {
                bytes.append(UInt8(ascii: "-"))
                continue
            }
            PlainNumber.append(value, significantDigits: 8, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The comparison's markets: those `--compare` names, else the five with the most volume
    /// value; each with its dated prices, from its first day.
    static func comparedMarkets(_ report: Report) -> [(MarketRow, [PriceChart.Point])] {
        report.summary.compared.compactMap { symbol -> (MarketRow, [PriceChart.Point])? in
            guard let market = report.rows.first(where: { $0.symbol == symbol }) else { return nil }
            guard let trend = market.trend, trend.days.count == trend.series.count, trend.series.count > 1 else { return (market, []) }
            return (market, zip(trend.days, trend.series).map { PriceChart.Point(day: $0, value: $1) })
        }
    }

    /// Why the comparison the reader chose (`--compare`) is not drawn; `nil` when it is, or when
    /// nobody chose it (the top five without history is a first run's normal page).
    static func comparisonGap(_ report: Report) -> ComparisonChart.Gap? {
        guard report.summary.comparedByChoice else { return nil }
        let series = comparedMarkets(report).map { ComparisonChart.Series(name: $0.0.symbol, points: $0.1) }
        return ComparisonChart.gap(series, chosen: report.summary.compared.count, hasHistory: report.hasHistory)
    }

    /// The days a trend's line spans: 30 when it starts at the 30-day change's reference (a run
    /// 30 to 31 days old, whose calendar day may be 31 days back), else its calendar days, or its
    /// count of steps when its days are not known.
    static func daysCovered(_ trend: Trend) -> Int {
        if trend.change30d != nil { return 30 }
        return (trend.days.count == trend.series.count ? PriceChart.daysCovered(trend.days) : nil) ?? max(trend.series.count - 1, 0)
    }

    /// The countries whose paper is Letter: the United States, Canada, Mexico, the Philippines,
    /// Chile and Colombia.
    static func printsOnLetter(_ localeIdentifier: String) -> Bool {
        let region = Locale(identifier: localeIdentifier).region?.identifier ?? ""
        return ["US", "CA", "MX", "PH", "CL", "CO"].contains(region)
    }

    static func changeClass(_ change: Decimal?) -> String {
        guard let change else { return "flat" }
        return change > 0 ? "up" : change < 0 ? "down" : "flat"
    }

    static func arrow(_ change: Decimal?) -> String {
        guard let change else { return "" }
        return change > 0 ? "▲" : change < 0 ? "▼" : "■"
    }
}
