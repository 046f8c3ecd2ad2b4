import Foundation
import Testing

@testable import CryptoReport

/// `--source`: Binance and Binance.US beside WazirX, a fallback order, on loopback servers.
@Suite("Exchanges in fallback order", .serialized, .timeLimit(.minutes(4)))
struct SourceFallbackTests {
    typealias Response = LoopbackServer.Response

    static let binanceFolder = Fixtures.fixturesFolder.appendingPathComponent("binance")
    static var binanceTickers: Data { get throws { try Data(contentsOf: binanceFolder.appendingPathComponent("ticker-24hr-2020-04-15.json")) } }
    static var binanceInfo: Data { get throws { try Data(contentsOf: binanceFolder.appendingPathComponent("exchangeInfo-2020-04-15.json")) } }
    static let binanceRates = binanceFolder.appendingPathComponent("eurofxref-daily-2020-04-15.xml")
    /// A minute after the Binance capture's newest closeTime (2020-04-15 23:44 UTC).
    static let binanceTime = Date(timeIntervalSince1970: 1_586_994_340)

    /// The binance routes answer as Binance did; `wazirx` and `us` as given.
    static func server(wazirx: Response = Response(status: 503, body: Data("busy".utf8)), us: Response? = nil) throws -> LoopbackServer {
        var routes: [String: Response] = [
            "/wazirx": wazirx,
            "/binance/ticker": Response(status: 200, body: try binanceTickers),
            "/binance/info": Response(status: 200, body: try binanceInfo),
            "/us/info": Response(status: 200, body: try binanceInfo),
            "/gone": Response(status: 451, body: Data(#"{"code":0,"msg":"Service unavailable from a restricted location."}"#.utf8)),
        ]
        routes["/us/ticker"] = try us ?? Response(status: 200, body: binanceTickers)
        return try LoopbackServer(routes: routes)
    }

    static func settings(_ server: LoopbackServer, sources: [Exchange]) -> Settings {
        var settings = Settings()
        settings.fetch.sources = sources
        settings.fetch.sourceURLs = [
            (.tickers, "/wazirx"), (.binanceTickers, "/binance/ticker"), (.binanceInfo, "/binance/info"), (.binanceUSTickers, "/us/ticker"),
            (.binanceUSInfo, "/us/info"),
        ].compactMap { feed, path in URL(string: server.url(path)).map { SourceOverride(feed: feed, location: .http($0)) } }
        settings.fetch.rates = .file(binanceRates.path)
        settings.fetch.cacheDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("cryptoreport-cache-\(UUID().uuidString)").path
        settings.fetch.retry = RetryPolicy(retries: 0, baseDelay: 0.1)
        settings.fetch.timeout = .seconds(10)
        settings.output.noHistory = true
        return settings
    }

    static func pipeline() -> ReportPipeline { ReportPipeline(clock: FixedClock(binanceTime)) }

    /// The capture's own figure for a symbol, read with JSONSerialization, not the decoder.
    static func last(_ symbol: String) throws -> Decimal {
        let rows = try #require(try JSONSerialization.jsonObject(with: binanceTickers) as? [[String: Any]])
        let row = try #require(rows.first { $0["symbol"] as? String == symbol })
        let text = try #require(row["lastPrice"] as? String)
        return try #require(Decimal(string: text))
    }

    @Test("Binance alone: every market priced by the same rules, exact to the last digit")
    func binance() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var settings = Self.settings(server, sources: [.binance])
        settings.report.currency = "SEK"
        let report = try await Self.pipeline().makeReport(settings)
        #expect(report.notices.allSatisfy { $0.kind != .sourceFallback })
        #expect(report.sources.first?.location == server.url("/binance/ticker"))
        // SEK per USD from the ECB file of 2020-04-15: 10.9323 / 1.0903; USDT at par with USD.
        let sekPerUSD = Fixtures.decimal("10.9323") / Fixtures.decimal("1.0903")
        let btc = try #require(report.rows.first { $0.symbol == "btcusdt" })
        #expect(btc.price == (try Self.last("BTCUSDT")) * sekPerUSD)
        #expect(btc.baseAsset.lowercased() == "btc" && btc.quoteAsset.lowercased() == "usdt")
        // What Binance's feed leaves unpriced is said in Binance's name.
        #expect(
            report.diagnostics.contains {
                if case .leftOut(_, "ngn", _) = $0.kind { $0.source == .binanceTickers } else { false }
            })
        #expect(report.diagnostics.allSatisfy { $0.source != .tickers }, "\(report.diagnostics)")
    }

