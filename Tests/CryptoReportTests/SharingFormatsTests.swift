import Foundation
import Testing

@testable import CryptoReport

/// `--format ledger`, `--format beancount` and `--csv-dialect excel` on the bundled snapshot:
/// golden files, the commodity names, and the files read back by the real tools when they are
/// installed (hledger, Beancount, LibreOffice; `.ci/run` installs them). A test whose tool is
/// missing is reported as skipped, naming the package to install. Serialized: LibreOffice is heavy
/// to start, and the machine is shared with the other suites' time limits.
@Suite("Sharing formats: accounting prices and spreadsheet CSV", .serialized)
struct SharingFormatsTests {
    static func render(_ currency: CurrencyCode, _ format: ReportFormat, dialect: CSVDialect = .rfc4180, markets: Selection.Markets = .primary) async throws
        -> String
    {
        var settings = Settings()
        settings.report.currency = currency
        settings.report.selection.markets = markets
        settings.fetch.sample = true
        let report = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(settings)
        return try ReportPipeline().render(report, as: format, templates: try TemplateRenderer(), csvDialect: dialect)
    }

    static func checkGolden(_ text: String, _ name: String) throws {
        try GoldenFile.check(text, name)
    }

    /// Base asset → the price cell of its row in the default (RFC 4180, primary markets) CSV.
    static func csvPrices(_ currency: CurrencyCode) async throws -> [String: String] {
        let csv = try await render(currency, .csv)
        var prices: [String: String] = [:]
        for line in csv.split(separator: "\r\n").dropFirst() {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false)
            prices[String(cells[1])] = String(cells[4])
        }
        return prices
    }

    @Test(
        "ledger, beancount and the excel CSV match their golden files",
        arguments: [
            ("SEK", ReportFormat.ledger, CSVDialect.rfc4180), ("SEK", .beancount, .rfc4180), ("USD", .ledger, .rfc4180),
            ("SEK", .csv, .excel), ("USD", .csv, .excel),
        ])
    func golden(currency: String, format: ReportFormat, dialect: CSVDialect) async throws {
        let text = try await Self.render(CurrencyCode(stringLiteral: currency), format, dialect: dialect)
        let suffix = dialect == .excel ? "-excel" : ""
        try Self.checkGolden(text, "sample-\(currency)\(suffix).\(format.fileExtension)")
    }

    @Test("commodity names: bare letters, quoted otherwise for hledger; Beancount's rules with X before a digit")
    func commodityNames() {
        #expect(CommodityName.name(of: "btc", in: .ledger) == "BTC")
        #expect(CommodityName.name(of: "1inch", in: .ledger) == "\"1INCH\"")
        #expect(CommodityName.name(of: "api3", in: .ledger) == "\"API3\"")
        #expect(CommodityName.name(of: "btc", in: .beancount) == "BTC")
        #expect(CommodityName.name(of: "1inch", in: .beancount) == "X1INCH")
        #expect(CommodityName.name(of: "api3", in: .beancount) == "API3")
        #expect(CommodityName.name(of: "b.t-c_1'x", in: .beancount) == "B.T-C_1'X")
        // Beancount: ends with a letter or digit, 24 characters at most; no other characters.
        #expect(CommodityName.name(of: "abc-", in: .beancount) == nil)
        #expect(CommodityName.name(of: String(repeating: "a", count: 25), in: .beancount) == nil)
        #expect(CommodityName.name(of: "a b", in: .beancount) == nil)
        #expect(CommodityName.name(of: "a\"b", in: .ledger) == nil)
        #expect(CommodityName.name(of: "a;b", in: .ledger) == nil)
        #expect(CommodityName.name(of: "", in: .ledger) == nil)
    }

    @Test("--markets all: one price per asset, its primary market's (usdt, else inr, …)")
    func allMarketsUsePrimary() async throws {
        let all = try await Self.render("SEK", .ledger, markets: .all)
        let primary = try await Self.render("SEK", .ledger)
        #expect(all == primary)
        let btc = all.split(separator: "\n").filter { $0.contains(" BTC ") }
        #expect(btc.count == 1)
        let csv = try await Self.render("SEK", .csv, markets: .all)
        let btcusdt = try #require(csv.split(separator: "\r\n").first { $0.hasPrefix("btcusdt,") })
        #expect(btc.first?.hasSuffix(" \(btcusdt.split(separator: ",")[4]) SEK") == true)
    }

    @Test("two assets with one Beancount name: the first keeps it, the other is a comment, not a wrong price")
    func collidingNames() async throws {
        let row = { (base: String, price: String) in
            MarketRow(
                symbol: base + "usdt", baseAsset: base, quoteAsset: "usdt", currency: "SEK", price: Fixtures.decimal(price),
                fxRate: 1, updatedAt: Fixtures.captureTime)
        }
        var report = try await GoldenReportTests.report(currency: "SEK")
        report.rows = [row("x1inch", "2"), row("1inch", "1"), row("a b", "3")]
        let text = PriceDirectiveRenderer(.beancount).render(report)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains(" price ") } == ["2022-11-22 price X1INCH 1 SEK"])
        #expect(lines.contains("; left out: x1inch has no commodity name of its own in this format"))
        #expect(lines.contains("; left out: a b has no commodity name of its own in this format"))
    }

    @Test("the excel dialect: separator in a text cell quoted, formulas defused, numbers with the locale's mark")
    func excelCells() {
        #expect(CSVRenderer.text("a;b", separator: ";") == "\"a;b\"")
        #expect(CSVRenderer.text("a,b", separator: ";") == "\"a,b\"")
        #expect(CSVRenderer.text("=cmd|' /C calc'!A0", separator: ";") == "'=cmd|' /C calc'!A0")
        let swedish = CSVRenderer.Style(.excel, localeIdentifier: "sv_SE")
        #expect(swedish.separator == ";" && swedish.number(Fixtures.decimal("-1.5")) == "-1,5")
        let american = CSVRenderer.Style(.excel, localeIdentifier: "en_US")
        #expect(american.separator == "," && american.number(Fixtures.decimal("-1.5")) == "-1.5")
        let plain = CSVRenderer.Style(.rfc4180, localeIdentifier: "sv_SE")
        #expect(plain.separator == "," && !plain.byteOrderMark && plain.number(Fixtures.decimal("-1.5")) == "-1.5")
    }

    // MARK: - The real tools

    /// The book of docs/outputs.md: its glob took the `latest` name too, listing the newest day twice.
    @Test(
        "the book of docs/outputs.md: include prices/cryptoreport-2*.ledger over a folder of runs reads each day's prices once",
        .enabled(if: ExternalTool.installed("hledger"), "hledger is not installed (apt-get install hledger): skipped"))
    func hledgerBook() throws {
        let hledger = try #require(ExternalTool("hledger"))
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(
            ["--sample", "--no-config", "--currency", "SEK", "--format", "ledger", "--output", "books/prices", "--quiet"], in: folder.url)
        #expect(run.status == 0 && folder.allContents("books/prices").contains("cryptoreport-latest-SEK.ledger"))
        try Data("include prices/cryptoreport-2*.ledger\n".utf8).write(to: folder.url.appendingPathComponent("books/main.journal"))
        let prices = try hledger.run(["-f", folder.url.appendingPathComponent("books/main.journal").path, "prices"])
        #expect(prices.status == 0, "hledger: \(prices.stderr)")
        let lines = prices.stdout.split(separator: "\n")
        #expect(lines.count == 267 && lines.filter { $0.hasPrefix("P 2022-11-22 BTC ") }.count == 1)
    }

    @Test(
        "hledger reads every price of the ledger file, each equal to the CSV's figure",
        .enabled(if: ExternalTool.installed("hledger"), "hledger is not installed (apt-get install hledger): skipped"),
        arguments: ["SEK", "USD"])
    func hledgerRoundTrip(currency: String) async throws {
        let hledger = try #require(ExternalTool("hledger"))
        let folder = try TemporaryFolder()
        let file = folder.url.appendingPathComponent("prices.ledger")
        try Data(try await Self.render(CurrencyCode(stringLiteral: currency), .ledger).utf8).write(to: file)
        let run = try hledger.run(["-f", file.path, "prices"])
        #expect(run.status == 0, "hledger: \(run.stderr)")
        let expected = try await Self.csvPrices(CurrencyCode(stringLiteral: currency))
        var read: [String: String] = [:]
        for line in run.stdout.split(separator: "\n") {
            // P 2022-11-22 "1INCH" 5.49043294944369 SEK
            let parts = line.split(separator: " ")
            try #require(parts.count == 5 && parts[0] == "P" && parts[4] == currency[...], "unexpected line: \(line)")
            read[parts[2].trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()] = String(parts[3])
        }
        #expect(read.count == expected.count - (expected[currency.lowercased()] == nil ? 0 : 1))
        for (asset, price) in read {
            #expect(expected[asset] == price, "\(asset): hledger read \(price), the CSV says \(expected[asset] ?? "nothing")")
        }
    }

    @Test(
        "bean-check accepts the beancount file with its commodities declared, and Beancount's loader reads every price back as the CSV's figure",
        .enabled(
            if: ExternalTool.installed("bean-check") && ExternalTool.beancountPython != nil, "Beancount is not installed (pip install beancount): skipped"),
        arguments: ["SEK", "USD"])
    func beancountRoundTrip(currency: String) async throws {
        let beanCheck = try #require(ExternalTool("bean-check"))
        let python = try #require(ExternalTool.beancountPython)
        let folder = try TemporaryFolder()
        let prices = folder.url.appendingPathComponent("prices.beancount")
        let text = try await Self.render(CurrencyCode(stringLiteral: currency), .beancount)
        try Data(text.utf8).write(to: prices)
        // A book declares its commodities once; the daily price files are included into it.
        let names = Set(text.split(separator: "\n").filter { !$0.hasPrefix(";") }.map { String($0.split(separator: " ")[2]) })
        let book =
            (["option \"operating_currency\" \"\(currency)\"", "plugin \"beancount.plugins.check_commodity\"", "2022-01-01 commodity \(currency)"]
            + names.sorted().map { "2022-01-01 commodity \($0)" } + ["include \"prices.beancount\""]).joined(separator: "\n") + "\n"
        let main = folder.url.appendingPathComponent("book.beancount")
        try Data(book.utf8).write(to: main)
        let check = try beanCheck.run([main.path])
        #expect(check.status == 0, "bean-check: \(check.stdout)\(check.stderr)")
        let script = """
            import sys
            from beancount import loader
            from beancount.core import data
            entries, errors, _ = loader.load_file(sys.argv[1])
            for error in errors: print("error", error.message)
            for entry in entries:
                if isinstance(entry, data.Price): print(entry.currency, "{:f}".format(entry.amount.number), entry.amount.currency)
            """
        let run = try python.run(["-c", script, main.path])
        #expect(run.status == 0, "python: \(run.stderr)")
        let expected = try await Self.csvPrices(CurrencyCode(stringLiteral: currency))
        var byName: [String: String] = [:]
        for asset in expected.keys {
            if let name = CommodityName.name(of: asset, in: .beancount) { byName[name] = asset }
        }
        var read = 0
        for line in run.stdout.split(separator: "\n") {
            let parts = line.split(separator: " ").map(String.init)
            try #require(parts.count == 3 && parts[0] != "error", "unexpected line: \(line)")
            let asset = try #require(byName[parts[0]], "\(parts[0]) is no asset of the CSV")
            #expect(expected[asset] == parts[1], "\(asset): Beancount read \(parts[1]), the CSV says \(expected[asset] ?? "nothing")")
            #expect(parts[2] == currency)
            read += 1
        }
        #expect(read == names.count && read >= expected.count - 1)
    }

    /// Opens the file as a spreadsheet in `language` would (LibreOffice's CSV import with that
    /// locale and the locale's list separator), and saves it back with every text cell quoted, so
    /// that a number cell is the one left bare.
    static func throughLibreOffice(_ csv: String, separator: Character, language: Int) throws -> [String] {
        let soffice = try #require(ExternalTool("soffice"))
        let folder = try TemporaryFolder()
        try Data(csv.utf8).write(to: folder.url.appendingPathComponent("in.csv"))
        let separatorCode = Int(separator.asciiValue ?? 44)
        let run = try soffice.run(
            [
                "-env:UserInstallation=file://\(folder.url.path)/profile", "--headless",
                "--infilter=CSV:\(separatorCode),34,76,1,,\(language)",
                "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,true,true,false",
                "--outdir", folder.url.appendingPathComponent("out").path, folder.url.appendingPathComponent("in.csv").path,
            ], in: folder.url)
        let back = try String(contentsOf: folder.url.appendingPathComponent("out/in.csv"), encoding: .utf8)
        try #require(run.status == 0 || !back.isEmpty, "soffice: \(run.stderr)")
        return back.split(whereSeparator: \.isNewline).map(String.init)
    }

    @Test(
        "LibreOffice in sv_SE and en_US opens the excel CSV as columns, its prices numbers equal to the CSV's",
        .enabled(if: ExternalTool.installed("soffice"), "LibreOffice is not installed (apt-get install libreoffice-calc-nogui): skipped"),
        arguments: [("SEK", 1053), ("USD", 1033)])
    func libreOffice(currency: String, language: Int) async throws {
        let code = CurrencyCode(stringLiteral: currency)
        let excel = try await Self.render(code, .csv, dialect: .excel)
        // No cell of these files holds a comma or a quote once read: a plain split is enough.
        let sheet = try Self.throughLibreOffice(excel, separator: currency == "SEK" ? ";" : ",", language: language)
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let expected = try await Self.csvPrices(code)
        try #require(sheet.count == expected.count + 1)
        #expect(sheet[0].first == "\"symbol\"", "the byte-order mark or a wrong separator reached the first cell")
        for row in sheet.dropFirst() {
            try #require(row.count == CSVRenderer.columns.count + CSVRenderer.extraColumns.count, "not split into columns: \(row)")
            let asset = row[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            #expect(!row[4].hasPrefix("\""), "\(asset)'s price is text, not a number: \(row[4])")
            #expect(Fixtures.decimal(row[4]) == Fixtures.decimal(expected[asset] ?? ""), "\(asset): \(row[4]) against \(expected[asset] ?? "-")")
        }
    }

    @Test(
        "LibreOffice in sv_SE: the default RFC 4180 file is one column of text (what the excel dialect is for)",
        .enabled(if: ExternalTool.installed("soffice"), "LibreOffice is not installed (apt-get install libreoffice-calc-nogui): skipped"))
    func libreOfficeDefault() async throws {
        let plain = try await Self.render("SEK", .csv)
        let sheet = try Self.throughLibreOffice(plain, separator: ";", language: 1053)
        // Each line one quoted text cell: `"usdtinr,usdt,inr,SEK,11.49…"`.
        #expect(sheet.count > 1)
        #expect(sheet.allSatisfy { $0.hasPrefix("\"") && $0.hasSuffix("\"") && $0.dropFirst().dropLast().allSatisfy { $0 != "\"" } })
    }
}

