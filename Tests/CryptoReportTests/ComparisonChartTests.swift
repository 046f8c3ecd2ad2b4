import Foundation
import Testing

@testable import CryptoReport

/// Issue 9, item 6: with history, the top markets by volume value on one chart, rebased to 100.
@Suite("Comparison chart rebased to 100")
struct ComparisonChartTests {
    @Test("the top markets by volume value, each line starting at 100, the legend their change over the window")
    func topByVolume() throws {
        var report = try HTMLReportAppTests.sample()
        let top = report.summary.topVolume.map(\.symbol)
        #expect(top.count == 5)
        for (offset, symbol) in top.enumerated() {
            let index = try #require(report.rows.firstIndex { $0.symbol == symbol })
            let price = report.rows[index].price
            // Each rises by a different share: 0 %, 10 %, 20 %, … over three days.
            let start = price / (1 + Decimal(offset) / 10)
            var trend = Trend(series: [start, (start + price) / 2, price])
            trend.days = ["2022-11-20", "2022-11-21", "2022-11-22"]
            report.rows[index].trend = trend
        }
        report.hasHistory = true
        let model = ReportViewModel(report)
        #expect(model.hasComparison)
        #expect(
            model.compared.map(\.name)
                == top.compactMap { symbol in report.rows.first { $0.symbol == symbol } }.map {
                    "\($0.baseAsset.uppercased())/\($0.quoteAsset.uppercased())"
                })
        #expect(model.compared.map(\.change) == ["0,00\u{00A0}%", "+10,00\u{00A0}%", "+20,00\u{00A0}%", "+30,00\u{00A0}%", "+40,00\u{00A0}%"])
        // The script draws them from the history data (Tests/Browser: each line starts on the 100
        // line, the chart as wide as its card): the page names their details' ids, in order.
        #expect(model.comparedAnchors == top.map(ReportViewModel.anchor).joined(separator: " "))
        let html = try TemplateRenderer().render(report, format: .html)
        #expect(html.contains("<h2>Största marknaderna efter volym, indexerade till 100</h2>"), "a SEK page is Swedish")
        #expect(
            html.contains("<div class=\"compare-box\" data-cur=\"0\" data-compare=\"\(model.comparedAnchors)\" data-label=\"\(model.comparisonLabel)\"></div>"))
    }

    @Test("without history there is no comparison")
    func none() throws {
        let model = ReportViewModel(try HTMLReportAppTests.sample())
        #expect(!model.hasComparison && model.comparedAnchors.isEmpty)
        #expect(!(try TemplateRenderer().render(try HTMLReportAppTests.sample(), format: .html)).contains("<section class=\"card compare-card\""))
    }
}

/// `--compare`: the reader's own markets on the comparison chart.
@Suite("Comparison of chosen markets")
struct ChosenComparisonTests {
    @Test("the markets --compare names, in its order, by base asset or market symbol; unknown names left out and reported")
    func chosen() throws {
        var settings = Settings()
        settings.report.currency = "SEK"
        settings.report.compare = ["eth", "wrxinr", "nosuchcoin", "ETH"]
        settings.report.selection.markets = .all
        let report = try ReportBuilder(spec: settings.report, ratesAgeLimit: settings.fetch.ratesAgeLimit, generatedAt: Fixtures.reportTime)
            .build(tickers: Fixtures.payload(.tickers, try Fixtures.tickers), rates: Fixtures.payload(.rates, try Fixtures.rates))
        #expect(report.summary.compared == ["ethusdt", "wrxinr"])
        #expect(report.summary.notCompared == ["nosuchcoin"])
        #expect(report.summary.comparedByChoice)
        #expect(
            NoticeText.notCompared(report.summary.notCompared) == "--compare: no market in the table for \"nosuchcoin\"; the comparison chart leaves it out.")

