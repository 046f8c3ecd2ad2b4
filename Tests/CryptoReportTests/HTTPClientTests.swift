import Foundation
import Testing

@testable import CryptoReport

/// The AsyncHTTPClient-based client on its own: redirects, schemes, gzip and its cap.
@Suite("HTTP client on AsyncHTTPClient", .serialized, .timeLimit(.minutes(5)))
struct HTTPClientTests {
    typealias Response = LoopbackServer.Response

    static func redirect(_ location: String) -> Response {
        Response(status: 302, body: Data(), headers: ["Location": location])
    }

    /// A generous time limit: these tests are about redirects and sizes, not time. AsyncHTTPClient
    /// follows redirects in the caller's task, and on a 2-core machine the suite's subprocess tests
    /// can hold both threads of the concurrency pool for a minute and more (a 5 s limit was seen
    /// to expire at 90 s, mid-loop).
    func get(_ url: String, maximumBytes: Int = 1_000_000) async throws -> HTTPResponse {
        try await NIOHTTPClient().get(try #require(URL(string: url)), timeout: 240, maximumBytes: maximumBytes, source: .tickers)
    }

    @Test("a redirect loop is named as such")
    func loop() async throws {
        let server = try LoopbackServer(routes: ["/a": Self.redirect("/b"), "/b": Self.redirect("/a")])
        defer { server.stop() }
        await #expect(throws: FetchError.badRedirect(source: .tickers, location: server.url("/a"), reason: "the server redirected in a loop")) {
            try await get(server.url("/a"))
        }
        #expect(
            FetchError.badRedirect(source: .tickers, location: "http://x/a", reason: "the server redirected in a loop").errorDescription
                == "WazirX tickers: cannot reach http://x/a: the server redirected in a loop.")
    }

    @Test("a redirect loop is not fetched again: one attempt, exit 69, one line")
    func loopNotRetried() throws {
        let server = try LoopbackServer(routes: ["/a": Self.redirect("/b"), "/b": Self.redirect("/a"), "/r": .init(status: 200, body: try Fixtures.rates, contentType: "text/xml")])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(
            ["--tickers-url", server.url("/a"), "--ecb-url", server.url("/r"), "--retries", "3", "--output", "out"], in: folder.url)
        #expect(run.status == 69)
        #expect(run.stderr == "cryptoreport: WazirX tickers: cannot reach \(server.url("/a")): the server redirected in a loop.\n", "\(run.stderr)")
        #expect(server.requests.map(\.path).filter { $0 == "/a" || $0 == "/b" } == ["/a", "/b"], "\(server.requests.map(\.path))")
    }

    @Test("a redirect to file:///etc/passwd is refused, and said so")
    func toFile() async throws {
        let server = try LoopbackServer(routes: ["/a": Self.redirect("file:///etc/passwd")])
        defer { server.stop() }
        await #expect(
            throws: FetchError.badRedirect(
                source: .tickers, location: server.url("/a"), reason: "the server redirected to a file: URL, which is refused")
        ) {
            try await get(server.url("/a"))
        }
    }

    @Test("five redirects are followed; a sixth is refused")
    func redirectLimit() async throws {
        var routes: [String: Response] = ["/r6": Response(status: 200, body: Data("[]".utf8))]
        for step in 0..<6 { routes["/r\(step)"] = Self.redirect("/r\(step + 1)") }
        let server = try LoopbackServer(routes: routes)
        defer { server.stop() }
        let five = try await get(server.url("/r1"))
        #expect(five.status == 200 && five.body == Data("[]".utf8))
        await #expect(throws: FetchError.badRedirect(source: .tickers, location: server.url("/r0"), reason: "the server redirected more than 5 times")) {
            try await get(server.url("/r0"))
        }
    }

    @Test("only http and https are fetched")
    func schemes() async throws {
        for url in ["ftp://127.0.0.1/x", "file:///etc/passwd"] {
            await #expect(throws: FetchError.unsupportedLocation(source: .tickers, location: url)) { try await get(url) }
        }
    }

    @Test("gzip is decoded, and a gzip bomb is refused by the cap on the decoded size")
    func gzip() async throws {
        let bomb = try Data(contentsOf: Fixtures.fixturesFolder.appendingPathComponent("gzip-bomb-10MB-zeros.gz"))
        #expect(bomb.count < 20_000)
        let server = try LoopbackServer(routes: ["/z": Response(status: 200, body: bomb, headers: ["Content-Encoding": "gzip"])])
        defer { server.stop() }
        let whole = try await get(server.url("/z"), maximumBytes: 20_000_000)
        #expect(whole.body.count == 10_000_000)
        await #expect(throws: FetchError.tooLarge(source: .tickers, location: server.url("/z"), limit: 1_000_000)) {
            try await get(server.url("/z"), maximumBytes: 1_000_000)
        }
    }

    @Test("a body said to be gzip that does not decode is bad data (65), not retried")
    func badGzip() throws {
        let server = try LoopbackServer(routes: [
            "/t": Response(status: 200, body: Data("[not gzip at all]".utf8), headers: ["Content-Encoding": "gzip"]),
            "/r": .init(status: 200, body: try Fixtures.rates, contentType: "text/xml"),
        ])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(["--tickers-url", server.url("/t"), "--ecb-url", server.url("/r"), "--retries", "3", "--output", "out"], in: folder.url)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr == "cryptoreport: WazirX tickers: the answer from \(server.url("/t")) says it is gzip-encoded, but does not decode.\n", "\(run.stderr)")
        #expect(server.requests.map(\.path).filter { $0 == "/t" }.count == 1)
    }
}