/// The new flags through the built binary.
@Suite("Sharing flags end to end", .serialized)
struct SharingFlagsExecutableTests {
    @Test("--format beancount --output - prints the golden file; --csv-dialect excel starts with the byte-order mark")
    func standardOutput() throws {
        let folder = try TemporaryFolder()
        let beancount = try ExecutableTests.run(["--sample", "--currency", "SEK", "--format", "beancount", "--output", "-"], in: folder.url)
        #expect(beancount.status == 0)
        let golden = String(decoding: try Data(contentsOf: Fixtures.goldenFolder.appendingPathComponent("sample-SEK.beancount")), as: UTF8.self)
        #expect(beancount.stdout == golden)
        let excel = try ExecutableTests.run(["--sample", "--currency", "SEK", "--format", "csv", "--csv-dialect", "excel", "--output", "-"], in: folder.url)
        #expect(excel.status == 0)
        #expect(excel.stdout.hasPrefix("\u{FEFF}symbol;base_asset;"))
        let bad = try ExecutableTests.run(["--sample", "--csv-dialect", "semicolon", "--output", "-", "--format", "csv"], in: folder.url)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("rfc4180 or excel"), "\(bad.stderr)")
    }

    @Test("--no-latest writes the reports and the index, no latest copy; CRYPTOREPORT_NO_LATEST does the same")
    func noLatest() throws {
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(["--sample", "--format", "csv,ledger", "--output", "out", "--no-latest", "-q"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(folder.allContents("out") == ["cryptoreport-2022-11-22-USD.csv", "cryptoreport-2022-11-22-USD.ledger", "index.html"])
        let environment = try ExecutableTests.run(
            ["--sample", "--format", "csv", "--output", "env", "-q"], in: folder.url, environment: ["CRYPTOREPORT_NO_LATEST": "true"])
        #expect(environment.status == 0)
        #expect(folder.allContents("env") == ["cryptoreport-2022-11-22-USD.csv", "index.html"])
        let with = try ExecutableTests.run(["--sample", "--format", "csv", "--output", "on", "-q"], in: folder.url)
        #expect(with.status == 0)
        #expect(folder.allContents("on") == ["cryptoreport-2022-11-22-USD.csv", "cryptoreport-latest-USD.csv", "index.html"])
    }
}
