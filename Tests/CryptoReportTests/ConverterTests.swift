import Foundation
import Testing

@testable import CryptoReport

/// Issue 9, item 5: the converter's rates are the report's own figures, as the CSV writes them.
@Suite("The HTML page's converter")
struct ConverterTests {
    struct Data: Decodable {
        struct Currency: Decodable { var code, locale: String; var digits: Int }
        struct Unit: Decodable { var name, market: String; var values: [String] }
        var ecbDate: String
        var currencies: [Currency]
        var units: [Unit]
        var popular: [String]
    }

    static func decode(_ json: String) throws -> Data {
        try JSONDecoder().decode(Data.self, from: Foundation.Data(json.utf8))
    }

    @Test("the converter's JSON, written by hand, is JSONEncoder's with sorted keys: escapes, empty values, one and two currencies")
    func encoderBytes() throws {
        typealias Converter = ReportViewModel.ConverterData
        let samples = [
            Converter(ecbDate: "2022-11-21", currencies: [.init(code: "SEK", digits: 2, locale: "sv-SE")], units: []),
            Converter(
                ecbDate: "2022-11-21", currencies: [.init(code: "SEK", digits: 2, locale: "sv-SE"), .init(code: "JPY", digits: 0, locale: "ja-JP")],
                units: [
                    .init(name: "USD", market: "", values: ["10.7235", "1"]),
                    .init(name: "A\"B\\C/D\n\u{1}é✓", market: "x</script>", values: ["", "0.000008600"]),
                    .init(name: "BTC", market: "btcusdt", values: []),
                ], popular: ["BTC", "A\"B"]),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for sample in samples {
            #expect(sample.json == String(decoding: try encoder.encode(sample), as: UTF8.self))
        }
        let sek = try HTMLReportAppTests.sample("SEK")
        #expect(try Self.decode(ReportViewModel.converterData([sek])).units.count > 100)
        // USDT at par with USD, as the page's rates have it, not at its USDT/INR market (7 % more).
        let units = try Self.decode(ReportViewModel.converterData([sek])).units
        let usdt = try #require(units.first { $0.name == "USDT" })
        #expect(usdt.market.isEmpty && usdt.values == units.first { $0.name == "USD" }?.values)
        // The most traded first: the top volume list's assets, each once.
        #expect(try Self.decode(ReportViewModel.converterData([sek])).popular == sek.summary.topVolume.map { $0.baseAsset.uppercased() })
        // Units enough to be written in several chunks at once.
        let many = Converter(
            ecbDate: "2022-11-21", currencies: [.init(code: "SEK", digits: 2, locale: "sv-SE")],
            units: (0..<5_000).map { .init(name: "A\($0)\"", market: "a\($0)usdt", values: ["\($0).5", ""]) })
        #expect(many.json == String(decoding: try encoder.encode(many), as: UTF8.self))
    }

    @Test("many markets, assets repeated in any case and far apart: each at its primary market (USDT first), by name, as one pass and one sort give them")
    func manyMarkets() throws {
        let sek = try HTMLReportAppTests.sample("SEK")
        var report = sek
        // Over 8,192 rows (more than a chunk, and than a sort on one core takes): each copy's bases
        // renamed, every third copy upper-cased, so an asset's rows come in several chunks; the
        // first of each three quoted in WRX, so that its primary market comes after it.
        report.rows = (0..<(8_192 / sek.rows.count + 3)).flatMap { copy in
            sek.rows.map { row in
                var row = row
                row.baseAsset = (copy % 3 == 0 ? row.baseAsset.uppercased() : row.baseAsset) + "\(copy / 3)"
                if copy % 3 == 0 { row.quoteAsset = "wrx" }
                row.symbol = row.baseAsset.lowercased() + row.quoteAsset + "\(copy)"
                return row
            }
        }
        // `--markets primary`'s choice, made on one thread by a dictionary.
        var expected = MarketSelector.primaryIndexByBase(report.rows).values.map { index in
            let row = report.rows[index]
            return Data.Unit(name: row.baseAsset.uppercased(), market: row.symbol, values: [PlainNumber.format(row.price)])
        }
        expected.sort { $0.name < $1.name }
        #expect(report.rows.first { $0.baseAsset.lowercased() == "btc0" }?.symbol == "btc0wrx0" && expected.contains { $0.market == "btc0usdt1" })
        let units = try Self.decode(ReportViewModel.converterData([report])).units.filter { !$0.market.isEmpty }
        #expect(report.rows.count > 8_192 && expected.count < report.rows.count / 2)
        #expect(units.map(\.name) == expected.map(\.name))
        #expect(units.map(\.market) == expected.map(\.market))
        #expect(units.map(\.values) == expected.map(\.values))
    }

    @Test("each asset at its table market's CSV price, each currency at the ECB rates, in both report currencies")
    func rates() throws {
        let sek = try HTMLReportAppTests.sample("SEK"), usd = try HTMLReportAppTests.sample("USD")
        let data = try Self.decode(ReportViewModel.converterData([sek, usd]))
        #expect(data.ecbDate == "2022-11-21")
        #expect(
            data.currencies.map(\.code) == ["SEK", "USD"] && data.currencies.map(\.locale) == ["sv-SE", "en-US"]
                && data.currencies.map(\.digits) == [2, 2])
        let btc = try #require(data.units.first { $0.name == "BTC" })
        let sekBTC = try #require(sek.rows.first { $0.symbol == "btcusdt" }), usdBTC = try #require(usd.rows.first { $0.symbol == "btcusdt" })
        #expect(btc.market == "btcusdt")
        #expect(btc.values == [PlainNumber.format(sekBTC.price), PlainNumber.format(usdBTC.price)])
        #expect(btc.values == ["171447.347647863", "15988"], "the CSV's figures")
        let dollar = try #require(data.units.first { $0.name == "USD" })
        #expect(dollar.market == "" && dollar.values == [PlainNumber.format(sekBTC.fxRate), "1"], "the CSV's rate for USDT, at par with USD")
        #expect(data.units.prefix(4).map(\.name) == ["SEK", "USD", "EUR", "INR"], "the currencies first, the report's own leading")
        #expect(Set(data.units.dropFirst(4).map(\.name)).count == data.units.count - 4, "one entry per asset")
    }

