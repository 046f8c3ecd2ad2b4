import Foundation
import Testing

@testable import CryptoReport

@Suite("Backfill from klines and the ECB 90-day file", .serialized, .timeLimit(.minutes(1)))
struct BackfillTests {
    typealias Response = LoopbackServer.Response

    /// Three primary markets; klines for 2025-02-20…22, days the real 90-day file covers.
    static let tickers = Fixtures.tickerJSON([
        Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "95000"),
        Fixtures.ticker("btcinr", base: "btc", quote: "inr", last: "8300000"),
        Fixtures.ticker("ethusdt", base: "eth", quote: "usdt", last: "2700"),
        Fixtures.ticker("wrxinr", base: "wrx", quote: "inr", last: "20"),
    ])
    static let days: [Double] = [1_740_009_600, 1_740_096_000, 1_740_182_400]  // 2025-02-20, 21, 22 00:00 UTC

    static func klines(_ closes: [String]) -> Data {
        let rows = zip(days, closes).map { time, close in "[\(Int(time)),\"\(close)\",\"\(close)\",\"\(close)\",\"\(close)\",\"12.5\"]" }
        return Data(("[" + rows.joined(separator: ",") + "]").utf8)
    }

    static func path(_ symbol: String) -> String { "/sapi/v1/klines?symbol=\(symbol)&interval=1d&limit=3" }

    static func server(wrx: Response? = nil, ethFirst: [Response] = []) throws -> LoopbackServer {
        try LoopbackServer(
            routes: [
                "/sapi/v1/tickers/24hr": Response(status: 200, body: tickers),
                "/hist.xml": Response(status: 200, body: try Fixtures.data(Fixtures.historyURL), contentType: "text/xml"),
                path("btcusdt"): Response(status: 200, body: klines(["96000", "97000", "98000"])),
                path("ethusdt"): Response(status: 200, body: klines(["2600", "2650", "2700"])),
                path("wrxinr"): wrx ?? Response(status: 200, body: klines(["19", "19.5", "20"])),
            ],
            sequences: [path("ethusdt"): ethFirst])
    }

    static func options(_ server: LoopbackServer, retries: Int = 3) -> Backfiller.Options {
        var options = Backfiller.Options()
        options.days = 3
        options.apiBase = server.url("")
        options.ratesHistoryURL = server.url("/hist.xml")
        options.retry = RetryPolicy(retries: retries)
        options.timeout = 5
        return options
    }

    @Test("fills one run per day with each day's ECB rates; a 429 mid-way is waited out")
    func backfill() async throws {
        let server = try Self.server(ethFirst: [Response(status: 429, body: Data(), headers: ["Retry-After": "1"])])
        defer { server.stop() }
        let store = try HistoryStore()
        let sleeper = RecordingSleeper()
        let outcome = try await Backfiller(store: store, sleeper: sleeper).run(Self.options(server))
        #expect(outcome == Backfiller.Outcome(markets: 3, fetched: 3, skipped: 0, rateDays: 61))
        #expect(sleeper.recorded.contains(1), "Retry-After: 1 honoured")
        #expect(sleeper.recorded.allSatisfy { $0 >= 1 }, "never more than one request per second")
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        #expect(runs.count == 3)
        #expect(runs.allSatisfy { $0.kind == .backfill })
        let first = try store.snapshot(of: runs[0])
        #expect(first.tickers.map(\.symbol).sorted() == ["btcusdt", "ethusdt", "wrxinr"])
        #expect(first.rates?.date == "2025-02-20")
        // The series matches the stored closes at each day's rate.
        let points = try HistoryExporter(store: store).series(symbol: "btc", currency: "SEK", days: 3650, now: Date())
        #expect(points.count == 3)
        let sek = try #require(first.rates?.perEuro["SEK"])
        let usd = try #require(first.rates?.perEuro["USD"])
        #expect(points[0].row.price == 96000 * (sek / usd))
    }

    @Test("an interrupted backfill resumes where it stopped")
    func resume() async throws {
        let store = try HistoryStore()
        let broken = try Self.server(wrx: Response(status: 500, body: Data("down".utf8)))
        await #expect(throws: FetchError.httpStatus(source: .tickers, location: broken.url(Self.path("wrxinr")), status: 500)) {
            try await Backfiller(store: store, sleeper: RecordingSleeper()).run(Self.options(broken, retries: 0))
        }
        broken.stop()
        #expect(try store.backfilled("btcusdt", days: 3))
        #expect(try store.backfilled("wrxinr", days: 3) == false)

        let healthy = try Self.server()
        defer { healthy.stop() }
        let outcome = try await Backfiller(store: store, sleeper: RecordingSleeper()).run(Self.options(healthy))
        #expect(outcome.fetched == 1 && outcome.skipped == 2)
        #expect(healthy.requests.map(\.path).filter { $0.hasPrefix("/sapi/v1/klines") } == [Self.path("wrxinr")])
    }

    @Test("the streaming reader reads the real 90-day file like the tree parser")
    func streamingReader() throws {
        let data = try Fixtures.data(Fixtures.historyURL)
        let streamed = try ECBHistoryReader().read(data)
        let tree = try ECBRatesParser().parseDays(data)
        #expect(streamed.count == 61)
        #expect(streamed == tree)
        #expect(throws: DataError.self) { try ECBHistoryReader().read(Data("<!DOCTYPE x [<!ENTITY a 'b'>]><x/>".utf8)) }
        #expect(throws: DataError.self) { try ECBHistoryReader().read(Data("<a><b></a>".utf8)) }
    }

    @Test("klines: numbers or strings; bad rows dropped; error bodies are clear")
    func klines() throws {
        let decoded = try KlinesDecoder().decode(Data("[[1740009600,1,2,0.5,1.5,10],[\"x\"],[1740096000,\"1\",\"2\",\"1\",\"0\",\"3\"]]".utf8), symbol: "a")
        #expect(decoded.count == 1)
        #expect(decoded.first?.close == Fixtures.decimal("1.5"))
        #expect(throws: DataError.apiError(source: .tickers, code: "-1121", message: "Invalid symbol.")) {
            try KlinesDecoder().decode(Data(#"{"code":-1121,"message":"Invalid symbol."}"#.utf8), symbol: "a")
        }
    }

    @Test("progress: a bar on a terminal, plain lines otherwise")
    func progressLines() {
        #expect(BackfillProgress.line(done: 2, total: 4, symbol: "btcusdt", terminal: false) == "backfill: 2/4 btcusdt\n")
        #expect(BackfillProgress.line(done: 2, total: 4, symbol: "btcusdt", terminal: true).hasPrefix("\r███████████████░░░░░░░░░░░░░░░ 2/4"))
    }
}