        var withHistory = report
        for symbol in report.summary.compared + report.summary.topVolume.map(\.symbol) {
            let index = try #require(withHistory.rows.firstIndex { $0.symbol == symbol })
            let price = withHistory.rows[index].price
            var trend = Trend(series: [price / 2, price])
            trend.days = ["2022-11-21", "2022-11-22"]
            withHistory.rows[index].trend = trend
        }
        withHistory.hasHistory = true
        let model = ReportViewModel(withHistory)
        #expect(model.compared.map(\.name) == ["ETH/USDT", "WRX/INR"])
        #expect(model.comparisonTitle == "Valda marknader, indexerade till 100", "a SEK page is Swedish")
        #expect(ReportViewModel(withHistory, strings: .english).comparisonTitle == "Chosen markets, rebased to 100")
        #expect(try TemplateRenderer().render(withHistory, format: .html).contains("<h2>Valda marknader, indexerade till 100</h2>"))
        // Without --compare: the top five by volume value, as before.
        var top = withHistory
        top.summary.compared = top.summary.topVolume.map(\.symbol)
        top.summary.comparedByChoice = false
        #expect(ReportViewModel(top).compared.count == 5)
        #expect(ReportViewModel(top, strings: .english).comparisonTitle == "Top markets by volume, rebased to 100")
    }

    @Test("--compare without history says on standard error and on the page why nothing is drawn")
    func notDrawnWithoutHistory() throws {
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(
            ["--sample", "--currency", "SEK", "--format", "html", "--output", "o", "--no-history", "--compare", "btc,eth"], in: folder.url)
        #expect(run.status == 0)
        #expect(run.stderr == "cryptoreport: warning: " + NoticeText.comparisonNotDrawn(.noHistory) + "\n")
        #expect(run.stderr.contains("needs prices of two days or more from the history"))
        let html = try String(contentsOf: folder.url.appendingPathComponent("o/cryptoreport-2022-11-22-SEK.html"), encoding: .utf8)
        #expect(
            html.contains(
                "<section class=\"card compare-card\" aria-label=\"Jämförelse\"><h2>Valda marknader, indexerade till 100</h2><p class=\"small\">Ingen jämförelse ännu: den kräver priser från minst två dagar ur historiken, och den här rapporten har ingen historik.</p></section>"
            ))
        // Only the page draws the chart: a CSV run has nothing to say about it.
        let csv = try ExecutableTests.run(
            ["--sample", "--format", "csv", "--output", "c", "--no-history", "--compare", "btc,eth"], in: folder.url)
        #expect(csv.status == 0 && csv.stderr.isEmpty, "\(csv.stderr)")
    }

    @Test("why a chosen comparison is not drawn: one market, no history, or a history of one day; nothing said for the default top five")
    func gaps() throws {
        var settings = Settings()
        settings.report.currency = "USD"
        settings.report.compare = ["btc", "eth"]
        let report = try ReportBuilder(spec: settings.report, ratesAgeLimit: nil, generatedAt: Fixtures.reportTime)
            .build(tickers: Fixtures.payload(.tickers, try Fixtures.tickers), rates: Fixtures.payload(.rates, try Fixtures.rates))
        #expect(ReportViewModel.comparisonGap(report) == .noHistory)
        var firstRun = report
        firstRun.hasHistory = true
        for index in firstRun.rows.indices {
            var trend = Trend(series: [firstRun.rows[index].price])
            trend.days = ["2022-11-22"]
            firstRun.rows[index].trend = trend
        }
        #expect(ReportViewModel.comparisonGap(firstRun) == .tooFewDays)
        let english = ReportViewModel(firstRun)
        #expect(english.hasComparisonNote && !english.hasComparison)
        #expect(english.comparisonNote == "No comparison yet: the history holds prices of fewer than two days for these markets; each day's run adds one.")
        var one = report
        one.summary.compared = ["btcusdt"]
        #expect(ReportViewModel.comparisonGap(one) == .tooFewMarkets)
        var drawn = firstRun
        for symbol in ["btcusdt", "ethusdt"] {
            let index = try #require(drawn.rows.firstIndex { $0.symbol == symbol })
            let half = drawn.rows[index].price / 2
            drawn.rows[index].trend?.series.insert(half, at: 0)
            drawn.rows[index].trend?.days.insert("2022-11-21", at: 0)
        }
        #expect(ReportViewModel.comparisonGap(drawn) == nil && ReportViewModel(drawn).hasComparison)
        #expect(!ReportViewModel(drawn).hasComparisonNote)
        var top = report
        top.summary.comparedByChoice = false
        #expect(ReportViewModel.comparisonGap(top) == nil, "a first run's page without the default comparison is normal")
        #expect(!(try TemplateRenderer().render(top, format: .html)).contains("<section class=\"card compare-card\""))
    }

    @Test("--compare takes one to five names")
    func count() throws {
        let compare: @Sendable (String) throws -> [String] = SettingKey.flag("compare")
        #expect(try compare("btc,eth") == ["btc", "eth"])
        #expect { try compare("a,b,c,d,e,f") } throws: { "\($0)".contains("the comparison follows at most five markets") }
        #expect { try compare("") } throws: { "\($0)".contains("one to five base assets or market symbols") }
    }
}
