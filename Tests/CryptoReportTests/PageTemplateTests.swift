import Foundation
import Mustache
import Testing

@testable import CryptoReport

/// The built-in page is `Templates/report.html.mustache` rendered by `CompiledTemplate`; on every
/// branch of the template it must give the bytes swift-mustache gives.
@Suite("The built-in page through CompiledTemplate and swift-mustache")
struct PageTemplateTests {
    /// The built-in page of `model`, as a run writes it.
    static func page(_ model: ReportViewModel) -> String {
        TemplateRenderer.builtIn("report.html")?.render(model) ?? ""
    }

    /// The page's detail data (`<script type="application/json" id="detail-data">`), by element id.
    static func detailData(_ html: String) throws -> [String: [String: Any]] {
        let block = try #require(html.firstMatch(of: /<script type="application\/json" id="detail-data">([^<]*)<\/script>/))
        return try #require(try JSONSerialization.jsonObject(with: Data(block.1.utf8)) as? [String: [String: Any]])
    }

    static func expectSame(_ model: ReportViewModel, _ comment: Comment, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let templates = try TemplateRenderer()
        let compiled = templates.render(model, format: .html)
        let mustache = templates.renderWithMustache(model, format: .html)
        #expect(compiled == mustache, comment, sourceLocation: sourceLocation)
        if compiled != mustache { Self.explain(compiled, mustache, comment) }
    }

    /// The first line that differs, for a reader of a failure: the pages are half a megabyte.
    static func explain(_ compiled: String, _ mustache: String, _ comment: Comment) {
        let a = compiled.split(separator: "\n", omittingEmptySubsequences: false)
        let b = mustache.split(separator: "\n", omittingEmptySubsequences: false)
        guard let line = zip(a, b).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset ?? (a.count != b.count ? min(a.count, b.count) : nil)
        else { return }
        func at(_ lines: [Substring]) -> String { line < lines.count ? String(lines[line]) : "(end)" }
        Issue.record("\(comment): line \(line + 1) differs\n compiled: \(at(a))\n mustache: \(at(b))")
    }

