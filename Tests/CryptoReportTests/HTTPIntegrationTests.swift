import Foundation
import Testing

@testable import CryptoReport

/// The real HTTP client against a loopback server this test starts: no network beyond 127.0.0.1.
@Suite("Fetching over HTTP from a loopback server", .serialized, .timeLimit(.minutes(4)))
struct HTTPIntegrationTests {
    static func server() throws -> LoopbackServer {
        try LoopbackServer(routes: [
            "/sapi/v1/tickers/24hr": .init(status: 200, body: try Fixtures.tickers),
            "/eurofxref-daily.xml": .init(status: 200, body: try Fixtures.rates, contentType: "text/xml"),
            "/broken": .init(status: 500, body: Data("Internal Server Error".utf8), contentType: "text/plain"),
            "/html": .init(status: 200, body: Data("<!DOCTYPE html><html><body>Please wait</body></html>".utf8), contentType: "text/html"),
            "/slow": .init(status: 200, body: Data("[]".utf8), delay: 3),
        ])
    }

    /// A fresh cache per request, so that no test reads another's (or the user's) cache.
    static func request(_ server: LoopbackServer, tickers: String = "/sapi/v1/tickers/24hr", rates: String = "/eurofxref-daily.xml") -> Settings {
        var request = Settings()
        request.fetch.cacheDirectory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("cryptoreport-cache-\(UUID().uuidString)").path
        request.fetch.retry.retries = 0
        request.report.currency = "SEK"
        request.fetch.tickers = .at(server.url(tickers))
        request.fetch.rates = .at(server.url(rates), .rates)
        // No test here waits for this limit; it only keeps a broken run from hanging.
        request.fetch.timeout = .milliseconds(Int(10 * 1000))
        return request
    }

    @Test("both fixtures served over HTTP make the same report as the bundled sample")
    func servesFixtures() async throws {
        let server = try Self.server()
        defer { server.stop() }
        // Fetched a few minutes after the capture, so no market is stale.
        let pipeline = ReportPipeline(clock: FixedClock(Fixtures.captureTime))
        let report = try await pipeline.makeReport(Self.request(server))
        #expect(report.summary.counts.tickersReceived == 450)
        #expect(report.sources.map(\.location) == [server.url("/sapi/v1/tickers/24hr"), server.url("/eurofxref-daily.xml")])
        var sample = Settings()
        sample.report.currency = "SEK"
        sample.fetch.sample = true
        #expect(try await pipeline.makeReport(sample).rows == report.rows)
    }

    /// docs/errors.md: a file is judged against its own newest ticker, an http(s) URL against the
    /// fetch, as the live feed is; the tool cannot tell a replay over HTTP from a halted exchange.
    @Test("an old capture over HTTP is judged against the fetch and is stale; the same capture as a file is not")
    func replayOverHTTP() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let pipeline = ReportPipeline(clock: FixedClock(Fixtures.captureTime.addingTimeInterval(3 * 86400)))
        var request = Self.request(server)
        request.fetch.rates = .at(Fixtures.ratesURL.path, .rates)
        let served = try await pipeline.makeReport(request)
        #expect(served.rows.allSatisfy(\.isStale) && served.freshness.halt != nil, "\(served.freshness)")
        request.fetch.tickers = .at(Fixtures.tickersURL.path)
        let read = try await pipeline.makeReport(request)
        #expect(!read.rows.contains(where: \.isStale) && read.freshness.halt == nil, "\(read.freshness)")
    }

    @Test("a 500 is an unreachable-source error naming the source and status")
    func serverError() async throws {
        let server = try Self.server()
        defer { server.stop() }
        await #expect {
            try await ReportPipeline().makeReport(Self.request(server, tickers: "/broken"))
        } throws: { error in
            (error as? FetchError) == .httpStatus(source: .tickers, location: server.url("/broken"), status: 500)
                && (error as? FetchError)?.exitStatus == .unavailable
                && (error as? FetchError)?.errorDescription
                    == "WazirX tickers: \(server.url("/broken")) answered HTTP 500 Internal Server Error."
        }
    }

    @Test("one source failing while the other is still in flight ends the run with the failure")
    func failureWhileOtherInFlight() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var request = Self.request(server, tickers: "/broken", rates: "/slow")
        request.fetch.timeout = .milliseconds(Int(10 * 1000))
        await #expect(throws: FetchError.httpStatus(source: .tickers, location: server.url("/broken"), status: 500)) {
            try await ReportPipeline().makeReport(request)
        }
    }

    @Test("a 200 with an HTML page is bad data, for either source")
    func htmlBody() async throws {
        let server = try Self.server()
        defer { server.stop() }
        await #expect(throws: DataError.htmlInsteadOfData(source: .tickers, expected: "a JSON array of tickers")) {
            try await ReportPipeline().makeReport(Self.request(server, tickers: "/html"))
        }
        await #expect(throws: DataError.htmlInsteadOfData(source: .rates, expected: "the ECB eurofxref XML")) {
            try await ReportPipeline().makeReport(Self.request(server, rates: "/html"))
        }
    }

    @Test("a server slower than the timeout is a timeout error")
    func timeout() async throws {
        let server = try Self.server()
        defer { server.stop() }
        var request = Self.request(server, tickers: "/slow")
        // The first source to fail decides the error, and a loaded machine once took 0.5 s for
        // the rates over loopback: they come from a file, so only the tickers can time out.
        request.fetch.rates = .file(Fixtures.ratesURL.path)
        request.fetch.timeout = .milliseconds(Int(1.5 * 1000))
        await #expect(throws: FetchError.timedOut(source: .tickers, location: server.url("/slow"), seconds: 1.5)) {
            try await ReportPipeline().makeReport(request)
        }
    }

    @Test("nobody listening is a clear unreachable error")
    func refused() async throws {
        let server = try Self.server()
        let url = server.url("/sapi/v1/tickers/24hr")
        server.stop()
        var request = Self.request(server)
        request.fetch.tickers = .at(url)
        request.fetch.rates = .at(Fixtures.ratesURL.path, .rates)
        await #expect {
            try await ReportPipeline().makeReport(request)
        } throws: { error in
            guard case .unreachable(.tickers, url, _)? = error as? FetchError else { return false }
            return (error as? FetchError)?.exitStatus == .unavailable
        }
    }

    @Test("file:// URLs and plain paths are read; a missing file is its own error")
    func localFiles() async throws {
        var request = Settings()
        request.fetch.tickers = .at("file://" + Fixtures.tickersURL.path)
        request.fetch.rates = .at(Fixtures.ratesURL.path, .rates)
        let report = try await ReportPipeline().makeReport(request)
        #expect(report.summary.counts.converted == 450)
        request.fetch.rates = .at("/nonexistent/eurofxref.xml", .rates)
        await #expect(throws: FetchError.fileMissing(source: .rates, path: "/nonexistent/eurofxref.xml")) {
            try await ReportPipeline().makeReport(request)
        }
    }
}
