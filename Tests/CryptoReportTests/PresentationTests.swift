import Foundation
import Testing

@testable import CryptoReport

/// Analysis produces values (notices, diagnostics, fired alerts, source status); Rendering alone
/// words them, the same in every format and in the log.
@Suite("Presentation: values from analysis, text from Rendering")
struct PresentationTests {
    static func sample(_ currency: String, symbols: [String] = []) async throws -> Report {
        var request = Settings()
        request.report.currency = CurrencyCode(stringLiteral: currency)
        request.fetch.sample = true
        request.report.selection.symbols = symbols
        return try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(request)
    }

    static let fetched = Date(timeIntervalSince1970: 1_669_078_800)  // 2022-11-22 01:00 UTC

    @Test(
        "every notice has one wording",
        arguments: [
            (
                Notice.cachedSource(.tickers, fetchedAt: fetched, liveError: "cannot reach x: the connection was refused."),
                "Tickers from cache, fetched 2022-11-22 01:00 UTC — live fetch failed: cannot reach x: the connection was refused."
            ),
            (.cachedSource(.rates, fetchedAt: fetched, liveError: nil), "ECB rates from cache, fetched 2022-11-22 01:00 UTC — offline run"),
            (
                .ratesAhead(ratesDate: "2024-11-28", inEffect: "2022-11-21"),
                "ECB rates are of 2024-11-28, published after these tickers (the rates in effect were those of 2022-11-21); prices are converted at later rates."
            ),
            (
                .ratesBehind(ratesDate: "2022-11-18", expected: "2022-11-21"),
                "ECB rates are of 2022-11-18; the rates of 2022-11-21 should have been published by the time of these tickers."
            ),
            (.exchangeHalted(.allStale), "WazirX appears halted: every market's last update is over an hour older than the fetch."),
            (.exchangeHalted(.noVolume), "WazirX appears halted: no market traded anything in 24 h."),
            (.staleMarkets(count: 3), "3 markets have not updated for over an hour; they are marked stale."),
        ])
    func noticeText(notice: Notice, text: String) {
        #expect(NoticeText.text(notice) == text)
    }

    @Test("the builder produces notices as values with their data")
    func noticeValues() throws {
        let at = "1669078292000"  // 2022-11-22 00:51:32 UTC
        let behind = try FreshnessTests.build(
            tickers: [Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: at)],
            rates: Fixtures.ecbXML(date: "2022-11-18", rates: FreshnessTests.usd))
        #expect(behind.notices == [.ratesBehind(ratesDate: "2022-11-18", expected: "2022-11-21")])

