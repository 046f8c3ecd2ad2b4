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
        settings.report.holdings = try #require(try SettingsLayer.key("holdings")?.rule.items(holdings) as? [Holding])
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
