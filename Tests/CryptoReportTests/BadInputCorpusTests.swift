import Foundation
import Testing

@testable import CryptoReport

#if canImport(Glibc)
    import Glibc
#endif

/// The bad-input corpus: one file per hostile or broken body in `Fixtures/corpus/tickers` and
/// `Fixtures/corpus/rates`, and one line per file in `Fixtures/corpus/EXPECTED.tsv` saying exactly what the
/// parser must make of it. The rules are written down in `Fixtures/corpus/README.md`.
///
/// `CORPUS_ACTUAL=/some/file.tsv swift test --filter BadInputCorpus` also writes what the code does today
/// for every corpus file (with each parse's duration), to compare with EXPECTED.tsv after a deliberate change.
@Suite("Bad-input corpus")
struct BadInputCorpusTests {
    @Test("every corpus file has exactly its expected outcome", arguments: BadInputCorpusRow.all)
    func expectedOutcome(_ expected: BadInputCorpusRow) throws {
        #expect(expected.problem == nil, "\(expected.problem ?? "")")
        let data = try Data(contentsOf: BadInputCorpusRow.folder.appendingPathComponent(expected.path))
        let actual = CorpusRunner.run(expected.path, data)
        #expect(actual.outcome == expected.outcome && actual.detail == expected.detail, "got \(actual.outcome)\t\(actual.detail)")
        #expect(!actual.detail.contains("\n"), "an error is one line")
        for text in actual.texts {
            #expect(!text.contains("root:"), "the content of /etc/passwd must never reach a result: \(text.prefix(80))")
        }
        #expect(actual.invariantViolations.isEmpty, "\(actual.invariantViolations)")
    }

