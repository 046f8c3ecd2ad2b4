import Foundation
import Testing

@testable import CryptoReport

@Suite("Converting markets into the report currency")
struct ConversionTests {
    /// USD 1.0246, SEK 10.9873, INR 83.7375 per EUR: the ECB's figures of 2022-11-21.
    static let rates = ExchangeRates(
        date: "2022-11-21",
        perEuro: ["USD": Fixtures.decimal("1.0246"), "SEK": Fixtures.decimal("10.9873"), "INR": Fixtures.decimal("83.7375")])

    static let tickers = [
        Ticker(symbol: "btcinr", baseAsset: "btc", quoteAsset: "inr", last: 1_398_000),
        Ticker(symbol: "btcusdt", baseAsset: "btc", quoteAsset: "usdt", last: Fixtures.decimal("16100.01")),
        Ticker(symbol: "ethbtc", baseAsset: "eth", quoteAsset: "btc", last: Fixtures.decimal("0.07")),
        Ticker(symbol: "wrxinr", baseAsset: "wrx", quoteAsset: "inr", last: Fixtures.decimal("11.2")),
        Ticker(symbol: "dogewrx", baseAsset: "doge", quoteAsset: "wrx", last: 2),
        Ticker(symbol: "abcxyz", baseAsset: "abc", quoteAsset: "xyz", last: 2),
    ]

    func quoteRates(_ target: String) throws -> CurrencyConverter.Result {
        try CurrencyConverter(rates: Self.rates, target: target).quoteRates(for: Self.tickers)
    }

    @Test("many markets: each pricing market's first price in the feed, quotes seen anywhere")
    func manyMarkets() throws {
        // Filler markets quoted in inr, the pricing markets repeated with other prices later
        // (a later btcusdt must not win), a quote first seen near the end, mixed case.
        let chunk = 8_192
        var tickers = (0..<(3 * chunk + 5)).map { Ticker(symbol: "f\($0)inr", baseAsset: "f\($0)", quoteAsset: "inr", last: 1) }
        tickers[chunk - 1] = Ticker(symbol: "BTCUSDT", baseAsset: "btc", quoteAsset: "USDT", last: 20_000)
        tickers[chunk] = Ticker(symbol: "btcusdt", baseAsset: "btc", quoteAsset: "usdt", last: 1)
        tickers[2 * chunk + 1] = Ticker(symbol: "wrxinr", baseAsset: "wrx", quoteAsset: "inr", last: 3)
        tickers[2 * chunk + 2] = Ticker(symbol: "wrxinr", baseAsset: "wrx", quoteAsset: "inr", last: 4)
        tickers[3 * chunk + 1] = Ticker(symbol: "dogeWRX", baseAsset: "doge", quoteAsset: "Wrx", last: 2)
        tickers[3 * chunk + 2] = Ticker(symbol: "ethbtc", baseAsset: "eth", quoteAsset: "btc", last: 2)
        let result = try CurrencyConverter(rates: Self.rates, target: "USD").quoteRates(for: tickers)
        #expect(result.rates.keys.sorted() == ["btc", "inr", "usdt", "wrx"])
        #expect(result.rates["btc"]?.rate == 20_000)
        #expect(result.rates["wrx"]?.via == "wrxinr")
        #expect(result.rates["wrx"]?.rate == 3 * (Fixtures.decimal("1.0246") / Fixtures.decimal("83.7375")))
        #expect(result.reasons.isEmpty)
    }

    @Test("fiat cross rates: ECB[target] / ECB[source], EUR = 1")
    func fiatCrossRates() throws {
        #expect(try Self.rates.rate(from: "USD", to: "SEK") == Fixtures.decimal("10.9873") / Fixtures.decimal("1.0246"))
        #expect(try Self.rates.rate(from: "INR", to: "EUR") == 1 / Fixtures.decimal("83.7375"))
        #expect(try Self.rates.rate(from: "EUR", to: "INR") == Fixtures.decimal("83.7375"))
        #expect(try Self.rates.rate(from: "SEK", to: "SEK") == 1)
    }

    @Test("inr quotes use INR→target; usdt quotes use USD→target at par")
    func inrAndUsdt() throws {
        let result = try quoteRates("SEK")
        #expect(result.rates["inr"]?.rate == Fixtures.decimal("10.9873") / Fixtures.decimal("83.7375"))
        #expect(result.rates["usdt"]?.rate == Fixtures.decimal("10.9873") / Fixtures.decimal("1.0246"))
        #expect(try quoteRates("USD").rates["usdt"]?.rate == 1)
    }

