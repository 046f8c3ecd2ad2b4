import Foundation
import Testing

@testable import CryptoReport

@Suite("Parsing ECB rates with libxml2")
struct ECBRatesParserTests {
    @Test("the real daily file of 2022-11-21")
    func realDailyFile() throws {
        let rates = try ECBRatesParser().parseLatest(try Fixtures.rates)
        #expect(rates.date == "2022-11-21")
        #expect(rates.perEuro.count == 31)
        #expect(rates.perEuro["USD"] == Fixtures.decimal("1.0246"))
        #expect(rates.perEuro["SEK"] == Fixtures.decimal("10.9873"))
        #expect(rates.perEuro["INR"] == Fixtures.decimal("83.7375"))
        #expect(rates.invalid.isEmpty)
    }

    @Test("the real 90-day history file: every day, newest first")
    func historyFile() throws {
        let days = try ECBRatesParser().parseDays(try Fixtures.data(Fixtures.historyURL))
        #expect(days.count > 55)
        #expect(days.first?.date == "2025-02-25")
        #expect(days.last?.date == "2024-11-28")
        #expect(days.map(\.date) == days.map(\.date).sorted(by: >))
    }

    @Test("Cube elements outside the eurofxref namespace are not rates")
    func namespaceAware() throws {
        let xml = """
            <?xml version="1.0"?>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns:x="http://example.com/other"
                xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <Cube><Cube time="2022-11-21"><Cube currency="USD" rate="1.0246"/><x:Cube currency="SEK" rate="99"/></Cube></Cube>
            <x:Cube><x:Cube time="2030-01-01"><x:Cube currency="USD" rate="5"/></x:Cube></x:Cube>
            </gesmes:Envelope>
            """
        let rates = try ECBRatesParser().parseLatest(Data(xml.utf8))
        #expect(rates.date == "2022-11-21")
        #expect(rates.perEuro == ["USD": Fixtures.decimal("1.0246")])
    }

    @Test("a document with no namespace has no rates")
    func noNamespace() {
        let xml = "<Envelope><Cube><Cube time='2022-11-21'><Cube currency='USD' rate='1'/></Cube></Cube></Envelope>"
        #expect(throws: DataError.noRates(detail: "the document has no Cube element whose time is a date such as 2022-11-21")) {
            try ECBRatesParser().parseLatest(Data(xml.utf8))
        }
    }

    @Test("zero, negative and unreadable rates are kept aside, not used")
    func invalidRates() throws {
        let rates = try ECBRatesParser().parseLatest(
            Fixtures.ecbXML(rates: [("USD", "1.0246"), ("SEK", "0"), ("INR", "-83"), ("NOK", "n/a")]))
        #expect(rates.perEuro == ["USD": Fixtures.decimal("1.0246")])
        #expect(rates.invalid == ["SEK": "0", "INR": "-83", "NOK": "n/a"])
    }

    @Test("a file that lists EUR too names it once among the currencies a report can take")
    func euroListed() throws {
        let rates = try ECBRatesParser().parseLatest(Fixtures.ecbXML(rates: [("USD", "1.0246"), ("EUR", "1")]))
        #expect(rates.currencies == ["EUR", "USD"])
        #expect {
            try rates.unitsPerEuro("XAU")
        } throws: { error in
            (error as? ConversionError)?.errorDescription == "ECB rates: the rates of 2022-11-21 have no XAU; choose one of EUR, USD."
        }
    }

    @Test(
        "bodies that are not the ECB XML are one clear error",
        arguments: [
            ("", "ECB rates: empty (no data, or only white space)."),
            ("<html><head><title>503</title></head><body>Service Unavailable</body></html>", "ECB rates: got an HTML page instead of the ECB eurofxref XML."),
            ("<!DOCTYPE html><html><body><p>Error</body>", "ECB rates: got an HTML page instead of the ECB eurofxref XML."),
            (#"{"error":"nope"}"#, "ECB rates: not the ECB eurofxref XML (the body does not start with XML markup)."),
            (
                "<gesmes:Envelope xmlns:gesmes='x'><Cube><Cube time='2022-11-21'>",
                "ECB rates: not the ECB eurofxref XML (line 1: Premature end of data in tag Cube line 1)."
            ),
        ])
    func notRates(body: String, message: String) {
        #expect {
            try ECBRatesParser().parseLatest(Data(body.utf8))
        } throws: { error in
            (error as? DataError)?.errorDescription == message
        }
    }

    @Test("entities are refused: no external file is read, no expansion happens")
    func entitiesRefused() throws {
        let xxe = """
            <?xml version="1.0"?>
            <!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
            <Cube><Cube time="2022-11-21"><Cube currency="USD" rate="&xxe;"/></Cube></Cube></gesmes:Envelope>
            """
        #expect(throws: DataError.self) { try ECBRatesParser().parseLatest(Data(xxe.utf8)) }
        let letters = Array("abcdefghij")
        let laughs =
            "<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY a \"aaaaaaaaaa\">"
            + (1...9).map { "<!ENTITY \(letters[$0]) \"" + String(repeating: "&\(letters[$0 - 1]);", count: 10) + "\">" }.joined()
            + "]><Cube>&j;</Cube>"
        #expect(throws: DataError.self) { try ECBRatesParser().parseLatest(Data(laughs.utf8)) }
    }

    @Test("documents over the size limit are refused before parsing")
    func sizeLimit() {
        let data = Fixtures.ecbXML(rates: [("USD", "1")])
        #expect(throws: DataError.self) { try ECBRatesParser(maximumBytes: 100).parseLatest(data) }
    }

    @Test("a day whose time is not a date is left out")
    func badDate() {
        #expect(throws: DataError.self) { try ECBRatesParser().parseLatest(Fixtures.ecbXML(date: "yesterday", rates: [("USD", "1")])) }
    }
}
