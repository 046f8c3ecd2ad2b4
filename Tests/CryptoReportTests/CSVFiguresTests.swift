import Foundation
import Testing

@testable import CryptoReport

/// Recomputes every CSV figure of every market from the raw fixture strings, without the library's
/// parsers or converter, and checks the CSV against it in USD, SEK, EUR and INR.
@Suite("CSV figures are the defined figures")
struct CSVFiguresTests {
    /// ECB rates read with a plain text scan, independent of the libxml2 parser.
    static func ecbRates() throws -> [String: Decimal] {
        let xml = String(decoding: try Fixtures.rates, as: UTF8.self)
        var rates: [String: Decimal] = ["EUR": 1]
        for line in xml.split(separator: "\n") where line.contains("currency=") {
            let parts = line.split(separator: "'")
            rates[String(parts[1])] = Fixtures.decimal(String(parts[3]))
        }
        return rates
    }

    static func rawTickers() throws -> [[String: String]] {
        let array = try JSONSerialization.jsonObject(with: try Fixtures.tickers) as? [[String: Any]] ?? []
        return array.map { $0.compactMapValues { $0 as? String } }
    }

    static func parseCSV(_ text: String) -> [[String: String]] {
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, cells))
        }
    }

    @Test("every market, every column", arguments: ["USD", "SEK", "EUR", "INR"])
    func figures(currency: String) async throws {
        let ecb = try Self.ecbRates()
        let raw = try Self.rawTickers()
        func fiat(_ from: String) -> Decimal { (ecb[currency] ?? .nan) / (ecb[from] ?? .nan) }
        let last = Dictionary(raw.map { ($0["symbol"] ?? "", Fixtures.decimal($0["lastPrice"] ?? "")) }, uniquingKeysWith: { a, _ in a })
        func rate(_ quote: String) -> Decimal {
            switch quote {
            case "inr": fiat("INR")
            case "usdt": fiat("USD")
            default: (last[quote + "usdt"] ?? .nan) * fiat("USD")
            }
        }

        var request = Settings()
        request.report.currency = try #require(CurrencyCode(currency))
        request.fetch.sample = true
        request.report.selection = Selection(markets: .all)
        let report = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(request)
        let csv = Self.parseCSV(CSVRenderer().render(report))
        #expect(csv.count == 450)
        let bySymbol = Dictionary(csv.map { ($0["symbol"] ?? "", $0) }, uniquingKeysWith: { a, _ in a })

        var checked = 0
        for ticker in raw {
            let symbol = ticker["symbol"] ?? ""
            let row = try #require(bySymbol[symbol], "\(symbol) missing from the CSV")
            let r = rate(ticker["quoteAsset"] ?? "")
            func d(_ key: String) -> Decimal { Fixtures.decimal(ticker[key] ?? "") }
            let (open, lastPrice, bid, ask, volume) = (d("openPrice"), d("lastPrice"), d("bidPrice"), d("askPrice"), d("volume"))
            var expected: [String: Decimal?] = [
                "price": lastPrice * r, "open": open * r, "high": d("highPrice") * r, "low": d("lowPrice") * r,
                "bid": bid * r, "ask": ask * r, "volume": volume, "volume_value": volume * lastPrice * r, "fx_rate": r,
            ]
            expected["change_pct"] = open > 0 ? (lastPrice - open) / open * 100 : nil
            expected["spread"] = bid > 0 && ask > 0 ? (ask - bid) * r : nil
            expected["spread_pct"] = bid > 0 && ask > 0 ? (ask - bid) / ((ask + bid) / 2) * 100 : nil
            for (column, value) in expected {
                let cell = row[column] ?? "?"
                guard let value else {
                    #expect(cell == "", "\(symbol) \(column) should be empty")
                    continue
                }
                #expect(!cell.contains("e") && !cell.contains("E"), "\(symbol) \(column) = \(cell) has an exponent")
                let written = Fixtures.decimal(cell)
                let tolerance = (value < 0 ? -value : value) * Fixtures.decimal("0.00000000000001")
                let difference = written - value
                #expect((difference < 0 ? -difference : difference) <= tolerance, "\(symbol) \(column): \(cell) vs \(value)")
                checked += 1
            }
            #expect(row["currency"] == currency)
            #expect(row["base_asset"] == ticker["baseAsset"])
            #expect(row["quote_asset"] == ticker["quoteAsset"])
            let at = Date(timeIntervalSince1970: (Double(ticker["at"] ?? "") ?? 0) / 1000)
            #expect(row["updated_at"] == ReportDates.iso8601(at))
        }
        #expect(checked > 450 * 10)
    }

    @Test("the header is exactly the documented columns, then the extra ones")
    func header() async throws {
        var request = Settings()
        request.fetch.sample = true
        let report = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(request)
        let firstLine = CSVRenderer().render(report).components(separatedBy: "\r\n").first
        #expect(
            firstLine
                == "symbol,base_asset,quote_asset,currency,price,open,high,low,bid,ask,change_pct,spread,spread_pct,volume,volume_value,fx_rate,updated_at,stale,change_prev_pct,change_7d_pct,change_30d_pct,source"
        )
    }
}