    @Test("btc quotes go through btcusdt's last price")
    func cryptoViaUsdt() throws {
        let result = try quoteRates("SEK")
        let btc = try #require(result.rates["btc"])
        #expect(btc.via == "btcusdt")
        #expect(btc.rate == Fixtures.decimal("16100.01") * (Fixtures.decimal("10.9873") / Fixtures.decimal("1.0246")))
    }

    @Test("without an Xusdt market, Xinr's last price is used")
    func cryptoFallsBackToInr() throws {
        let result = try quoteRates("USD")
        let wrx = try #require(result.rates["wrx"])
        #expect(wrx.via == "wrxinr")
        #expect(wrx.rate == Fixtures.decimal("11.2") * (Fixtures.decimal("1.0246") / Fixtures.decimal("83.7375")))
    }

    @Test("a quote asset with neither market is left out with a warning")
    func unconvertible() throws {
        let result = try quoteRates("USD")
        #expect(result.unconvertible == ["xyz"])
        let analysed = MarketAnalyser().analyse(Self.tickers, rates: result, currency: "USD")
        #expect(analysed.rows.count == 5)
        #expect(!analysed.rows.contains { $0.symbol == "abcxyz" })
        #expect(
            analysed.diagnostics.map(\.message) == [
                "left out abcxyz: no market of XYZ against USDT, another USD stablecoin or an ECB currency to price it in USD"
            ])
    }

    @Test("a missing INR rate costs the markets that need it, with one warning per quote asset, not the report")
    func missingINR() throws {
        let rates = ExchangeRates(date: "2022-11-21", perEuro: ["USD": Fixtures.decimal("1.0246"), "SEK": Fixtures.decimal("10.9873")])
        let result = try CurrencyConverter(rates: rates, target: "USD").quoteRates(for: Self.tickers)
        #expect(result.rates.keys.sorted() == ["btc", "usdt"])
        #expect(
            result.reasons == [
                "inr": "the ECB rates of 2022-11-21 have no INR",
                // wrx has no wrxusdt market, and wrxinr needs INR.
                "wrx": "the ECB rates of 2022-11-21 have no INR",
                "xyz": "no market of XYZ against USDT, another USD stablecoin or an ECB currency to price it in USD",
            ])
        let analysed = MarketAnalyser().analyse(Self.tickers, rates: result, currency: "USD")
        #expect(analysed.rows.map(\.symbol) == ["btcusdt", "ethbtc"])
        #expect(
            analysed.diagnostics.map(\.message) == [
                "left out 2 markets quoted in INR (btcinr, wrxinr): the ECB rates of 2022-11-21 have no INR",
                "left out dogewrx: the ECB rates of 2022-11-21 have no INR",
                "left out abcxyz: no market of XYZ against USDT, another USD stablecoin or an ECB currency to price it in USD",
            ])
    }

    @Test("when not one market can be priced, the run fails with the reason (exit 65), not an empty report")
    func nothingConverts() throws {
        let rates = ExchangeRates(date: "2022-11-21", perEuro: ["USD": Fixtures.decimal("1.0246")])
        let inrOnly = Self.tickers.filter { $0.quoteAsset == "inr" }
        let payload = FetchedPayload(source: .tickers, location: .file("t.json"), data: Data(), fetchedAt: Date(timeIntervalSince1970: 1_669_078_293))
        let ratesPayload = FetchedPayload(source: .rates, location: .file("r.xml"), data: Data(), fetchedAt: payload.fetchedAt)
        #expect {
            try ReportBuilder(spec: ReportSpec(), generatedAt: payload.fetchedAt).build(
                tickers: payload, decoded: TickerDecoder.Result(tickers: inrOnly, received: 2, diagnostics: []),
                rates: ratesPayload, exchangeRates: rates)
        } throws: { error in
            (error as? ConversionError) == .noMarketConverted(count: 2, currency: "USD", reasons: ["the ECB rates of 2022-11-21 have no INR"])
                && (error as? ConversionError)?.exitStatus == .dataError
                && (error as? ConversionError)?.errorDescription
                    == "WazirX tickers: none of the 2 markets can be priced in USD: the ECB rates of 2022-11-21 have no INR."
        }
    }

    @Test("without a USD rate, crypto quotes go through their inr market")
    func missingUSD() throws {
        let rates = ExchangeRates(date: "2022-11-21", perEuro: ["SEK": Fixtures.decimal("10.9873"), "INR": Fixtures.decimal("83.7375")])
        let result = try CurrencyConverter(rates: rates, target: "SEK").quoteRates(for: Self.tickers)
        #expect(result.reasons["usdt"] == "the ECB rates of 2022-11-21 have no USD")
        #expect(result.rates["btc"]?.via == "btcinr")
        #expect(result.rates["btc"]?.rate == 1_398_000 * (Fixtures.decimal("10.9873") / Fixtures.decimal("83.7375")))
    }

    @Test("a currency the ECB file lacks is a usage error naming the choices")
    func unknownCurrency() {
        #expect {
            try CurrencyConverter(rates: Self.rates, target: "XAU")
        } throws: { error in
            let error = error as? ConversionError
            return error?.exitStatus == .usage
                && error?.errorDescription == "ECB rates: the rates of 2022-11-21 have no XAU; choose one of EUR, INR, SEK, USD."
        }
    }

    @Test("a zero rate needed for the report is a data error, for the report currency or another")
    func zeroRate() throws {
        let rates = ExchangeRates(date: "2022-11-21", perEuro: ["USD": 1], invalid: ["INR": "0"])
        #expect(throws: ConversionError.invalidRate(currency: "INR", text: "0", date: "2022-11-21")) {
            try CurrencyConverter(rates: rates, target: "INR")
        }
        #expect(throws: ConversionError.invalidRate(currency: "INR", text: "0", date: "2022-11-21")) {
            try CurrencyConverter(rates: rates, target: "USD").quoteRates(for: Self.tickers)
        }
        #expect(ConversionError.invalidRate(currency: "INR", text: "0", date: "2022-11-21").exitStatus == .dataError)
    }
}