    @Test("every file in the corpus folders has a row in EXPECTED.tsv, and every row a file")
    func everyFileHasARow() throws {
        let rows = try BadInputCorpusRow.load()
        let listed = rows.map(\.path)
        #expect(Set(listed).count == listed.count, "a path is listed twice")
        var files: [String] = []
        for folder in ["tickers", "rates"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: BadInputCorpusRow.folder.appendingPathComponent(folder).path)
            files += names.filter { !$0.hasPrefix(".") }.map { "\(folder)/\($0)" }
        }
        #expect(Set(files).subtracting(listed).sorted() == [], "files without a row in EXPECTED.tsv")
        #expect(Set(listed).subtracting(files).sorted() == [], "rows in EXPECTED.tsv without a file")
        #expect(rows.count >= 40)
        #expect(rows.filter { $0.path.hasPrefix("tickers/") }.count >= 30)
        #expect(rows.filter { $0.path.hasPrefix("rates/") }.count >= 15)
        #expect(rows.allSatisfy { ["ok", "error"].contains($0.outcome) })
        if let path = ProcessInfo.processInfo.environment["CORPUS_ACTUAL"] {
            try CorpusRunner.writeActual(files: files.sorted(), to: URL(fileURLWithPath: path))
        }
    }

    @Test("documented rules, value by value")
    func documentedValues() throws {
        let tickers = { (name: String) throws -> TickerDecoder.Result in
            try TickerDecoder().decode(try CorpusRunner.data(case: name, in: "tickers"))
        }
        let bbb = { (name: String) throws -> Ticker? in try tickers(name).tickers.first { $0.symbol.lowercased() == "bbbinr" } }
        // A UTF-8 byte order mark is skipped; the array is read.
        #expect(try tickers("bom-then-valid-array").tickers.map(\.symbol) == ["aaainr"])
        // Numbers are read exactly, whether sent as JSON numbers or as strings with an exponent.
        #expect(try bbb("lastprice-json-number")?.last == Fixtures.decimal("1234.5678901234567"))
        #expect(try bbb("lastprice-json-number-exponent")?.last == Fixtures.decimal("0.00000053"))
        #expect(try bbb("lastprice-exponent-string")?.last == 100_000)
        // Text is only text: a formula or a script tag in a symbol is kept verbatim (renderers escape it).
        #expect(try tickers("symbol-csv-injection").tickers.map(\.symbol).contains("=cmd|' /C calc'!A0"))
        #expect(try tickers("symbol-script-tag").tickers.map(\.symbol).contains("<script>alert(1)</script>"))
        // A repeated symbol keeps the first row, compared without case and surrounding blanks.
        let duplicate = try tickers("duplicate-symbol")
        #expect(try bbb("duplicate-symbol")?.last == 2)
        #expect(duplicate.diagnostics.map(\.message) == ["skipped ticker #3 (bbbinr): the symbol appeared before; the first one is kept"])
        // A key repeated inside one object: the first value is read, like a repeated symbol.
        #expect(try bbb("duplicate-json-key-in-row")?.last == 2)
        #expect(
            try tickers("duplicate-symbol-padded").diagnostics.map(\.message) == [
                "skipped ticker #2 (aaainr): the symbol appeared before; the first one is kept"
            ])
        // A bad optional field is left empty with a note; null or missing is simply empty.
        let open = try tickers("openprice-negative")
        #expect(try bbb("openprice-negative")?.open == nil)
        #expect(open.diagnostics.map(\.message) == [#"bbbinr: openPrice "-1" is not a non-negative number; left empty"#])
        #expect(try tickers("optional-fields-null").diagnostics.isEmpty)
        // `at`: milliseconds as a number or a string; fractions kept.
        #expect(try bbb("at-string")?.updatedAt == Date(timeIntervalSince1970: 1_669_078_293))
        #expect(try bbb("at-float")?.updatedAt == Date(timeIntervalSince1970: 1_669_078_293.0005))
        #expect(
            try tickers("1000-valid-rows-one-bad").diagnostics.map(\.message) == [
                #"skipped ticker #501 (badinr): lastPrice "NaN" is not a positive number"#
            ])

        let rates = { (name: String) throws -> ExchangeRates in try ECBRatesParser().parseLatest(try CorpusRunner.data(case: name, in: "rates")) }
        #expect(
            try rates("valid-minimal").perEuro == ["USD": Fixtures.decimal("1.0246"), "JPY": Fixtures.decimal("145.19"), "SEK": Fixtures.decimal("10.9873")])
        #expect(try rates("rate-zero").invalid == ["NOK": "0"])
        #expect(try rates("rate-exponent").perEuro["NOK"] == 100_000)
        #expect(try rates("rate-padded-with-spaces").perEuro["NOK"] == Fixtures.decimal("10.5"))
        #expect(try rates("currency-lowercase").perEuro.keys.sorted() == ["SEK", "USD"])
        #expect(try rates("two-days-newest-last").date == "2022-11-21")
        #expect(try rates("two-days-newest-first").date == "2022-11-21")
        #expect(try rates("comments-pi-cdata-around-values").perEuro.keys.sorted() == ["JPY", "USD"])
        #expect(try rates("namespace-prefixed").perEuro.count == 3)
    }

    /// Backfill reads the 90-day file with libxml2's streaming reader, not the tree: it must make
    /// of every hostile or broken document what the tree parser makes of it, whatever the encoding.
    @Test(
        "the streaming history reader accepts exactly what the tree parser accepts, with the same rates",
        arguments: BadInputCorpusRow.all.filter { $0.path.hasPrefix("rates/") })
    func historyReaderAgrees(_ row: BadInputCorpusRow) throws {
        let data = try Data(contentsOf: BadInputCorpusRow.folder.appendingPathComponent(row.path))
        let disagreement = ECBReaders.disagreement(on: data)
        #expect(disagreement == nil, "\(disagreement ?? "")")
    }

    @Test("a DOCTYPE naming an external DTD on 127.0.0.1 is refused and makes no connection")
    func externalDTDIsNeverFetched() throws {
        let listener = try LoopbackServer(routes: [:])
        defer { listener.stop() }
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE gesmes:Envelope SYSTEM "http://127.0.0.1:\(listener.port)/eurofxref.dtd">
            <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="\(ECBRatesParser.namespace)">
            <Cube><Cube time="2022-11-21"><Cube currency="USD" rate="1.0246"/></Cube></Cube></gesmes:Envelope>
            """
        #expect(throws: DataError.malformed(source: .rates, expected: "the ECB eurofxref XML", detail: "it declares a DTD, which the ECB never sends")) {
            try ECBRatesParser().parseLatest(Data(xml.utf8))
        }
        #expect(listener.connections == 0, "libxml2 connected to fetch the DTD")
    }
}

/// One row of EXPECTED.tsv: `path<TAB>outcome<TAB>detail`.
struct BadInputCorpusRow: Sendable, CustomTestStringConvertible {
    static let folder = Fixtures.fixturesFolder.appendingPathComponent("corpus")
    static let expectedURL = folder.appendingPathComponent("EXPECTED.tsv")

    var path: String
    var outcome: String
    var detail: String
    /// Set when the row could not be read, so that the parameterised test fails instead of vanishing.
    var problem: String?

    var testDescription: String { path }

    static func load() throws -> [BadInputCorpusRow] {
        let text = try String(contentsOf: expectedURL, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: true).map { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 3 else {
                return BadInputCorpusRow(path: String(line), outcome: "", detail: "", problem: "not path<TAB>outcome<TAB>detail: \(line)")
            }
            return BadInputCorpusRow(path: columns[0], outcome: columns[1], detail: columns[2])
        }
    }

    static let all: [BadInputCorpusRow] = {
        do {
            let rows = try load()
            return rows.isEmpty ? [BadInputCorpusRow(path: "EXPECTED.tsv", outcome: "", detail: "", problem: "EXPECTED.tsv is empty")] : rows
        } catch {
            return [BadInputCorpusRow(path: "EXPECTED.tsv", outcome: "", detail: "", problem: "cannot read EXPECTED.tsv: \(error)")]
        }
    }()
}

/// Runs the parser a corpus file is meant for and describes the outcome the way EXPECTED.tsv does.
private enum CorpusRunner {
    struct Outcome {
        var outcome: String
        var detail: String
        /// Every piece of text the result carries, to check that no file content leaked in.
        var texts: [String]
        var invariantViolations: [String] = []
    }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: BadInputCorpusRow.folder.appendingPathComponent(path))
    }

    /// The file of a case by its short name, whatever its number: `duplicate-symbol` finds
    /// `tickers/077-duplicate-symbol.json`.
    static func data(case name: String, in folder: String) throws -> Data {
        let names = try FileManager.default.contentsOfDirectory(atPath: BadInputCorpusRow.folder.appendingPathComponent(folder).path)
        let matches = names.filter { $0.drop { $0 != "-" }.dropFirst().split(separator: ".").first.map(String.init) == name }
        guard matches.count == 1 else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "\(folder)/*-\(name).*"]) }
        return try data("\(folder)/\(matches[0])")
    }

    /// Not NaN, and zero or between DecimalText's bounds: what every accepted amount must be.
    static func isBounded(_ value: Decimal) -> Bool {
        guard !value.isNaN else { return false }
        let magnitude = value < 0 ? -value : value
        return magnitude.isZero || (magnitude >= DecimalText.smallest && magnitude < DecimalText.largest)
    }

    static func run(_ path: String, _ data: Data) -> Outcome {
        path.hasPrefix("rates/") ? rates(data) : tickers(data)
    }

    static func tickers(_ data: Data) -> Outcome {
        do {
            let result = try TickerDecoder().decode(data)
            var texts = result.diagnostics.map(\.message)
            var violations: [String] = []
            var symbols = Set<String>()
            for ticker in result.tickers {
                texts += [ticker.symbol, ticker.baseAsset, ticker.quoteAsset]
                if !symbols.insert(ticker.symbol.lowercased()).inserted { violations.append("\(ticker.symbol) kept twice") }
                if !(ticker.last > 0) || !isBounded(ticker.last) { violations.append("\(ticker.symbol): last \(ticker.last)") }
                for value in [ticker.open, ticker.low, ticker.high, ticker.volume, ticker.bid, ticker.ask].compactMap({ $0 })
                where value < 0 || !isBounded(value) {
                    violations.append("\(ticker.symbol): amount \(value)")
                }
            }
            if result.received < result.tickers.count { violations.append("received < kept") }
            return Outcome(
                outcome: "ok", detail: "kept=\(result.tickers.count) warnings=\(result.diagnostics.count)", texts: texts,
                invariantViolations: violations)
        } catch {
            let message = error.errorDescription ?? "\(error)"
            return Outcome(outcome: "error", detail: message, texts: [message])
        }
    }

    static func rates(_ data: Data) -> Outcome {
        do {
            let rates = try ECBRatesParser().parseLatest(data)
            var violations: [String] = []
            for (currency, rate) in rates.perEuro where !(rate > 0) || !isBounded(rate) || currency.count != 3 {
                violations.append("\(currency)=\(rate)")
            }
            return Outcome(
                outcome: "ok", detail: "date=\(rates.date) rates=\(rates.perEuro.count) invalid=\(rates.invalid.count)",
                texts: [rates.date] + Array(rates.perEuro.keys) + Array(rates.invalid.keys) + Array(rates.invalid.values),
                invariantViolations: violations)
        } catch {
            let message = error.errorDescription ?? "\(error)"
            return Outcome(outcome: "error", detail: message, texts: [message])
        }
    }

    /// What the code does today, as EXPECTED.tsv rows with the parse time appended.
    static func writeActual(files: [String], to url: URL) throws {
        var lines: [String] = []
        for path in files {
            let data = try data(path)
            let clock = ContinuousClock()
            var outcome: Outcome?
            let duration = clock.measure { outcome = run(path, data) }
            guard let outcome else { continue }
            let milliseconds = Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000
            lines.append("\(path)\t\(outcome.outcome)\t\(outcome.detail)\t\(String(format: "%.1f ms", milliseconds))")
        }
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }
}
