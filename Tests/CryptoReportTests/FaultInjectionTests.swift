import Foundation
import Testing

@testable import CryptoReport

/// The real HTTP client against a loopback server that misbehaves on purpose.
@Suite("Fault injection over loopback HTTP", .serialized, .timeLimit(.minutes(4)))
struct FaultInjectionTests {
    typealias Response = LoopbackServer.Response

    static func request(_ server: LoopbackServer, tickers: String = "/tickers", retries: Int = 3) -> Settings {
        var request = Settings()
        request.fetch.tickers = .at(server.url(tickers))
        request.fetch.rates = .at(server.url("/rates"), .rates)
        request.fetch.cacheDirectory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("cryptoreport-cache-\(UUID().uuidString)").path
        request.fetch.retry = RetryPolicy(retries: retries, baseDelay: 0.2)
        // Tests that wait for a time limit set their own; this one only keeps a broken run from hanging.
        request.fetch.timeout = .milliseconds(Int(10 * 1000))
        return request
    }

    static func server(tickers: [Response] = [], tickersRoute: Response? = nil) throws -> LoopbackServer {
        var routes = ["/rates": Response(status: 200, body: try Fixtures.rates, contentType: "text/xml")]
        routes["/tickers"] = try tickersRoute ?? Response(status: 200, body: try Fixtures.tickers)
        return try LoopbackServer(routes: routes, sequences: ["/tickers": tickers])
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    @Test("503 then 200: succeeds after a retry, a second or more later")
    func serviceUnavailableThenOK() async throws {
        let server = try Self.server(tickers: [Response(status: 503, body: Data("busy".utf8))])
        defer { server.stop() }
        let report = try await ReportPipeline().makeReport(Self.request(server))
        #expect(report.summary.counts.tickersReceived == 450)
        let times = server.requests.filter { $0.path == "/tickers" }.map(\.at)
        #expect(times.count == 2)
        #expect(Self.seconds(times[1] - times[0]) >= 1, "WazirX allows one request per second")
    }

    @Test("429 with Retry-After: 1 waits, then succeeds")
    func tooManyRequests() async throws {
        let server = try Self.server(tickers: [Response(status: 429, body: Data(), headers: ["Retry-After": "1"])])
        defer { server.stop() }
        let report = try await ReportPipeline().makeReport(Self.request(server))
        #expect(report.rows.isEmpty == false)
        #expect(server.requests.filter { $0.path == "/tickers" }.count == 2)
    }

    @Test("a server that never answers times out within the limit")
    func hang() async throws {
        let server = try Self.server(tickersRoute: Response(status: 200, body: Data("[]".utf8), delay: 30))
        defer { server.stop() }
        var request = Self.request(server, retries: 0)
        // The rates from a file: over HTTP they could time out first on a busy machine (a fresh
        // clone's build beside the tests), and the error would name them.
        request.fetch.rates = .file(Fixtures.ratesURL.path)
        request.fetch.timeout = .milliseconds(Int(2 * 1000))
        let started = ContinuousClock.now
        await #expect(throws: FetchError.timedOut(source: .tickers, location: server.url("/tickers"), seconds: 2)) {
            try await ReportPipeline().makeReport(request)
        }
        #expect(Self.seconds(ContinuousClock.now - started) < 10)
    }

