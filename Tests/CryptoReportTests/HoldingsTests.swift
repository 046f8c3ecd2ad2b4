import Foundation
import Testing

@testable import CryptoReport

/// `--holding ASSET=AMOUNT[@COST CUR]` and the file's `[holdings]`: valued at each asset's
/// primary market price, in JSON, a CSV of their own and the Markdown report.
@Suite("Holdings")
struct HoldingsTests {
    static func report(_ holdings: [String], currency: CurrencyCode = .usd) async throws -> Report {
        var settings = Settings()
        settings.fetch.sample = true
        settings.report.currency = currency
        if !holdings.isEmpty {
            settings.report.holdings = try #require(try SettingsLayer.key("holdings")?.rule.items(holdings) as? [Holding])
        }
        return try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(settings)
    }

    @Test("ASSET=AMOUNT and ASSET=AMOUNT@COST CUR read; a negative, empty or not-number amount, a cost without currency and an asset twice do not")
    func parsing() throws {
        #expect(Holding(parsing: "BTC=0.5") == Holding(asset: "btc", amount: Fixtures.decimal("0.5")))
        #expect(Holding(parsing: "btc = 0.5 @ 150000 SEK") == Holding(asset: "btc", amount: Fixtures.decimal("0.5"), cost: 150_000, costCurrency: "SEK"))
        #expect(Holding(parsing: "eth=2@3000 usdt")?.costCurrency == "USDT")
        for bad in ["btc=-1", "btc=", "btc=abc", "btc=1@100", "=1", "btc=1e3", "b/c=1"] {
            #expect(Holding(parsing: bad) == nil, "\(bad)")
        }
        #expect(throws: InvalidSettingValue.self) { try SettingsLayer.key("holdings")?.rule.text("btc=1,btc=2") }
    }

