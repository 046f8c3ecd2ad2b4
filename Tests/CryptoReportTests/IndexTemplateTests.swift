import Foundation
import Mustache
import Testing

@testable import CryptoReport

/// `index.html` is `Templates/index.html.mustache` rendered by `CompiledTemplate`; on every branch
/// of the template it must give the bytes swift-mustache gives.
@Suite("index.html through CompiledTemplate and swift-mustache")
struct IndexTemplateTests {
    static func index(_ model: IndexRenderer.ViewModel) -> String {
        TemplateRenderer.builtIn("index.html")?.render(model) ?? ""
    }

    static func expectSame(_ model: IndexRenderer.ViewModel, _ comment: Comment, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        var library = MustacheLibrary()
        try library.register(try #require(EmbeddedTemplates.files["index.html"]), named: "index.html")
        let mustache = try #require(library.render(model, withTemplate: "index.html"))
        let compiled = Self.index(model)
        #expect(compiled == mustache, comment, sourceLocation: sourceLocation)
        if compiled != mustache { PageTemplateTests.explain(compiled, mustache, comment) }
    }

    static let names = [
        ReportFileName(date: "2022-11-22", currency: "SEK", kind: .report(.html)),
        ReportFileName(date: "2022-11-22", currency: "SEK", kind: .report(.csv)),
        ReportFileName(date: "2022-11-22", currency: "SEK", kind: .alerts),
        ReportFileName(date: "2022-11-21", currency: "USD", kind: .report(.json)),
    ]

    @Test("a Swedish index with alerts, dated reports, latest names and a two-currency page")
    func full() throws {
        let report = try MarkdownTemplateTests.build(try Fixtures.tickers, alerts: ["btc above 1 SEK", "eth below 1000000 SEK"])
        let model = IndexRenderer().model(
            reports: Self.names, latest: ["cryptoreport-latest-SEK.html", "cryptoreport-latest-SEK-alerts.csv"], report: report,
            pages: ["cryptoreport-2022-11-22-SEK.html": ["SEK", "USD"], "cryptoreport-latest-SEK.html": ["SEK", "USD"]])
        // The case is worth something only if it reaches these branches.
        #expect(model.summary.hasAlerts && model.summary.hasInrPremium && model.summary.hasGainers && model.summary.hasLosers)
        #expect(model.hasReports && model.hasLatest && model.reports.contains { $0.hasAlerts } && model.lang == "sv")
        try Self.expectSame(model, "full")
    }

    @Test("many alerts fold as on the page and open their market on the run's page; without that page they are text")
    func manyAlerts() throws {
        let report = try MarkdownTemplateTests.build(try Fixtures.tickers, alerts: ["any move 10 %"])
        let model = IndexRenderer().model(reports: Self.names, latest: [], report: report, alertsPage: "cryptoreport-2022-11-22-SEK.html")
        let summary = model.summary
        #expect(summary.alerts.count > 20 && summary.firstAlerts.count == 5 && summary.hasMoreAlerts)
        #expect(summary.alertsPage == "cryptoreport-2022-11-22-SEK.html" && summary.alerts.allSatisfy(\.hasAnchor))
        try Self.expectSame(model, "many alerts")
        let html = IndexTemplateTests.index(model)
        #expect(html.contains("<li><a href=\"cryptoreport-2022-11-22-SEK.html#mdxusdt\">any move 10 %: MDX/USDT"), "\(html)")
        #expect(html.contains("<details class=\"more-alerts\"><summary>\(summary.alerts.count - 5) larm till</summary>"))

        // A page of the day in the folder that this run did not write (a CSV-only run after an
        // HTML one with other --symbols) may lack the markets: no links.
        let withoutPage = IndexRenderer().model(reports: Self.names, latest: [], report: report)
        #expect(withoutPage.summary.alertsPage.isEmpty && !withoutPage.summary.alerts.contains(where: \.hasAnchor))
        #expect(!IndexTemplateTests.index(withoutPage).contains("#mdxusdt"))
        try Self.expectSame(withoutPage, "many alerts, no page")
    }

    @Test("an English index of an empty folder, no INR market, no movers")
    func empty() throws {
        let tickers = Fixtures.tickerJSON([
            Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", open: "16000", volume: "3"),
            Fixtures.ticker(#"it's\"q&usdt"#, base: #"it's\"q&"#, quote: "usdt", last: "1", open: "1", volume: "100"),
        ])
        let report = try MarkdownTemplateTests.build(tickers, currency: "USD") { $0.report.selection.markets = .all }
        let model = IndexRenderer().model(reports: [], latest: [], report: report)
        #expect(!model.summary.hasAlerts && !model.summary.hasInrPremium && !model.summary.hasGainers && !model.summary.hasLosers)
        #expect(!model.hasReports && !model.hasLatest && model.lang == "en")
        try Self.expectSame(model, "empty")
    }

    @Test("markup in a market's name is escaped in the movers")
    func escaping() throws {
        let tickers = Fixtures.tickerJSON([
            Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", open: "15000", volume: "3"),
            Fixtures.ticker(#"it's\"q&usdt"#, base: #"it's\"q&"#, quote: "usdt", last: "0.5", open: "1", volume: "1000000"),
        ])
        let report = try MarkdownTemplateTests.build(tickers, currency: "USD") { $0.report.selection.markets = .all }
        let model = IndexRenderer().model(reports: Self.names, latest: [], report: report)
        #expect(model.summary.hasGainers && model.summary.hasLosers)
        try Self.expectSame(model, "escaping")
        #expect(IndexTemplateTests.index(model).contains("IT&#39;S&quot;Q&amp;/USDT"))
    }
}