    /// The time limit is exact to the millisecond, not whole seconds.
    @Test("a fractional --timeout is honoured: 1.5 s is not 1 s")
    func fractionalTimeout() async throws {
        let server = try Self.server(tickersRoute: Response(status: 200, body: Data("[]".utf8), delay: 30))
        defer { server.stop() }
        var request = Self.request(server, retries: 0)
        request.fetch.rates = .file(Fixtures.ratesURL.path)
        request.fetch.timeout = .milliseconds(Int(1.5 * 1000))
        let started = ContinuousClock.now
        await #expect(throws: FetchError.timedOut(source: .tickers, location: server.url("/tickers"), seconds: 1.5)) {
            try await ReportPipeline().makeReport(request)
        }
        #expect(Self.seconds(ContinuousClock.now - started) >= 1.4)
    }

    @Test("a connection reset is retried, and reported clearly when it persists")
    func reset() async throws {
        let server = try Self.server(tickersRoute: Response(status: 200, body: Data(), behaviour: .reset))
        defer { server.stop() }
        await #expect {
            try await ReportPipeline().makeReport(Self.request(server, retries: 1))
        } throws: { error in
            guard case let .exhausted(last, 2)? = error as? FetchError, case .unreachable(.tickers, _, _) = last else { return false }
            return (error as? FetchError)?.exitStatus == .unavailable
        }
        #expect(server.requests.filter { $0.path == "/tickers" }.count == 2)
    }

    @Test("a body cut short of its Content-Length is a network failure, then a success on retry")
    func truncated() async throws {
        let server = try Self.server(tickers: [Response(status: 200, body: try Fixtures.tickers, behaviour: .truncate(after: 5000))])
        defer { server.stop() }
        let report = try await ReportPipeline().makeReport(Self.request(server))
        #expect(report.summary.counts.tickersReceived == 450)
    }

    @Test("a body that stays cut short is reported as such, with how much arrived")
    func truncatedForGood() async throws {
        let server = try Self.server(tickersRoute: Response(status: 200, body: try Fixtures.tickers, behaviour: .truncate(after: 5000)))
        defer { server.stop() }
        let expected = try Fixtures.tickers.count
        await #expect(throws: FetchError.cutShort(source: .tickers, location: server.url("/tickers"), received: 5000, expected: expected)) {
            try await ReportPipeline().makeReport(Self.request(server, retries: 0))
        }
        #expect(
            FetchError.cutShort(source: .tickers, location: "u", received: 5000, expected: expected).errorDescription
                == "WazirX tickers: the answer from u was cut short (5000 of \(expected) bytes).")
    }

    /// A gzip body is counted after decoding, so its declared (encoded) length says nothing of
    /// how much arrived: the message says it broke off, without figures.
    @Test("a gzip body cut short is reported as broken off")
    func truncatedGzip() async throws {
        // 40 tickers as JSON, gzip-compressed (Python's gzip.compress, mtime 0): 133 bytes.
        let gzip: [UInt8] = [
            31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 237, 205, 59, 10, 128, 48, 20, 68, 209, 173, 72, 106, 139, 36, 69, 252, 116, 238, 192, 94, 44, 18, 77, 33, 68, 130,
            190, 103, 33, 226, 222, 53, 160, 184, 1, 203, 233, 134, 203, 192, 233, 14, 65, 251, 236, 98, 16, 117, 38, 28, 15, 27, 141, 44, 242, 123, 90, 242,
            13, 145, 231, 167, 167, 182, 108, 145, 191, 248, 62, 131, 37, 110, 215, 105, 240, 41, 42, 35, 165, 76, 213, 166, 143, 50, 166, 146, 69, 169, 43,
            125, 215, 51, 207, 96, 193, 130, 5, 11, 22, 44, 88, 176, 96, 193, 130, 5, 11, 22, 44, 88, 176, 254, 183, 250, 11, 27, 128, 110, 104, 224, 16, 0, 0,
        ]
        let cut = Response(
            status: 200, body: Data(gzip), headers: ["Content-Encoding": "gzip"], behaviour: .truncate(after: 60))
        let server = try Self.server(tickersRoute: cut)
        defer { server.stop() }
        await #expect(throws: FetchError.cutShort(source: .tickers, location: server.url("/tickers"), received: nil, expected: nil)) {
            try await ReportPipeline().makeReport(Self.request(server, retries: 0))
        }
        #expect(
            FetchError.cutShort(source: .tickers, location: "u", received: nil, expected: nil).errorDescription
                == "WazirX tickers: the answer from u broke off before it was complete.")
        // Whole, the same body decodes: the test server's gzip is sound.
        let whole = try Self.server(tickersRoute: Response(status: 200, body: Data(gzip), headers: ["Content-Encoding": "gzip"]))
        defer { whole.stop() }
        #expect(try await ReportPipeline().makeReport(Self.request(whole, retries: 0)).summary.counts.tickersReceived == 40)
    }

    @Test("a 200 HTML page is bad data and is not retried")
    func htmlPage() async throws {
        let page = Response(status: 200, body: Data("<!DOCTYPE html><title>Just a moment...</title>".utf8), contentType: "text/html")
        let server = try Self.server(tickersRoute: page)
        defer { server.stop() }
        await #expect(throws: DataError.htmlInsteadOfData(source: .tickers, expected: "a JSON array of tickers")) {
            try await ReportPipeline().makeReport(Self.request(server))
        }
        #expect(server.requests.filter { $0.path == "/tickers" }.count == 1)
    }

    @Test("a slow trickle is cut off by the run's deadline")
    func trickle() async throws {
        let slow = Response(status: 200, body: try Fixtures.tickers, behaviour: .trickle(bytes: 100, every: 0.2))
        let server = try Self.server(tickersRoute: slow)
        defer { server.stop() }
        var request = Self.request(server)
        request.fetch.rates = .file(Fixtures.ratesURL.path)
        request.fetch.timeout = .milliseconds(Int(30 * 1000))
        request.fetch.deadline = .seconds(2)
        let started = ContinuousClock.now
        await #expect(throws: FetchError.deadlinePassed(source: .tickers, seconds: 2)) {
            try await ReportPipeline().makeReport(request)
        }
        #expect(Self.seconds(ContinuousClock.now - started) < 10)
    }

    @Test("a source that fails for good stops the other one's retries at once", arguments: [0.0, 30.0])
    func firstFailureCancelsTheOther(tickersDelay: Double) async throws {
        let busy = Response(status: 503, body: Data("busy".utf8), delay: tickersDelay)
        let server = try LoopbackServer(routes: [
            "/tickers": busy, "/rates": Response(status: 404, body: Data("gone".utf8), contentType: "text/plain"),
        ])
        defer { server.stop() }
        var request = Self.request(server)
        request.fetch.timeout = .milliseconds(Int(20 * 1000))
        let started = ContinuousClock.now
        await #expect(throws: FetchError.httpStatus(source: .rates, location: server.url("/rates"), status: 404)) {
            try await ReportPipeline().makeReport(request)
        }
        #expect(Self.seconds(ContinuousClock.now - started) < 5, "not after the tickers' retries or time limit")
        // The rates may fail before the ticker request even reaches the server.
        #expect(server.requests.filter { $0.path == "/tickers" }.count <= 1, "no ticker retry once the run has failed")
    }

    @Test("when both sources fail at once, the tickers' error is the one reported, every time")
    func bothFail() async throws {
        let folder = try TemporaryFolder()
        let tickers = folder.url.appendingPathComponent("bad.json")
        try Data("{}".utf8).write(to: tickers)
        var request = Settings()
        request.fetch.tickers = .at(tickers.path)
        request.fetch.rates = .at(folder.url.appendingPathComponent("missing.xml").path, .rates)
        request.output.noHistory = true
        for _ in 0..<30 {
            await #expect(throws: DataError.self) {
                try await ReportPipeline().makeReport(request)
            }
        }
    }

    @Test(
        "a payload over --max-bytes is refused while downloading",
        arguments: [LoopbackServer.Response.Behaviour.normal, .chunked])
    func tooLarge(behaviour: LoopbackServer.Response.Behaviour) async throws {
        let server = try Self.server(tickersRoute: Response(status: 200, body: try Fixtures.tickers, behaviour: behaviour))
        defer { server.stop() }
        var request = Self.request(server)
        request.fetch.maximumBytes = 10_000
        await #expect(throws: FetchError.tooLarge(source: .tickers, location: server.url("/tickers"), limit: 10_000)) {
            try await ReportPipeline().makeReport(request)
        }
        #expect(server.requests.filter { $0.path == "/tickers" }.count == 1, "too large is not retried")
    }
}
