import Foundation
import Testing

@testable import CryptoReport

/// Issue 9, item 4: `--currency SEK,USD` makes one HTML page that switches between the two, and
/// every other format once per currency, under today's names.
@Suite("Two currencies in one report")
struct TwoCurrencyTests {
    @Test(
        "currency takes one or two codes, from a flag, the environment or the file",
        arguments: [
            ("SEK", "SEK"), ("sek,usd", "SEK,USD"), (" USD , SEK ", "USD,SEK"),
        ])
    func parsed(text: String, expected: String) throws {
        let codes: [CurrencyCode] = try SettingKey.flag("currency")(text)
        #expect(codes.map(\.code).joined(separator: ",") == expected)
    }

    @Test(
        "a currency given twice, three currencies or a bad code are refused, naming the fault",
        arguments: [
            ("SEK,SEK", "SEK is given twice"), ("SEK,USD,EUR", "one or two currencies, not 3"), ("SEK,DOLLAR", "\"DOLLAR\" is not valid"),
        ])
    func refused(text: String, message: String) {
        #expect {
            let _: [CurrencyCode] = try SettingKey.flag("currency")(text)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("the file's array and the environment's list are the same setting")
    func fileAndEnvironment() throws {
        let file = try ConfigFileReader().parse("currency = [\"SEK\", \"USD\"]\n", path: "c.toml")
        #expect(Settings(layers: [file]).report.currencies == ["SEK", "USD"])
        let environment = try EnvironmentReader().read(["CRYPTOREPORT_CURRENCY": "SEK,USD"])
        #expect(Settings(layers: [environment]).report.currencies == ["SEK", "USD"])
        #expect(Settings(layers: [environment]).report.currency == "SEK", "the first currency is the report's")
    }

    @Test("standard output takes two currencies only as the HTML page that holds both")
    func standardOutput() throws {
        var settings = Settings()
        settings.report.currencies = ["SEK", "USD"]
        settings.output.destination = .standardOutput
        settings.output.formats = [.csv]
        #expect(throws: SettingsError.self) { try settings.checkReport() }
        settings.output.formats = [.html]
        try settings.checkReport()
    }

    static func run(_ currencies: [CurrencyCode], into folder: URL) async throws -> ReportPipeline.Outcome {
        var settings = Settings()
        settings.report.currencies = currencies
        settings.fetch.sample = true
        settings.output.destination = .directory(folder.path)
        settings.output.noHistory = true
        settings.output.latest = false
        return try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).run(settings)
    }

