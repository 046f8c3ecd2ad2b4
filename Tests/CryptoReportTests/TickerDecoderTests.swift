import Foundation
import Testing

@testable import CryptoReport

@Suite("Decoding WazirX tickers")
struct TickerDecoderTests {
    @Test("the real 450-ticker capture decodes completely, exponent strings included")
    func realCapture() throws {
        let result = try TickerDecoder().decode(try Fixtures.tickers)
        #expect(result.received == 450)
        #expect(result.tickers.count == 450)
        #expect(result.diagnostics.isEmpty)
        let btc = try #require(result.tickers.first { $0.symbol == "btcinr" })
        #expect(btc.last == Fixtures.decimal("1398000.0"))
        #expect(btc.open == Fixtures.decimal("1416000"))
        #expect(btc.volume == Fixtures.decimal("6.94353"))
        #expect(btc.updatedAt == Date(timeIntervalSince1970: 1_669_078_292))
        // "5.3e-7" is what WazirX sent for qkcbtc's open price.
        let qkc = try #require(result.tickers.first { $0.symbol == "qkcbtc" })
        #expect(qkc.open == Fixtures.decimal("0.00000053"))
    }

    @Test("whole milliseconds take the Double path to the same instant as the Decimal one, bit for bit")
    func integerTimestamps() throws {
        var generator = SystemRandomNumberGenerator()
        var values: [UInt64] = [1_230_940_800_000, 253_402_300_799_999, 1_669_078_292_000, 1_669_078_292_123, 1_257_036_092_022]
        for _ in 0..<20_000 { values.append(UInt64.random(in: 1_230_940_800_000..<253_402_300_800_000, using: &generator)) }
        for _ in 0..<20_000 { values.append(UInt64.random(in: 1_600_000_000_000..<1_800_000_000_000, using: &generator)) }
        var mismatches: [UInt64] = []
        for milliseconds in values {
            let reference = NSDecimalNumber(decimal: Decimal(milliseconds) / 1000).doubleValue
            let fast = try #require(TickerDecoder.integerTimestamp(.number(Decimal(milliseconds))))
            if fast.timeIntervalSince1970.bitPattern != reference.bitPattern, mismatches.count < 10 { mismatches.append(milliseconds) }
        }
        #expect(mismatches == [])
        // Out of range, fractional or negative: left to the Decimal path and its warning.
        for text in ["1230940799999", "253402300800000", "1669078292000.5", "-1669078292000"] {
            #expect(TickerDecoder.integerTimestamp(.string(text)) == nil)
        }
    }

    @Test("at is accepted as a number and as a string")
    func bothTimestampForms() throws {
        let data = Fixtures.tickerJSON([
            Fixtures.ticker("aaainr", base: "aaa", quote: "inr", last: "1", at: "1669078292000"),
            Fixtures.ticker("bbbinr", base: "bbb", quote: "inr", last: "1", at: "\"1669078293000\""),
        ])
        let tickers = try TickerDecoder().decode(data).tickers
        #expect(tickers.map(\.updatedAt) == [Date(timeIntervalSince1970: 1_669_078_292), Date(timeIntervalSince1970: 1_669_078_293)])
    }

