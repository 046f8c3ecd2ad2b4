import Foundation
import Testing

@testable import CryptoReport

/// One bad row per ticker must not flood standard error or the reports.
@Suite("Repeated warnings summed up")
struct WarningSummaryTests {
    @Test("five of a kind are listed, then one line says how many more; other kinds keep their own five")
    func summarised() {
        var list: [Diagnostic] = (1...1_000).map { Diagnostic(.tickers, "skipped ticker #\($0): no lastPrice", group: "no lastPrice") }
        list.insert(Diagnostic(.tickers, "no market matches \"x\" (--symbols)"), at: 3)
        list += (1...6).map { Diagnostic(.tickers, "s\($0): volume \"-1\" is not a non-negative number; left empty", group: "volume left empty") }
        let summary = Diagnostic.summarised(list)
        #expect(
            summary.map(\.message) == [
                "skipped ticker #1: no lastPrice", "skipped ticker #2: no lastPrice", "skipped ticker #3: no lastPrice",
                "no market matches \"x\" (--symbols)", "skipped ticker #4: no lastPrice", "skipped ticker #5: no lastPrice",
                "… and 995 more rows like it (no lastPrice)",
                "s1: volume \"-1\" is not a non-negative number; left empty", "s2: volume \"-1\" is not a non-negative number; left empty",
                "s3: volume \"-1\" is not a non-negative number; left empty", "s4: volume \"-1\" is not a non-negative number; left empty",
                "s5: volume \"-1\" is not a non-negative number; left empty", "… and 1 more row like it (volume left empty)",
            ])
        #expect(DiagnosticText.grouped(999_980) == "999,980" && DiagnosticText.grouped(1_000_000) == "1,000,000" && DiagnosticText.grouped(12) == "12")
    }

    @Test("the issue's case end to end: 200,000 empty objects (the issue had a million) give six warning lines, in every format")
    func millionEmptyObjects() throws {
        let folder = try TemporaryFolder()
        let valid = Fixtures.ticker("btcinr", base: "btc", quote: "inr", last: "1398000")
        var body = "[" + valid
        body += String(repeating: ",{}", count: 200_000)
        body += "]"
        try Data(body.utf8).write(to: folder.url.appendingPathComponent("t.json"))
        let run = try ExecutableTests.run(
            ["--tickers-url", "t.json", "--ecb-url", Fixtures.ratesURL.path, "--output", "out", "--format", "all", "--no-history"],
            in: folder.url)
        #expect(run.status == 0)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 6, "\(lines.prefix(8))")
        #expect(lines.last == "cryptoreport: warning: WazirX tickers: … and 199,995 more rows like it (no usable symbol)")
        for format in ["md", "html", "json"] {
            let name = try #require(folder.contents("out").first { $0.hasSuffix("." + format) })
            let text = try String(contentsOf: folder.url.appendingPathComponent("out/" + name), encoding: .utf8)
            #expect(text.contains("199,995 more rows like it"), "\(format)")
            #expect(text.components(separatedBy: "no symbol, or not a plain string").count - 1 == 5, "\(format)")
        }
    }

    /// Issue 32: a ticker with highPrice 1 and lowPrice 99999 passed silently.
    @Test("24 h figures that contradict each other are kept as sent and said, as a crossed book is; a market that did not trade is not")
    func contradictoryRange() throws {
        let tickers = [
            Fixtures.ticker("btcinr", base: "btc", quote: "inr", last: "1398000", high: "1", low: "99999"),
            Fixtures.ticker("ethinr", base: "eth", quote: "inr", last: "95000", high: "94000", low: "90000"),
            Fixtures.ticker("wrxinr", base: "wrx", quote: "inr", last: "15", high: "16", low: "14"),
            Fixtures.ticker("dogeinr", base: "doge", quote: "inr", last: "7", high: "0", low: "0"),
        ]
        let payload = FetchedPayload(source: .tickers, location: .file("t"), data: Fixtures.tickerJSON(tickers), fetchedAt: Fixtures.captureTime)
        var spec = ReportSpec(currency: "INR")
        spec.selection = Selection(markets: .all)
        let report = try ReportBuilder(spec: spec, generatedAt: Fixtures.captureTime).build(
            tickers: payload, rates: Fixtures.payload(.rates, try Fixtures.rates))
        let lines = report.diagnostics.map(DiagnosticText.message)
        #expect(lines.contains("btcinr: highPrice 1 is below lowPrice 99999; its figures are shown as sent"))
        #expect(lines.contains("ethinr: lastPrice 95000 is outside lowPrice 90000 to highPrice 94000; its figures are shown as sent"))
        #expect(!lines.contains { $0.hasPrefix("wrxinr") || $0.hasPrefix("dogeinr") })
        #expect(report.rows.count == 4, "every market is kept")
    }

    @Test("a crossed book (bid above ask) is kept as sent, its spread negative, and said: five by name, then how many more")
    func crossedBook() throws {
        let folder = try TemporaryFolder()
        var tickers = [
            Fixtures.ticker("btcinr", base: "btc", quote: "inr", last: "1398000", bid: "1399000", ask: "1398000"),
            Fixtures.ticker("ethinr", base: "eth", quote: "inr", last: "95000", bid: "94900", ask: "95100"),
            Fixtures.ticker("wrxinr", base: "wrx", quote: "inr", last: "15", bid: "15", ask: "15"),
        ]
        tickers += (1...6).map { Fixtures.ticker("c\($0)inr", base: "c\($0)", quote: "inr", last: "2", bid: "2.5", ask: "2.0") }
        try Fixtures.tickerJSON(tickers).write(to: folder.url.appendingPathComponent("t.json"))
        let run = try ExecutableTests.run(
            [
                "--tickers-url", "t.json", "--ecb-url", Fixtures.ratesURL.path, "--currency", "INR", "--markets", "all", "--output", "out",
                "--format", "csv,json", "--no-history",
            ],
            in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "cryptoreport: warning: WazirX tickers: btcinr: bidPrice 1399000 is above askPrice 1398000 (a crossed book); its spread is negative")
        #expect(lines.filter { $0.contains("(a crossed book)") }.count == 5, "btcinr and c1…c4 by name")
        #expect(lines.last == "cryptoreport: warning: WazirX tickers: … and 2 more rows like it (bid above ask)")
        #expect(!run.stderr.contains("ethinr") && !run.stderr.contains("wrxinr"), "an ordinary book and a zero spread say nothing")
        let csv = try String(contentsOf: folder.url.appendingPathComponent("out/cryptoreport-2022-11-22-INR.csv"), encoding: .utf8)
        let btc = try #require(csv.split(whereSeparator: \.isNewline).first { $0.hasPrefix("btcinr,") })
        #expect(btc.contains(",-1000,"), "the market is kept with the spread the feed's figures make: \(btc)")
        let json = try String(contentsOf: folder.url.appendingPathComponent("out/cryptoreport-2022-11-22-INR.json"), encoding: .utf8)
        #expect(json.contains("btcinr: bidPrice 1399000 is above askPrice 1398000 (a crossed book); its spread is negative"))
    }
}