    @Test("a quote priced through its own USDT market: ETH/BTC in USD is ETHBTC × BTCUSDT")
    func throughAMarket() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var settings = Self.settings(server, sources: [.binance])
        settings.report.selection.markets = .all
        let report = try await Self.pipeline().makeReport(settings)
        let eth = try #require(report.rows.first { $0.symbol == "ethbtc" })
        #expect(eth.price == (try Self.last("ETHBTC")) * (try Self.last("BTCUSDT")))
        #expect(report.summary.ratesUsed.first { $0.quoteAsset == "btc" }?.via == "btcusdt")
    }

    @Test("WazirX answering 503 falls back to Binance, with a warning and a notice naming both")
    func fallback() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let report = try await Self.pipeline().makeReport(Self.settings(server, sources: [.wazirx, .binance]))
        #expect(report.sources.first?.location == server.url("/binance/ticker"))
        let reason = "WazirX tickers: \(server.url("/wazirx")) answered HTTP 503 Service Unavailable"
        #expect(report.notices.contains(.sourceFallback(failed: .wazirx, used: .binance, reason: reason)))
        #expect(
            NoticeText.text(.sourceFallback(failed: .wazirx, used: .binance, reason: reason))
                == "Markets from Binance, as WazirX failed: \(reason).")
    }

    @Test("Binance answering 451 (an address in the USA) falls back to Binance.US")
    func unavailableForLegalReasons() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var settings = Self.settings(server, sources: [.binance, .binanceUS])
        let gone = try #require(URL(string: server.url("/gone")))
        settings.fetch.sourceURLs.append(SourceOverride(feed: .binanceTickers, location: .http(gone)))
        let report = try await Self.pipeline().makeReport(settings)
        #expect(report.sources.first?.location == server.url("/us/ticker"))
        #expect(report.notices.contains { if case .sourceFallback(.binance, .binanceUS, _) = $0 { true } else { false } })
    }

    @Test("a source that hangs past --timeout falls back to the next")
    func hang() async throws {
        let server = try Self.server(wazirx: Response(status: 200, body: Data("[]".utf8), delay: 30))
        defer { server.stop() }
        var settings = Self.settings(server, sources: [.wazirx, .binance])
        settings.fetch.timeout = .milliseconds(1500)
        let report = try await Self.pipeline().makeReport(settings)
        #expect(
            report.notices.contains(
                .sourceFallback(failed: .wazirx, used: .binance, reason: "WazirX tickers: no answer from \(server.url("/wazirx")) within 1.5 s")))
    }

    @Test("--strict refuses a fallback: the first source's failure is the error")
    func strict() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var settings = Self.settings(server, sources: [.wazirx, .binance])
        settings.fetch.strict = true
        await #expect(throws: FetchError.httpStatus(source: .tickers, location: server.url("/wazirx"), status: 503)) {
            try await Self.pipeline().makeReport(settings)
        }
    }

    @Test("every source failing: the last one's error")
    func allFail() async throws {
        let server = try Self.server(us: Response(status: 418, body: Data()))
        defer { server.stop() }
        var settings = Self.settings(server, sources: [.wazirx, .binanceUS])
        settings.fetch.retry = RetryPolicy(retries: 0, baseDelay: 0.1)
        await #expect(throws: FetchError.httpStatus(source: .binanceUSTickers, location: server.url("/us/ticker"), status: 418)) {
            try await Self.pipeline().makeReport(settings)
        }
    }

    @Test("--source, --source-url and the file's sources and source_urls table read alike; a wrong name is one clear error")
    func settingsRead() throws {
        let flags = try #require(try SettingsLayer.key("sources")?.rule.text("wazirx, Binance") as? [Exchange])
        #expect(flags == [.wazirx, .binance])
        #expect(throws: InvalidSettingValue.self) { try SettingsLayer.key("sources")?.rule.text("wazirx,kraken") }
        #expect(throws: InvalidSettingValue.self) { try SettingsLayer.key("sources")?.rule.text("binance,binance") }
        let file = try ConfigFileReader().parse(
            "sources = [\"binance-us\", \"wazirx\"]\nusd_stablecoins = [\"usdt\", \"usds\"]\n[source_urls]\nbinance-us = \"saved/us.json\"\n",
            path: "c.toml")
        let settings = Settings(layers: [file])
        #expect(settings.fetch.sources == [.binanceUS, .wazirx])
        #expect(settings.report.stablecoins == ["usdt", "usds"])
        #expect(settings.fetch.sourceURLs == [SourceOverride(feed: .binanceUSTickers, location: .file("saved/us.json"))])
        #expect(try settings.fetch.location(of: .binanceUSTickers) == .file("saved/us.json"))
        let usInfo = try #require(URL(string: "https://api.binance.us/api/v3/exchangeInfo"))
        #expect(try settings.fetch.location(of: .binanceUSInfo) == .http(usInfo))
        #expect(throws: InvalidSettingValue.self) { try SettingsLayer.key("source_urls")?.rule.text("kraken=https://x") }
    }

    @Test("the command: --source wazirx,binance with --source-url files, the fallback said on standard error and in the report")
    func command() throws {
        let server = try Self.server()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(
            [
                "--source", "wazirx,binance", "--tickers-url", server.url("/wazirx"), "--retries", "0",
                "--source-url", "binance=" + Self.binanceFolder.appendingPathComponent("ticker-24hr-2020-04-15.json").path,
                "--source-url", "binance-info=" + Self.binanceFolder.appendingPathComponent("exchangeInfo-2020-04-15.json").path,
                "--ecb-url", Self.binanceRates.path, "--format", "json", "--output", "-", "--top", "2",
            ], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let said = "WazirX tickers: \(server.url("/wazirx")) answered HTTP 503 Service Unavailable"
        #expect(run.stderr.hasPrefix("cryptoreport: warning: \(said). Trying Binance instead (--source).\n"), "\(run.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let notices = try #require(json["notices"] as? [[String: Any]])
        #expect(notices.contains { $0["kind"] as? String == "source_fallback" && $0["text"] as? String == "Markets from Binance, as WazirX failed: \(said)." })
        let markets = try #require(json["markets"] as? [[String: Any]])
        #expect(markets.map { $0["symbol"] as? String } == ["btcusdt", "ethusdt"])
    }

    /// The capture with ADA/USDT's last price set to `last`.
    static func adaAt(_ last: String) throws -> Data {
        let text = String(decoding: try binanceTickers, as: UTF8.self)
        let old = #""lastPrice":"0.03183000","lastQty":"2464.60000000""#
        #expect(text.contains(old))
        return Data(text.replacingOccurrences(of: old, with: #""lastPrice":"\#(last)","lastQty":"2464.60000000""#).utf8)
    }

    @Test("--cross-check: an asset 5 % apart on two exchanges is a warning naming both prices; 1 % is not")
    func crossCheck() async throws {
        for (last, warned) in [("0.03342150", true), ("0.03214830", false)] {
            let server = try Self.server(us: Response(status: 200, body: try Self.adaAt(last)))
            defer { server.stop() }
            var settings = Self.settings(server, sources: [.binance, .binanceUS])
            settings.fetch.crossCheck = true
            let report = try await Self.pipeline().makeReport(settings)
            let found = report.diagnostics.filter { if case .crossCheck = $0.kind { true } else { false } }
            if warned {
                #expect(found.count == 1, "\(found)")
                #expect(
                    found.first.map(DiagnosticText.line)
                        == "Binance.US tickers: cross-check: ADA is 0.03183 USD on Binance but 0.0334215 USD on Binance.US, 5 % apart (over the 2 % of --cross-check-tolerance)"
                )
            } else {
                #expect(found.isEmpty, "\(found)")
            }
            // The page marks the asset's rows, and only them, written as its template writes them.
            #expect(
                report.priceGaps == (warned ? [Report.PriceGap(asset: "ada", other: .binanceUS, otherPrice: Fixtures.decimal("0.0334215"), percent: 5)] : []))
            let model = ReportViewModel(report)
            #expect(model.rows.filter(\.hasCrossCheck).map(\.symbol) == (warned ? ["adausdt"] : []))
            #expect(model.rows.first(where: \.hasCrossCheck)?.crossCheck == (warned ? "On Binance.US the price is +5.00% from this one" : nil))
            if warned {
                try PageTemplateTests.expectSame(model, "a row marked by the cross-check")
                #expect(
                    PageTemplateTests.page(model).contains(
                        "ADA/USDT <span class=\"xcheck\" title=\"On Binance.US the price is +5.00% from this one\">differs</span>"))
            }
            #expect(report.sources.first?.location == server.url("/binance/ticker"), "the report is the first exchange's")
        }
    }

    @Test("--cross-check: an exchange that cannot be read is said, and the report is still made")
    func crossCheckUnread() async throws {
        let server = try Self.server(us: Response(status: 503, body: Data("busy".utf8)))
        defer { server.stop() }
        var settings = Self.settings(server, sources: [.binance, .binanceUS])
        settings.fetch.crossCheck = true
        let report = try await Self.pipeline().makeReport(settings)
        #expect(
            report.diagnostics.map(DiagnosticText.line).contains(
                "Binance.US tickers: cross-check: Binance.US could not be read, so no price was compared with it: "
                    + "Binance.US tickers: \(server.url("/us/ticker")) answered HTTP 503 Service Unavailable"))
    }
}
