import Foundation
import Testing

@testable import CryptoReport

/// The libcurl-based client on its own: redirects, schemes, gzip and its cap.
@Suite("HTTP client on libcurl", .serialized, .timeLimit(.minutes(5)))
struct HTTPClientTests {
    typealias Response = LoopbackServer.Response

    static func redirect(_ location: String) -> Response {
        Response(status: 302, body: Data(), headers: ["Location": location])
    }

    /// A generous time limit: these tests are about redirects and sizes, not time. Redirects are
    /// followed in the caller's task, and on a 2-core machine the suite's subprocess tests can hold
    /// both threads of the concurrency pool for a minute and more.
    func get(_ url: String, maximumBytes: Int = 1_000_000) async throws -> HTTPResponse {
        try await CurlHTTPClient().get(try #require(URL(string: url)), timeout: 240, maximumBytes: maximumBytes, source: .tickers)
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
        let server = try LoopbackServer(routes: [
            "/a": Self.redirect("/b"), "/b": Self.redirect("/a"), "/r": .init(status: 200, body: try Fixtures.rates, contentType: "text/xml"),
        ])
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
        let run = try ExecutableTests.run(
            ["--tickers-url", server.url("/t"), "--ecb-url", server.url("/r"), "--retries", "3", "--output", "out"], in: folder.url)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(
            run.stderr == "cryptoreport: WazirX tickers: the answer from \(server.url("/t")) says it is gzip-encoded, but does not decode.\n", "\(run.stderr)")
        #expect(server.requests.map(\.path).filter { $0 == "/t" }.count == 1)
    }

    /// `count` headers of `size` bytes each.
    static func padding(_ count: Int, of size: Int) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ("X-Pad-\($0)", String(repeating: "a", count: size)) })
    }

    @Test("an answer with over 64 KiB of headers is refused in one sentence: many of them, or one too large for curl")
    func hugeHeaders() async throws {
        let server = try LoopbackServer(routes: [
            "/many": Response(status: 200, body: Data("[]".utf8), headers: Self.padding(40, of: 2000)),
            "/one": Response(status: 200, body: Data("[]".utf8), headers: Self.padding(1, of: 120_000)),
            "/fine": Response(status: 200, body: Data("[]".utf8), headers: Self.padding(30, of: 2000)),
        ])
        defer { server.stop() }
        for path in ["/many", "/one"] {
            await #expect(throws: FetchError.headersTooLarge(source: .tickers, location: server.url(path), limit: 65536), "\(path)") {
                try await get(server.url(path))
            }
        }
        #expect(try await get(server.url("/fine")).body == Data("[]".utf8), "60 KiB of headers is under the limit")
        #expect(
            FetchError.headersTooLarge(source: .tickers, location: "http://x/t", limit: 65536).errorDescription
                == "WazirX tickers: http://x/t answered with over 64 KiB of headers; refusing it.")
    }

    @Test("an answer with over 64 KiB of headers is bad data (65), not retried")
    func hugeHeadersNotRetried() throws {
        let server = try LoopbackServer(routes: [
            "/t": Response(status: 200, body: Data("[]".utf8), headers: Self.padding(40, of: 2000)),
            "/r": .init(status: 200, body: try Fixtures.rates, contentType: "text/xml"),
        ])
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(
            ["--tickers-url", server.url("/t"), "--ecb-url", server.url("/r"), "--retries", "3", "--output", "out"], in: folder.url)
        #expect(run.status == 65, "\(run.stderr)")
        #expect(run.stderr == "cryptoreport: WazirX tickers: \(server.url("/t")) answered with over 64 KiB of headers; refusing it.\n", "\(run.stderr)")
        #expect(server.requests.map(\.path).filter { $0 == "/t" }.count == 1)
    }

    @Test("a closed port is named as a refused connection")
    func refused() async throws {
        let server = try LoopbackServer(routes: [:])
        let url = server.url("/t")
        server.stop()
        await #expect(throws: FetchError.unreachable(source: .tickers, location: url, reason: "the connection was refused")) {
            try await get(url)
        }
    }

    @Test("an answer's headers, status and body arrive as sent; a status without a body too")
    func headers() async throws {
        let server = try LoopbackServer(routes: [
            "/t": Response(status: 200, body: Data("[1]".utf8), headers: ["Retry-After": "7", "X-Two": "a"]),
            "/e": Response(status: 404, body: Data()),
        ])
        defer { server.stop() }
        let answer = try await get(server.url("/t"))
        #expect(answer.status == 200 && answer.body == Data("[1]".utf8))
        #expect(answer.headers["retry-after"] == "7" && answer.headers["x-two"] == "a")
        let missing = try await get(server.url("/e"))
        #expect(missing.status == 404 && missing.body.isEmpty)
        #expect(
            FetchError.httpStatus(source: .tickers, location: "u", status: 404).errorDescription
                == "WazirX tickers: u answered HTTP 404 Not Found.")
    }

    @Test("cancelling the task stops a transfer that is waiting for an answer")
    func cancelled() async throws {
        let server = try LoopbackServer(routes: ["/slow": Response(status: 200, body: Data("[]".utf8), delay: 30)])
        defer { server.stop() }
        let url = try #require(URL(string: server.url("/slow")))
        let waiting = Task { try await CurlHTTPClient().get(url, timeout: 60, maximumBytes: 1000, source: .tickers) }
        try await Task.sleep(for: .milliseconds(300))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test("a network failure with no cached copy points to --sample; a refusal of the resource does not")
    func offlineHint() throws {
        let server = try LoopbackServer(routes: ["/gone": Response(status: 404, body: Data())])
        defer { server.stop() }
        let closed = try LoopbackServer(routes: [:])
        let url = closed.url("/t")
        closed.stop()
        let folder = try TemporaryFolder()
        let rates = Fixtures.ratesURL.path
        let refused = try ExecutableTests.run(["--tickers-url", url, "--ecb-url", rates, "--retries", "0", "--output", "out"], in: folder.url)
        #expect(refused.status == 69)
        #expect(
            refused.stderr == "cryptoreport: WazirX tickers: cannot reach \(url): the connection was refused. "
                + "Without a network, `cryptoreport --sample` makes the report of a bundled snapshot.\n", "\(refused.stderr)")
        let missing = try ExecutableTests.run(
            ["--tickers-url", server.url("/gone"), "--ecb-url", rates, "--retries", "0", "--output", "out"], in: folder.url)
        #expect(missing.status == 69)
        #expect(missing.stderr == "cryptoreport: WazirX tickers: \(server.url("/gone")) answered HTTP 404 Not Found.\n", "\(missing.stderr)")
    }

    @Test("an answer that is not HTTP is a network failure in plain words, not a bad URL")
    func notHTTP() async throws {
        let server = try LoopbackServer(routes: ["/t": Response(status: 200, body: Data("hello, this is not HTTP\n".utf8), behaviour: .notHTTP)])
        defer { server.stop() }
        await #expect(throws: FetchError.unreachable(source: .tickers, location: server.url("/t"), reason: "the server's response was not valid HTTP")) {
            try await get(server.url("/t"))
        }
    }
}