    @Test("an at before Bitcoin's first block (zero, or seconds sent for milliseconds) is left empty with a note")
    func timestampTooEarly() throws {
        let data = Fixtures.tickerJSON([
            Fixtures.ticker("aaainr", base: "aaa", quote: "inr", last: "1", at: "0"),
            Fixtures.ticker("bbbinr", base: "bbb", quote: "inr", last: "1", at: "1669078293"),
            Fixtures.ticker("cccinr", base: "ccc", quote: "inr", last: "1", at: "1230940800000"),
        ])
        let result = try TickerDecoder().decode(data)
        #expect(result.tickers.map(\.updatedAt) == [nil, nil, Date(timeIntervalSince1970: 1_230_940_800)])
        #expect(
            result.diagnostics.map(\.message) == [
                "aaainr: at 0 is not a time in milliseconds; left empty",
                "bbbinr: at 1669078293 is not a time in milliseconds; left empty",
            ])
    }

    @Test("unknown fields are ignored, numbers sent as JSON numbers are read exactly")
    func unknownFieldsAndNumbers() throws {
        let data = Data(
            """
            [{"symbol":"ethusdt","baseAsset":"eth","quoteAsset":"usdt","lastPrice":1234.5678901234567,"openPrice":"1200",
              "type":"SPOT","isMarginEnabled":false,"extra":{"nested":[1,2,3]},"at":1669078292000}]
            """.utf8)
        let result = try TickerDecoder().decode(data)
        #expect(result.diagnostics.isEmpty)
        #expect(result.tickers.first?.last == Fixtures.decimal("1234.5678901234567"))
        #expect(result.tickers.first?.bid == nil)
    }

    @Test("bad rows are skipped with a warning; good rows survive")
    func badRows() throws {
        let data = Fixtures.tickerJSON([
            Fixtures.ticker("goodinr", base: "good", quote: "inr", last: "2"),
            Fixtures.ticker("zeroinr", base: "zero", quote: "inr", last: "0"),
            Fixtures.ticker("neginr", base: "neg", quote: "inr", last: "-3"),
            Fixtures.ticker("textinr", base: "text", quote: "inr", last: "12abc"),
            #"{"baseAsset":"x","quoteAsset":"inr","lastPrice":"1"}"#,
            #"{"symbol":"","baseAsset":"x","quoteAsset":"inr","lastPrice":"1"}"#,
            #"{"symbol":"noquote","baseAsset":"x","lastPrice":"1"}"#,
            #"{"symbol":"nolast","baseAsset":"x","quoteAsset":"inr"}"#,
            #"{"symbol":"nanusdt","baseAsset":"nan","quoteAsset":"usdt","lastPrice":"NaN"}"#,
            #"{"symbol":"infusdt","baseAsset":"inf","quoteAsset":"usdt","lastPrice":"Infinity"}"#,
            "42", "null", #"["btcinr"]"#,
            Fixtures.ticker("goodinr", base: "good", quote: "inr", last: "3"),
        ])
        let result = try TickerDecoder().decode(data)
        #expect(result.received == 14)
        #expect(result.tickers.map(\.symbol) == ["goodinr"])
        #expect(result.tickers.first?.last == 2, "the first of two duplicate symbols is kept")
        #expect(result.diagnostics.count == 13)
        #expect(result.diagnostics.contains { $0.message == #"skipped ticker #2 (zeroinr): lastPrice "0" is not a positive number"# })
        #expect(result.diagnostics.contains { $0.message == "skipped ticker #5: no symbol, or not a plain string of up to 40 characters" })
        #expect(result.diagnostics.contains { $0.message == "skipped ticker #11: not a JSON object" })
        #expect(result.diagnostics.contains { $0.message.contains("the symbol appeared before") })
    }

    @Test("a number refused for its magnitude or length is said to be so, not to be no positive number")
    func outOfRange() throws {
        let long = "1" + String(repeating: "0", count: 64)
        let data = Fixtures.tickerJSON([
            #"{"symbol":"bigusdt","baseAsset":"big","quoteAsset":"usdt","lastPrice":"1e20"}"#,
            #"{"symbol":"tinyusdt","baseAsset":"tiny","quoteAsset":"usdt","lastPrice":1e-21}"#,
            #"{"symbol":"longusdt","baseAsset":"long","quoteAsset":"usdt","lastPrice":"\#(long)"}"#,
            #"{"symbol":"negusdt","baseAsset":"neg","quoteAsset":"usdt","lastPrice":"-1e30"}"#,
            #"{"symbol":"volusdt","baseAsset":"vol","quoteAsset":"usdt","lastPrice":"2","volume":"1e20"}"#,
        ])
        let messages = try TickerDecoder().decode(data).diagnostics.map(\.message)
        #expect(messages.contains(#"skipped ticker #1 (bigusdt): lastPrice "1e20" is outside the range 1e-20 to 1e20"#), "\(messages)")
        #expect(messages.contains(#"skipped ticker #2 (tinyusdt): lastPrice 0.000000000000000000001 is outside the range 1e-20 to 1e20"#), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("skipped ticker #3 (longusdt): lastPrice ") && $0.hasSuffix(" is longer than 64 characters") }, "\(messages)")
        #expect(messages.contains(#"skipped ticker #4 (negusdt): lastPrice "-1e30" is not a positive number"#), "\(messages)")
        #expect(messages.contains(#"volusdt: volume "1e20" is outside the range 1e-20 to 1e20; left empty"#), "\(messages)")
        let rates = try ECBRatesParser().parseLatest(Fixtures.ecbXML(rates: [("USD", "1e30")]))
        #expect(throws: ConversionError.invalidRate(currency: "USD", text: "1e30", date: "2022-11-21")) { try rates.unitsPerEuro("USD") }
        #expect(
            ConversionError.invalidRate(currency: "USD", text: "1e30", date: "2022-11-21").errorDescription
                == #"ECB rates: the rate of 2022-11-21 for USD is "1e30", outside the range 1e-20 to 1e20."#)
    }

    @Test("a bad optional field is left empty with a note, the row stays")
    func badOptionalField() throws {
        let data = Fixtures.tickerJSON([
            Fixtures.ticker("aaainr", base: "aaa", quote: "inr", last: "5", open: "-1", bid: "", ask: "1e5", at: "\"soon\"")
        ])
        let result = try TickerDecoder().decode(data)
        let ticker = try #require(result.tickers.first)
        #expect(ticker.open == nil)
        #expect(ticker.bid == nil)
        #expect(ticker.ask == 100_000)
        #expect(ticker.updatedAt == nil)
        #expect(result.diagnostics.count == 3)
    }

    @Test(
        "bodies that are not a ticker array are one clear error",
        arguments: [
            ("", "WazirX tickers: empty (no data, or only white space)."),
            ("  \n", "WazirX tickers: empty (no data, or only white space)."),
            ("<!DOCTYPE html><html><body>Just a moment...</body></html>", "WazirX tickers: got an HTML page instead of a JSON array of tickers."),
            (#"{"code":-1121,"message":"Invalid symbol."}"#, "WazirX tickers: the API answered with error -1121: Invalid symbol."),
            (#"{"status":"ok"}"#, "WazirX tickers: not a JSON array of tickers (got a JSON object)."),
            (#"[{"symbol":"btcinr","baseAsset":"btc","#, "WazirX tickers: not a JSON array of tickers (the JSON is malformed, truncated or not UTF-8)."),
            ("[]", "WazirX tickers: none of the 0 tickers received is usable."),
            (
                #"[{"symbol":"x"}]"#,
                "WazirX tickers: none of the 1 tickers received is usable (first: skipped ticker #1 (x): no usable baseAsset or quoteAsset)."
            ),
            ("\"tickers\"", "WazirX tickers: not a JSON array of tickers (got a JSON string)."),
        ])
    func notTickers(body: String, message: String) {
        #expect {
            try TickerDecoder().decode(Data(body.utf8))
        } throws: { error in
            (error as? DataError)?.errorDescription == message && (error as? DataError)?.exitStatus == .dataError
        }
    }

    @Test("non-UTF-8 bytes are a clear error, not a crash")
    func notUTF8() {
        let data = Data([0x5B, 0xFF, 0xFE, 0x5D])
        #expect(throws: DataError.self) { try TickerDecoder().decode(data) }
    }
}

@Suite("Strict decimal text")
struct DecimalTextTests {
    @Test(arguments: [
        ("1398000.0", "1398000"), ("0.0000086", "0.0000086"), ("5.3e-7", "0.00000053"), ("1E+3", "1000"),
        ("-2.5", "-2.5"), (".5", "0.5"), ("7.", "7"),
    ])
    func accepts(text: String, expected: String) {
        #expect(DecimalText.parse(text) == Fixtures.decimal(expected))
    }

    @Test(arguments: [
        "", " 1", "1 ", "12abc", "1,5", "0x10", "NaN", "Infinity", "-", ".", "1e", "1e1000", "1.2.3", "١٢",
        "1e20", "-1e120", "100000000000000000000", "1e-21", "0.000000000000000000001",
    ])
    func rejects(text: String) {
        #expect(DecimalText.parse(text) == nil)
    }

    @Test("the largest and smallest accepted inputs multiply without trapping")
    func extremesDoNotTrap() throws {
        let huge = "99999999999999999999.9999"
        let tiny = "0.00000000000000000001"
        let tickers = Fixtures.tickerJSON([
            Fixtures.ticker("aaausdt", base: "aaa", quote: "usdt", last: huge, open: tiny, high: huge, low: tiny, volume: huge, bid: tiny, ask: huge),
            Fixtures.ticker("bbbaaa", base: "bbb", quote: "aaa", last: huge, open: tiny, volume: huge, bid: tiny, ask: huge),
        ])
        let rates = Fixtures.ecbXML(rates: [("USD", tiny), ("SEK", huge), ("INR", "1")])
        var request = Settings()
        request.report.currency = "SEK"
        request.report.selection = Selection(markets: .all)
        let report = try ReportBuilder(spec: request.report, ratesAgeLimit: request.fetch.ratesAgeLimit, generatedAt: Fixtures.reportTime).build(
            tickers: Fixtures.payload(.tickers, tickers), rates: Fixtures.payload(.rates, rates))
        #expect(report.rows.count == 2)
        #expect(report.rows.allSatisfy { $0.volumeValue.map { !$0.isNaN } ?? false })
        let csv = CSVRenderer().render(report)
        #expect(csv.range(of: "[0-9.][eE][-+0-9]", options: .regularExpression) == nil, "no exponent")
        _ = try ReportPipeline().render(report, as: .html, templates: try TemplateRenderer())
    }
}
