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
        var request = ReportRequest()
        request.currency = "USD"
        request.sample = true
        let (report, snapshot) = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).prepare(request)
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

    @Test("since-last-report rules need history; without it they say so")
    func sinceLastReport() async throws {
        var (report, tickers, rates) = try await Self.report()
        let rule = try AlertRule(parsing: "btc move 5 % since last report")
        #expect(AlertEvaluator().evaluate([rule], report: report, tickers: tickers, rates: rates).notes.count == 1)
        report.hasHistory = true
        let index = try #require(report.rows.firstIndex { $0.symbol == "btcusdt" })
        report.rows[index].trend = Trend(sincePrevious: Fixtures.decimal("-6"))
        let result = AlertEvaluator().evaluate([rule], report: report, tickers: tickers, rates: rates)
        #expect(result.fired.map(\.symbol) == ["btcusdt"])
        report.rows[index].trend = Trend(sincePrevious: Fixtures.decimal("4.9"))
        #expect(AlertEvaluator().evaluate([rule], report: report, tickers: tickers, rates: rates).fired.isEmpty)
    }

    @Test("the file: every key, comments, multi-line arrays")
    func parseFile() throws {
        let text = """
            # cryptoreport settings
            currency = "SEK"   # kronor
            locale = "sv_SE"
            formats = ["html", "csv"]
            output = "/srv/reports"
            symbols = ["btc", "eth"]
            markets = "all"
            sort = "change"
            top = 25
            fail_on_alert = true
            alerts = [
              "btc above 60000 SEK",  # a comment inside
              "any move 10 %",
            ]
            """
        let config = try ConfigFile.parse(text, path: "c.toml")
        #expect(config.currency == "SEK" && config.top == 25 && config.failOnAlert == true)
        #expect(config.formats == ["html", "csv"])
        #expect(config.alerts.map(\.description) == ["btc above 60000 SEK", "any move 10 %"])
    }

    @Test("every report flag has a key: the file's values reach the request")
    func everyFlag() throws {
        let text = """
            tickers_url = "saved/tickers.json"
            ecb_url = "saved/ecb.xml"
            timeout = 2.5
            retries = 5
            deadline = 60
            max_bytes = 1000000
            cache_dir = "/var/cache/cr"
            max_age = ["tickers=12h", "rates=7d"]
            strict = true
            allow_stale = true
            lock_timeout = 0
            no_history = true
            templates = "/etc/cr/templates"
            quiet = true
            verbose = false
            """
        let config = try ConfigFile.parse(text, path: "c.toml")
        var request = ReportRequest()
        config.apply(to: &request)
        #expect(request.tickersLocation == "saved/tickers.json" && request.ratesLocation == "saved/ecb.xml")
        #expect(request.timeout == 2.5 && request.retry.retries == 5 && request.deadline == 60)
        #expect(request.maximumBytes == 1_000_000 && request.cacheDirectory == "/var/cache/cr")
        #expect(request.maxAge == MaxAge(tickers: 12 * 3600, rates: 7 * 86400))
        #expect(request.strict && request.allowStale && !request.offline)
        #expect(request.lockTimeout == 0 && request.history == .disabled && request.templatesDirectory == "/etc/cr/templates")
        #expect(config.quiet == true && config.verbose == false)
        // Every key the parser knows is documented in the README's configuration section.
        let readme = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for key in ConfigFile.keys {
            #expect(readme.contains("`\(key)`"), "README does not name the key \(key)")
        }
    }

    @Test(
        "a bad file is a clear error naming the line",
        arguments: [
            ("currency = SEK", "Config: c.toml, line 1: a value is a \"string\", a number, true, false or [\"an\", \"array\"]."),
            ("\n\ncolour = \"red\"", "Config: c.toml, line 3: unknown key \"colour\"; known: \(ConfigFile.keys.joined(separator: ", "))."),
            ("top = 0", "Config: c.toml, line 1: top must be a positive whole number."),
            ("[report]", "Config: c.toml, line 1: sections are not used; put every key at the top level."),
            ("alerts = [\"btc sideways\"]", "Config: c.toml, line 1: alert \"btc sideways\" is not a rule; write e.g. \"btc above 60000 SEK\", \"eth below 1500 USD\", \"any move 10 %\" or \"sol move 5 % since last report\"."),
            ("currency = \"SEK\"\ncurrency = \"USD\"", "Config: c.toml, line 2: \"currency\" is set twice."),
            ("output = \"x", "Config: c.toml, line 1: a string is not closed."),
            ("# mine\nmarkets = \"foo\"", "Config: c.toml, line 2: markets \"foo\" is not primary or all."),
            ("sort = \"cheap\"", "Config: c.toml, line 1: sort \"cheap\" is not change, volume, spread, name or price."),
            ("formats = [\"csv\", \"pdf\"]", "Config: c.toml, line 1: formats: \"pdf\" is not csv, markdown, html, json or all."),
            ("formats = []", "Config: c.toml, line 1: formats must name at least one of csv, markdown, html, json or all."),
            ("currency = \"dollar\"", "Config: c.toml, line 1: currency \"dollar\" is not a three-letter code such as USD or SEK."),
            ("\nlocale = \"xx_YY\"", "Config: c.toml, line 2: locale \"xx_YY\" is not a locale identifier such as en_US or sv_SE."),
            ("symbols = [\"btc\" \"eth\"]", "Config: c.toml, line 1: an array holds \"strings\" separated by commas, closed by ]."),
            ("timeout = 0", "Config: c.toml, line 1: timeout must be a number of seconds, above 0 to 86400."),
            ("deadline = 10000000000000000", "Config: c.toml, line 1: deadline must be a number of seconds, above 0 to 86400."),
            ("retries = 11", "Config: c.toml, line 1: retries must be a whole number from 0 to 10."),
            ("strict = \"yes\"", "Config: c.toml, line 1: strict must be true or false."),
            ("max_age = \"forever\"", "Config: c.toml, line 1: max_age \"forever\" is not a duration like 24h or 5d, optionally as tickers=… or rates=…."),
            ("alerts = [\n  \"btc above 1 USD\",\n  # a comment\n  \"eth sideways\",\n]", "Config: c.toml, line 4: alert \"eth sideways\" is not a rule; write e.g. \"btc above 60000 SEK\", \"eth below 1500 USD\", \"any move 10 %\" or \"sol move 5 % since last report\"."),
        ])
    func badFile(text: String, message: String) {
        #expect {
            try ConfigFile.parse(text, path: "c.toml")
        } throws: { error in
            (error as? ConfigError)?.errorDescription == message && (error as? ConfigError)?.exitStatus == .usage
        }
    }

    @Test("a file saved with CRLF line ends reads like any other")
    func crlf() throws {
        let config = try ConfigFile.parse("currency = \"SEK\"\r\nformats = [\"csv\",\r\n  \"html\"]\r\n", path: "c.toml")
        #expect(config.currency == "SEK" && config.formats == ["csv", "html"])
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
        let flags = try ExecutableTests.run(["--sample", "--config", file.path, "--currency", "EUR", "--format", "json", "--output", "b", "--fail-on-alert"], in: folder.url)
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
        let xdg = try ExecutableTests.run(["--sample", "--output", "c"], in: folder.url, environment: ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("xdg").path])
        #expect(xdg.stdout == "c/cryptoreport-2022-11-22-NOK.csv\n")
        let ignored = try ExecutableTests.run(["--sample", "--no-config", "--format", "csv", "--output", "d"], in: folder.url, environment: ["XDG_CONFIG_HOME": folder.url.appendingPathComponent("xdg").path])
        #expect(ignored.stdout == "d/cryptoreport-2022-11-22-USD.csv\n")
    }
}
