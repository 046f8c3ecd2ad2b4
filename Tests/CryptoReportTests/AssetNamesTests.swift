import Foundation
import Testing

@testable import CryptoReport

/// What each asset is called (`btc` → `Bitcoin`): WazirX's `market-status` list, read beside the
/// tickers, the built-in copy when it cannot be, and the names in the JSON report and on the page.
@Suite("Asset names")
struct AssetNamesTests {
    static let captureURL = Fixtures.samplesFolder.appendingPathComponent("market-status-2020-03-31.json")

    /// A `market-status` body with these assets (the JSON text of each `type` and `name`).
    static func body(_ assets: [(type: String, name: String)]) -> Data {
        let entries = assets.map { #"{"type":\#($0.type),"name":\#($0.name),"category":"crypto"}"# }
        return Data(#"{"markets":[],"assets":[\#(entries.joined(separator: ","))]}"#.utf8)
    }

    // MARK: - The decoder

    @Test("the real capture: 105 assets, each with its name")
    func capture() throws {
        let result = try AssetNamesDecoder().decode(try Fixtures.data(Self.captureURL))
        #expect(result.received == 105 && result.names.count == 105 && result.diagnostics.isEmpty)
        #expect(result.names["btc"] == "Bitcoin")
        #expect(result.names["eth"] == "Ethereum")
        #expect(result.names["wrx"] == "WazirX Token")
        #expect(result.names["usdt"] == "Tether USD")
        #expect(result.names["zrx"] == "0x Protocol")
        // Beyond ASCII is text like any other.
        #expect(result.names["xtbe"] == "TAMILBTC™ EDUCATION")
    }

    @Test("the built-in list is the capture, byte for byte")
    func builtIn() throws {
        #expect(EmbeddedSample.assetNames == (try Fixtures.data(Self.captureURL)), "the EmbedResources plugin's copy differs")
        #expect(ReportPipeline.builtInAssetNames == (try AssetNamesDecoder().decode(try Fixtures.data(Self.captureURL))))
    }

    @Test(
        "a name that is not one line of plain text is left out, and said; the rest are kept",
        arguments: [
            #""<b>Bit</b>""#, #""Bit & Co""#, #""Bit\"coin""#, #""Bit'coin""#, #""Bit\u0007coin""#, #""Bit\ncoin""#,
            #""\u202Enioctib""#, #""Bit\u200Bcoin""#, #""Bit\u2028coin""#, #""Bit\u0301\"""#, "\"\(String(repeating: "B", count: 65))\"",
            #""""#, #""   ""#, "42", "null", "[\"Bitcoin\"]",
        ])
    func hostileName(name: String) throws {
        let result = try AssetNamesDecoder().decode(Self.body([("\"eth\"", "\"Ethereum\""), ("\"btc\"", name)]))
        #expect(result.names == ["eth": "Ethereum"], "\(name)")
        #expect(result.received == 2)
        let note = try #require(result.diagnostics.first)
        #expect(result.diagnostics.count == 1 && note.source == .wazirxAssets && note.group == "name left out")
        let text = try #require(note.decoderNote)
        #expect(text.hasPrefix("left out asset #2 (btc): name "), "\(text)")
        // Said on one line, with nothing in it a terminal or a page would act on.
        #expect(!SourceText.containsUnsafe(text) && !text.contains("\n"), "\(text)")
    }

    @Test("a name of 64 characters is kept, and the blanks around a name go")
    func longestName() throws {
        let longest = String(repeating: "B", count: 64)
        let result = try AssetNamesDecoder().decode(Self.body([("\"btc\"", "\"\(longest)\""), ("\" ETH \"", "\"  Ethereum \"")]))
        #expect(result.names == ["btc": longest, "eth": "Ethereum"] && result.diagnostics.isEmpty)
    }

    @Test("entries without a usable asset, and an asset named twice, are left out, each group summed up")
    func badEntries() throws {
        let data = Data(
            #"""
            {"assets":[{"type":"btc","name":"Bitcoin"},{"name":"No type"},{"type":7,"name":"Seven"},"text",
            {"type":"bad\u202Easset","name":"Bidi"},{"type":"BTC","name":"Bitcoin again"},
            {"type":"a","name":"<1>"},{"type":"b","name":"<2>"},{"type":"c","name":"<3>"},{"type":"d","name":"<4>"},
            {"type":"e","name":"<5>"},{"type":"f","name":"<6>"},{"type":"g","name":"<7>"}]}
            """#.utf8)
        let result = try AssetNamesDecoder().decode(data)
        #expect(result.names == ["btc": "Bitcoin"] && result.received == 13)
        #expect(result.diagnostics.filter { $0.group == "no usable asset" }.count == 4)
        #expect(
            result.diagnostics.filter { $0.group == "the asset appeared before" }.map(\.decoderNote) == [
                "left out asset #6 (btc): the asset appeared before; the first name is kept"
            ])
        let summed = Diagnostic.summarised(result.diagnostics).filter { $0.group == "name left out" }
        #expect(summed.count == Diagnostic.keptPerGroup + 1)
        #expect(summed.last?.kind == .moreLikeIt(count: 2, group: "name left out"))
    }

    @Test("a body that is no list of names is an error, named as the feed's")
    func notAList() {
        let cases: [(Data, DataError)] = [
            (Data(), .empty(source: .wazirxAssets)),
            (Data("<!DOCTYPE html><html>busy</html>".utf8), .htmlInsteadOfData(source: .wazirxAssets, expected: AssetNamesDecoder.expected)),
            (Data(#"{"markets":[]}"#.utf8), .malformed(source: .wazirxAssets, expected: AssetNamesDecoder.expected, detail: "the JSON cannot be read")),
            (Data(#"{"code":2136,"message":"Too many requests"}"#.utf8), .apiError(source: .wazirxAssets, code: "2136", message: "Too many requests")),
            (
                Self.body([("\"btc\"", "\"<b>\"")]),
                .malformed(
                    source: .wazirxAssets, expected: AssetNamesDecoder.expected,
                    detail: "none of the 1 assets has a usable name; first: left out asset #1 (btc): name \"<b>\" is not plain text of up to 64 characters")
            ),
        ]
        for (data, error) in cases {
            #expect(throws: error) { try AssetNamesDecoder().decode(data) }
        }
    }

    // MARK: - Where the names are read

    @Test("the names are asked for only beside WazirX's own tickers, or where wazirx-assets says")
    func location() throws {
        let api = SourceLocation.http(try #require(URL(string: "https://api.wazirx.com/api/v2/market-status")))
        var fetch = FetchPolicy()
        #expect(try fetch.assetNamesLocation() == api)
        fetch.sources = [.binance, .wazirx]
        #expect(try fetch.assetNamesLocation() == api, "WazirX is among the sources")
        fetch.sources = [.binance]
        #expect(try fetch.assetNamesLocation() == nil, "Binance has no list: the built-in names")
        fetch.sources = [.wazirx]
        fetch.tickers = .file("saved.json")
        #expect(try fetch.assetNamesLocation() == nil, "replayed tickers: no request for names")
        fetch.sourceURLs = [SourceOverride(feed: .wazirxAssets, location: .file("names.json"))]
        #expect(try fetch.assetNamesLocation() == .file("names.json"))
        fetch.sample = true
        #expect(try fetch.assetNamesLocation() == nil, "the sample uses the built-in names")
        // `--source-url wazirx-assets=…`, and the file's `source_urls` table, read it alike.
        let flag = try #require(try SettingsLayer.key("source_urls")?.rule.text("wazirx-assets=saved/names.json") as? [SourceOverride])
        #expect(flag == [SourceOverride(feed: .wazirxAssets, location: .file("saved/names.json"))])
        let file = try ConfigFileReader().parse("[source_urls]\nwazirx-assets = \"https://mirror.example/status\"\n", path: "c.toml")
        let mirror = try #require(URL(string: "https://mirror.example/status"))
        #expect(try Settings(layers: [file]).fetch.assetNamesLocation() == .http(mirror))
    }

    // MARK: - In the pipeline

    static func request(_ cache: TemporaryFolder) -> Settings {
        var request = Settings()
        request.report.currency = "SEK"
        request.fetch.cacheDirectory = cache.url.path
        request.fetch.retry.retries = 0
        request.report.selection.markets = .all
        return request
    }

    static func client(names: ScriptedHTTPClient.Step?) throws -> PerSourceHTTPClient {
        var scripts: [DataSource: [ScriptedHTTPClient.Step]] = [
            .tickers: [.respond(HTTPResponse(status: 200, body: try Fixtures.tickers))],
            .rates: [.respond(HTTPResponse(status: 200, body: try Fixtures.rates))],
        ]
        if let names { scripts[.wazirxAssets] = [names] }
        return PerSourceHTTPClient(scripts)
    }

    static let liveNames = body([("\"btc\"", "\"Bitcoin (live)\""), ("\"eth\"", "\"Ether\"")])

    static func make(_ client: PerSourceHTTPClient, cache: TemporaryFolder, offline: Bool = false, at date: Date = Fixtures.captureTime)
        async throws -> (report: Report, warnings: [String])
    {
        let log = LogRecorder()
        var request = request(cache)
        request.fetch.offline = offline
        let pipeline = ReportPipeline(http: client, clock: FixedClock(date), sleeper: RecordingSleeper(), logger: log.logger)
        let report = try await pipeline.makeReport(request)
        return (report, log.messages.filter { $0.contains("asset names") })
    }

    static func name(_ report: Report, _ symbol: String) -> String? {
        report.rows.first { $0.symbol == symbol }?.name
    }

    @Test("the live list names the markets and is cached; it is no source of the report's figures")
    func live() async throws {
        let cache = try TemporaryFolder()
        let client = try Self.client(names: .respond(HTTPResponse(status: 200, body: Self.liveNames)))
        let (report, warnings) = try await Self.make(client, cache: cache)
        #expect(client.calls(.wazirxAssets) == 1 && warnings.isEmpty)
        #expect(Self.name(report, "btcusdt") == "Bitcoin (live)" && Self.name(report, "ethinr") == "Ether")
        #expect(Self.name(report, "wrxinr") == nil, "only the live list counts: it does not name WRX")
        #expect(report.sources.map(\.source) == [.tickers, .rates])
        #expect(PayloadCache(directory: cache.url).load(.wazirxAssets)?.data == Self.liveNames)
    }

    @Test(
        "a failed list never fails the report: the built-in names, and one warning",
        arguments: [
            ScriptedHTTPClient.Step.fail(
                .unreachable(source: .wazirxAssets, location: "https://api.wazirx.com/api/v2/market-status", reason: "the connection was refused")),
            .respond(HTTPResponse(status: 500, body: Data("Internal Server Error".utf8))),
            .respond(HTTPResponse(status: 200, body: Data("<!DOCTYPE html><html></html>".utf8))),
            .respond(HTTPResponse(status: 200, body: Data(#"{"assets":"#.utf8))),
            .fail(.tooLarge(source: .wazirxAssets, location: "https://api.wazirx.com/api/v2/market-status", limit: 10)),
        ])
    func failed(step: ScriptedHTTPClient.Step) async throws {
        let cache = try TemporaryFolder()
        let (report, warnings) = try await Self.make(try Self.client(names: step), cache: cache)
        #expect(Self.name(report, "btcusdt") == "Bitcoin" && Self.name(report, "wrxinr") == "WazirX Token")
        #expect(warnings.count == 1, "\(warnings)")
        #expect(warnings.first?.hasPrefix("WazirX asset names: ") == true)
        #expect(warnings.first?.hasSuffix(" Using the built-in asset names (WazirX's list of 2020-03-31) instead.") == true, "\(warnings)")
        #expect(report.notices.isEmpty && !report.diagnostics.contains { $0.source == .wazirxAssets })
    }

    @Test("a failed list falls back to its cached copy, however old, with one warning")
    func cached() async throws {
        let cache = try TemporaryFolder()
        _ = try await Self.make(try Self.client(names: .respond(HTTPResponse(status: 200, body: Self.liveNames))), cache: cache)
        let weekLater = Fixtures.captureTime.addingTimeInterval(7 * 86400)
        let failing = try Self.client(names: .respond(HTTPResponse(status: 503, body: Data("busy".utf8))))
        // The tickers and rates are fetched again; only the names fail.
        let (report, warnings) = try await Self.make(failing, cache: cache, at: weekLater)
        #expect(Self.name(report, "btcusdt") == "Bitcoin (live)")
        #expect(warnings.count == 1 && warnings.first?.contains("Using the cached copy fetched 2022-11-22 01:00 UTC instead.") == true, "\(warnings)")
    }

    @Test("--offline: the cached list, else the built-in one, without a word")
    func offline() async throws {
        let cache = try TemporaryFolder()
        _ = try await Self.make(try Self.client(names: .fail(.unreachable(source: .wazirxAssets, location: "x", reason: "down"))), cache: cache)
        let unasked = try Self.client(names: nil)
        var (report, warnings) = try await Self.make(unasked, cache: cache, offline: true)
        #expect(Self.name(report, "btcusdt") == "Bitcoin" && warnings.isEmpty && unasked.calls(.wazirxAssets) == 0)

        _ = try await Self.make(try Self.client(names: .respond(HTTPResponse(status: 200, body: Self.liveNames))), cache: cache)
        (report, warnings) = try await Self.make(unasked, cache: cache, offline: true)
        #expect(Self.name(report, "btcusdt") == "Bitcoin (live)" && warnings.isEmpty && unasked.calls(.wazirxAssets) == 0)
    }

    @Test("names left out of a live list are the report's warnings; the others are used")
    func partlyBad() async throws {
        let cache = try TemporaryFolder()
        let body = Self.body([("\"btc\"", "\"Bit<script>\""), ("\"eth\"", "\"Ethereum\"")])
        let (report, warnings) = try await Self.make(try Self.client(names: .respond(HTTPResponse(status: 200, body: body))), cache: cache)
        #expect(Self.name(report, "btcusdt") == nil && Self.name(report, "ethusdt") == "Ethereum" && warnings.isEmpty)
        #expect(
            report.diagnostics == [
                Diagnostic(.wazirxAssets, #"left out asset #1 (btc): name "Bit<script>" is not plain text of up to 64 characters"#)
            ])
        #expect(DiagnosticText.lines(report).contains { $0.hasPrefix("WazirX asset names: left out asset #1 (btc)") })
    }

    @Test("the sample: the built-in names, nothing asked, nothing said")
    func sample() async throws {
        let log = LogRecorder()
        var request = Settings()
        request.fetch.sample = true
        let client = try Self.client(names: nil)
        let report = try await ReportPipeline(http: client, clock: FixedClock(Fixtures.reportTime), logger: log.logger).makeReport(request)
        #expect(client.calls(.wazirxAssets) == 0 && !log.messages.contains { $0.contains("asset names") }, "\(log.messages)")
        #expect(Self.name(report, "btcusdt") == "Bitcoin" && Self.name(report, "usdtinr") == "Tether USD")
        // The sample's assets WazirX listed in 2020 have names; those it listed later have none.
        let named = Set(report.rows.filter { $0.name != nil }.map(\.baseAsset))
        #expect(named.count == 58 && Set(report.rows.map(\.baseAsset)).count == 267)
    }

    // MARK: - The command

    @Test("the command: a list that fails over HTTP costs one warning line, and the report is written with the built-in names")
    func commandFallback() throws {
        let server = try LoopbackServer(routes: [
            "/broken": LoopbackServer.Response(status: 500, body: Data("Internal Server Error".utf8), contentType: "text/plain"),
            "/names": LoopbackServer.Response(status: 200, body: Self.liveNames),
        ])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        func run(_ names: String) throws -> ExecutableTests.Run {
            try ExecutableTests.run(
                [
                    "--no-config", "--tickers-url", Fixtures.tickersURL.path, "--ecb-url", Fixtures.ratesURL.path,
                    "--source-url", "wazirx-assets=" + server.url(names), "--retries", "0", "--symbols", "btcusdt",
                    "--format", "json", "--output", "-",
                ], in: folder.url)
        }
        let failed = try run("/broken")
        #expect(failed.status == 0 && failed.stdout.contains(#""name" : "Bitcoin""#))
        let lines = failed.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains("WazirX asset names: ") && lines[0].contains("500"), "\(failed.stderr)")
        #expect(lines.first?.hasSuffix(ReportPipeline.usingBuiltInNames) == true, "\(failed.stderr)")

        let live = try run("/names")
        #expect(live.status == 0 && live.stdout.contains(#""name" : "Bitcoin (live)""#) && live.stderr.isEmpty, "\(live.stderr)")
    }

    @Test("--sample: the names in the JSON report and on the page")
    func commandSample() throws {
        let folder = try TemporaryFolder()
        let json = try ExecutableTests.run(["--sample", "--no-config", "--symbols", "btcusdt", "--format", "json", "--output", "-"], in: folder.url)
        #expect(json.status == 0 && json.stdout.contains(#""name" : "Bitcoin""#) && json.stderr.isEmpty)
        let page = try ExecutableTests.run(["--sample", "--no-config", "--symbols", "eth", "--format", "html", "--output", "-"], in: folder.url)
        #expect(page.status == 0 && page.stdout.contains(#"<span class="asset-name">Ethereum</span><span class="sym">ethusdt</span>"#))
    }

    // MARK: - In the reports

    @Test("JSON: each market's name, absent (not null) when unknown, as the encoder writes it")
    func json() async throws {
        var request = Settings()
        request.fetch.sample = true
        request.report.selection = Selection(markets: .all, symbols: ["btc", "wrx", "shib"])
        let report = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).makeReport(request)
        let text = try JSONRenderer().render(report)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let markets = try #require(document["markets"] as? [[String: Any]])
        let names = Dictionary(markets.map { ($0["symbol"] as? String ?? "", $0["name"] as? String ?? "(absent)") }, uniquingKeysWith: { a, _ in a })
        #expect(names["btcusdt"] == "Bitcoin" && names["wrxinr"] == "WazirX Token" && names["shibinr"] == "(absent)")
        #expect(markets.allSatisfy { $0["name"] is String || !$0.keys.contains("name") })
        // The hand-written markets are the encoder's bytes.
        let encoded = try JSONRenderer.encode(JSONRenderer.Document(report))
        #expect(text == String(decoding: encoded, as: UTF8.self) + "\n")
    }

    @Test("the page: the name beside the symbol and on top of the detail, written as the template writes it")
    func page() throws {
        var report = try MarkdownTemplateTests.build(try Fixtures.tickers, currency: "USD") {
            $0.report.selection = Selection(markets: .all, symbols: ["btc", "shib"])
        }
        for index in report.rows.indices {
            report.rows[index].name = ReportPipeline.builtInAssetNames.names[report.rows[index].baseAsset]
        }
        // A name the decoder would refuse, to show both writers escape it alike.
        if let index = report.rows.firstIndex(where: { $0.symbol == "btcinr" }) { report.rows[index].name = "Bit & \"coin\"" }
        let model = ReportViewModel(report)
        try PageTemplateTests.expectSame(model, "names")
        let page = PageTemplateTests.page(model)
        #expect(page.contains(#"</a></div><span class="asset-name">Bitcoin</span><span class="sym">btcusdt</span></th>"#))
        // The detail's heading takes the name from the row, into the detail's markup.
        #expect(page.contains(#"<template id="detail"><section class="detail" role="dialog" aria-modal="true"><div class="detail-card">"#))
        #expect(page.contains(#"<h2><span class="asset-name"></span> <span class="d-pair"></span> <span class="sym" aria-hidden="true"></span></h2>"#))
        #expect(page.contains(#"<span class="asset-name">Bit &amp; &quot;coin&quot;</span>"#))
        #expect(page.contains(#"</a></div><span class="sym">shibusdt</span></th>"#), "no name, no empty line")
    }
}