    @Test("one HTML page, named for the first currency; CSV, Markdown and JSON once per currency, as one-currency runs write them")
    func filesPerCurrency() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("two-currencies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try await Self.run(["SEK", "USD"], into: folder)
        #expect(
            outcome.written.map(\.lastPathComponent).sorted() == [
                "cryptoreport-2022-11-22-SEK.csv", "cryptoreport-2022-11-22-SEK.html", "cryptoreport-2022-11-22-SEK.json",
                "cryptoreport-2022-11-22-SEK.md", "cryptoreport-2022-11-22-USD.csv", "cryptoreport-2022-11-22-USD.json",
                "cryptoreport-2022-11-22-USD.md",
            ])
        let alone = folder.appendingPathComponent("usd-alone")
        _ = try await Self.run(["USD"], into: alone)
        for name in ["cryptoreport-2022-11-22-USD.csv", "cryptoreport-2022-11-22-USD.json", "cryptoreport-2022-11-22-USD.md"] {
            let both = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(both == (try Data(contentsOf: alone.appendingPathComponent(name))), "\(name) differs from a USD-only run's")
        }
    }

    @Test("every figure of the page carries the second currency's beside the first's")
    func figuresInBoth() throws {
        let sek = try HTMLReportAppTests.sample("SEK"), usd = try HTMLReportAppTests.sample("USD")
        let html = try TemplateRenderer().render(sek, format: .html, alternatives: [usd])
        var usdOnPage = usd
        usdOnPage.localeIdentifier = sek.localeIdentifier
        let usdModel = ReportViewModel(usdOnPage)
        let usdRows = Dictionary(usdModel.rows.map { ($0.symbol, $0) }, uniquingKeysWith: { first, _ in first })
        for row in ReportViewModel(sek).rows.prefix(40) {
            let alt = try #require(usdRows[row.symbol])
            for (first, second) in [(row.price, alt.price), (row.high, alt.high), (row.volumeValue, alt.volumeValue)] {
                #expect(html.contains(" data-alt=\"\(Self.escaped(second))\">\(Self.escaped(first))<"), "\(row.symbol): \(first) / \(second)")
            }
            #expect(
                html.contains(
                    " data-alt=\"\(Self.escaped(alt.change))\">\(Self.escaped(row.change))<"))
        }
        #expect(
            html.contains(
                "<div class=\"switch\" id=\"currency-switch\" role=\"group\" aria-label=\"Valuta\" hidden><button type=\"button\" data-i=\"0\">SEK</button><button type=\"button\" data-i=\"1\">USD</button></div>"
            ))
        #expect(html.contains("<div class=\"cur-0\"><header>\n  <h1>Kryptopriser i SEK, 2022-11-22</h1>"), "a SEK page is Swedish, in both its views")
        #expect(html.contains("<div class=\"cur-1\"><header>\n  <h1>Kryptopriser i USD, 2022-11-22</h1>"))
        #expect(html.contains("<title data-alt=\"Kryptopriser i USD, 2022-11-22\">Kryptopriser i SEK, 2022-11-22</title>"))
        // The detail's figures too; its history is in each currency's own data block.
        let detail = try #require(ReportViewModel(usdOnPage).details.first { $0.symbol == "btcusdt" })
        let sekDetail = try #require(ReportViewModel(sek).details.first { $0.symbol == "btcusdt" })
        let details = try PageTemplateTests.detailData(html)
        #expect(details["btcusdt"]?["o"] as? [String] == [sekDetail.open, detail.open])
        #expect(details["btcusdt"]?["d"] as? [String] == [sekDetail.changeMoney, detail.changeMoney])
        #expect(details.count == sek.rows.count)
    }

    @Test("with history, the page holds each currency's history data once, which the script draws the open detail from")
    func historyDataPerCurrency() throws {
        func dated(_ currency: CurrencyCode) throws -> Report {
            var report = try HTMLReportAppTests.sample(currency)
            for index in report.rows.indices {
                var trend = Trend(series: [report.rows[index].price / 2, report.rows[index].price])
                trend.days = ["2022-11-21", "2022-11-22"]
                report.rows[index].trend = trend
            }
            report.hasHistory = true
            return report
        }
        let sek = try dated("SEK"), usd = try dated("USD")
        let html = try TemplateRenderer().render(sek, format: .html, alternatives: [usd])
        let blocks = html.matches(of: /<script type="application\/json" class="history-data" data-cur="(\d)">([^<]*)<\/script>/)
        #expect(blocks.map { String($0.1) } == ["0", "1"])
        let currencies = try blocks.map { try (JSONSerialization.jsonObject(with: Data($0.2.utf8)) as? [String: Any])?["currency"] as? String }
        #expect(currencies == ["SEK", "USD"])
        var usdOnPage = usd
        usdOnPage.localeIdentifier = sek.localeIdentifier
        #expect(blocks.last.map { String($0.2) } == ReportViewModel(usdOnPage).historyData, "in the page's language and number style")
        #expect(html.components(separatedBy: "<div class=\"history d-series\">").count - 1 == 1, "one detail's markup, which the script fills")
    }

    @Test("every view of a two-currency page writes numbers as the page's locale does; --locale sets both")
    func oneNumberStyle() throws {
        let sek = try HTMLReportAppTests.sample("SEK"), usd = try HTMLReportAppTests.sample("USD")
        let btc = try #require(usd.rows.first { $0.symbol == "btcusdt" })
        let swedish = try TemplateRenderer().render(sek, format: .html, alternatives: [usd])
        let sv = PeopleNumberFormatter(currency: "USD", locale: Locale(identifier: "sv_SE"))
        let en = PeopleNumberFormatter(currency: "USD", locale: Locale(identifier: "en_US"))
        // The USD view of the Swedish page: −1,31 % (a minus sign, a decimal comma), not -1.31%.
        #expect(sv.percent(btc.changePercent) == "\u{2212}1,31\u{00A0}%")
        #expect(swedish.contains(" data-alt=\"\(sv.percent(btc.changePercent))\">"))
        #expect(swedish.contains(" data-alt=\"\(sv.money(btc.price))\">"))
        #expect(!swedish.contains(" data-alt=\"\(en.money(btc.price))\">") && !swedish.contains("data-alt=\"-1.31%\""))
        // The converter and the detail's history format the second currency in the page's locale too.
        let rates = try #require(swedish.firstMatch(of: /data-rates="([^"]*)"/)).1.replacingOccurrences(of: "&quot;", with: "\"")
        #expect(rates.components(separatedBy: "\"sv-SE\"").count == 3 && !rates.contains("en-US"), "\(rates.prefix(200))")
        // --locale en_US: both reports come in en_US, and so does every view.
        var sekInEnglish = sek, usdInEnglish = usd
        sekInEnglish.localeIdentifier = "en_US"
        usdInEnglish.localeIdentifier = "en_US"
        let english = try TemplateRenderer().render(sekInEnglish, format: .html, alternatives: [usdInEnglish])
        #expect(english.contains(" data-alt=\"\(en.money(btc.price))\">") && english.contains(" data-alt=\"-1.31%\""))
        // A USD,SEK page is American in its SEK view.
        let american = try TemplateRenderer().render(usd, format: .html, alternatives: [sek])
        let sekBTC = try #require(sek.rows.first { $0.symbol == "btcusdt" })
        #expect(american.contains(" data-alt=\"\(PeopleNumberFormatter(currency: "SEK", locale: Locale(identifier: "en_US")).money(sekBTC.price))\">"))
    }

    @Test("a one-currency page has no switch and no second figures")
    func oneCurrency() throws {
        let html = try TemplateRenderer().render(try HTMLReportAppTests.sample("SEK"), format: .html)
        #expect(!html.contains(" data-alt=") && !html.contains("id=\"currency-switch\"") && !html.contains("class=\"cur-"))
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// Issue 9, item 8 (part): times for people in the reader's zone, named; machine formats in UTC.
@Suite("Times in the reader's time zone")
struct TimeZoneTests {
    static func report(_ zone: String?) throws -> Report {
        var spec = ReportSpec(currency: "SEK")
        spec.timeZone = zone.flatMap(TimeZone.init(identifier:))
        return try ReportBuilder(spec: spec, ratesAgeLimit: nil, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, try Fixtures.tickers), rates: Fixtures.payload(.rates, try Fixtures.rates))
    }

    @Test("Europe/Stockholm: the page and Markdown say 01:51 CET where UTC says 00:51; CSV and JSON are unchanged")
    func stockholm() throws {
        let utc = try Self.report(nil), stockholm = try Self.report("Europe/Stockholm")
        let renderer = try TemplateRenderer()
        let html = renderer.render(stockholm, format: .html), markdown = renderer.render(stockholm, format: .markdown)
        #expect(html.contains("Senaste notering 2022-11-22 01:51 CET"), "the SEK page is Swedish")
        #expect(markdown.contains("- Newest ticker: 2022-11-22 01:51 CET"))
        #expect(!html.contains(" UTC (inbyggt exempel)") && html.contains("uppdaterad 2022-11-22 01:51 CET"))
        #expect(renderer.render(utc, format: .html).contains("Senaste notering 2022-11-22 00:51 UTC"), "no zone given: UTC, as before")
        #expect(CSVRenderer().render(stockholm) == CSVRenderer().render(utc))
        #expect(try JSONRenderer().render(stockholm) == (try JSONRenderer().render(utc)))
    }

    @Test("a zone is named as the report's locale names it: EST for en_US, and across the date line")
    func newYork() throws {
        var spec = ReportSpec(currency: "USD")
        spec.timeZone = TimeZone(identifier: "America/New_York")
        let report = try ReportBuilder(spec: spec, ratesAgeLimit: nil, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, try Fixtures.tickers), rates: Fixtures.payload(.rates, try Fixtures.rates))
        #expect(try TemplateRenderer().render(report, format: .markdown).contains("- Newest ticker: 2022-11-21 19:51 EST"))
    }

    @Test("timezone takes IANA names and UTC, and refuses the rest", arguments: [("Europe/Stockholm", true), ("utc", true), ("Mars/Base", false), ("", false)])
    func parsed(text: String, valid: Bool) {
        let timeZone: @Sendable (String) throws -> TimeZone = SettingKey.flag("timezone")
        #expect(((try? timeZone(text)) != nil) == valid)
    }
}
