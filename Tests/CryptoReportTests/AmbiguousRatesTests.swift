import Foundation
import Testing

@testable import CryptoReport

/// A currency listed twice in the ECB file: one rate if the rates agree, neither if they do not.
@Suite("ECB rates: a currency listed twice")
struct AmbiguousRatesTests {
    /// The real daily file with `extra` Cube lines put before its first rate.
    static func rates(before extra: String) throws -> Data {
        let real = try String(contentsOf: Fixtures.ratesURL, encoding: .utf8)
        let first = try #require(real.range(of: "<Cube currency='USD'"))
        return Data(real.replacingCharacters(in: first.lowerBound..<first.lowerBound, with: extra).utf8)
    }

    static func build(currency: String, rates: Data) throws -> Report {
        let spec = ReportSpec(currency: CurrencyCode(stringLiteral: currency))
        return try ReportBuilder(spec: spec, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, try Fixtures.tickers), rates: Fixtures.payload(.rates, rates))
    }

    @Test("the issue's case: SEK at 1 before the real SEK, in a SEK report, is corrupt data (65)")
    func neededIsAnError() throws {
        let data = try Self.rates(before: "<Cube currency='SEK' rate='1'/>")
        let day = try ECBRatesParser().parseLatest(data)
        #expect(day.perEuro["SEK"] == nil)
        #expect(day.ambiguous["SEK"] == [1, Fixtures.decimal("10.9873")])
        #expect {
            try Self.build(currency: "SEK", rates: data)
        } throws: { error in
            guard let error = error as? ConversionError else { return false }
            return error.exitStatus == .dataError
                && error.errorDescription == "ECB rates: the rates of 2022-11-21 list SEK 2 times with different rates (1, 10.9873); neither is used."
        }
    }

    @Test("a repeated INR with another rate fails a USD report too: its INR markets need it")
    func neededQuoteCurrency() throws {
        let data = try Self.rates(before: "<Cube currency='INR' rate='80'/>")
        #expect(throws: ConversionError.ambiguousRate(currency: "INR", rates: [80, Fixtures.decimal("83.7375")], date: "2022-11-21")) {
            try Self.build(currency: "USD", rates: data)
        }
    }

    @Test("a currency the report does not need is left out with a warning; the report is made")
    func unneededIsAWarning() throws {
        let report = try Self.build(currency: "SEK", rates: try Self.rates(before: "<Cube currency='JPY' rate='1'/>"))
        #expect(report.rates.perEuro["JPY"] == nil)
        let ambiguous = Diagnostic(.rates, .ambiguousRate(currency: "JPY", rates: [1, Fixtures.decimal("145.33")]))
        #expect(report.diagnostics.contains(ambiguous))
        #expect(DiagnosticText.message(ambiguous) == "JPY is listed 2 times with different rates (1, 145.33); it is left out")
    }

    @Test("the same rate twice is one rate, with no warning")
    func identicalRepeat() throws {
        let report = try Self.build(currency: "SEK", rates: try Self.rates(before: "<Cube currency='SEK' rate='10.98730'/>"))
        #expect(report.rates.perEuro["SEK"] == Fixtures.decimal("10.9873"))
        #expect(report.rates.ambiguous.isEmpty)
        #expect(!report.diagnostics.contains { $0.source == .rates })
    }

    @Test("end to end: exit 65 with one line")
    func endToEnd() throws {
        let folder = try TemporaryFolder()
        try Self.rates(before: "<Cube currency='SEK' rate='1'/>").write(to: folder.url.appendingPathComponent("e.xml"))
        let run = try ExecutableTests.run(
            ["--tickers-url", Fixtures.tickersURL.path, "--ecb-url", "e.xml", "--currency", "SEK", "--output", "-", "--format", "csv"],
            in: folder.url)
        #expect(run.status == 65)
        #expect(run.stderr == "cryptoreport: ECB rates: the rates of 2022-11-21 list SEK 2 times with different rates (1, 10.9873); neither is used.\n")
        #expect(run.stdout.isEmpty)
    }

    /// Issue 32: two `<Cube time>` blocks of one day, the first with SEK at 99: the first was
    /// used silently.
    @Test("a day given twice with another rate is ambiguous, as a currency listed twice is; the same rates twice are one day")
    func dayGivenTwice() throws {
        let real = try String(contentsOf: Fixtures.ratesURL, encoding: .utf8)
        let open = try #require(real.range(of: "<Cube time='2022-11-21'>"))
        let twice = real.replacingCharacters(
            in: open.lowerBound..<open.lowerBound, with: "<Cube time='2022-11-21'><Cube currency='SEK' rate='99'/></Cube>")
        let days = try ECBRatesParser().parseDays(Data(twice.utf8))
        #expect(days.count == 1)
        #expect(days.first?.ambiguous["SEK"] == [99, Fixtures.decimal("10.9873")])
        #expect(days.first?.perEuro["USD"] == Fixtures.decimal("1.0246"))
        #expect(throws: ConversionError.ambiguousRate(currency: "SEK", rates: [99, Fixtures.decimal("10.9873")], date: "2022-11-21")) {
            try Self.build(currency: "SEK", rates: Data(twice.utf8))
        }
        let close = try #require(real.range(of: "\t\t</Cube>", options: .backwards))
        let block = String(real[open.lowerBound..<close.upperBound]) + "\n"
        let same = real.replacingCharacters(in: open.lowerBound..<open.lowerBound, with: block)
        #expect(try ECBRatesParser().parseDays(Data(same.utf8)) == ECBRatesParser().parseDays(Data(real.utf8)))
    }

    /// Issue 32: without USD in the ECB file, the floor "100 USD's worth" silently became 100 kronor.
    @Test("without USD in the rates the top lists have no floor, and the report says why; a USD report keeps its 100")
    func noUSDNoFloor() throws {
        let real = try String(contentsOf: Fixtures.ratesURL, encoding: .utf8)
        let noUSD = Data(real.replacingOccurrences(of: "<Cube currency='USD' rate='1.0246'/>", with: "").utf8)
        let sek = try Self.build(currency: "SEK", rates: noUSD)
        #expect(sek.summary.volumeFloor == 0 && sek.summary.volumeFloorUnknown)
        #expect(
            sek.diagnostics.map(DiagnosticText.message).contains(
                "the rates have no USD, so the top lists' floor of 100 USD's worth cannot be put in SEK: every market that traded may lead a list (--min-volume-value sets a floor)"
            ))
        let withUSD = try Self.build(currency: "SEK", rates: try Fixtures.rates)
        #expect(withUSD.summary.volumeFloor == 1072 && !withUSD.summary.volumeFloorUnknown)
        #expect(!withUSD.diagnostics.contains { $0.kind == .noVolumeFloor(currency: "SEK") })
    }
}