@Suite("Per-market figures")
struct MetricsTests {
    let analyser = MarketAnalyser()

    @Test("price, change, spread and volume value from the API's strings")
    func figures() {
        let ticker = Ticker(
            symbol: "btcinr", baseAsset: "btc", quoteAsset: "inr", open: 1_416_000, low: 1_380_000, high: 1_430_027,
            last: 1_398_000, volume: Fixtures.decimal("6.94353"), bid: 1_398_000, ask: 1_399_000,
            updatedAt: Date(timeIntervalSince1970: 1_669_078_292))
        let rate = Fixtures.decimal("0.5")
        let row = analyser.row(ticker, rate: rate, currency: "XXX")
        #expect(row.price == 699_000)
        #expect(row.open == 708_000)
        #expect(row.high == Fixtures.decimal("715013.5"))
        #expect(row.low == 690_000)
        #expect(row.bid == 699_000)
        #expect(row.ask == 699_500)
        #expect(row.changePercent == Decimal(-18_000) / 1_416_000 * 100)
        #expect(row.spread == 500)
        #expect(row.spreadPercent == Decimal(1000) / Fixtures.decimal("1398500") * 100)
        #expect(row.volume == Fixtures.decimal("6.94353"))
        #expect(row.volumeValue == Fixtures.decimal("6.94353") * 1_398_000 * rate)
        #expect(row.fxRate == rate)
    }

    @Test("change is empty when open is missing or not positive", arguments: [nil, Decimal(0)] as [Decimal?])
    func emptyChange(open: Decimal?) {
        let ticker = Ticker(symbol: "a", baseAsset: "a", quoteAsset: "inr", open: open, last: 1)
        #expect(analyser.row(ticker, rate: 1, currency: "USD").changePercent == nil)
    }

    @Test(
        "spread is empty when bid or ask is missing or not positive",
        arguments: [(nil, 1), (1, nil), (0, 1), (1, 0)] as [(Decimal?, Decimal?)])
    func emptySpread(bid: Decimal?, ask: Decimal?) {
        let ticker = Ticker(symbol: "a", baseAsset: "a", quoteAsset: "inr", last: 1, bid: bid, ask: ask)
        let row = analyser.row(ticker, rate: 1, currency: "USD")
        #expect(row.spread == nil)
        #expect(row.spreadPercent == nil)
    }

    @Test("no volume, no volume value")
    func emptyVolume() {
        let ticker = Ticker(symbol: "a", baseAsset: "a", quoteAsset: "inr", last: 1)
        #expect(analyser.row(ticker, rate: 1, currency: "USD").volumeValue == nil)
    }
}
