import Foundation
import Testing

@testable import CryptoReport

@Suite("Numbers for people and for machines")
struct FormattingTests {
    let usd = PeopleNumberFormatter(currency: "USD", locale: Locale(identifier: "en_US"))
    let sek = PeopleNumberFormatter(currency: "SEK", locale: Locale(identifier: "sv_SE"))

    @Test(
        "USD in en_US, with at least four significant digits",
        arguments: [
            ("1234.56", "$1,234.56"), ("0.0000086", "$0.000008600"), ("16100.005", "$16,100.01"), ("0.5", "$0.5000"),
            ("1.2345", "$1.235"), ("12345678901234567890.5", "$12,345,678,901,234,567,890.50"), ("0", "$0.00"),
        ])
    func dollars(value: String, expected: String) {
        #expect(usd.money(Fixtures.decimal(value)) == expected)
    }

    @Test(
        "SEK in sv_SE: space grouping, comma decimals, kr after",
        arguments: [
            ("1234.56", "1 234,56 kr"), ("0.0000086", "0,000008600 kr"), ("171447.3476", "171 447,35 kr"),
            ("98765432109876543210", "98 765 432 109 876 543 210,00 kr"),
        ])
    func kronor(value: String, expected: String) {
        // sv_SE groups with a no-break space; compare with plain spaces for readability.
        #expect(sek.money(Fixtures.decimal(value)).replacingOccurrences(of: "\u{00A0}", with: " ") == expected)
    }

    @Test("percentages carry their sign")
    func percentages() {
        #expect(usd.percent(Fixtures.decimal("1.234")) == "+1.23%")
        #expect(usd.percent(Fixtures.decimal("-0.005")) == "-0.01%")
        #expect(usd.percent(0) == "0.00%")
        #expect(sek.percent(Fixtures.decimal("7.186")).replacingOccurrences(of: "\u{00A0}", with: " ") == "+7,19 %")
        #expect(usd.percent(nil) == "")
    }

    @Test("missing values are empty, never $0.00")
    func missing() {
        #expect(usd.money(nil) == "")
        #expect(usd.quantity(nil) == "")
    }

    @Test(
        "plain numbers: no grouping, no exponent, 15 significant digits",
        arguments: [
            ("0.00000053", "0.00000053"), ("1398000", "1398000"), ("0.131211225556053142260038811762949693", "0.131211225556053"),
            ("171447.347647862580519227015420651961739", "171447.347647863"), ("-1.30864197530864197530864197530864197", "-1.30864197530864"),
            ("123000000000000000000000000000000", "123000000000000000000000000000000"),
            ("0.000000000000000000000000000001", "0.000000000000000000000000000001"), ("0", "0"),
        ])
    func plain(value: String, expected: String) {
        #expect(PlainNumber.format(Fixtures.decimal(value)) == expected)
    }

    @Test("magnitude is the decimal exponent of the first significant digit")
    func magnitude() {
        #expect(PlainNumber.magnitude(of: Fixtures.decimal("0.0000086")) == -6)
        #expect(PlainNumber.magnitude(of: Fixtures.decimal("1.5")) == 0)
        #expect(PlainNumber.magnitude(of: Fixtures.decimal("-1398000")) == 6)
    }

    @Test("each currency has a locale of its own; unknown ones fall back to en_US")
    func defaultLocales() {
        #expect(PeopleNumberFormatter.defaultLocaleIdentifier(for: "SEK") == "sv_SE")
        #expect(PeopleNumberFormatter.defaultLocaleIdentifier(for: "usd") == "en_US")
        #expect(PeopleNumberFormatter.defaultLocaleIdentifier(for: "XYZ") == "en_US")
    }
}

@Suite("Escaping text from the API")
struct EscapingTests {
    static let hostile = #"<b>x</b>|"a,b"&*_`[y]"#

    @Test("CSV quotes commas and quotes, and defuses formulas")
    func csv() {
        #expect(CSVRenderer.text("btcinr") == "btcinr")
        #expect(CSVRenderer.text("a,b") == "\"a,b\"")
        #expect(CSVRenderer.text("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVRenderer.text("line\nbreak") == "\"line\nbreak\"")
        #expect(CSVRenderer.text("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"")
        #expect(CSVRenderer.text("+1") == "'+1")
        #expect(CSVRenderer.text("-1") == "'-1")
        #expect(CSVRenderer.text("@sum") == "'@sum")
    }

    @Test("Markdown escapes table pipes and markup")
    func markdown() {
        let escaped = MarkdownContentType().escapeText(Self.hostile)
        #expect(escaped == #"&lt;b&gt;x&lt;/b&gt;\|"a,b"&amp;\*\_\`\[y\]"#)
        #expect(MarkdownContentType().escapeText("a\nb") == "a b")
    }

    @Test("a hostile symbol is escaped in every format")
    func everyFormat() throws {
        let hostileRow = Fixtures.ticker("x<b>|", base: "x<b>|", quote: "usdt", last: "2")
            .replacingOccurrences(of: "x<b>|", with: #"=x<b>\"|"#)
        let tickers = Fixtures.tickerJSON([hostileRow])
        var request = Settings()
        request.report.selection = Selection(markets: .all)
        let report = try ReportBuilder(spec: request.report, ratesAgeLimit: request.fetch.ratesAgeLimit, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, tickers), rates: Fixtures.payload(.rates, try Fixtures.rates))
        #expect(report.rows.first?.symbol == #"=x<b>"|"#)
        let templates = try TemplateRenderer()
        let pipeline = ReportPipeline()
        let html = try pipeline.render(report, as: .html, templates: templates)
        #expect(html.contains("=x&lt;b&gt;&quot;|"))
        #expect(!html.contains("<b>"))
        let markdown = try pipeline.render(report, as: .markdown, templates: templates)
        #expect(markdown.contains(#"=X&lt;B&gt;"\|/USDT"#))
        let csv = try pipeline.render(report, as: .csv, templates: templates)
        #expect(csv.contains(#""'=x<b>""|","'=x<b>""|",usdt,USD,2,"#))
        let json = try pipeline.render(report, as: .json, templates: templates)
        #expect(json.contains(#""symbol" : "=x<b>\"|""#))
    }
}
