import Foundation
import Testing

@testable import CryptoReport

/// Alert evaluation is linear in rules + markets (issue 10): rules are checked against markets
/// priced once per currency, whatever their number. These tests check what fires, never timing.
@Suite("Alert evaluation at scale")
struct AlertEvaluationTests {
    static func prepare(_ currency: String, markets: Selection.Markets = .primary, top: Int? = nil) async throws
        -> (report: Report, snapshot: Snapshot)
    {
        var request = Settings()
        request.report.currency = CurrencyCode(stringLiteral: currency)
        request.fetch.sample = true
        request.report.selection = Selection(markets: markets, top: top)
        return try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).prepare(request.report, fetch: request.fetch)
    }

    @Test("10,000 above/below rules over every market and five currencies fire exactly where the price crosses")
    func tenThousandRules() async throws {
        let currencies = ["SEK", "USD", "EUR", "INR", "JPY"]
        // Reference prices from whole reports in each currency: every market, and each asset's primary one.
        var bySymbol: [String: [String: Decimal]] = [:]
        var byAsset: [String: [String: Decimal]] = [:]
        for currency in currencies {
            let all = try await Self.prepare(currency, markets: .all).report.rows
            bySymbol[currency] = Dictionary(all.map { ($0.symbol, $0.price) }, uniquingKeysWith: { first, _ in first })
            let primary = try await Self.prepare(currency).report.rows
            byAsset[currency] = Dictionary(primary.map { ($0.baseAsset, $0.price) }, uniquingKeysWith: { first, _ in first })
        }
        let symbols = try #require(bySymbol["USD"]).keys.sorted()
        let assets = try #require(byAsset["USD"]).keys.sorted()
        #expect(symbols.count == 450 && assets.count == 267)

        var rules: [AlertRule] = []
        var expected: [String] = []
        let factors = [Fixtures.decimal("0.5"), Fixtures.decimal("0.999"), Fixtures.decimal("1.001"), Fixtures.decimal("2")]
        for index in 0..<10_000 {
            let currency = currencies[index % currencies.count]
            let bySymbolRule = index % 2 == 0
            let name = bySymbolRule ? symbols[(index / 2) % symbols.count] : assets[(index / 2) % assets.count]
            let price = try #require(bySymbolRule ? bySymbol[currency]?[name] : byAsset[currency]?[name])
            let limit = try #require(DecimalText.parse(PlainNumber.format(price * factors[(index / 10) % factors.count])))
            guard limit > 0 else { continue }
            let above = (index / 40) % 2 == 0
            let text = "\(name) \(above ? "above" : "below") \(PlainNumber.format(limit)) \(currency)"
            rules.append(try AlertRule(parsing: text))
            if above ? price > limit : price < limit { expected.append(text) }
        }
        // Rules that cannot be checked, among them: each is a note, once.
        rules.append(try AlertRule(parsing: "btc above 1 XYZ"))
        rules.append(try AlertRule(parsing: "nosuchcoin below 1 SEK"))

        let (report, snapshot) = try await Self.prepare("USD", top: 10)
        let result = AlertEvaluator().evaluate(rules, report: report, tickers: snapshot.tickers, rates: snapshot.rates)
        #expect(rules.count > 9_900)
        #expect(expected.count > 4_000 && expected.count < rules.count - 4_000)
        #expect(result.fired.map(\.rule.description) == expected)
        #expect(
            result.notes == [
                AlertNote(rule: rules[rules.count - 2], reason: .currencyNotInRates(currency: "XYZ", ratesDate: "2022-11-21")),
                AlertNote(rule: rules[rules.count - 1], reason: .noMarket(asset: "nosuchcoin")),
            ])
        // Each fired alert carries the price in its rule's currency, as a report in that currency shows it.
        for alert in result.fired.prefix(200) {
            guard case let .price(price, currency) = alert.figure else {
                Issue.record("\(alert.rule) fired without a price")
                continue
            }
            #expect(bySymbol[currency]?[alert.symbol] == price, "\(alert.rule)")
        }
    }

    @Test("above/below rules watch every market, not only the rows --symbols and --top leave in the report")
    func beyondTheShownRows() async throws {
        let (report, snapshot) = try await Self.prepare("SEK", top: 1)
        #expect(report.rows.count == 1 && report.rows[0].baseAsset != "eth")
        let rules = try ["eth above 1 SEK", "ethinr above 1 SEK", "eth move 0.01 %"].map { try AlertRule(parsing: $0) }
        let result = AlertEvaluator().evaluate(rules, report: report, tickers: snapshot.tickers, rates: snapshot.rates)
        // Moves are about the report's rows, as before, and one on a market left out says so;
        // prices are about every market.
        #expect(result.fired.map(\.symbol) == ["ethusdt", "ethinr"])
        #expect(result.notes.map(\.reason) == [.notInReport(asset: "eth")])
    }

    @Test("a limit in USDT, as the markets are quoted, is one in USD: it fires where the USD one does, and the chart draws it at the same price")
    func limitsInUSDT() async throws {
        let (report, snapshot) = try await Self.prepare("SEK")
        let rules = try ["btc above 15000 USDT", "btc above 15000 USD", "btc below 15000 USDT", "btc above 17000 usdt"].map { try AlertRule(parsing: $0) }
        let result = AlertEvaluator().evaluate(rules, report: report, tickers: snapshot.tickers, rates: snapshot.rates)
        // BTC/USDT is at 15,988: the rule in USDT fires as the one in USD, in dollars.
        #expect(result.notes.isEmpty)
        #expect(result.fired.map(\.rule.description) == ["btc above 15000 USDT", "btc above 15000 USD"])
        #expect(result.fired.map(\.figure) == [.price(Fixtures.decimal("15988"), currency: "USD"), .price(Fixtures.decimal("15988"), currency: "USD")])
        var withRules = report
        withRules.alertRules = Array(rules.prefix(2))
        let btc = try #require(report.rows.first { $0.symbol == "btcusdt" })
        let limits = ReportViewModel.limits(for: btc, in: withRules)
        #expect(limits.count == 2 && limits[0].value == limits[1].value)
    }

    @Test("move rules over many markets: each rule fires once per market beyond its limit, in rule order")
    func manyMoveRules() async throws {
        let (report, snapshot) = try await Self.prepare("USD", markets: .all)
        let rules = try (0..<2_000).map { try AlertRule(parsing: $0 % 2 == 0 ? "any move 20 %" : "srmusdt move 1 %") }
        let result = AlertEvaluator().evaluate(rules, report: report, tickers: snapshot.tickers, rates: snapshot.rates)
        let beyond = report.rows.filter { abs($0.changePercent ?? 0) >= 20 }.map(\.symbol)
        #expect(!beyond.isEmpty && beyond.contains("srmusdt"))
        let perPair = beyond + ["srmusdt"]
        #expect(result.fired.map(\.symbol) == Array((0..<1_000).map { _ in perPair }.joined()))
    }

    @Test("the built binary: 10,000 rules from the file, each fired one on standard error and in the alerts file, in file order")
    func tenThousandFromTheFile() throws {
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("config.toml")
        // BTC/USDT is at 171 447,35 kr: limits 1, 21, 41, … fire up to 171 441 (rule 8,573), then not.
        let rules = (0..<10_000).map { "btc above \($0 * 20 + 1) SEK" }
        try Data(("currency = \"SEK\"\nformats = [\"csv\"]\nalerts = [\n" + rules.map { "  \"\($0)\",\n" }.joined() + "]\n").utf8)
            .write(to: file)
        let run = try ExecutableTests.run(["--sample", "--config", file.path, "--output", "out", "-q"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr.prefix(500))")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 8_573)
        #expect(lines.first == "cryptoreport: alert: btc above 1 SEK: BTC/USDT is at 171\u{00A0}447,35\u{00A0}kr")
        #expect(lines.last == "cryptoreport: alert: btc above 171441 SEK: BTC/USDT is at 171\u{00A0}447,35\u{00A0}kr")
        let alerts = try String(
            contentsOf: folder.url.appendingPathComponent("out/cryptoreport-2022-11-22-SEK-alerts.csv"), encoding: .utf8)
        let rows = alerts.split(separator: "\r\n")
        #expect(rows.count == 8_574)
        #expect(rows.dropFirst().allSatisfy { $0.contains(",btcusdt,171447.347647863,SEK,") })
    }
}
