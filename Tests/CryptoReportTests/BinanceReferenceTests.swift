import Foundation
import Testing

@testable import CryptoReport

/// Binance's real capture (786 tickers, 2020-04-15) against a computation of this test's own:
/// the JSON read with JSONSerialization, the ECB file with a regular expression, the pricing
/// rules of docs/outputs.md written out again with Foundation's Decimal. Every market, exact.
@Suite("Binance reports against an independent computation")
struct BinanceReferenceTests {
    static let folder = Fixtures.fixturesFolder.appendingPathComponent("binance")
    static let stablecoins = ["USDT", "USDC", "BUSD", "TUSD", "USDP", "PAX", "FDUSD"]

    struct Market {
        var symbol: String
        var base: String
        var quote: String
        var last: Decimal
    }

    /// The TRADING markets with a positive last price, in the capture's order.
    static func markets() throws -> [Market] {
        let info = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("exchangeInfo-2020-04-15.json"))) as? [String: Any])
        var pairs: [String: (String, String)] = [:]
        for symbol in try #require(info["symbols"] as? [[String: Any]]) where symbol["status"] as? String == "TRADING" {
            if let name = symbol["symbol"] as? String, let base = symbol["baseAsset"] as? String, let quote = symbol["quoteAsset"] as? String {
                pairs[name] = (base, quote)
            }
        }
        let tickers = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("ticker-24hr-2020-04-15.json"))) as? [[String: Any]])
        return tickers.compactMap { ticker in
            guard let name = ticker["symbol"] as? String, let pair = pairs[name], let text = ticker["lastPrice"] as? String,
                let last = Decimal(string: text), last > 0
            else { return nil }
            return Market(symbol: name, base: pair.0, quote: pair.1, last: last)
        }
    }

    /// Units per EUR, read from the XML's `currency='X' rate='N'` attributes.
    static func ecb() throws -> [String: Decimal] {
        let text = try String(contentsOf: folder.appendingPathComponent("eurofxref-daily-2020-04-15.xml"), encoding: .utf8)
        var rates: [String: Decimal] = ["EUR": 1]
        for match in text.matches(of: #/currency='([A-Z]{3})' rate='([0-9.]+)'/#) {
            rates[String(match.1)] = Decimal(string: String(match.2))
        }
        return rates
    }

    /// Units of `currency` per unit of `asset`, by the rules; nil when none reaches it.
    static func rate(of asset: String, in currency: String, markets: [Market], ecb: [String: Decimal]) -> Decimal? {
        guard let target = ecb[currency] else { return nil }
        if stablecoins.contains(asset), let usd = ecb["USD"] { return target / usd }
        if let fiat = ecb[asset] { return target / fiat }
        let counters = stablecoins + ["EUR"] + ecb.keys.filter { $0 != "EUR" }.sorted()
        for counter in counters {
            guard let market = markets.first(where: { $0.base == asset && $0.quote == counter }),
                let counterRate = rate(of: counter, in: currency, markets: markets, ecb: ecb)
            else { continue }
            return market.last * counterRate
        }
        return nil
    }

    @Test("every market's price in SEK and USD, Binance and Binance.US", arguments: [("SEK", Exchange.binance), ("USD", .binance), ("SEK", .binanceUS)])
    func everyMarket(currency: String, exchange: Exchange) async throws {
        let markets = try Self.markets()
        let ecb = try Self.ecb()
        var settings = Settings()
        settings.fetch.sources = [exchange]
        settings.fetch.sourceURLs = [
            SourceOverride(feed: exchange.tickers, location: .file(Self.folder.appendingPathComponent("ticker-24hr-2020-04-15.json").path)),
            SourceOverride(feed: exchange.info ?? .binanceInfo, location: .file(Self.folder.appendingPathComponent("exchangeInfo-2020-04-15.json").path)),
        ]
        settings.fetch.rates = .file(Self.folder.appendingPathComponent("eurofxref-daily-2020-04-15.xml").path)
        settings.report.currency = try #require(CurrencyCode(currency))
        settings.report.selection.markets = .all
        settings.output.noHistory = true
        let report = try await ReportPipeline(clock: FixedClock(Date(timeIntervalSince1970: 1_586_994_340))).makeReport(settings)
        var expected: [String: Decimal] = [:]
        for market in markets where expected[market.symbol.lowercased()] == nil {
            if let rate = Self.rate(of: market.quote, in: currency, markets: markets, ecb: ecb) { expected[market.symbol.lowercased()] = market.last * rate }
        }
        #expect(report.rows.count == expected.count)
        #expect(Set(report.rows.map(\.symbol)) == Set(expected.keys))
        for row in report.rows {
            #expect(row.price == expected[row.symbol], "\(row.symbol)")
        }
        // Some quotes no rule reaches: NGN (only USDT/NGN, inverted), BKRW.
        #expect(expected.count < markets.count)
    }
}
