import Foundation
import Testing

@testable import CryptoReport

@Suite("Configuration file and alerts")
struct AlertAndConfigTests {
    @Test("rules parse, and nonsense is refused")
    func rules() throws {
        #expect(try AlertRule(parsing: "btc above 60000 SEK").condition == .above(60000, currency: "SEK"))
        #expect(try AlertRule(parsing: "eth below 1500 usd").condition == .below(1500, currency: "USD"))
        #expect(try AlertRule(parsing: "any move 10 %").condition == .move(10))
        #expect(try AlertRule(parsing: "any move 10%").asset == nil)
        #expect(try AlertRule(parsing: "sol move 5 % since last report").condition == .moveSinceLastReport(5))
        for bad in ["btc", "btc above SEK", "any above 5 USD", "btc sideways 5 %", "btc move -5 %", "btc above 1 SEK now"] {
            #expect(throws: AlertRule.ParseError.self) { try AlertRule(parsing: bad) }
        }
    }

    static func report(history: Bool = false) async throws -> (Report, [Ticker], ExchangeRates) {
        var spec = ReportSpec()
        spec.currency = "USD"
        var fetch = FetchPolicy()
        fetch.sample = true
        let (report, snapshot) = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).prepare(spec, fetch: fetch)
        return (report, snapshot.tickers, snapshot.rates)
    }

    @Test("above/below in any ECB currency, moves over 24 h; each fires only when crossed")
    func firing() async throws {
        let (report, tickers, rates) = try await Self.report()
        let rules = try ["btc above 170000 SEK", "btc above 172000 SEK", "eth below 1200 USD", "eth below 1000 USD", "any move 25 %", "shib move 2 %"]
            .map { try AlertRule(parsing: $0) }
        let result = AlertEvaluator().evaluate(rules, report: report, tickers: tickers, rates: rates)
        // BTC/USDT 15988 USDT = 171 447.35 SEK; ETH/USDT 1118.49 USD; SRM +28.6 %; SHIB −2.8 %.
        #expect(result.fired.map(\.rule.description) == ["btc above 170000 SEK", "eth below 1200 USD", "any move 25 %", "shib move 2 %"])
        #expect(AlertText.message(result.fired[0], in: report) == "btc above 170000 SEK: BTC/USDT is at 171\u{00A0}447,35\u{00A0}kr")
        #expect(result.fired[2].symbol == "srmusdt")
        #expect(result.notes.isEmpty)
    }

    /// Moves are watched among the report's rows: `btc move 1 %` with `--symbols eth` never
    /// fired, without a word.
    @Test("a move rule on a market the report leaves out says so; one on no market at all says that")
    func moveOutsideReport() async throws {
        var (report, tickers, rates) = try await Self.report()
        report.rows.removeAll { $0.baseAsset == "btc" }
        let rules = try ["btc move 1 %", "btc move 1 % since last report", "dogz move 5 %", "shib move 2 %", "any move 25 %"].map { try AlertRule(parsing: $0) }
        let result = AlertEvaluator().evaluate(rules, report: report, tickers: tickers, rates: rates)
        #expect(result.notes.map(\.reason) == [.notInReport(asset: "btc"), .notInReport(asset: "btc"), .noMarket(asset: "dogz")])
        #expect(result.fired.map(\.rule.description) == ["shib move 2 %", "any move 25 %"])
        #expect(
            AlertText.note(result.notes[0])
                == "alert \"btc move 1 %\": btc is not among the report's markets, which move rules watch (--symbols, --markets, --top)")
    }

    @Test("since-last-report rules need history; without it they say so")
    func sinceLastReport() async throws {
        var (report, tickers, rates) = try await Self.report()
        let rule = try AlertRule(parsing: "btc move 5 % since last report")
        #expect(AlertEvaluator().evaluate([rule], report: report, tickers: tickers, rates: rates).notes.count == 1)
        // A database with no earlier run (the first run into a folder): no history either.
        report.hasHistory = true
        #expect(AlertEvaluator().evaluate([rule], report: report, tickers: tickers, rates: rates).notes.map(\.reason) == [.noHistory])
        let index = try #require(report.rows.firstIndex { $0.symbol == "btcusdt" })
        report.rows[index].trend = Trend(sincePrevious: Fixtures.decimal("-6"))
        let result = AlertEvaluator().evaluate([rule], report: report, tickers: tickers, rates: rates)
        #expect(result.fired.map(\.symbol) == ["btcusdt"])
        report.rows[index].trend = Trend(sincePrevious: Fixtures.decimal("4.9"))
        #expect(AlertEvaluator().evaluate([rule], report: report, tickers: tickers, rates: rates).fired.isEmpty)
    }

    @Test("the alerts file of an earlier run goes when the same report fires no alert")
    func alertsFileDoesNotOutliveItsAlerts() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("config.toml")
        try Data("formats = [\"csv\"]\nalerts = [\"btc above 1 USD\"]\n".utf8).write(to: file)
        let fired = try ExecutableTests.run(["--sample", "--config", file.path, "--output", "out"], in: folder.url)
        #expect(folder.contents("out") == ["cryptoreport-2022-11-22-USD-alerts.csv", "cryptoreport-2022-11-22-USD.csv"], "\(fired.stderr)")
        try Data("formats = [\"csv\"]\nalerts = [\"btc above 99999999 USD\"]\n".utf8).write(to: file)
        let quiet = try ExecutableTests.run(["--sample", "--config", file.path, "--output", "out"], in: folder.url)
        #expect(quiet.status == 0)
        #expect(quiet.stdout == "out/cryptoreport-2022-11-22-USD.csv\n")
        #expect(folder.contents("out") == ["cryptoreport-2022-11-22-USD.csv"])
    }

    @Test("precedence: flags over the file, the file over the defaults")
    func precedence() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("config.toml")
        try Data("currency = \"SEK\"\nformats = [\"csv\"]\nsort = \"name\"\nalerts = [\"btc above 1 SEK\"]\n".utf8).write(to: file)
        let fromFile = try ExecutableTests.run(["--sample", "--config", file.path, "--output", "a"], in: folder.url)
        #expect(fromFile.status == 0)
        #expect(fromFile.stdout == "a/cryptoreport-2022-11-22-SEK.csv\na/cryptoreport-2022-11-22-SEK-alerts.csv\n")
        #expect(fromFile.stderr == "cryptoreport: alert: btc above 1 SEK: BTC/USDT is at 171\u{00A0}447,35\u{00A0}kr\n")
        let flags = try ExecutableTests.run(
            ["--sample", "--config", file.path, "--currency", "EUR", "--format", "json", "--output", "b", "--fail-on-alert"], in: folder.url)
        #expect(flags.status == 10)
        #expect(flags.stdout.hasPrefix("b/cryptoreport-2022-11-22-EUR.json\n"))
        #expect(flags.stderr.hasSuffix("cryptoreport: 1 alert fired (--fail-on-alert); the reports were written.\n"))
        // Switches and numbers from the file: quiet prints no paths; a flag's value wins over the file's.
        try Data("formats = [\"csv\"]\nquiet = true\ntimeout = 0.5\n".utf8).write(to: file)
        let quiet = try ExecutableTests.run(["--sample", "--config", file.path, "--output", "q"], in: folder.url)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stdout)")
        #expect(folder.contents("q") == ["cryptoreport-2022-11-22-USD.csv"])
        // A flag turns off what the file turns on: --no-fail-on-alert, and -v over the file's quiet.
        try Data("formats = [\"csv\"]\nfail_on_alert = true\nquiet = true\nalerts = [\"btc above 1 USD\"]\n".utf8).write(to: file)
        let onFromFile = try ExecutableTests.run(["--sample", "--config", file.path, "--output", "f"], in: folder.url)
        #expect(onFromFile.status == 10 && onFromFile.stdout.isEmpty)
        let offByFlag = try ExecutableTests.run(["--sample", "--config", file.path, "--output", "f", "--no-fail-on-alert", "-v"], in: folder.url)
        #expect(offByFlag.status == 0)
        #expect(offByFlag.stdout.contains("f/cryptoreport-2022-11-22-USD.csv"), "-v overrides the file's quiet")
        // The default file, found through XDG_CONFIG_HOME, is used; --no-config ignores it.
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("xdg/cryptoreport"), withIntermediateDirectories: true)
        try Data("currency = \"NOK\"\nformats = [\"csv\"]\n".utf8).write(to: folder.url.appendingPathComponent("xdg/cryptoreport/config.toml"))
        let xdg = try ExecutableTests.run(
            ["--sample", "--output", "c"], in: folder.url, environment: ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("xdg").path])
        #expect(xdg.stdout == "c/cryptoreport-2022-11-22-NOK.csv\n")
        let ignored = try ExecutableTests.run(
            ["--sample", "--no-config", "--format", "csv", "--output", "d"], in: folder.url,
            environment: ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("xdg").path])
        #expect(ignored.stdout == "d/cryptoreport-2022-11-22-USD.csv\n")
    }
}
