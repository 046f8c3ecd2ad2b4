import Foundation
import Testing

@testable import CryptoReport

/// Inputs kept from the libFuzzer harnesses in `Fuzz/` (`make fuzz`): every input that made a
/// harness fail, minimised and as found, and a few of the richest inputs of the fuzz corpus, in
/// `Fixtures/fuzz-regressions/<harness>/`. Each one must be read or refused with a `DataError`,
/// never crash, and keep the promises the harness checks: bounded amounts and rates, clean
/// identifiers and currency codes, one-line warnings and errors.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let folder = Fixtures.fixturesFolder.appendingPathComponent("fuzz-regressions")

    static func files(_ harness: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(harness).path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "\(harness)/\($0)" }
    }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(path))
    }

    @Test("each harness has regression inputs")
    func foldersAreNotEmpty() {
        #expect(Self.files("tickers").count >= 2)
        #expect(Self.files("ecb").count >= 1)
        #expect(Self.files("history").count >= 1)
    }

    @Test("ticker inputs decode or are refused, and keep the decoder's promises", arguments: files("tickers"))
    func tickers(_ path: String) throws {
        let data = try Self.data(path)
        do {
            let result = try TickerDecoder().decode(data)
            #expect(!result.tickers.isEmpty && result.received >= result.tickers.count)
            var symbols = Set<String>()
            for ticker in result.tickers {
                for identifier in [ticker.symbol, ticker.baseAsset, ticker.quoteAsset] {
                    #expect(!identifier.isEmpty && identifier.count <= TickerDecoder.maximumIdentifierLength)
                    #expect(!identifier.unicodeScalars.contains { $0.properties.generalCategory == .control })
                }
                #expect(symbols.insert(ticker.symbol.lowercased()).inserted, "\(ticker.symbol) kept twice")
                #expect(ticker.last > 0 && DecimalText.inRange(ticker.last), "\(ticker.symbol): last \(ticker.last)")
                for amount in [ticker.open, ticker.low, ticker.high, ticker.volume, ticker.bid, ticker.ask].compactMap({ $0 }) {
                    #expect(amount >= 0 && DecimalText.inRange(amount), "\(ticker.symbol): amount \(amount)")
                }
            }
            for diagnostic in result.diagnostics {
                #expect(Self.isOneLine(diagnostic.description), "\(diagnostic.description.debugDescription)")
                #expect(!SourceText.containsUnsafe(diagnostic.decoderNote ?? ""), "\(diagnostic.description.debugDescription)")
            }
        } catch {
            #expect(Self.isOneLine(error.errorDescription ?? ""), "\(error)")
        }
    }

    @Test("ECB inputs parse or are refused, and keep the parser's promises", arguments: files("ecb"))
    func rates(_ path: String) throws {
        let data = try Self.data(path)
        do {
            let days = try ECBRatesParser().parseDays(data)
            #expect(days.map(\.date) == days.map(\.date).sorted(by: >), "newest first")
            for day in days {
                #expect(ECBRatesParser.isISODate(day.date), "\(day.date)")
                for (code, rate) in day.perEuro {
                    #expect(code.count == 3 && code.allSatisfy { $0.isASCII && $0.isUppercase }, "\(code)")
                    #expect(rate > 0 && DecimalText.inRange(rate), "\(code) \(rate)")
                }
                for text in day.invalid.values {
                    #expect(Self.isOneLine(text), "\(text.debugDescription)")
                }
            }
        } catch {
            #expect(Self.isOneLine(error.errorDescription ?? ""), "\(error)")
        }
    }

    @Test("history inputs: the streaming reader and the tree parser agree", arguments: files("history") + files("ecb"))
    func history(_ path: String) throws {
        let disagreement = ECBReaders.disagreement(on: try Self.data(path))
        #expect(disagreement == nil, "\(disagreement ?? "")")
    }

    /// The `history` harness's first finding: a date given twice came out in a different order
    /// from the two readers. Both now read it as one day of both blocks' rates (issue 32: the
    /// first block alone was used silently), here the second block's invalid ZAR.
    @Test("a date given twice is one day, the same in both readers")
    func repeatedDate() throws {
        let data = try Self.data("history/repeated-date.xml")
        let tree = try ECBRatesParser().parseDays(data)
        #expect(tree == [ExchangeRates(date: "2025-02-24", perEuro: [:], invalid: ["ZAR": "(no message)"])])
        #expect(try ECBHistoryReader().read(data) == tree)
    }

    /// The first finding: a line feed in a field's value reached a warning, which then ran over two
    /// lines (and could have forged a second warning). Control characters now show as spaces.
    @Test("a line feed in a value never reaches a warning")
    func lineFeedInValue() throws {
        let result = try TickerDecoder().decode(try Self.data("tickers/at-with-line-feed.json"))
        #expect(result.tickers.map(\.symbol) == ["r"])
        #expect(result.diagnostics.map(\.message) == [#"r: at "a " is not a time in milliseconds; left empty"#])
    }

    /// No line feed or carriage return: what would split a log line or a table cell.
    static func isOneLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0 == "\n" || $0 == "\r" }
    }
}
