import Foundation
import Testing

@testable import CryptoReport

@Suite("User templates with --templates")
struct TemplateTests {
    static func report() throws -> Report {
        var request = ReportRequest()
        request.currency = "SEK"
        request.selection = Selection(symbols: ["btc"])
        return try ReportBuilder(request: request, generatedAt: Fixtures.reportTime).build(
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

    @Test("a broken template is a usage error naming the file")
    func brokenTemplate() throws {
        let folder = try TemporaryFolder()
        try Data("{{#rows}} never closed".utf8).write(to: folder.url.appendingPathComponent("report.html.mustache"))
        #expect {
            try TemplateRenderer(directory: folder.url)
        } throws: { error in
            guard case .templateInvalid(name: "report.html.mustache", _)? = error as? UsageError else { return false }
            return (error as? UsageError)?.exitStatus == .usage
        }
    }

    @Test("a templates folder that does not exist is a usage error")
    func missingFolder() {
        #expect(throws: UsageError.templateUnreadable(path: "/nonexistent/templates", reason: "no such folder")) {
            try TemplateRenderer(directory: URL(fileURLWithPath: "/nonexistent/templates"))
        }
    }

    /// The table's rows answer Mustache's lookups themselves (no reflection); a property added to
    /// the row but not to `child(named:)` would render empty without this test.
    @Test("every property of a table row answers Mustache under its own name")
    func rowLookupCoversEveryProperty() async throws {
        var request = ReportRequest()
        request.sample = true
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

    /// The report answers too, so that a row section's `{{#hasHistory}}` needs no reflection.
    @Test("every property of the report view answers Mustache under its own name")
    func reportLookupCoversEveryProperty() async throws {
        var request = ReportRequest()
        request.sample = true
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
}
