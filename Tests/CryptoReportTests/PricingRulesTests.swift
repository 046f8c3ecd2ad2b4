import Foundation
import Testing

@testable import CryptoReport

/// The pricing rules of every exchange (docs/outputs.md): USD stablecoins at par, ECB currencies
/// at their rate, any other quote through its own market against USDT, another stablecoin, EUR,
/// then another ECB currency; never through an inverted market.
@Suite("Pricing rules for many quote assets")
struct PricingRulesTests {
    /// USD 1.0890, EUR 1, TRY 74.0, SEK 10.9 per EUR.
    static let rates = ExchangeRates(
        date: "2020-04-15",
        perEuro: ["USD": Fixtures.decimal("1.0890"), "TRY": Fixtures.decimal("74.0"), "SEK": Fixtures.decimal("10.9")])

    static func usd(_ tickers: [Ticker], stablecoins: [String] = CurrencyConverter.defaultStablecoins) throws -> CurrencyConverter.Result {
        try CurrencyConverter(rates: rates, target: "USD", stablecoins: stablecoins).quoteRates(for: tickers)
    }

    static func market(_ base: String, _ quote: String, _ last: String) -> Ticker {
        Ticker(symbol: (base + quote).uppercased(), baseAsset: base.uppercased(), quoteAsset: quote.uppercased(), last: Fixtures.decimal(last))
    }

    @Test("every listed USD stablecoin is at par with USD", arguments: ["usdt", "usdc", "busd", "tusd", "usdp", "pax", "fdusd"])
    func stablecoinAtPar(coin: String) throws {
        let result = try Self.usd([Self.market("btc", coin, "7000")])
        #expect(result.rates[coin]?.rate == 1)
        #expect(result.rates[coin]?.via == "ECB USD, \(coin.uppercased()) at par")
    }

    @Test("a fiat quote the ECB publishes is at its ECB rate; EUR at the USD rate's inverse")
    func fiatQuotes() throws {
        let result = try Self.usd([Self.market("btc", "try", "480000"), Self.market("btc", "eur", "6500")])
        #expect(result.rates["try"]?.rate == Fixtures.decimal("1.0890") / Fixtures.decimal("74.0"))
        #expect(result.rates["eur"]?.rate == Fixtures.decimal("1.0890"))
        #expect(result.rates["try"]?.via == "ECB" && result.rates["eur"]?.via == "ECB")
    }

    @Test("another quote goes through its market against USDT first, else another stablecoin, else EUR")
    func order() throws {
        let bnb = [Self.market("eth", "bnb", "10"), Self.market("bnb", "eur", "14"), Self.market("bnb", "busd", "15"), Self.market("bnb", "usdt", "16")]
        #expect(try Self.usd(bnb).rates["bnb"]?.via == "BNBUSDT")
        #expect(try Self.usd(Array(bnb.dropLast())).rates["bnb"]?.via == "BNBBUSD")
        let viaEuro = try Self.usd(Array(bnb.prefix(2)))
        #expect(viaEuro.rates["bnb"]?.via == "BNBEUR")
        #expect(viaEuro.rates["bnb"]?.rate == 14 * Fixtures.decimal("1.0890"))
    }

    @Test("never through an inverted market: USDT/NGN does not price NGN")
    func notInverted() throws {
        let result = try Self.usd([Self.market("btc", "ngn", "2700000"), Self.market("usdt", "ngn", "390")])
        #expect(result.rates["ngn"] == nil)
        #expect(result.reasons["ngn"] == "no market of NGN against USDT, another USD stablecoin or an ECB currency to price it in USD")
    }

    @Test("the stablecoin list is a setting: USDS at par only when listed")
    func stablecoinSetting() throws {
        let tickers = [Self.market("btc", "usds", "7100"), Self.market("usds", "usdt", "0.99")]
        #expect(try Self.usd(tickers).rates["usds"]?.via == "USDSUSDT")
        #expect(try Self.usd(tickers).rates["usds"]?.rate == Fixtures.decimal("0.99"))
        #expect(try Self.usd(tickers, stablecoins: ["usdt", "usds"]).rates["usds"]?.rate == 1)
    }
}
