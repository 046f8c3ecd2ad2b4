import Foundation
import Testing

@testable import CryptoReport

@Suite("Cache and offline fallback")
struct CacheTests {
    static let fetchTime = Fixtures.captureTime
    static let down = ScriptedHTTPClient.Step.fail(
        .unreachable(source: .tickers, location: SourceLocation.defaultTickersURL, reason: "the connection was refused"))

    static func good() throws -> PerSourceHTTPClient {
        PerSourceHTTPClient([
            .tickers: [.respond(HTTPResponse(status: 200, body: try Fixtures.tickers))],
            .rates: [.respond(HTTPResponse(status: 200, body: try Fixtures.rates))],
        ])
    }

    static func request(_ cache: TemporaryFolder) -> Settings {
        var request = Settings()
        request.report.currency = "SEK"
        request.fetch.cacheDirectory = cache.url.path
        request.fetch.retry.retries = 0
        return request
    }

    static func pipeline(_ client: any HTTPClient, at date: Date = fetchTime) -> ReportPipeline {
        ReportPipeline(http: client, clock: FixedClock(date), sleeper: RecordingSleeper())
    }

    /// Fills the cache with a successful live run.
    static func warm(_ cache: TemporaryFolder) async throws {
        let report = try await pipeline(try good()).makeReport(request(cache))
        #expect(report.sources.map(\.status) == [.live, .live])
        #expect(report.notices.isEmpty)
    }

    @Test("a successful fetch is cached, raw, with its fetch time")
    func stores() async throws {
        let cache = try TemporaryFolder()
        try await Self.warm(cache)
        let stored = try #require(PayloadCache(directory: cache.url).load(.tickers))
        #expect(stored.data == (try Fixtures.tickers))
        #expect(stored.fetchedAt == Self.fetchTime)
        #expect(stored.location == SourceLocation.defaultTickersURL)
    }

