import Foundation
import Testing

@testable import CryptoReport

/// The four formats on the bundled snapshot, compared with files in Golden/.
/// Run with `UPDATE_GOLDEN=1 swift test --filter GoldenReportTests` to rewrite them after an
/// intended change, then read the diff.
@Suite("Golden reports on the bundled snapshot")
struct GoldenReportTests {
    static func report(currency: CurrencyCode) async throws -> Report {
        var request = Settings()
        request.report.currency = currency
        request.fetch.sample = true
        let pipeline = ReportPipeline(clock: FixedClock(Fixtures.reportTime))
        return try await pipeline.makeReport(request)
    }

    @Test(
        "every format matches its golden file",
        arguments: [("SEK", ReportFormat.csv), ("SEK", .markdown), ("SEK", .html), ("SEK", .json), ("USD", .markdown), ("USD", .csv), ("USD", .html)])
    func golden(currency: String, format: ReportFormat) async throws {
        let report = try await Self.report(currency: CurrencyCode(stringLiteral: currency))
        let text = try ReportPipeline().render(report, as: format, templates: try TemplateRenderer())
        try GoldenFile.check(text, "sample-\(currency).\(format.fileExtension)")
    }

    @Test("the sample summary holds the figures of the day")
    func summary() async throws {
        let report = try await Self.report(currency: "SEK")
        #expect(report.dataDate == "2022-11-22")
        #expect(report.rates.date == "2022-11-21")
        #expect(report.summary.counts.tickersReceived == 450)
        #expect(report.summary.counts.converted == 450)
        #expect(report.summary.counts.assets == report.rows.count)
        #expect(report.summary.advancers + report.summary.decliners + report.summary.unchanged <= report.rows.count)
        let premium = try #require(report.summary.inrPremium)
        #expect(premium.usdtInrLast == Fixtures.decimal("87.6"))
        #expect(premium.ecbUsdInr == Fixtures.decimal("83.7375") / Fixtures.decimal("1.0246"))
        let usd = try #require(report.summary.ratesUsed.first)
        #expect(usd.quoteAsset == "usdt")
        #expect(PlainNumber.format(usd.rate, significantDigits: 6) == "10.7235")
    }

    /// Sparklines, 30-day charts and trend columns: the bundled snapshot after 31 synthetic days
    /// (the real capture with every price scaled by a fixed pattern), top 10 markets.
    @Test("with history: sparklines, charts and trend figures match their golden files", arguments: [ReportFormat.markdown, .html, .csv])
    func goldenWithHistory(format: ReportFormat) async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.url.appendingPathComponent("history.sqlite").path)
        for daysAgo in 1...31 {
            // 0.80 … 1.10 in a saw-tooth, so lines rise and fall.
            let factor = Decimal(80 + (daysAgo * 7) % 31) / 100
            try store.record(try HistoryTests.snapshot(daysAgo: daysAgo, factor: factor))
        }
        var request = Settings()
        request.report.currency = "SEK"
        request.fetch.sample = true
        request.report.selection.top = 10
        request.output.formats = [format]
        request.output.destination = .directory(folder.url.path)
        request.output.database = folder.url.appendingPathComponent("history.sqlite").path
        let outcome = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).run(request)
        let text = try String(contentsOf: try #require(outcome.written.first), encoding: .utf8)
        try GoldenFile.check(text, "history-SEK.\(format.fileExtension)")
    }
}
