import Foundation
import Testing

@testable import CryptoReport

/// The built-in Markdown report is `Templates/report.md.mustache` rendered by `CompiledTemplate`;
/// on every branch of that template it must give the bytes swift-mustache gives.
@Suite("The built-in Markdown report through CompiledTemplate and swift-mustache")
struct MarkdownTemplateTests {
    /// The built-in Markdown report of `model`, as a run writes it.
    static func markdown(_ model: ReportViewModel) -> String {
        TemplateRenderer.builtIn("report.md")?.render(model) ?? ""
    }

    static func build(_ tickers: Data, currency: CurrencyCode = "SEK", alerts: [String] = [], configure: (inout Settings) -> Void = { _ in })
        throws -> Report
    {
        var settings = Settings()
        settings.report.currency = currency
        configure(&settings)
        var report = try ReportBuilder(spec: settings.report, ratesAgeLimit: settings.fetch.ratesAgeLimit, generatedAt: Fixtures.reportTime)
            .build(tickers: Fixtures.payload(.tickers, tickers), rates: Fixtures.payload(.rates, try Fixtures.rates))
        let rules = try alerts.map { try AlertRule(parsing: $0) }
        let rates = try ECBRatesParser().parseLatest(try Fixtures.rates)
        let decoded = try TickerDecoder().decode(tickers).tickers
        report.alerts = AlertEvaluator().evaluate(rules, report: report, tickers: decoded, rates: rates).fired
        report.alertRules = rules
        return report
    }

    static func expectSame(_ report: Report, _ comment: Comment) throws {
        let model = ReportViewModel(report)
        let templates = try TemplateRenderer()
        let compiled = templates.render(model, format: .markdown)
        let mustache = templates.renderWithMustache(model, format: .markdown)
        #expect(compiled == mustache, comment)
    }

    @Test("the real snapshot in SEK, USD and EUR, every market and the primary ones", arguments: ["SEK", "USD", "EUR"])
    func sample(currency: String) throws {
        for markets in Selection.Markets.allCases {
            let report = try Self.build(try Fixtures.tickers, currency: CurrencyCode(stringLiteral: currency)) {
                $0.report.selection.markets = markets
            }
            #expect(report.rows.count > 100)
            try Self.expectSame(report, "\(currency), \(markets)")
        }
    }

    @Test("alerts, notices, warnings, stale rows and Markdown's special characters in names")
    func everyBranch() throws {
        let tickers = Fixtures.tickerJSON([
            Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", open: "15000", volume: "3"),
            Fixtures.ticker("a|b*c_dusdt", base: "a|b*c_d", quote: "usdt", last: "2", open: "2", volume: "5"),
            Fixtures.ticker("x[y]#~`usdt", base: "x[y]#~`", quote: "usdt", last: "0.5", open: "1", volume: "100"),
            Fixtures.ticker("old<&>usdt", base: "old<&>", quote: "usdt", last: "1", at: "1568078292000"),
            Fixtures.ticker("badusdt", base: "bad", quote: "usdt", last: "not a number"),
            Fixtures.ticker("zzzxyz", base: "zzz", quote: "xyz", last: "1"),
        ])
        let report = try Self.build(tickers, alerts: ["btc above 1 SEK", "any move 1 %"]) { $0.report.selection.markets = .all }
        let model = ReportViewModel(report)
        // The case is worth something only if it reaches these branches.
        #expect(model.hasAlerts)
        #expect(model.hasWarnings)
        #expect(model.hasNotices)
        #expect(model.rows.contains { $0.stale })
        #expect(model.rows.contains { $0.pair.contains("|") })
        try Self.expectSame(report, "every branch")
        #expect(MarkdownTemplateTests.markdown(model).contains("A\\|B\\*C\\_D/USDT"))
    }

    @Test("a report with no market to show: the one asked for cannot be priced")
    func noRows() throws {
        let tickers = Fixtures.tickerJSON([
            Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000"),
            Fixtures.ticker("zzzxyz", base: "zzz", quote: "xyz", last: "1"),
        ])
        let report = try Self.build(tickers) { $0.report.selection.symbols = ["zzz"] }
        #expect(report.rows.isEmpty)
        try Self.expectSame(report, "no rows")
        #expect(MarkdownTemplateTests.markdown(ReportViewModel(report)).contains("No markets to show.\n"))
    }

    @Test("with history: trend columns, sparklines and the top lists")
    func withHistory() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("history.sqlite").path
        let store = try HistoryStore(path: path)
        for daysAgo in [1, 2, 7, 30] {
            try store.record(try HistoryTests.snapshot(daysAgo: daysAgo, factor: Decimal(90 + daysAgo) / 100))
        }
        var settings = Settings()
        settings.report.currency = "SEK"
        settings.fetch.sample = true
        settings.output.destination = .directory(folder.url.path)
        settings.output.database = path
        settings.output.formats = [.markdown]
        let outcome = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).run(settings)
        let written = try String(contentsOf: try #require(outcome.written.first), encoding: .utf8)
        #expect(written.contains("| Since last |"))
        #expect(written.contains(" 30-day trend |"), "from the 30-day basis to today")
        // The same report through the template.
        let report = ReportPipeline().withTrends(
            try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(settings), from: TrendCalculator(store: store))
        try Self.expectSame(report, "history")
    }
}
