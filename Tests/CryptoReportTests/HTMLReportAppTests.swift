import Foundation
import Testing

@testable import CryptoReport

/// Issue 9: the table that fits (trend columns only with trends), movers that traded, the detail
/// per market, and a page that stays one safe file.
@Suite("HTML report as an app: table, movers, details, safety")
struct HTMLReportAppTests {
    static func report(_ tickers: [String], currency: CurrencyCode = "SEK", minimumVolumeValue: Decimal? = nil) throws -> Report {
        var spec = ReportSpec(currency: currency)
        spec.minimumVolumeValue = minimumVolumeValue
        return try ReportBuilder(spec: spec, ratesAgeLimit: nil, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, Fixtures.tickerJSON(tickers)),
            rates: Fixtures.payload(.rates, try Fixtures.rates))
    }

    static func sample(_ currency: CurrencyCode = "SEK", markets: Selection.Markets = .primary) throws -> Report {
        var spec = ReportSpec(currency: currency)
        spec.selection.markets = markets
        return try ReportBuilder(spec: spec, ratesAgeLimit: nil, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, try Fixtures.tickers), rates: Fixtures.payload(.rates, try Fixtures.rates))
    }

    static func render(_ report: Report, _ format: ReportFormat) throws -> String {
        try TemplateRenderer().render(report, format: format)
    }

    // MARK: - Movers that traded

    @Test("a market that did not trade never leads a top list, even with no floor")
    func zeroVolumeNeverLeads() throws {
        let report = try Self.report(
            [
                Fixtures.ticker("deadusdt", base: "dead", quote: "usdt", last: "2", open: "1", volume: "0", bid: "1", ask: "3"),
                Fixtures.ticker("nonevusdt", base: "nonev", quote: "usdt", last: "3", open: "1", volume: "", bid: "1", ask: "3"),
                Fixtures.ticker("liveusdt", base: "live", quote: "usdt", last: "1.1", open: "1", volume: "5", bid: "1", ask: "1.2"),
            ], currency: "USD", minimumVolumeValue: 0)
        let summary = report.summary
        #expect(summary.gainers.map(\.symbol) == ["liveusdt"])
        #expect(summary.widestSpreads.map(\.symbol) == ["liveusdt"])
        #expect(summary.topVolume.map(\.symbol) == ["liveusdt"])
        #expect(summary.belowVolumeFloor == 2)
        #expect(report.rows.count == 3, "the table keeps every market")
    }

    @Test("the default floor is 100 USD's worth in the report currency; a floor given is taken as is")
    func volumeFloor() throws {
        let sek = try Self.sample("SEK")
        // 100 × 10.7235 SEK per USD, in whole kronor.
        #expect(sek.summary.volumeFloor == 1072)
        #expect(sek.summary.belowVolumeFloor == 113)
        for list in [sek.summary.gainers, sek.summary.losers, sek.summary.topVolume, sek.summary.widestSpreads] {
            #expect(list.allSatisfy { ($0.volumeValue ?? 0) >= 1072 })
        }
        #expect(!sek.summary.widestSpreads.contains { $0.symbol == "highusdt" }, "HIGH/USDT: 70 % spread, no trade")

        let usd = try Self.sample("USD")
        #expect(usd.summary.volumeFloor == 100)
        let strict = try Self.report(
            [
                Fixtures.ticker("aausdt", base: "aa", quote: "usdt", last: "2", open: "1", volume: "100"),
                Fixtures.ticker("bbusdt", base: "bb", quote: "usdt", last: "3", open: "1", volume: "1000"),
            ], currency: "USD", minimumVolumeValue: 2500)
        #expect(strict.summary.gainers.map(\.symbol) == ["bbusdt"])
        #expect(strict.summary.belowVolumeFloor == 1)
        let html = try Self.render(strict, .html)
        #expect(html.contains("Top lists: markets that traded at least $2,500 in 24 h; 1 left out"))
        let markdown = try Self.render(strict, .markdown)
        #expect(markdown.contains("- Top lists: markets that traded at least $2,500 in 24 h (1 left out"))
    }

    @Test(
        "min_volume_value reads amounts exactly and refuses what is not one",
        arguments: [
            ("5000", "5000"), ("2500.50", "2500.5"), (" 0 ", "0"), ("1_000", "1000"),
        ])
    func amountParser(text: String, expected: String) throws {
        let value = try Rules.amount.text(text)
        #expect("\(value)" == expected)
    }

    @Test("a bad amount is refused with what was expected", arguments: ["-1", "abc", "1,5", "", ".5", "1e3", "NaN"])
    func amountRefused(text: String) {
        #expect(throws: InvalidSettingValue.self) { try Rules.amount.text(text) }
    }

    // MARK: - Trend columns only with trends

    @Test("a first run with an empty history shows no trend column, in HTML and Markdown")
    func noEmptyTrendColumns() throws {
        var report = try Self.sample()
        report.hasHistory = true
        for index in report.rows.indices {
            report.rows[index].trend = Trend(series: [report.rows[index].price])
        }
        let html = try Self.render(report, .html)
        // The SEK page is Swedish: the sortable headers are found by their keys.
        for header in ["data-k=\"s\"", "data-k=\"w\"", "data-k=\"m\"", "data-k=\"t\""] {
            #expect(!html.contains(header), "\(header)")
        }
        let markdown = try Self.render(report, .markdown)
        #expect(markdown.contains("| Market | Price | 24h | High | Low | Spread % | Volume | Volume value |"))
        #expect(markdown.replacingOccurrences(of: "\u{00A0}", with: " ").contains("| 171 447,35 kr | ▼ −1,31 % | 175 168,40 kr | 167 286,63 kr | 0,72 % |"))
    }

    @Test("each trend column appears once some row has a value for it")
    func trendColumnsOneByOne() throws {
        var report = try Self.sample()
        report.hasHistory = true
        report.rows[0].trend = Trend(sincePrevious: 2, series: [report.rows[0].price])
        let html = try Self.render(report, .html)
        // A SEK page is Swedish: Since last is Sedan sist, 30-day trend Trend 30 d.
        #expect(html.contains(">Sedan sist</th>"))
        #expect(!html.contains(">7 d</th>") && !html.contains("data-k=\"t\""))
        // Coloured up or down as the 7 d and 30 d columns are, its header saying since when.
        #expect(html.contains("<td class=\"num up\">+2,00\u{00A0}%</td>"))
        #expect(html.contains("data-k=\"s\" title=\"Förändring sedan förra rapporten i historiken\">Sedan sist</th>"))
        let markdown = try Self.render(report, .markdown)
        #expect(markdown.contains("| Market | Price | 24h | Since last | High | Low | Spread % | Volume | Volume value |"))
        #expect(markdown.contains("|:---|---:|---:|---:|---:|---:|---:|---:|---:|"))
    }

    // MARK: - The span a chart shows

    /// The sample with `days` days of history ending today (2022-11-22) for every row: prices
    /// rising 1 % a day to today's.
    static func withHistory(days: Int, currency: CurrencyCode = "SEK") throws -> Report {
        var report = try Self.sample(currency)
        report.hasHistory = true
        let today = try #require(PriceChart.dayNumber("2022-11-22"))
        let dayNames = (0..<days).map { offset in
            ReportDates.day(Date(timeIntervalSince1970: Double(today - (days - 1) + offset) * 86400))
        }
        for index in report.rows.indices {
            let price = report.rows[index].price
            let series = (0..<days).map { offset in price * Decimal(100 - (days - 1 - offset)) / 100 }
            report.rows[index].trend = Trend(series: series)
            report.rows[index].trend?.days = dayNames
        }
        return report
    }

    @Test("a chart on a young history names the days it covers, in English and Swedish, with the change over them")
    func chartSpan() throws {
        let swedish = try Self.render(try Self.withHistory(days: 6), .html)
        // Six daily points, 17 to 22 November: a change over five days, as "7 d" counts seven.
        #expect(swedish.contains("</a> · 5 dagar</h2>"))
        #expect(!swedish.contains("30 dagar"))
        #expect(swedish.contains(">Trend 5 d</th>") || swedish.contains(">Trend 5 d<"))
        // From 95 % of today's price to today's: +5,26 %, not the empty 30-day change.
        #expect(swedish.contains("<span class=\"up\">+5,26\u{00A0}%</span>"))
        let english = try Self.render(try Self.withHistory(days: 6, currency: "USD"), .html)
        #expect(english.contains("</a> · 5 days</h2>") && !english.contains("30 days"))
        #expect(english.contains("5-day trend"))
        let markdown = try Self.render(try Self.withHistory(days: 6, currency: "USD"), .markdown)
        #expect(markdown.contains("| 5-day trend |") && !markdown.contains("30-day"))
        // A history with a gap: two points 12 days apart cover 12 days, in the row's picture too.
        var gap = try Self.sample("USD")
        gap.hasHistory = true
        var trend = Trend(series: [gap.rows[0].price / 2, gap.rows[0].price])
        trend.days = ["2022-11-10", "2022-11-22"]
        gap.rows[0].trend = trend
        #expect(ReportViewModel(gap).rows[0].sparklineSVG.contains("aria-label=\"12-day price trend\""))
        #expect(ReportViewModel(gap).trendHeading == "12-day trend")
        // A full window, 23 October to 22 November, says 30 days.
        let full = try Self.render(try Self.withHistory(days: 31, currency: "USD"), .html)
        #expect(full.contains("</a> · 30 days</h2>") && full.contains("30-day trend"))
    }

    @Test("days covered are the days from the first to the last, as a change is counted, across months and leap days")
    func daysCovered() {
        #expect(PriceChart.daysCovered(["2022-11-17", "2022-11-22"]) == 5)
        #expect(PriceChart.daysCovered(["2022-10-23", "2022-11-22"]) == 30)
        #expect(PriceChart.daysCovered(["2024-02-28", "2024-03-01"]) == 2)
        #expect(PriceChart.daysCovered(["2023-02-28", "2023-03-01"]) == 1)
        #expect(PriceChart.dayNumber("1970-01-01") == 0)
        #expect(PriceChart.daysCovered(["not a day"]) == nil)
    }

    // MARK: - Detail per market

    @Test("each market has a detail at #symbol: open, change in money, and the asset's other markets converted")
    func detail() throws {
        let report = try Self.sample()
        let model = ReportViewModel(report)
        let btc = try #require(model.details.first { $0.symbol == "btcusdt" })
        let row = try #require(report.rows.first { $0.symbol == "btcusdt" })
        let open = try #require(row.open)
        #expect(btc.anchor == "btcusdt")
        #expect(btc.open == PeopleNumberFormatter(currency: "SEK", locale: Locale(identifier: "sv_SE")).money(open))
        #expect(btc.changeMoney == "\u{2212}2\u{00A0}273,38\u{00A0}kr")
        let inr = try #require(btc.others.first { $0.symbol == "btcinr" }, "btcinr beside btcusdt, though --markets primary hides it")
        #expect(inr.premium == "+6,99\u{00A0}%")
        #expect(!inr.isShown)
        // The markets the table leaves out are kept beside the rows for the details.
        #expect(report.allMarkets.count > report.rows.count && report.allMarkets == report.markets)
        let html = try Self.render(report, .html)
        // The script builds the detail from the row and the page's detail data.
        let data = try #require(try PageTemplateTests.detailData(html)["btcusdt"])
        #expect(data["o"] as? [String] == [btc.open] && data["d"] as? [String] == [btc.changeMoney] && data["b"] as? String == "BTC")
        #expect(data["r"] as? [String] == ["1 USDT = \(btc.fxRate) SEK"] && data["u"] as? String == btc.updatedAt)
        let others = try #require(data["x"] as? [[String: Any]])
        #expect(
            others.contains {
                $0["p"] as? String == "BTC/INR" && $0["a"] as? String == "btcinr" && $0["s"] as? Bool == false && $0["m"] as? [String] == [inr.premium]
            })
        #expect(html.contains("<a href=\"#btcusdt\" title=\"Detaljer för BTC/USDT\">BTC/USDT"))
        #expect(html.contains("<template id=\"detail\"><section class=\"detail\" role=\"dialog\""))
        #expect(html.contains("<tr id=\"m-btcusdt\""))
    }

    @Test("a detail's change in money has its locale's minus sign, as the percentage beside it: en_US '-', sv_SE '−'")
    func detailMinusOfLocale() throws {
        let usd = try #require(ReportViewModel(try Self.sample("USD")).details.first { $0.symbol == "btcusdt" })
        #expect(usd.change.hasPrefix("-") && usd.changeMoney.hasPrefix("-$"), "\(usd.change) \(usd.changeMoney)")
        #expect(!usd.changeMoney.contains("\u{2212}"))
        let sek = try #require(ReportViewModel(try Self.sample("SEK")).details.first { $0.symbol == "btcusdt" })
        #expect(sek.change.hasPrefix("\u{2212}") && sek.changeMoney.hasPrefix("\u{2212}"), "\(sek.change) \(sek.changeMoney)")
    }

    @Test("with history, a detail's chart and earlier points come from the page's history data: each day's price as the page shows it, the change, the limits")
    func detailWithHistory() throws {
        var report = try Self.sample()
        let index = try #require(report.rows.firstIndex { $0.symbol == "btcusdt" })
        var trend = Trend(series: [150_000, Decimal(string: "160000.004")!, report.rows[index].price])
        trend.days = ["2022-11-20", "2022-11-21", "2022-11-22"]
        report.rows[index].trend = trend
        let eth = try #require(report.rows.firstIndex { $0.symbol == "ethusdt" })
        var ethTrend = Trend(series: [Decimal(string: "12000.5")!, report.rows[eth].price])
        ethTrend.days = ["2022-11-21", "2022-11-22"]
        report.rows[eth].trend = ethTrend
        report.hasHistory = true
        report.alertRules = [
            try AlertRule(parsing: "btc above 180000 SEK"), try AlertRule(parsing: "btc below 14000 USD"), try AlertRule(parsing: "eth above 1 SEK"),
        ]
        let model = ReportViewModel(report)
        let detail = try #require(model.details.first { $0.symbol == "btcusdt" })
        #expect(detail.hasSeries && detail.hasLimits)
        // In Swedish, as a SEK page is.
        #expect(detail.limits.map(\.text) == ["över 180\u{00A0}000,00\u{00A0}kr", "under 150\u{00A0}129,03\u{00A0}kr"])
        let english = try #require(ReportViewModel(report, strings: .english).details.first { $0.symbol == "btcusdt" })
        #expect(english.limits.map(\.text) == ["above 180\u{00A0}000,00\u{00A0}kr", "below 150\u{00A0}129,03\u{00A0}kr"])
        let data = try JSONSerialization.jsonObject(with: Data(model.historyData.utf8)) as? [String: Any]
        #expect(data?["locale"] as? String == "sv-SE" && data?["currency"] as? String == "SEK")
        #expect(data?["days"] as? [String] == ["2022-11-20", "2022-11-21", "2022-11-22"])
        #expect((data?["months"] as? [String])?[10] == "nov", "the axis's months in the page's language")
        let markets = try #require(data?["m"] as? [String: [String]])
        // Prices with the page's fraction digits (the row's price is the detail's `171 447,35 kr`),
        // changes in hundredths of a percent: +6,67 % then +7,15 %; ETH has no first day.
        #expect(markets["btcusdt"] == ["150000.00 160000.00 171447.35", "- 667 715"])
        #expect(markets["ethusdt"]?.first?.hasPrefix("- 12000.50 ") == true)
        #expect(Set(markets.keys) == ["btcusdt", "ethusdt"], "only markets with two dated prices")
        let limits = try #require((data?["l"] as? [String: [[String: Any]]])?["btcusdt"])
        #expect(limits.map { $0["d"] as? String } == ["up", "down"])
        #expect(limits.map { $0["t"] as? String } == detail.limits.map(\.text))
        #expect(limits.first?["v"] as? Double == 180_000)
        let html = try Self.render(report, .html)
        #expect(html.contains("<script type=\"application/json\" class=\"history-data\" data-cur=\"0\">\(model.historyData)</script>"))
        #expect(html.contains("<template id=\"points-table\">"))
        // A market the history holds one day of says its chart is still to come (the script
        // shows this line where the history data has no series of the market).
        #expect(
            html.contains("<p class=\"small d-no-chart\">Inget diagram än: priset över tid visas när historiken har tidigare dagar för den här marknaden.</p>"))
        var undated = report
        undated.hasHistory = false
        #expect(try Self.render(undated, .html).contains("<p class=\"small d-no-chart\">Inget diagram: rapporten gjordes utan historik.</p>"))
        #expect(!html.contains("<td>2022-11-21"), "no table of earlier days written on the server")
        #expect(html.contains("</table></div><div class=\"earlier\"></div>"), "a place for the earlier points, after the other markets")
    }

    @Test("a price in the history data has exactly the fraction digits the page shows it with")
    func plainPrices() {
        let cases: [(String, String)] = [
            ("171447.354", "171447.35"), ("9.99996", "10.000"), ("0.0000086", "0.000008600"), ("1.2999", "1.300"),
            ("0", "0.00"), ("12.005", "12.01"), ("1398000", "1398000.00"), ("0.00012345", "0.0001235"),
        ]
        for (value, expected) in cases {
            #expect(ReportViewModel.plainPrice(Decimal(string: value)!) == expected, "\(value)")
            let digits = expected.split(separator: ".").last?.count ?? 0
            let shown = PeopleNumberFormatter(currency: "USD", locale: Locale(identifier: "en_US")).money(Decimal(string: value)!)
            #expect(shown.split(separator: ".").last?.count == digits, "\(value): the page shows \(shown)")
        }
        // The yen's prices from a thousand up are whole, as the page shows them.
        let yen: [(String, String)] = [("2426288.58", "2426289"), ("1000", "1000"), ("152.034", "152.03"), ("0", "0")]
        for (value, expected) in yen {
            #expect(ReportViewModel.plainPrice(Decimal(string: value)!, minorUnits: 0) == expected, "\(value)")
        }
    }

    @Test("text in the history data cannot end its script element")
    func historyDataEscaped() throws {
        let hostile = "</script><script>alert(1)</script><!-- & \"\\ \u{2028}\u{1}"
        let json = ReportViewModel.jsonString(hostile)
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&"))
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8)) as? [String]
        #expect(decoded == [hostile])
        // Each alone in plain text too: plain text takes a shorter way.
        for special in ["<", ">", "&", "\"", "\\", "\u{2028}", "\u{2029}", "\u{1}", "\n"] {
            let text = "1.5 - 2" + special + "x ✓"
            let json = ReportViewModel.jsonString(text)
            #expect(!json.contains("<") && !json.contains(">") && !json.contains("&") && !json.contains("\u{2028}"))
            #expect(try JSONSerialization.jsonObject(with: Data("[\(json)]".utf8)) as? [String] == [text], "\(special.unicodeScalars.first?.value ?? 0)")
        }
        #expect(ReportViewModel.jsonString("171447.35 - 0.000008600") == "\"171447.35 - 0.000008600\"")
    }

    // MARK: - One safe file

    @Test("a hostile symbol stays text: in the table, the search data, the detail and its anchor")
    func hostileSymbolStaysText() throws {
        let hostile = "</script><script>alert(1)</script>"
        let escapedJSON = hostile.replacingOccurrences(of: "/", with: "\\/")
        let report = try Self.report(
            [
                Fixtures.ticker(escapedJSON + "usdt", base: escapedJSON, quote: "usdt", last: "2", volume: "1000"),
                Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", volume: "1"),
            ], currency: "USD")
        let html = try Self.render(report, .html)
        #expect(!html.contains("<script>alert(1)"))
        #expect(html.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;usdt"))
        #expect(html.components(separatedBy: "<script>").count == 2, "the page's own script only")
        // With history, the data block the script reads holds nothing that could end it.
        var dated = report
        for index in dated.rows.indices {
            var trend = Trend(series: [1, dated.rows[index].price])
            trend.days = ["2022-11-21", "2022-11-22"]
            dated.rows[index].trend = trend
        }
        let datedHTML = try Self.render(dated, .html)
        let block = try #require(datedHTML.firstMatch(of: /<script type="application\/json" class="history-data" data-cur="0">([^<]*)<\/script>/))
        let keys = try #require((try JSONSerialization.jsonObject(with: Data(block.1.utf8)) as? [String: Any])?["m"] as? [String: Any]).keys
        #expect(keys.count == 2 && keys.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } })
        #expect(datedHTML.components(separatedBy: "<script").count == 4, "the page's script, its detail data and its history data")
        #expect(try PageTemplateTests.detailData(datedHTML).keys.allSatisfy { $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } })
        let model = ReportViewModel(report)
        #expect(model.details.allSatisfy { $0.anchor.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } })
    }

    @Test("the page forbids every network request and loads nothing from outside")
    func contentSecurityPolicy() throws {
        let html = try Self.render(try Self.sample(), .html)
        #expect(
            html.contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:;"
            ))
        for reference in [" src=\"http", "url(http", "@import", "<link "] {
            #expect(!html.contains(reference), "\(reference)")
        }
    }

    @Test("without its script the page reads: the search tools are hidden, the table complete")
    func readsWithoutScript() throws {
        let report = try Self.sample()
        let html = try Self.render(report, .html)
        #expect(html.contains("<div class=\"tools\" id=\"tools\" hidden>"))
        #expect(html.components(separatedBy: "<tr id=\"m-").count - 1 == report.rows.count)
        let row = try #require(ReportViewModel(report).rows.first { $0.symbol == "btcusdt" })
        #expect(row.sortValues.split(separator: " ").count == ReportViewModel.sortKeys.count)
        #expect(row.sortValues.hasPrefix("171447.35 -1.308642 - - - - 175168.4 "))
    }
}
