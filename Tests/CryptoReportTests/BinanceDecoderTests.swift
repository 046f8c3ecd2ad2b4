import Foundation
import Testing

@testable import CryptoReport

@Suite("Binance tickers with exchangeInfo")
struct BinanceDecoderTests {
    static let folder = Fixtures.fixturesFolder.appendingPathComponent("binance")
    static var tickers: Data { get throws { try Data(contentsOf: folder.appendingPathComponent("ticker-24hr-2020-04-15.json")) } }
    static var exchangeInfo: Data { get throws { try Data(contentsOf: folder.appendingPathComponent("exchangeInfo-2020-04-15.json")) } }

    static func decoder(_ exchange: Exchange = .binance) throws -> BinanceTickerDecoder {
        try BinanceTickerDecoder(exchange: exchange, exchangeInfo: try exchangeInfo)
    }

    /// A small exchangeInfo body: `(symbol, base, quote, status)` each.
    static func infoJSON(_ symbols: [(String, String, String, String)]) -> Data {
        let entries = symbols.map { #"{"symbol":"\#($0.0)","baseAsset":"\#($0.1)","quoteAsset":"\#($0.2)","status":"\#($0.3)"}"# }
        return Data(#"{"timezone":"UTC","serverTime":1586994278861,"symbols":[\#(entries.joined(separator: ","))]}"#.utf8)
    }

    /// A Binance ticker object with the fields the decoder reads, and one it does not.
    static func ticker(_ symbol: String, last: String = "1.5", bid: String = "1.4", closeTime: String = "1586994277969") -> String {
        #"{"symbol":"\#(symbol)","openPrice":"1","highPrice":"2","lowPrice":"1","lastPrice":"\#(last)","volume":"10","bidPrice":"\#(bid)","askPrice":"1.6","quoteVolume":"15","closeTime":\#(closeTime)}"#
    }

    static func body(_ objects: [String]) -> Data { Data(("[" + objects.joined(separator: ",") + "]").utf8) }

    /// The `DataError` `body` throws; `nil` when it throws none, or another error.
    static func error(_ body: () throws -> Void) -> DataError? {
        do {
            try body()
            return nil
        } catch {
            return error as? DataError
        }
    }

    // MARK: - The real captures

    @Test("the real capture keeps exactly the TRADING symbols with a positive lastPrice, split by exchangeInfo")
    func realCapture() throws {
        // The expectation from the JSON itself, not from the decoder.
        let info = try #require(try JSONSerialization.jsonObject(with: try Self.exchangeInfo) as? [String: Any])
        let entries = try #require(info["symbols"] as? [[String: Any]])
        var trading: [String: (String, String)] = [:]
        for entry in entries where entry["status"] as? String == "TRADING" {
            let symbol = try #require(entry["symbol"] as? String)
            trading[symbol] = (try #require(entry["baseAsset"] as? String), try #require(entry["quoteAsset"] as? String))
        }
        let rows = try #require(try JSONSerialization.jsonObject(with: try Self.tickers) as? [[String: Any]])
        var expected: [String] = []
        for row in rows {
            let symbol = try #require(row["symbol"] as? String)
            let lastPrice = try #require(row["lastPrice"] as? String)
            let last = try #require(Decimal(string: lastPrice))
            if trading[symbol] != nil, last > 0, !expected.contains(symbol.lowercased()) { expected.append(symbol.lowercased()) }
        }
        #expect(rows.count == 786)
        #expect(expected.count == 602)

        let result = try Self.decoder().decode(try Self.tickers)
        #expect(result.received == rows.count)
        #expect(result.tickers.count == expected.count)
        #expect(result.tickers.map(\.symbol) == expected)
        // Every market split as exchangeInfo splits it, in lower case.
        let mismatched = result.tickers.filter { ticker in
            guard let (base, quote) = trading[ticker.symbol.uppercased()] else { return true }
            return ticker.baseAsset != base.lowercased() || ticker.quoteAsset != quote.lowercased()
        }
        #expect(mismatched.map(\.symbol) == [])
    }

    @Test("ETHBTC comes out as ethbtc, eth over btc, with its figures exact and closeTime as its time")
    func ethbtc() throws {
        let result = try Self.decoder().decode(try Self.tickers)
        let eth = try #require(result.tickers.first { $0.symbol == "ethbtc" })
        #expect(eth.baseAsset == "eth")
        #expect(eth.quoteAsset == "btc")
        #expect(eth.last == Decimal(string: "0.02310400"))
        #expect(eth.open == Decimal(string: "0.02316000"))
        #expect(eth.high == Decimal(string: "0.02339400"))
        #expect(eth.low == Decimal(string: "0.02285600"))
        #expect(eth.volume == Decimal(string: "271051.58200000"))
        #expect(eth.bid == Decimal(string: "0.02310400"))
        #expect(eth.ask == Decimal(string: "0.02310900"))
        let updatedAt = try #require(eth.updatedAt)
        #expect((updatedAt.timeIntervalSince1970 * 1000).rounded() == 1_586_994_277_969)
        #expect(updatedAt == Date(timeIntervalSince1970: NSDecimalNumber(decimal: Decimal(1_586_994_277_969) / 1000).doubleValue))
    }

    @Test("the capture's 184 BREAK markets are left out, each named apart from the warnings, summed up after five")
    func breakMarketsInCapture() throws {
        let info = try #require(try JSONSerialization.jsonObject(with: try Self.exchangeInfo) as? [String: Any])
        let entries = try #require(info["symbols"] as? [[String: Any]])
        let onBreak = entries.filter { $0["status"] as? String == "BREAK" }.compactMap { $0["symbol"] as? String }
        #expect(onBreak.count == 184)
        let rows = try #require(try JSONSerialization.jsonObject(with: try Self.tickers) as? [[String: Any]])
        let inBodyOrder = rows.compactMap { $0["symbol"] as? String }.filter(Set(onBreak).contains)

        let result = try Self.decoder().decode(try Self.tickers)
        #expect(!result.diagnostics.contains { $0.group == "not trading" }, "not warnings")
        #expect(result.notTrading.map(\.message) == inBodyOrder.map { "\($0): not trading (BREAK); left out" })
        #expect(result.notTrading.allSatisfy { $0.source == .binanceTickers && $0.group == "not trading" })
        #expect(!result.tickers.contains { onBreak.contains($0.symbol.uppercased()) })
        let summary = Diagnostic.summarised(result.notTrading)
        #expect(summary.count == 6)
        #expect(summary.last?.kind == .moreLikeIt(count: 179, group: "not trading"))
        #expect(summary.first.map(DiagnosticText.line) == "Binance tickers: \(inBodyOrder[0]): not trading (BREAK); left out")
    }

    // MARK: - Symbols exchangeInfo does not list, or lists as not trading

    @Test("a ticker whose symbol exchangeInfo lacks is left out and named; many make one summary line")
    func notInExchangeInfo() throws {
        let decoder = try Self.decoder()
        let one = try decoder.decode(Self.body([Self.ticker("ETHBTC"), Self.ticker("ABCDEF")]))
        #expect(one.tickers.map(\.symbol) == ["ethbtc"])
        #expect(one.received == 2)
        #expect(one.diagnostics.map(DiagnosticText.line) == ["Binance tickers: ABCDEF is not in Binance's exchangeInfo; left out"])

        // No suffix is guessed: a symbol that ends in a real quote asset is still unknown.
        let unknown = (1...8).map { "FAKE\($0)BTC" }
        let many = try decoder.decode(Self.body([Self.ticker("ETHBTC")] + unknown.map { Self.ticker($0) }))
        #expect(many.tickers.map(\.symbol) == ["ethbtc"])
        #expect(many.diagnostics.map(\.message) == unknown.map { "\($0) is not in Binance's exchangeInfo; left out" })
        let summary = Diagnostic.summarised(many.diagnostics)
        #expect(summary.count == 6)
        #expect(summary.last.map(DiagnosticText.line) == "Binance tickers: … and 3 more rows like it (not in exchangeInfo)")
    }

    @Test("a symbol exchangeInfo lists as BREAK is left out with its own note; its TRADING neighbour is kept")
    func notTrading() throws {
        let info = Self.infoJSON([("ETHBTC", "ETH", "BTC", "TRADING"), ("XYZBTC", "XYZ", "BTC", "BREAK"), ("QQQBTC", "QQQ", "BTC", "HALT")])
        let decoder = try BinanceTickerDecoder(exchange: .binance, exchangeInfo: info)
        let result = try decoder.decode(Self.body([Self.ticker("XYZBTC"), Self.ticker("ETHBTC"), Self.ticker("QQQBTC")]))
        #expect(result.tickers.map(\.symbol) == ["ethbtc"])
        #expect(result.received == 3)
        #expect(result.notTrading.map(\.message) == ["XYZBTC: not trading (BREAK); left out", "QQQBTC: not trading (HALT); left out"])
        #expect(result.notTrading.map(\.group) == ["not trading", "not trading"])
        #expect(result.diagnostics.isEmpty, "a market not trading is no warning")
        // A ticker missing from exchangeInfo stays a warning beside them.
        let both = try decoder.decode(Self.body([Self.ticker("XYZBTC"), Self.ticker("ETHBTC"), Self.ticker("ABCDEF")]))
        #expect(both.diagnostics.map(\.message) == ["ABCDEF is not in Binance's exchangeInfo; left out"])
        #expect(both.notTrading.count == 1)
        // Nothing but markets not trading: the error names the first.
        let error = Self.error { _ = try decoder.decode(Self.body([Self.ticker("XYZBTC")])) }
        #expect(error?.errorDescription == "Binance tickers: none of the 1 tickers received is usable (first: XYZBTC: not trading (BREAK); left out).")
    }

    @Test("a report on Binance's capture: markets not trading are no warning, said with --verbose, counted apart from the skipped")
    func notTradingInReport() throws {
        let folder = try TemporaryFolder()
        let arguments = [
            "--source", "binance", "--source-url", "binance=\(Self.folder.appendingPathComponent("ticker-24hr-2020-04-15.json").path)",
            "--source-url", "binance-info=\(Self.folder.appendingPathComponent("exchangeInfo-2020-04-15.json").path)",
            "--ecb-url", Self.folder.appendingPathComponent("eurofxref-daily-2020-04-15.xml").path, "--format", "json", "--output", "-",
            "--no-history", "--no-config",
        ]
        let run = try ExecutableTests.run(arguments, in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("not trading"), "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let counts = try #require((json["summary"] as? [String: Any])?["counts"] as? [String: Any], "\(json.keys)")
        #expect(counts["not_trading"] as? Int == 184)
        let received = try #require(counts["tickers_received"] as? Int)
        let skipped = try #require(counts["skipped"] as? Int)
        let unconvertible = try #require(counts["unconvertible"] as? Int)
        #expect(received == skipped + 184 + unconvertible + (counts["converted"] as? Int ?? -1), "\(counts)")
        let warnings = (json["warnings"] as? [Any]).map { "\($0)" } ?? ""
        #expect(!warnings.contains("not trading"), "\(warnings)")

        let verbose = try ExecutableTests.run(arguments + ["--verbose"], in: folder.url)
        #expect(verbose.status == 0, "\(verbose.stderr)")
        let said = verbose.stderr.split(separator: "\n").filter { $0.contains("not trading") && !$0.contains("tickers read") }
        #expect(said.count == 6, "five named, the rest summed up: \(said)")
        #expect(said.last?.hasSuffix("… and 179 more rows like it (not trading)") == true, "\(said)")
        #expect(verbose.stderr.contains("tickers read (\(skipped) skipped, 184 not trading)"), "\(verbose.stderr)")

        // The page says them beside the skipped ones.
        let page = try ExecutableTests.run(
            arguments.map { $0 == "json" ? "html" : $0 } + ["--currency", "USD"], in: folder.url)
        #expect(page.status == 0, "\(page.stderr)")
        #expect(page.stdout.contains("\(skipped) skipped · 184 not trading"), "the page's market card")
    }

    @Test("a symbol is split only by exchangeInfo, whatever its letters suggest")
    func splitByTableOnly() throws {
        // Made-up markets whose split no suffix rule would guess.
        let info = Self.infoJSON([("ABCUSDT", "ABCU", "SDT", "TRADING"), ("BTCUSDT", "BTC", "USDT", "TRADING")])
        let result = try BinanceTickerDecoder(exchange: .binance, exchangeInfo: info).decode(
            Self.body([Self.ticker("ABCUSDT"), Self.ticker("BTCUSDT")]))
        #expect(result.tickers.map { "\($0.symbol)=\($0.baseAsset)/\($0.quoteAsset)" } == ["abcusdt=abcu/sdt", "btcusdt=btc/usdt"])
    }

    // MARK: - Rows judged as WazirX's are, under Binance's name

    @Test("rows are judged as WazirX's: bad last price skipped, bad amounts and closeTime left empty, repeats dropped")
    func rowValidation() throws {
        let decoder = try Self.decoder()
        let result = try decoder.decode(
            Self.body([
                Self.ticker("LTCBTC", last: "0"),
                Self.ticker("ETHBTC", bid: "-1", closeTime: "0"),
                Self.ticker("ETHBTC", last: "9"),
                #"{"symbol":"BNBBTC","openPrice":"1"}"#,
                #"{"lastPrice":"1"}"#,
                "42",
            ]))
        #expect(result.received == 6)
        let eth = try #require(result.tickers.first)
        #expect(result.tickers.count == 1)
        #expect(eth.symbol == "ethbtc")
        #expect(eth.last == Decimal(string: "1.5"))
        #expect(eth.bid == nil)
        #expect(eth.ask == Decimal(string: "1.6"))
        #expect(eth.updatedAt == nil)
        #expect(
            result.diagnostics.map(\.message) == [
                #"skipped ticker #1 (ltcbtc): lastPrice "0" is not a positive number"#,
                #"ethbtc: bidPrice "-1" is not a non-negative number; left empty"#,
                "ethbtc: closeTime 0 is not a time in milliseconds; left empty",
                "skipped ticker #3 (ethbtc): the symbol appeared before; the first one is kept",
                "skipped ticker #4 (bnbbtc): no lastPrice",
                "skipped ticker #5: no symbol, or not a plain string of up to 40 characters",
                "skipped ticker #6: not a JSON object",
            ])
        #expect(result.diagnostics.allSatisfy { $0.source == .binanceTickers })
    }

    @Test("a body without one usable ticker is an error naming Binance, not WazirX")
    func noUsableTicker() throws {
        let decoder = try Self.decoder()
        let error = Self.error { _ = try decoder.decode(Self.body([Self.ticker("ABCDEF"), Self.ticker("ETHBTC", last: "0")])) }
        #expect(
            error?.errorDescription
                == "Binance tickers: none of the 2 tickers received is usable (first: ABCDEF is not in Binance's exchangeInfo; left out)."
        )
        let empty = Self.error { _ = try decoder.decode(Data("[]".utf8)) }
        #expect(empty?.errorDescription == "Binance tickers: none of the 0 tickers received is usable.")
    }

    // MARK: - Bodies that are not tickers

    @Test("Binance's error body (msg, not message) is an API error of Binance's tickers")
    func errorBody() throws {
        let decoder = try Self.decoder()
        let error = Self.error { _ = try decoder.decode(Data(#"{"code":-1121,"msg":"Invalid symbol."}"#.utf8)) }
        #expect(error == .apiError(source: .binanceTickers, code: "-1121", message: "Invalid symbol."))
        #expect(error?.errorDescription == "Binance tickers: the API answered with error -1121: Invalid symbol.")
    }

    @Test("an HTML page, an empty body or another JSON value instead of the tickers name Binance")
    func notTickers() throws {
        let decoder = try Self.decoder()
        let html = Self.error { _ = try decoder.decode(Data("<!DOCTYPE html><html><body>Access denied</body></html>".utf8)) }
        #expect(html?.errorDescription == "Binance tickers: got an HTML page instead of a JSON array of tickers.")
        let empty = Self.error { _ = try decoder.decode(Data(" \n".utf8)) }
        #expect(empty?.errorDescription == "Binance tickers: empty (no data, or only white space).")
        let object = Self.error { _ = try decoder.decode(Data(#"{"symbol":"ETHBTC"}"#.utf8)) }
        #expect(object?.errorDescription == "Binance tickers: not a JSON array of tickers (got a JSON object).")
    }

    // MARK: - exchangeInfo that cannot split symbols

    @Test(
        "an exchangeInfo that cannot split a symbol is an error naming Binance's exchangeInfo",
        arguments: [
            (#"{"timezone":"UTC","serverTime":1586994278861}"#, "Binance exchangeInfo: not an exchangeInfo object with a symbols array (it has no symbols)."),
            (#"{"symbols":{"ETHBTC":"TRADING"}}"#, "Binance exchangeInfo: not an exchangeInfo object with a symbols array (its symbols is not an array)."),
            (#"{"symbols":[]}"#, "Binance exchangeInfo: not an exchangeInfo object with a symbols array (its symbols array is empty)."),
            (
                #"{"symbols":[{"symbol":"ETHBTC","baseAsset":"ETH"},42]}"#,
                "Binance exchangeInfo: not an exchangeInfo object with a symbols array (none of its 2 symbols has a symbol, baseAsset, quoteAsset and status as text)."
            ),
            (#"[{"symbol":"ETHBTC"}]"#, "Binance exchangeInfo: not an exchangeInfo object with a symbols array (got a JSON array)."),
            (#"{"symbols":["#, "Binance exchangeInfo: not an exchangeInfo object with a symbols array (the JSON is malformed, truncated or not UTF-8)."),
            (#"{"code":-1003,"msg":"Too many requests."}"#, "Binance exchangeInfo: the API answered with error -1003: Too many requests."),
            (
                "<html><head><title>403 Forbidden</title></head></html>",
                "Binance exchangeInfo: got an HTML page instead of an exchangeInfo object with a symbols array."
            ),
            ("", "Binance exchangeInfo: empty (no data, or only white space)."),
        ])
    func unusableExchangeInfo(body: String, message: String) {
        let error = Self.error { _ = try BinanceTickerDecoder(exchange: .binance, exchangeInfo: Data(body.utf8)) }
        #expect(error?.errorDescription == message)
    }

    // MARK: - Binance.US

    @Test("a Binance.US decoder names Binance.US in its notes and errors")
    func binanceUS() throws {
        let decoder = try Self.decoder(.binanceUS)
        let result = try decoder.decode(Self.body([Self.ticker("ETHBTC"), Self.ticker("ABCDEF")]))
        #expect(result.tickers.map(\.symbol) == ["ethbtc"])
        #expect(result.diagnostics.map(DiagnosticText.line) == ["Binance.US tickers: ABCDEF is not in Binance.US's exchangeInfo; left out"])
        #expect(result.diagnostics.map(\.source) == [.binanceUSTickers])

        let apiError = Self.error { _ = try decoder.decode(Data(#"{"code":-1121,"msg":"Invalid symbol."}"#.utf8)) }
        #expect(apiError?.errorDescription == "Binance.US tickers: the API answered with error -1121: Invalid symbol.")
        let info = Self.error { _ = try BinanceTickerDecoder(exchange: .binanceUS, exchangeInfo: Data(#"{"serverTime":1}"#.utf8)) }
        #expect(info == .malformed(source: .binanceUSInfo, expected: "an exchangeInfo object with a symbols array", detail: "it has no symbols"))
        #expect(info?.errorDescription == "Binance.US exchangeInfo: not an exchangeInfo object with a symbols array (it has no symbols).")
    }

    // MARK: - WazirX unchanged

    @Test("WazirX's decoder still names WazirX's tickers and its at")
    func wazirxUnchanged() throws {
        let result = try TickerDecoder().decode(
            Fixtures.tickerJSON([
                Fixtures.ticker("aaainr", base: "aaa", quote: "inr", last: "1", at: "0"),
                Fixtures.ticker("aaainr", base: "aaa", quote: "inr", last: "1"),
            ]))
        #expect(
            result.diagnostics.map(DiagnosticText.line) == [
                "WazirX tickers: aaainr: at 0 is not a time in milliseconds; left empty",
                "WazirX tickers: skipped ticker #2 (aaainr): the symbol appeared before; the first one is kept",
            ])
        let error = Self.error { _ = try TickerDecoder().decode(Data(#"{"code":-1121,"message":"Invalid symbol."}"#.utf8)) }
        #expect(error?.errorDescription == "WazirX tickers: the API answered with error -1121: Invalid symbol.")
    }
}
