import Foundation
import Mustache
import Testing

@testable import CryptoReport

@Suite("User templates with --templates")
struct TemplateTests {
    static func report() throws -> Report {
        var request = Settings()
        request.report.currency = "SEK"
        request.report.selection = Selection(symbols: ["btc"])
        return try ReportBuilder(spec: request.report, ratesAgeLimit: request.fetch.ratesAgeLimit, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, try Fixtures.tickers), rates: Fixtures.payload(.rates, try Fixtures.rates))
    }

    @Test("a user's Markdown template is used; the missing HTML one falls back to the built-in")
    func ownTemplate() throws {
        let folder = try TemporaryFolder()
        try Data("{{% CONTENT_TYPE: MARKDOWN}}\n{{#rows}}{{pair}} costs {{price}}\n{{/rows}}".utf8)
            .write(to: folder.url.appendingPathComponent("report.md.mustache"))
        let templates = try TemplateRenderer(directory: folder.url)
        let report = try Self.report()
        #expect(templates.render(report, format: .markdown) == "BTC/USDT costs 171\u{00A0}447,35\u{00A0}kr\n")
        #expect(templates.render(report, format: .html).hasPrefix("<!DOCTYPE html>"))
    }

    /// The stylesheet and script are values of the view model, not parts of the template, so a
    /// user's copy of the built-in template (in a folder without them) still gets them.
    @Test("a copy of the built-in HTML template renders the built-in page, stylesheet and script included")
    func copiedTemplate() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(
            at: Fixtures.repositoryRoot.appendingPathComponent("Templates/report.html.mustache"),
            to: folder.url.appendingPathComponent("report.html.mustache"))
        let report = try Self.report()
        let own = try TemplateRenderer(directory: folder.url).render(report, format: .html)
        #expect(own == (try TemplateRenderer()).render(report, format: .html))
        let style = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Templates/report.css"), encoding: .utf8)
        let script = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("Templates/report.js"), encoding: .utf8)
        #expect(own.contains("<style>\n" + style + "</style>"))
        #expect(own.contains("<script>\n" + script + "</script>"))
    }

    @Test("a broken template is a usage error naming the file")
    func brokenTemplate() throws {
        let folder = try TemporaryFolder()
        // A tag cut off by the end of the file: swift-mustache's "overflow", said in words.
        try Data("{{#rows}}{{symbol}}\n{{/rows".utf8).write(to: folder.url.appendingPathComponent("report.md.mustache"))
        #expect {
            try TemplateRenderer(directory: folder.url, formats: [.markdown])
        } throws: { error in
            (error as? UsageError)?.errorDescription
                == "Templates: report.md.mustache is not a valid Mustache template: line 2: the template ends inside a tag: a {{ is never closed with }}."
        }
        try Data("{{#rows}} never closed".utf8).write(to: folder.url.appendingPathComponent("report.html.mustache"))
        #expect {
            try TemplateRenderer(directory: folder.url)
        } throws: { error in
            guard case .templateInvalid(name: "report.html.mustache", _)? = error as? UsageError else { return false }
            // In words, not the parser's enum case.
            return (error as? UsageError)?.exitStatus == .usage
                && (error as? UsageError)?.errorDescription
                    == "Templates: report.html.mustache is not a valid Mustache template: line 1: a section {{#…}} or {{^…}} is never closed with {{/…}}."
        }
    }

    @Test("a broken template stops only the runs that write its format")
    func brokenTemplateOfAnotherFormat() throws {
        let folder = try TemporaryFolder()
        try Data("{{#rows}} never closed".utf8).write(to: folder.url.appendingPathComponent("report.md.mustache"))
        let csv = try TemplateRenderer(directory: folder.url, formats: [.csv, .json])
        #expect(!csv.usesOwnTemplate(.markdown))
        #expect(throws: UsageError.self) { try TemplateRenderer(directory: folder.url, formats: [.csv, .markdown]) }
        // The binary: a CSV run writes its file; a Markdown run is refused before any fetch.
        let out = folder.url.appendingPathComponent("out").path
        let common = ["--sample", "--no-history", "--no-config", "--quiet", "--templates", folder.url.path, "--output", out]
        let fine = try ExecutableTests.run(common + ["--format", "csv"], in: folder.url)
        #expect(fine.status == 0, "\(fine.stderr)")
        let refused = try ExecutableTests.run(common + ["--format", "markdown"], in: folder.url)
        #expect(refused.status == 64 && refused.stderr.contains("Templates: report.md.mustache is not a valid Mustache template"), "\(refused.stderr)")
    }

    @Test("a templates folder that does not exist is missing input (66), as a missing --config file is")
    func missingFolder() throws {
        #expect(throws: UsageError.templateUnreadable(path: "/nonexistent/templates", reason: "no such folder")) {
            try TemplateRenderer(directory: URL(fileURLWithPath: "/nonexistent/templates"))
        }
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(["--sample", "--no-config", "--templates", "/nonexistent/templates", "--output", "out"], in: folder.url)
        #expect(run.status == 66 && run.stderr == "cryptoreport: Templates: cannot read /nonexistent/templates: no such folder.\n", "\(run.stderr)")
        #expect(folder.contents("out").isEmpty)
    }

    /// The table's rows answer Mustache's lookups themselves (no reflection); a property added to
    /// the row but not to `child(named:)` would render empty without this test.
    @Test("every property of a table row answers Mustache under its own name")
    func rowLookupCoversEveryProperty() async throws {
        var request = Settings()
        request.fetch.sample = true
        let report = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(request)
        let row = try #require(ReportViewModel(report).rows.first)
        let labels = Mirror(reflecting: row).children.compactMap(\.label)
        #expect(labels.count >= 27)
        for child in Mirror(reflecting: row).children {
            guard let label = child.label else { continue }
            let answered = try #require(row.child(named: label), "\(label) does not answer")
            #expect("\(answered)" == "\(child.value)", "\(label)")
        }
        #expect(row.child(named: "currency") == nil, "unknown keys fall through to the report")
    }

    static func templates(_ files: [String: String]) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        for (name, text) in files { try Data(text.utf8).write(to: folder.url.appendingPathComponent(name)) }
        return folder
    }

    static func refusal(_ files: [String: String]) throws -> (name: String, reason: String)? {
        let folder = try templates(files)
        do {
            _ = try TemplateRenderer(directory: folder.url)
            return nil
        } catch {
            guard case let .templateInvalid(name, reason) = error else { return ("?", "\(error)") }
            #expect(error.exitStatus == .usage)
            return (name, reason)
        }
    }

    @Test("a template that includes itself is a usage error naming it, not a crash")
    func includesItself() throws {
        let refused = try #require(try Self.refusal(["report.md.mustache": "{{> report.md}}"]))
        #expect(refused.name == "report.md.mustache")
        #expect(refused.reason == "it includes itself through partials (report.md → report.md)")
    }

    @Test("Markdown and HTML including each other are refused")
    func includeEachOther() throws {
        let refused = try #require(
            try Self.refusal(["report.md.mustache": "{{>report.html}}", "report.html.mustache": "x{{#rows}}{{> report.md }}{{/rows}}"]))
        #expect(refused.reason.contains("report.html → report.md → report.html") || refused.reason.contains("report.md → report.html → report.md"))
    }

    @Test("a cycle hidden behind changed delimiters and partials of the folder is refused")
    func cycleBehindDelimiters() throws {
        let refused = try #require(
            try Self.refusal([
                "report.md.mustache": "{{=<% %>=}}<%> a%>", "a.mustache": "{{{x}}}{{! > no }}{{> b}}", "b.mustache": "{{> a}}",
            ]))
        #expect(refused.name == "report.md.mustache")
        #expect(refused.reason == "it includes itself through partials (report.md → a → b → a)")
    }

    @Test("partials nesting too deep, or fanning out too wide, are refused quickly")
    func tooDeepOrWide() throws {
        var chain: [String: String] = ["report.md.mustache": "{{> p0}}"]
        for level in 0..<12 { chain["p\(level).mustache"] = "{{> p\(level + 1)}}" }
        chain["p12.mustache"] = "end"
        let deep = try #require(try Self.refusal(chain))
        #expect(deep.reason.contains("nest more than 8 deep"))
        // Ten partials each including the next ten times: 10^8 expansions if rendered.
        var wide: [String: String] = ["report.html.mustache": String(repeating: "{{> w0}}", count: 10)]
        for level in 0..<7 { wide["w\(level).mustache"] = String(repeating: "{{> w\(level + 1)}}", count: 10) }
        wide["w7.mustache"] = "leaf"
        let started = ContinuousClock.now
        let fan = try #require(try Self.refusal(wide))
        #expect(fan.reason.contains("more than 1000 partials"))
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test("a partial with no file, or named by the data, is refused; one in the folder renders")
    func partialsResolved() throws {
        #expect(try Self.refusal(["report.md.mustache": "{{> footer}}"])?.reason.hasPrefix("the partial {{> footer}} has no file footer.mustache in /") == true)
        #expect(try Self.refusal(["report.md.mustache": "{{>*title}}"])?.reason.contains("dynamic partial") == true)
        #expect(try Self.refusal(["report.md.mustache": "{{> ../report.md}}"])?.reason.contains("has no file") == true)
        let folder = try Self.templates(["report.md.mustache": "{{> title-line}}", "title-line.mustache": "# {{title}}"])
        let rendered = try TemplateRenderer(directory: folder.url).render(try Self.report(), format: .markdown)
        #expect(rendered == "# Crypto prices in SEK, 2022-11-22")
        // The built-in templates pass their own check.
        _ = try TemplateRenderer()
    }

    @Test("the issue's case end to end: exit 64 naming the template, before any request")
    func includesItselfEndToEnd() throws {
        let server = try LoopbackServer(routes: [:])
        defer { server.stop() }
        let folder = try Self.templates(["report.md.mustache": "{{> report.md}}"])
        let run = try ExecutableTests.run(
            ["--tickers-url", server.url("/t"), "--ecb-url", server.url("/r"), "--format", "md", "--output", "-", "--templates", folder.url.path],
            in: folder.url)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("cryptoreport: Templates: report.md.mustache is not a valid Mustache template: it includes itself"))
        #expect(server.requests.isEmpty)
        let sample = try ExecutableTests.run(["--sample", "--format", "md", "--output", "-", "--templates", folder.url.path], in: folder.url)
        #expect(sample.status == 64)
    }

    /// The report answers too, so that a row section's `{{#hasHistory}}` needs no reflection.
    @Test("every property of the report view answers Mustache under its own name")
    func reportLookupCoversEveryProperty() async throws {
        var request = Settings()
        request.fetch.sample = true
        let report = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(request)
        let view = ReportViewModel(report)
        let children = Mirror(reflecting: view).children
        #expect(children.count >= 38)
        for child in children {
            guard let label = child.label else { continue }
            let answered = try #require(view.child(named: label), "\(label) does not answer")
            #expect("\(answered)" == "\(child.value)", "\(label)")
        }
        #expect(view.child(named: "price") == nil)
    }

    /// Every stored property of `value` answers `child(named:)` under its own name, with itself.
    static func expectAnswers(_ value: some MustacheParent, atLeast count: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let children = Mirror(reflecting: value).children
        #expect(children.count >= count, "\(type(of: value))", sourceLocation: sourceLocation)
        for child in children {
            guard let label = child.label else { continue }
            let answered = try #require(value.child(named: label), "\(type(of: value)).\(label) does not answer", sourceLocation: sourceLocation)
            #expect("\(answered)" == "\(child.value)", "\(type(of: value)).\(label)", sourceLocation: sourceLocation)
        }
        #expect(value.child(named: "noSuchKey") == nil, sourceLocation: sourceLocation)
    }

    @Test("every part of the report's and the index's models answers Mustache under its own names, without reflection")
    func partsLookUpEveryProperty() throws {
        let alerts = ["btc above 1 USD", "eth below 1000000 SEK"]
        let sek = try PageTemplateTests.withHistory("SEK", days: [1, 7, 30], alerts: alerts)
        let usd = try PageTemplateTests.withHistory("USD", days: [1, 7, 30], alerts: alerts)
        let view = ReportViewModel(sek, alternatives: [usd])
        try Self.expectAnswers(try #require(view.rates.first), atLeast: 1)
        try Self.expectAnswers(view.counts, atLeast: 8)
        try Self.expectAnswers(view.breadth, atLeast: 6)
        try Self.expectAnswers(try #require(view.sources.first), atLeast: 5)
        try Self.expectAnswers(try #require(view.views.first?.charts.first), atLeast: 9)
        try Self.expectAnswers(view.said, atLeast: 12)
        try Self.expectAnswers(try #require(view.views.first?.compared.first), atLeast: 4)
        try Self.expectAnswers(try #require(view.currencyChoices.first), atLeast: 3)
        let index = IndexRenderer().model(
            reports: IndexTemplateTests.names, latest: ["cryptoreport-latest-SEK.html"], report: sek,
            pages: ["cryptoreport-2022-11-22-SEK.html": ["SEK", "USD"]], alertsPage: "cryptoreport-2022-11-22-SEK.html")
        try Self.expectAnswers(index, atLeast: 18)
        try Self.expectAnswers(index.summary, atLeast: 18)
        try Self.expectAnswers(try #require(index.summary.gainers.first), atLeast: 6)
        try Self.expectAnswers(try #require(index.reports.first), atLeast: 5)
        try Self.expectAnswers(try #require(index.reports.first?.files.first), atLeast: 2)
        try Self.expectAnswers(try #require(index.latest.first), atLeast: 2)
    }

    @Test("a user's template is rendered bounded: past its time or size it is a clear error (64), and a quick one is its text")
    func boundedRendering() throws {
        #expect(try TemplateRenderer.bounded(.markdown, timeLimit: .seconds(5)) { "# fine" } == "# fine")
        #expect {
            try TemplateRenderer.bounded(.html, timeLimit: .milliseconds(200)) {
                Thread.sleep(forTimeInterval: 3)
                return "late"
            }
        } throws: { error in
            (error as? UsageError)?.errorDescription?.hasPrefix("Templates: report.html.mustache did not render within 0.2 s") == true
                && (error as? UsageError)?.exitStatus == .usage
        }
        #expect {
            try TemplateRenderer.bounded(.markdown, sizeLimit: 1 << 20) { String(repeating: "x", count: 2 << 20) }
        } throws: { error in
            (error as? UsageError)?.errorDescription?.contains("renders more than 1 MB; nothing was written") == true
        }
        struct Refused: Error {}
        #expect(throws: Refused.self) { try TemplateRenderer.bounded(.markdown) { throw Refused() } }
    }
}