    @Test("with every market, an asset is priced at its USDT market, not at the table's first (BTC/INR, dearer by India's premium)")
    func primaryMarket() throws {
        let report = try HTMLReportAppTests.sample("USD", markets: .all)
        let btcRows = report.rows.filter { $0.baseAsset == "btc" }
        #expect(btcRows.first?.symbol == "btcinr" && btcRows.contains { $0.symbol == "btcusdt" }, "the table, by volume, shows BTC/INR first")
        let data = try Self.decode(ReportViewModel.converterData([report]))
        let btc = try #require(data.units.first { $0.name == "BTC" })
        #expect(btc.market == "btcusdt" && btc.values == ["15988"], "the price the page's rates card gives")
        // An asset without a USDT market: its INR one, as `--markets primary` keeps.
        let primary = MarketSelector.primaryByBase(report.rows)
        for unit in data.units where !unit.market.isEmpty {
            #expect(unit.market == primary[unit.name.lowercased()]?.symbol, "\(unit.name)")
        }
    }

    @Test("the converter's data is escaped text in the page: a hostile asset name cannot end the attribute")
    func escaped() throws {
        let hostile = "\"><script>alert(1)</script>"
        let report = try HTMLReportAppTests.report(
            [
                Fixtures.ticker(
                    hostile.replacingOccurrences(of: "/", with: "\\/").replacingOccurrences(of: "\"", with: "\\\"") + "usdt",
                    base: hostile.replacingOccurrences(of: "/", with: "\\/").replacingOccurrences(of: "\"", with: "\\\""), quote: "usdt", last: "2",
                    volume: "1000")
            ],
            currency: "USD")
        let html = try TemplateRenderer().render(report, format: .html)
        let start = try #require(html.range(of: "data-rates=\""))
        let attribute = html[start.upperBound...].prefix { $0 != "\"" }
        #expect(!attribute.contains("<") && attribute.contains("&quot;"))
        #expect(html.components(separatedBy: "<script>").count == 2, "the page's own script only")
        let data = try Self.decode(ReportViewModel.converterData([report]))
        #expect(data.units.contains { $0.name == hostile.uppercased() })
    }
}