        // One market two hours older than the other: stale, not halted.
        let stale = try FreshnessTests.build(
            tickers: [
                Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: at),
                Fixtures.ticker("ethusdt", base: "eth", quote: "usdt", last: "1100", at: "1669071092000"),
            ],
            rates: Fixtures.ecbXML(rates: FreshnessTests.usd))
        #expect(stale.notices == [.staleMarkets(count: 1)])

        let cached = try FreshnessTests.build(
            tickers: [Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000", at: at)],
            rates: Fixtures.ecbXML(rates: FreshnessTests.usd), origin: .cache(liveError: "down"),
            fetchedAt: Fixtures.captureTime)
        #expect(cached.notices == [.cachedSource(.tickers, fetchedAt: Fixtures.captureTime, liveError: "down")])
        #expect(cached.source(.tickers)?.status == .cached && cached.source(.rates)?.status == .live)
    }

    @Test("notices reach HTML, Markdown and JSON in the one wording")
    func noticesInEveryFormat() async throws {
        var report = try await Self.sample("SEK")
        report.notices = [.staleMarkets(count: 2), .ratesBehind(ratesDate: "2022-11-18", expected: "2022-11-21")]
        let templates = try TemplateRenderer()
        for format in [ReportFormat.markdown, .html, .json] {
            let text = try ReportPipeline().render(report, as: format, templates: templates)
            for notice in report.notices {
                // The SEK page in Swedish; Markdown and JSON in English.
                let words = NoticeText.text(notice, time: ReportDates.minute, strings: format == .html ? PageStrings(.swedish) : .english)
                #expect(text.contains(format == .html ? words.replacingOccurrences(of: "'", with: "&#39;") : words), "\(format)")
            }
        }
        let json = try ReportPipeline().render(report, as: .json, templates: templates)
        #expect(json.contains(#""kind" : "stale_markets""#) && json.contains(#""kind" : "rates_behind""#))
    }

    @Test("diagnostics from the analysis are values; Rendering words them")
    func diagnostics() async throws {
        let report = try await Self.sample("USD", symbols: ["btc", "nosuchcoin"])
        #expect(report.diagnostics == [Diagnostic(.tickers, .unmatchedSymbol("nosuchcoin"))])
        #expect(DiagnosticText.line(report.diagnostics[0]) == "WazirX tickers: no market matches \"nosuchcoin\" (--symbols)")
        let json = try JSONRenderer().render(report)
        #expect(json.contains(#""WazirX tickers: no market matches \"nosuchcoin\" (--symbols)""#))

        let many = Diagnostic(.tickers, .leftOut(symbols: ["axyz", "bxyz", "cxyz", "dxyz"], quoteAsset: "xyz", reason: "no rate"))
        #expect(DiagnosticText.message(many) == "left out 4 markets quoted in XYZ (axyz, bxyz, cxyz, …): no rate")
        let one = Diagnostic(.tickers, .leftOut(symbols: ["axyz"], quoteAsset: "xyz", reason: "no rate"))
        #expect(DiagnosticText.message(one) == "left out axyz: no rate")
    }

    @Test("\"Rates used\" never lists the report currency itself, in any format", arguments: ["USD", "INR"])
    func ratesWithoutIdentity(currency: String) async throws {
        let report = try await Self.sample(currency)
        let identity = currency == "USD" ? "usdt" : "inr"
        #expect(!report.summary.ratesUsed.contains { $0.quoteAsset == identity })
        #expect(!report.summary.ratesUsed.isEmpty)
        let templates = try TemplateRenderer()
        for format in ReportFormat.allCases {
            let text = try ReportPipeline().render(report, as: format, templates: templates)
            #expect(!text.contains("1 \(currency) = 1"), "\(format) lists 1 \(currency) = 1 \(currency)")
            if format == .json {
                let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                let rates = try #require(document["rates_used"] as? [[String: Any]])
                #expect(!rates.contains { $0["quote_asset"] as? String == identity })
            }
        }
        // In another currency both fiat quotes stay listed.
        let sek = try await Self.sample("SEK")
        #expect(sek.summary.ratesUsed.prefix(2).map(\.quoteAsset) == ["usdt", "inr"])
    }

    @Test("source status is an enum; the snapshot takes each source by name, not by position")
    func sourcesByName() async throws {
        var report = try await Self.sample("SEK")
        #expect(report.sources.map(\.status) == [.sample, .sample])
        report.sources.reverse()
        report.sources[0].origin = .cache(liveError: nil)  // the rates, listed first
        let snapshot = Snapshot(report: report, fetchedAt: Fixtures.reportTime, tickers: [])
        #expect(snapshot.source(.rates).status == .cached)
        #expect(snapshot.source(.tickers).status == .sample)
        #expect(snapshot.source(.tickers).location == report.source(.tickers)?.location)
        let json = try JSONRenderer().render(report)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let sources = try #require(document["sources"] as? [String: [String: Any]])
        #expect(sources["rates"]?["status"] as? String == "cached" && sources["tickers"]?["status"] as? String == "sample")
    }

    @Test("fired alerts and unchecked rules are values; Rendering words them for every output")
    func alerts() async throws {
        var (report, tickers, rates) = try await AlertAndConfigTests.report()
        let rules = try [
            "btc above 170000 SEK", "srm move 25 %", "nosuch above 1 USD", "btc above 1 XYZ", "sol move 5 % since last report",
        ].map { try AlertRule(parsing: $0) }
        let result = AlertEvaluator().evaluate(rules, report: report, tickers: tickers, rates: rates)
        let sekPerUSD = Fixtures.decimal("10.9873") / Fixtures.decimal("1.0246")
        let srm = try #require(report.rows.first { $0.symbol == "srmusdt" })
        #expect(
            result.fired == [
                FiredAlert(
                    rule: rules[0], symbol: "btcusdt", baseAsset: "btc", quoteAsset: "usdt",
                    figure: .price(Fixtures.decimal("15988") * sekPerUSD, currency: "SEK")),
                FiredAlert(
                    rule: rules[1], symbol: "srmusdt", baseAsset: "srm", quoteAsset: "usdt",
                    figure: .change(try #require(srm.changePercent), period: .day, price: srm.price, currency: "USD")),
            ])
        #expect(result.fired.map(\.unit) == ["SEK", "%"])
        #expect(
            result.notes == [
                AlertNote(rule: rules[2], reason: .noMarket(asset: "nosuch")),
                AlertNote(rule: rules[3], reason: .currencyNotInRates(currency: "XYZ", ratesDate: "2022-11-21")),
                AlertNote(rule: rules[4], reason: .noHistory),
            ])
        #expect(
            result.notes.map(AlertText.note) == [
                "alert \"nosuch above 1 USD\": no market for nosuch",
                "alert \"btc above 1 XYZ\": the ECB rates of 2022-11-21 have no XYZ",
                "alert \"sol move 5 % since last report\": no history to compare with (--no-history or no earlier run)",
            ])
        let messages = [
            "btc above 170000 SEK: BTC/USDT is at 171\u{00A0}447,35\u{00A0}kr",
            "srm move 25 %: SRM/USDT moved +28.61% in 24 h, now $0.4295",
        ]
        #expect(result.fired.map { AlertText.message($0, in: report) } == messages)

        report.alerts = result.fired
        let csv = CSVRenderer().alerts(report)
        #expect(
            csv == "rule,symbol,value,unit,message\r\n"
                + "btc above 170000 SEK,btcusdt,171447.347647863,SEK,\"\(messages[0])\"\r\n"
                + "srm move 25 %,srmusdt,28.6086409772748,%,\"\(messages[1])\"\r\n")
        // The page and the Markdown write a limit's figure in the report's number style, as
        // every other figure of theirs; JSON, the alerts file and the log in its currency's own.
        let inReportStyle = ["btc above 170000 SEK: BTC/USDT is at SEK\u{00A0}171,447.35", messages[1]]
        #expect(AlertText.messages(report, inReportLocale: true) == inReportStyle)
        let templates = try TemplateRenderer()
        for format in [ReportFormat.markdown, .html, .json] {
            let text = try ReportPipeline().render(report, as: format, templates: templates)
            for message in format == .json ? messages : inReportStyle {
                #expect(text.contains(message), "\(format) lacks \(message)")
            }
        }
    }

    @Test("history export renders through Rendering: CSV, Markdown, and JSON in the report's style with nulls")
    func historyExport() throws {
        let row = MarketRow(
            symbol: "btcusdt", baseAsset: "btc", quoteAsset: "usdt", currency: "SEK", price: Fixtures.decimal("171447.5"),
            open: nil, high: nil, low: nil, bid: nil, ask: nil, changePercent: Fixtures.decimal("-1.25"), spread: nil,
            spreadPercent: nil, volume: nil, volumeValue: nil, fxRate: Fixtures.decimal("10.72"), updatedAt: nil)
        let point = HistoryExporter.Point(time: Self.fetched, kind: .backfill, row: row, ratesDate: "2022-11-21")
        let renderer = HistoryRenderer(symbol: "btc", currency: "SEK")
        #expect(
            try renderer.json([point]) == """
                {
                  "currency" : "SEK",
                  "points" : [
                    {
                      "change_pct" : "-1.25",
                      "fx_rate" : "10.72",
                      "high" : null,
                      "kind" : "backfill",
                      "low" : null,
                      "open" : null,
                      "price" : "171447.5",
                      "rates_date" : "2022-11-21",
                      "source" : "wazirx",
                      "symbol" : "btcusdt",
                      "time" : "2022-11-22T01:00:00Z",
                      "volume" : null,
                      "volume_value" : null
                    }
                  ],
                  "symbol" : "btc"
                }

                """)
        #expect(
            renderer.csv([point]) == HistoryRenderer.csvColumns.joined(separator: ",") + "\r\n"
                + "2022-11-22T01:00:00Z,btcusdt,SEK,171447.5,,,,-1.25,,,10.72,2022-11-21,backfill,wazirx\r\n")
        let markdown = renderer.markdown([point], locale: Locale(identifier: "sv_SE"))
        #expect(markdown.hasPrefix("# BTC in SEK\n"))
        #expect(markdown.contains("| 2022-11-22 01:00 UTC | btcusdt | 171\u{00A0}447,50\u{00A0}kr | −1,25\u{00A0}% |  | 2022-11-21 | backfill | WazirX |"))
        #expect(renderer.markdown([], locale: Locale(identifier: "sv_SE")).hasSuffix("No stored runs hold this asset.\n"))
    }
}