    @Test("the file's [holdings] table: amounts as strings, a cost in an inline table; a float is refused")
    func file() throws {
        let layer = try ConfigFileReader().parse("[holdings]\nbtc = \"0.5\"\neth = { amount = \"2\", cost = \"3000 USDT\" }\n", path: "c.toml")
        #expect(
            Settings(layers: [layer]).report.holdings == [
                Holding(asset: "btc", amount: Fixtures.decimal("0.5")), Holding(asset: "eth", amount: 2, cost: 3000, costCurrency: "USDT"),
            ])
        #expect(throws: SettingsError.self) { try ConfigFileReader().parse("[holdings]\nbtc = 0.5\n", path: "c.toml") }
    }

    @Test("each position is amount × its primary market's price exactly; total, shares, 24 h change and gain follow")
    func valued() async throws {
        let report = try await Self.report(["btc=0.5@60000 SEK", "eth=2"], currency: try #require(CurrencyCode("SEK")))
        let holdings = try #require(report.holdings)
        let btcRow = try #require(report.rows.first { $0.symbol == "btcusdt" })
        let ethRow = try #require(report.rows.first { $0.symbol == "ethusdt" })
        let btc = holdings.positions[0]
        let eth = holdings.positions[1]
        #expect(btc.market == "btcusdt" && btc.price == btcRow.price && btc.value == Fixtures.decimal("0.5") * btcRow.price)
        #expect(eth.value == 2 * ethRow.price)
        #expect(holdings.total == btc.value + eth.value)
        #expect(btc.sharePercent == btc.value / holdings.total * 100)
        // The cost is in SEK already: the gain is value minus it.
        #expect(btc.cost == 60000 && btc.gain == btc.value - 60000)
        let dayAgo = try Fixtures.decimal("0.5") * #require(btcRow.open) + 2 * #require(ethRow.open)
        #expect(holdings.change24h == holdings.total - dayAgo)
    }

    @Test("a cost in USDT is at par with USD, converted at the day's ECB rate")
    func costInUSDT() async throws {
        let report = try await Self.report(["btc=1@10000 USDT"], currency: try #require(CurrencyCode("SEK")))
        let btc = try #require(report.holdings?.positions.first)
        let sekPerUSD = try report.rates.rate(from: "USD", to: "SEK")
        #expect(btc.cost == 10000 * sekPerUSD)
    }

    @Test("an asset no market prices is one clear error, exit 64")
    func unpriced() async throws {
        await #expect(throws: UsageError.holdingUnpriced(asset: "xyz")) { try await Self.report(["xyz=1"]) }
        #expect(UsageError.holdingUnpriced(asset: "xyz").exitStatus == .usage)
    }

    @Test(
        "JSON carries holdings; a holdings CSV is written beside the report and removed with the holdings; Markdown's template says what the built-in writer says"
    )
    func outputs() async throws {
        let report = try await Self.report(["btc=0.5", "eth=2@3000 USD"])
        let pipeline = ReportPipeline()
        let templates = try TemplateRenderer()
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try pipeline.render(report, as: .json, templates: templates).utf8)) as? [String: Any])
        let holdings = try #require(json["holdings"] as? [String: Any])
        #expect(holdings["currency"] as? String == "USD")
        let positions = try #require(holdings["positions"] as? [[String: Any]])
        #expect(positions.map { $0["asset"] as? String } == ["btc", "eth"])
        #expect(positions[1]["cost"] as? String == "3000" && positions[0]["cost"] == nil, "what was paid, in all")
        // Each value is the amount times the market's price as the same JSON gives it, to the last digit.
        let markets = try #require(json["markets"] as? [[String: Any]])
        for (position, amount) in zip(positions, ["0.5", "2"]) {
            let market = try #require(markets.first { $0["symbol"] as? String == position["market"] as? String })
            let price = Fixtures.decimal(try #require(market["price"] as? String))
            #expect(Fixtures.decimal(try #require(position["value"] as? String)) == Fixtures.decimal(amount) * price)
            #expect(position["price"] as? String == market["price"] as? String)
        }
        let csv = CSVRenderer().holdings(report)
        #expect(csv.hasPrefix("asset,amount,market,price,value,share_pct,cost,gain,currency\r\nbtc,0.5,btcusdt,"))
        #expect(csv.hasSuffix(",100,,,USD\r\n"))
        let own = try TemplateRenderer(directory: Fixtures.repositoryRoot.appendingPathComponent("Templates"), formats: [.markdown])
        #expect(try pipeline.render(report, as: .markdown, templates: own) == (try pipeline.render(report, as: .markdown, templates: templates)))
        #expect(try pipeline.render(report, as: .markdown, templates: templates).contains("## 💼 Holdings\n\nTotal: **$"))

        let folder = try TemporaryFolder()
        let with = try ExecutableTests.run(["--sample", "--format", "csv", "--output", "out", "--holding", "btc=1"], in: folder.url)
        #expect(with.status == 0 && with.stdout.contains("out/cryptoreport-2022-11-22-USD-holdings.csv"), "\(with.stderr)")
        let without = try ExecutableTests.run(["--sample", "--format", "csv", "--output", "out", "--quiet"], in: folder.url)
        #expect(without.status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("out/cryptoreport-2022-11-22-USD-holdings.csv").path))
    }

    @Test("the history keeps each run's total; the changes since the last report, over 7 and 30 days and the line by day come from it")
    func history() async throws {
        let folder = try TemporaryFolder()
        let store = try HistoryStore(path: folder.url.appendingPathComponent("h.sqlite").path)
        for (daysAgo, total) in [(31, "900"), (30, "1000"), (8, "1500"), (7, "2000"), (1, "2500.25")] {
            var snapshot = try HistoryTests.snapshot(daysAgo: daysAgo, factor: 1)
            snapshot.holdingsTotals = ["SEK": Fixtures.decimal(total), "USD": 1]
            try store.record(snapshot)
        }
        // Another exchange's run, an hour after the last: its total is of other prices, and no
        // change is measured against it.
        var binance = try HistoryTests.snapshot(daysAgo: 1, factor: 1)
        binance.sourceTime = binance.sourceTime.addingTimeInterval(3600)
        binance.sources = [.binanceTickers: Snapshot.Source(status: .live, location: "")]
        binance.holdingsTotals = ["SEK": 99_999]
        try store.record(binance)
        let sek = try #require(CurrencyCode("SEK"))
        let report = ReportPipeline().withTrends(try await Self.report(["btc=0.5"], currency: sek), from: TrendCalculator(store: store))
        let value = try #require(report.holdings)
        let past = try #require(value.past)
        #expect(past.previous == Fixtures.decimal("2500.25") && past.weekAgo == 2000 && past.monthAgo == 1000)
        #expect(value.change7d == HoldingsValue.Change(money: value.total - 2000, percent: (value.total - 2000) / 2000 * 100))
        #expect(value.change30d?.money == value.total - 1000)
        #expect(value.sinceLastReport?.money == value.total - Fixtures.decimal("2500.25"))
        // From the 30-day total, one a day, ending with this report's.
        #expect(past.series == [1000, 1500, 2000, Fixtures.decimal("2500.25"), value.total])
        #expect(past.days == ["2022-10-23", "2022-11-14", "2022-11-15", "2022-11-21", "2022-11-22"])
        // In the report's own currency only, and nothing without an earlier total.
        #expect(try store.holdingsPast(currency: "EUR", total: 1, at: HistoryTests.captured, exchange: .wazirx) == nil)

        let model = ReportViewModel(report)
        // The chart's points, for the page's script: the days and the totals as the page shows them.
        #expect(model.hasHoldingsChart && model.holdingsDays == past.days.joined(separator: " "))
        #expect(model.holdingsValues.split(separator: " ").count == 5 && model.holdingsValues.hasPrefix("1000.00 1500.00 2000.00 2500.25 "))
        #expect(model.holdingsChanges.count == 3 && model.holdingsChanges[1].text.hasSuffix(" på 7 dagar"), "\(model.holdingsChanges)")
        let markdown = try ReportPipeline().render(report, as: .markdown, templates: try TemplateRenderer())
        #expect(markdown.contains(" in 24 h · ") && markdown.contains(" in 7 days · ") && markdown.contains(" in 30 days)"))
        try PageTemplateTests.expectSame(model, "holdings with history")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(try ReportPipeline().render(report, as: .json, templates: try TemplateRenderer()).utf8))
                as? [String: Any])
        let holdings = try #require(json["holdings"] as? [String: Any])
        #expect(holdings["change_7d"] as? String == DecimalParts.plainText(value.total - 2000))
        #expect(holdings["change_30d_pct"] != nil)
    }

    @Test("a run records its holdings' total in each currency; the same data again with other holdings replaces it")
    func recorded() throws {
        let folder = try TemporaryFolder()
        func run(_ amount: String) throws -> [String: Decimal] {
            let result = try ExecutableTests.run(
                ["--sample", "--currency", "SEK,USD", "--format", "json", "--output", "out", "--history", "h.sqlite", "--holding", "btc=\(amount)", "--quiet"],
                in: folder.url)
            #expect(result.status == 0, "\(result.stderr)")
            let store = try HistoryStore(path: folder.url.appendingPathComponent("h.sqlite").path)
            var recorded: [String: Decimal] = [:]
            for currency in ["SEK", "USD"] {
                // The JSON report's total, to the last digit.
                let data = try Data(contentsOf: folder.url.appendingPathComponent("out/cryptoreport-2022-11-22-\(currency).json"))
                let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                let total = try #require((json["holdings"] as? [String: Any])?["total_value"] as? String)
                let stored = try #require(
                    try store.holdingsPast(currency: currency, total: 0, at: HistoryTests.captured.addingTimeInterval(1), exchange: .wazirx)?.previous)
                #expect(stored == Fixtures.decimal(total), "\(currency)")
                recorded[currency] = stored
            }
            return recorded
        }
        let once = try run("1")
        let twice = try run("2")
        #expect(twice["SEK"] == 2 * (once["SEK"] ?? 0) && twice["USD"] == 2 * (once["USD"] ?? 0))
        // The same data once more, in USD only and with no holdings: no total of the run is left.
        let none = try ExecutableTests.run(
            ["--sample", "--currency", "USD", "--format", "json", "--output", "out", "--history", "h.sqlite", "--quiet"], in: folder.url)
        #expect(none.status == 0, "\(none.stderr)")
        let store = try HistoryStore(path: folder.url.appendingPathComponent("h.sqlite").path)
        for currency in ["SEK", "USD"] {
            #expect(try store.holdingsPast(currency: currency, total: 0, at: HistoryTests.captured.addingTimeInterval(1), exchange: .wazirx) == nil)
        }
    }

    @Test("rules on the holdings' total: a limit in the report's currency or another, a 24 h move, since the last report; a note without holdings")
    func alerts() async throws {
        let sek = try #require(CurrencyCode("SEK"))
        let report = try await Self.report(["btc=0.5", "eth=2"], currency: sek)
        let total = try #require(report.holdings?.total)
        let usdTotal = try #require(try await Self.report(["btc=0.5", "eth=2"]).holdings?.total)
        let snapshot = try HistoryTests.snapshot(daysAgo: 0, factor: 1)
        let texts = [
            "holdings below \(total + 1) SEK", "holdings above \(total + 1) SEK", "holdings above \(usdTotal - 1) USD",
            "holdings below \(usdTotal - 1) USD", "holdings move 0.000001 %", "holdings move 1 % since last report",
        ]
        let rules = try texts.map { try AlertRule(parsing: $0) }
        let result = AlertEvaluator().evaluate(rules, report: report, tickers: snapshot.tickers, rates: snapshot.rates)
        #expect(result.fired.map(\.rule.description) == [texts[0], texts[2], texts[4]])
        #expect(result.fired[0].figure == .price(total, currency: "SEK"))
        #expect(result.fired[1].figure == .price(usdTotal, currency: "USD"), "each holding at its primary market in USD")
        #expect(result.notes == [AlertNote(rule: rules[5], reason: .noHistory)])
        #expect(AlertText.message(result.fired[0], in: report).hasPrefix("\(texts[0]): the holdings' total is at "))
        #expect(
            ReportViewModel.alertLines(
                {
                    var r = report; r.alerts = result.fired; return r
                }(), strings: .english
            ).map(\.anchor) == [
                "holdings", "holdings", "holdings",
            ])

        let none = try await Self.report([])
        let unwatched = AlertEvaluator().evaluate([rules[0]], report: none, tickers: snapshot.tickers, rates: snapshot.rates)
        #expect(unwatched.fired.isEmpty && unwatched.notes == [AlertNote(rule: rules[0], reason: .noHoldings)])
        #expect(AlertText.note(unwatched.notes[0]).contains("no holdings"))
    }

    @Test("the page's holdings section in one currency and in two: an id each, written as the template writes it")
    func page() async throws {
        let sek = try #require(CurrencyCode("SEK"))
        var report = try await Self.report(["btc=0.5@60000 SEK", "eth=2"], currency: sek)
        var usd = try await Self.report(["btc=0.5@60000 SEK", "eth=2"])
        let fired = FiredAlert(
            rule: try AlertRule(parsing: "holdings above 1 SEK"), symbol: "holdings", baseAsset: "holdings", quoteAsset: "sek",
            figure: .price(1, currency: "SEK"))
        report.alerts = [fired]
        usd.alerts = [fired]
        let one = ReportViewModel(report)
        try PageTemplateTests.expectSame(one, "holdings, one currency")
        let html = PageTemplateTests.page(one)
        #expect(html.contains("<section class=\"card holdings\" id=\"holdings\" aria-label=\"Innehav\">"))
        #expect(html.contains("<a href=\"#holdings\">"))
        let two = ReportViewModel(report, alternatives: [usd])
        try PageTemplateTests.expectSame(two, "holdings, two currencies")
        let page = PageTemplateTests.page(two)
        #expect(page.contains("id=\"holdings\"") && page.contains("id=\"holdings-1\"") && page.contains("<a href=\"#holdings-1\">"))
    }

    @Test("the README's configuration file reads, and says what it seems to")
    func readmeFile() throws {
        let readme = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "```\ncurrency = \"SEK\"\n"))
        let end = try #require(readme.range(of: "```", range: start.upperBound..<readme.endIndex))
        let text = String(readme[readme.index(start.lowerBound, offsetBy: 4)..<end.lowerBound])
        let settings = Settings(layers: [try ConfigFileReader().parse(text, path: "README.md")])
        #expect(settings.report.currency == "SEK" && settings.fetch.sources == [.wazirx, .binance])
        #expect(settings.notices.command == "curl -s -d @- https://ntfy.sh/my-crypto-alerts")
        #expect(settings.report.holdings.map(\.asset) == ["btc", "eth"] && settings.report.holdings.first?.cost == 150_000)
        #expect(settings.report.alerts.count == 1)
    }
}