    @Test("a failed source falls back to its cached copy and says so in every format")
    func fallback() async throws {
        let cache = try TemporaryFolder()
        try await Self.warm(cache)
        let failing = PerSourceHTTPClient([.tickers: [Self.down], .rates: [.respond(HTTPResponse(status: 200, body: try Fixtures.rates))]])
        let later = Self.fetchTime.addingTimeInterval(3 * 3600)
        let report = try await Self.pipeline(failing, at: later).makeReport(Self.request(cache))
        #expect(report.sources.map(\.status) == [.cached, .live])
        let banner =
            "Tickers from cache, fetched 2022-11-22 01:00 UTC — live fetch failed: cannot reach \(SourceLocation.defaultTickersURL): the connection was refused."
        #expect(report.notices.map(NoticeText.text) == [banner])
        // The cached tickers are judged against their own fetch, so they are not stale.
        #expect(report.freshness.staleMarkets == 0)
        let templates = try TemplateRenderer()
        let pipeline = ReportPipeline()
        #expect(try pipeline.render(report, as: .markdown, templates: templates).contains("> - ⚠ **Tickers from cache, fetched 2022-11-22 01:00 UTC"))
        #expect(
            try pipeline.render(report, as: .html, templates: templates).contains(
                "<li>Tickers från cache, hämtade 2022-11-22 01:00 UTC — hämtningen misslyckades: cannot reach"),
            "the SEK page in Swedish, the fetch error as worded")
        let json = try pipeline.render(report, as: .json, templates: templates)
        #expect(json.contains(#""status" : "cached""#))
        #expect(json.contains(#""live_error" : "cannot reach"#))
    }

    @Test("--strict makes a fallback an error")
    func strict() async throws {
        let cache = try TemporaryFolder()
        try await Self.warm(cache)
        var request = Self.request(cache)
        request.fetch.strict = true
        let failing = PerSourceHTTPClient([.tickers: [Self.down], .rates: [.respond(HTTPResponse(status: 200, body: try Fixtures.rates))]])
        await #expect(throws: FetchError.unreachable(source: .tickers, location: SourceLocation.defaultTickersURL, reason: "the connection was refused")) {
            try await Self.pipeline(failing).makeReport(request)
        }
    }

    @Test("a cached copy older than --max-age is not used")
    func tooOld() async throws {
        let cache = try TemporaryFolder()
        try await Self.warm(cache)
        let failing = PerSourceHTTPClient([.tickers: [Self.down], .rates: [.respond(HTTPResponse(status: 200, body: try Fixtures.rates))]])
        await #expect(throws: FetchError.self) {
            try await Self.pipeline(failing, at: Self.fetchTime.addingTimeInterval(25 * 3600)).makeReport(Self.request(cache))
        }
        var request = Self.request(cache)
        request.fetch.maxAge.tickers = 2 * 86400
        let report = try await Self.pipeline(failing, at: Self.fetchTime.addingTimeInterval(25 * 3600)).makeReport(request)
        #expect(report.sources.first?.status == .cached)
    }

    @Test("an unusable live body falls back too, and is not cached")
    func badBodyFallsBack() async throws {
        let cache = try TemporaryFolder()
        try await Self.warm(cache)
        let html = PerSourceHTTPClient([
            .tickers: [.respond(HTTPResponse(status: 200, body: Data("<html>challenge</html>".utf8)))],
            .rates: [.respond(HTTPResponse(status: 200, body: try Fixtures.rates))],
        ])
        let report = try await Self.pipeline(html).makeReport(Self.request(cache))
        #expect(report.sources.first?.status == .cached)
        #expect(PayloadCache(directory: cache.url).load(.tickers)?.data == (try Fixtures.tickers))
    }

    @Test("--offline reads only the cache and makes no request")
    func offline() async throws {
        let cache = try TemporaryFolder()
        try await Self.warm(cache)
        var request = Self.request(cache)
        request.fetch.offline = true
        let client = PerSourceHTTPClient([:])
        let report = try await Self.pipeline(client).makeReport(request)
        #expect(client.calls(.tickers) == 0 && client.calls(.rates) == 0)
        #expect(report.sources.map(\.status) == [.cached, .cached])
        #expect(report.notices.first.map(NoticeText.text) == "Tickers from cache, fetched 2022-11-22 01:00 UTC — offline run")
    }

    @Test("--offline without a cache is a clear error")
    func offlineWithoutCache() async throws {
        let cache = try TemporaryFolder()
        var request = Self.request(cache)
        request.fetch.offline = true
        await #expect {
            try await Self.pipeline(PerSourceHTTPClient([:])).makeReport(request)
        } throws: { error in
            guard case .notCached? = error as? FetchError else { return false }
            return (error as? FetchError)?.exitStatus == .unavailable
        }
    }

    /// The copy is there but cannot be trusted: each refusal says why, and the run fails as with
    /// no copy at all.
    @Test(
        "a cached copy from another URL, dated in the future, or damaged is not used, with a warning saying why",
        arguments: ["other-url", "future", "damaged", "unreadable"])
    func untrustworthyCopy(kind: String) async throws {
        let cache = try TemporaryFolder()
        try await Self.warm(cache)
        let record = cache.url.appendingPathComponent("tickers.fetch.json")
        let body = cache.url.appendingPathComponent("tickers-24hr.json")
        let stored = try String(contentsOf: record, encoding: .utf8)
        let expected: String
        switch kind {
        case "other-url":
            try Data(stored.replacingOccurrences(of: "api.wazirx.com", with: "mirror.example").utf8).write(to: record)
            expected =
                "WazirX tickers: the cached copy was fetched from https://mirror.example/sapi/v1/tickers/24hr, not https://api.wazirx.com/sapi/v1/tickers/24hr."
        case "future":
            try Data(stored.replacingOccurrences(of: "2022-11-22T01:00:00Z", with: "2099-01-01T00:00:00Z").utf8).write(to: record)
            expected = "WazirX tickers: the cached copy says it was fetched 2099-01-01 00:00 UTC, in the future."
        case "damaged":
            try Data("[".utf8).write(to: body)
            expected = "WazirX tickers: the cached copy in \(cache.url.path) is damaged (its body and record disagree)."
        default:
            let bytes = try Data(contentsOf: body).count
            try Data(repeating: UInt8(ascii: " "), count: bytes).write(to: body)
            expected = "WazirX tickers: the cached copy in \(cache.url.path) no longer reads."
        }
        #expect(try String(contentsOf: record, encoding: .utf8) != stored || kind == "damaged" || kind == "unreadable")
        var request = Self.request(cache)
        request.fetch.offline = true
        let log = LogRecorder()
        var pipeline = Self.pipeline(PerSourceHTTPClient([:]))
        pipeline.logger = log.logger
        await #expect(throws: FetchError.self) {
            try await pipeline.makeReport(request)
        }
        #expect(log.messages.contains(expected), "\(log.messages)")
    }

    @Test("the default cache folder follows XDG")
    func defaultFolder() {
        #expect(PayloadCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "/x/cache", "HOME": "/home/u"]).path == "/x/cache/cryptoreport")
        #expect(PayloadCache.defaultDirectory(environment: ["HOME": "/home/u"]).path == "/home/u/.cache/cryptoreport")
        #expect(PayloadCache.defaultDirectory(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/home/u"]).path == "/home/u/.cache/cryptoreport")
    }
}