    /// A report of the real snapshot with `days` earlier days of history (prices moved a little
    /// each day), and the alerts `alerts` evaluated on it.
    static func withHistory(_ currency: CurrencyCode, days: [Int], alerts: [String] = [], locale: String? = nil) throws -> Report {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.url.appendingPathComponent("history.sqlite").path)
        for daysAgo in days {
            try store.record(try HistoryTests.snapshot(daysAgo: daysAgo, factor: Decimal(90 + daysAgo) / 100))
        }
        let report = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: currency, alerts: alerts) {
            $0.report.selection.markets = .all
            $0.report.locale = locale.flatMap(ReportLocale.init)
        }
        return ReportPipeline().withTrends(report, from: TrendCalculator(store: store))
    }

    @Test("the real snapshot in SEK (Swedish), USD and EUR (English), every market and the primary ones", arguments: ["SEK", "USD", "EUR"])
    func sample(currency: String) throws {
        for markets in Selection.Markets.allCases {
            let report = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: CurrencyCode(stringLiteral: currency)) {
                $0.report.selection.markets = markets
            }
            let model = ReportViewModel(report)
            #expect(model.hasRows && model.hasDetails && model.hasConverter && model.hasInrPremium && !model.hasCharts && !model.hasComparison)
            #expect(model.lang == (currency == "SEK" ? "sv" : "en"))
            try Self.expectSame(model, "\(currency), \(markets)")
        }
    }

    @Test("a USD page in Swedish and a SEK page in English (--locale)")
    func otherLanguage() throws {
        for (currency, locale) in [("USD", "sv_SE"), ("SEK", "en_US")] {
            let report = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: CurrencyCode(stringLiteral: currency)) {
                $0.report.locale = ReportLocale(locale)
            }
            try Self.expectSame(ReportViewModel(report), "\(currency) in \(locale)")
        }
    }

    @Test("alerts, notices, warnings, stale rows and hostile names to escape")
    func everyBranch() throws {
        let tickers = Fixtures.tickerJSON([
            Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", open: "15000", volume: "3"),
            Fixtures.ticker("</script><script>alert(1)</script>usdt", base: "</script><script>alert(1)</script>", quote: "usdt", last: "2", volume: "5"),
            Fixtures.ticker(#"it's\"q&usdt"#, base: #"it's\"q&"#, quote: "usdt", last: "0.5", open: "1", volume: "100"),
            Fixtures.ticker("old<&>usdt", base: "old<&>", quote: "usdt", last: "1", at: "1568078292000"),
            Fixtures.ticker("badusdt", base: "bad", quote: "usdt", last: "not a number"),
            Fixtures.ticker("zzzxyz", base: "zzz", quote: "xyz", last: "1"),
        ])
        let report = try MarkdownTemplateTests.build(tickers, alerts: ["btc above 1 SEK", "any move 1 %"]) { $0.report.selection.markets = .all }
        let model = ReportViewModel(report)
        // The case is worth something only if it reaches these branches.
        #expect(model.hasAlerts && model.hasWarnings && model.hasNotices)
        #expect(model.rows.contains { $0.stale })
        #expect(model.rows.contains { $0.pair.contains("</SCRIPT>") } && model.rows.contains { $0.pair.contains("'") })
        try Self.expectSame(model, "every branch")
        let html = PageTemplateTests.page(model)
        #expect(!html.contains("<SCRIPT>") && html.contains("&lt;/SCRIPT&gt;&lt;SCRIPT&gt;ALERT(1)&lt;/SCRIPT&gt;/USDT"))
        #expect(html.contains("IT&#39;S&quot;Q&amp;/USDT"))
    }

    /// 32 alerts filled a desktop screen before any price, two and a half on a phone.
    @Test("many alerts: the first five shown, the rest folded behind one line, each opening its market")
    func manyAlerts() throws {
        let report = try MarkdownTemplateTests.build(try Fixtures.tickers, alerts: ["any move 10 %", "btcinr above 1 SEK"])
        let model = ReportViewModel(report)
        #expect(model.alerts.count > 20, "the case needs many alerts")
        #expect(model.firstAlerts.count == 5 && model.moreAlerts.count == model.alerts.count - 5 && model.hasMoreAlerts)
        #expect(model.moreAlertsLabel == "\(model.alerts.count - 5) larm till")
        try Self.expectSame(model, "many alerts")
        let html = PageTemplateTests.page(model)
        let section = try #require(
            html.range(of: "<section class=\"alerts\"").flatMap { start in
                html[start.lowerBound...].range(of: "</section>").map { html[start.lowerBound..<$0.upperBound] }
            })
        #expect(section.components(separatedBy: "<li>").count - 1 == model.alerts.count)
        #expect(section.contains("<details class=\"more-alerts\"><summary>\(model.alerts.count - 5) larm till</summary>"))
        // Every link opens a detail the page has; the market the table leaves out has none.
        let links = section.components(separatedBy: "<a href=\"#").dropFirst().compactMap { $0.split(separator: "\"").first }
        #expect(links.count == model.alerts.count - 1)
        let details = try Self.detailData(html)
        for link in links { #expect(details[String(link)] != nil, "\(link)") }
        #expect(section.contains("<li>btcinr above 1 SEK: BTC/INR"), "\(section)")
        for alert in model.alerts {
            for child in Mirror(reflecting: alert).children {
                let label = try #require(child.label)
                #expect("\(try #require(alert.child(named: label)))" == "\(child.value)", "\(label)")
            }
        }

        // Seven are shown as they are: folding two would save nothing.
        let few = ReportViewModel(try MarkdownTemplateTests.build(try Fixtures.tickers, alerts: ["any move 16.5 %"]))
        #expect(few.alerts.count == 7, "\(few.alerts.count)")
        #expect(few.firstAlerts.count == few.alerts.count && !few.hasMoreAlerts)
        #expect(!PageTemplateTests.page(few).contains("<details class=\"more-alerts\""))
        try Self.expectSame(few, "few alerts")
    }

    @Test("a top list's market opens its detail where the table has it; one --top leaves out is text; each list says what its figures are")
    func moversLinked() throws {
        let report = try MarkdownTemplateTests.build(try Fixtures.tickers) { $0.report.selection.top = 3 }
        let model = ReportViewModel(report)
        let movers = model.gainers + model.losers + model.topVolume + model.widestSpreads
        #expect(movers.contains { $0.inTable } && movers.contains { !$0.inTable }, "the case needs both")
        try Self.expectSame(model, "movers with --top")
        let html = PageTemplateTests.page(model)
        let details = try Self.detailData(html)
        for mover in movers {
            let linked = html.contains("<a class=\"m\" href=\"#\(mover.anchor)\" title=\"\(mover.symbol)\">\(mover.pair)</a>")
            #expect(linked == mover.inTable, "\(mover.symbol)")
            #expect(mover.inTable == model.rows.contains { $0.symbol == mover.symbol }, "\(mover.symbol)")
            #expect((details[mover.anchor] != nil) == mover.inTable, "\(mover.symbol)")
        }
        #expect(html.contains("<h2>Störst spread</h2>\n    <p class=\"small list-key\">spread · spread i %</p>"))
        let all = ReportViewModel(try MarkdownTemplateTests.build(try Fixtures.tickers))
        let listed = all.gainers + all.losers + all.topVolume + all.widestSpreads
        #expect(listed.allSatisfy { $0.inTable })
    }

    @Test("sources read from the web are links; a quote in an address is escaped")
    func linkedSources() throws {
        let report = try ReportBuilder(spec: ReportSpec(currency: "USD"), ratesAgeLimit: nil, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, try Fixtures.tickers, location: "https://api.wazirx.com/sapi/v1/tickers/24hr?a=\"1\"&b='2'"),
            rates: Fixtures.payload(.rates, try Fixtures.rates, location: "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"))
        let model = ReportViewModel(report)
        #expect(model.sources.allSatisfy { $0.isLink })
        try Self.expectSame(model, "linked sources")
        #expect(PageTemplateTests.page(model).contains("<a href=\"https://api.wazirx.com/sapi/v1/tickers/24hr?a=&quot;1&quot;&amp;b=&#39;2&#39;\">"))
    }

    @Test("a report with no market to show")
    func noRows() throws {
        let tickers = Fixtures.tickerJSON([
            Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000"),
            Fixtures.ticker("zzzxyz", base: "zzz", quote: "xyz", last: "1"),
        ])
        let report = try MarkdownTemplateTests.build(tickers) { $0.report.selection.symbols = ["zzz"] }
        let model = ReportViewModel(report)
        #expect(!model.hasRows && !model.hasDetails && !model.hasConverter)
        try Self.expectSame(model, "no rows")
    }

    @Test("with history: trend columns, sparklines, charts, the comparison, limits and history data", arguments: ["SEK", "USD"])
    func withHistory(currency: String) throws {
        let report = try Self.withHistory(CurrencyCode(stringLiteral: currency), days: [1, 2, 7, 30], alerts: ["btc above 1 USD", "btc below 1000000 SEK"])
        let model = ReportViewModel(report)
        #expect(model.hasSincePrevious && model.hasChange7d && model.hasChange30d && model.hasSparklines)
        #expect(model.hasCharts && model.hasComparison && model.hasHistoryData && model.hasAlerts)
        #expect(model.details.contains { $0.hasLimits })
        try Self.expectSame(model, "history in \(currency)")
    }

    @Test("one day of history: a since-last column and the comparison, no 30-day column, no chart")
    func oneDay() throws {
        let model = ReportViewModel(try Self.withHistory("SEK", days: [1]))
        #expect(model.hasSincePrevious && !model.hasChange30d && !model.hasCharts && model.hasComparison)
        try Self.expectSame(model, "one day")
    }

    @Test("markets chosen for the comparison that it cannot draw yet: its note instead, in one currency and in two")
    func comparisonNote() throws {
        func chosen(_ currency: CurrencyCode) throws -> Report {
            try MarkdownTemplateTests.build(try Fixtures.tickers, currency: currency) { $0.report.compare = ["btc", "eth"] }
        }
        let model = ReportViewModel(try chosen("USD"))
        #expect(model.hasComparisonNote && !model.hasComparison)
        try Self.expectSame(model, "comparison note")
        let both = ReportViewModel(try chosen("SEK"), alternatives: [try chosen("USD")])
        #expect(both.views.allSatisfy { $0.hasComparisonNote } && !both.currencyCodes.isEmpty)
        try Self.expectSame(both, "comparison note in two currencies")
    }

    @Test("two currencies on one page, with and without history")
    func twoCurrencies() throws {
        let sek = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: "SEK") { $0.report.selection.markets = .all }
        let usd = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: "USD") { $0.report.selection.markets = .all }
        let plain = ReportViewModel(sek, alternatives: [usd])
        #expect(plain.isSwitchable && plain.rows.contains { !$0.alt.isEmpty })
        try Self.expectSame(plain, "SEK and USD")
        let alerts = ["btc above 1 USD", "eth below 1000000 SEK"]
        let dated = ReportViewModel(
            try Self.withHistory("USD", days: [1, 7, 30], alerts: alerts), alternatives: [try Self.withHistory("SEK", days: [1, 7, 30], alerts: alerts)])
        #expect(dated.details.contains { $0.hasLimits && !$0.alt.isEmpty } && dated.details.contains { $0.others.contains { !$0.alt.isEmpty } })
        #expect(dated.views.allSatisfy { $0.hasHistoryData })
        try Self.expectSame(dated, "USD and SEK with history")
        // A market only one currency has: the other's rows and details lack its second figures.
        let fewer = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: "USD") { $0.report.selection.markets = .primary }
        let partial = ReportViewModel(sek, alternatives: [fewer])
        #expect(partial.rows.contains { $0.alt.isEmpty } && partial.rows.contains { !$0.alt.isEmpty })
        try Self.expectSame(partial, "SEK and USD of fewer markets")
    }

    @Test("details made one at a time as the page is written are the details held whole: one and two currencies, history, limits, fewer markets")
    func lazyDetails() throws {
        let alerts = ["btc above 1 USD", "eth below 1000000 SEK"]
        let sek = try Self.withHistory("SEK", days: [1, 7, 30], alerts: alerts), usd = try Self.withHistory("USD", days: [1, 7, 30], alerts: alerts)
        let fewer = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: "USD") { $0.report.selection.markets = .primary }
        let plain = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: "SEK") { $0.report.selection.markets = .all }
        let pairs: [(ReportViewModel, ReportViewModel)] = [
            (ReportViewModel(sek), ReportViewModel(sek, lazyDetails: true)),
            (ReportViewModel(plain), ReportViewModel(plain, lazyDetails: true)),
            (ReportViewModel(sek, alternatives: [usd]), ReportViewModel(sek, alternatives: [usd], lazyDetails: true)),
            (ReportViewModel(plain, alternatives: [fewer]), ReportViewModel(plain, alternatives: [fewer], lazyDetails: true)),
        ]
        for (whole, lazy) in pairs {
            #expect(lazy.details.isEmpty && lazy.hasDetails && !whole.details.isEmpty)
            #expect(PageTemplateTests.page(lazy) == PageTemplateTests.page(whole))
        }
    }

    @Test("the pipeline's page is the page rendered from its view model")
    func pipelinePage() async throws {
        let folder = try TemporaryFolder()
        var settings = Settings()
        settings.report.currency = "SEK"
        settings.fetch.sample = true
        settings.output.destination = .directory(folder.url.path)
        settings.output.noHistory = true
        settings.output.formats = [.html]
        let clock = FixedClock(Fixtures.reportTime)
        let outcome = try await ReportPipeline(clock: clock).run(settings)
        let written = try String(contentsOf: try #require(outcome.written.first { $0.pathExtension == "html" }), encoding: .utf8)
        let report = try await ReportPipeline(clock: clock).makeReport(settings)
        #expect(written == PageTemplateTests.page(ReportViewModel(report)))
    }

    @Test("HTML escaping: Mustache's five characters, and a quote a combining mark follows, which Mustache would let through and the feed never sends")
    func escaping() throws {
        let template = try #require(CompiledTemplate("{{text}}"))
        #expect(template.render(["text": #"a<b>c&d"e'f ✓ plain"#]) == "a&lt;b&gt;c&amp;d&quot;e&#39;f ✓ plain")
        // Swift compares Characters: `"` with U+0301 is one, and Mustache's table does not know
        // it; `CompiledTemplate` escapes byte by byte.
        let hostile = "x\"\u{301} onmouseover=alert(1) <\u{301}"
        #expect(template.render(["text": hostile]) == "x&quot;\u{301} onmouseover=alert(1) &lt;\u{301}")
        // Such a name from the feed is refused when read (`SourceText`), so a template of the
        // user's, whose Mustache would let the quote through, never sees it.
        let tickers = Fixtures.tickerJSON([
            Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000"),
            Fixtures.ticker("x\\\"\u{301}usdt", base: "x\\\"\u{301} onmouseover=alert(1)", quote: "usdt", last: "2"),
        ])
        let report = try MarkdownTemplateTests.build(tickers, currency: "USD") { $0.report.selection.markets = .all }
        #expect(report.rows.map(\.symbol) == ["btcusdt"])
        let folder = try TemporaryFolder()
        try "{{#rows}}<p title=\"{{pair}}\">{{/rows}}".write(
            to: folder.url.appendingPathComponent("report.html.mustache"), atomically: true, encoding: .utf8)
        let own = try TemplateRenderer(directory: folder.url).render(report, format: .html)
        #expect(own == "<p title=\"BTC/USDT\">")
    }

    @Test("a folder's own report.html.mustache is rendered instead of the built-in one")
    func ownTemplate() throws {
        let folder = try TemporaryFolder()
        try "<p>{{title}} {{#rows}}{{pair}};{{/rows}}</p>".write(
            to: folder.url.appendingPathComponent("report.html.mustache"), atomically: true, encoding: .utf8)
        let report = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: "USD")
        let html = try TemplateRenderer(directory: folder.url).render(report, format: .html)
        #expect(html.hasPrefix("<p>") && html.contains("BTC/USDT;") && !html.contains("<!DOCTYPE"))
    }
}
