import Foundation
import Testing

@testable import CryptoReport

@Suite("Retry rules")
struct RetryTests {
    static let tickersURL = "https://api.wazirx.com/sapi/v1/tickers/24hr"

    static func loader(_ client: ScriptedHTTPClient, sleeper: RecordingSleeper, retries: Int = 3) -> SourceLoader {
        SourceLoader(http: client, sleeper: sleeper, retry: RetryPolicy(retries: retries))
    }

    static func ok(_ body: String = "[]") -> ScriptedHTTPClient.Step {
        .respond(HTTPResponse(status: 200, body: Data(body.utf8)))
    }

    static func status(_ code: Int, headers: [String: String] = [:]) -> ScriptedHTTPClient.Step {
        .respond(HTTPResponse(status: code, headers: headers, body: Data()))
    }

    func load(_ loader: SourceLoader, source: DataSource = .tickers) async throws -> FetchedPayload {
        try await loader.load(try SourceLocation(parsing: Self.tickersURL, source: source), source: source)
    }

    @Test("5xx, 429, 418, resets and timeouts are retried; WazirX is never asked twice within a second")
    func retriedThenSucceeds() async throws {
        let client = ScriptedHTTPClient([
            Self.status(503), .fail(.unreachable(source: .tickers, location: "x", reason: "the connection was lost")),
            .fail(.timedOut(source: .tickers, location: "x", seconds: 15)), Self.ok("[1]"),
        ])
        let sleeper = RecordingSleeper()
        let payload = try await load(Self.loader(client, sleeper: sleeper))
        #expect(payload.data == Data("[1]".utf8))
        #expect(client.callCount == 4)
        #expect(sleeper.recorded.count == 3)
        #expect(sleeper.recorded.allSatisfy { $0 >= 1 }, "one request per second at most: \(sleeper.recorded)")
    }

    @Test("another run's request a moment ago is waited out: WazirX is asked once a second across runs too")
    func acrossRuns() async throws {
        let folder = try TemporaryFolder()
        let log = RequestLog(directory: folder.url)
        #expect(log.wait(before: .tickers, interval: 1, now: Date()) == 0, "no run asked yet")
        log.record(.tickers, at: Date())
        var loader = Self.loader(ScriptedHTTPClient([Self.ok()]), sleeper: RecordingSleeper())
        let sleeper = RecordingSleeper()
        loader.sleeper = sleeper
        loader.requestLog = log
        _ = try await load(loader)
        #expect(sleeper.recorded.count == 1)
        #expect(sleeper.recorded.allSatisfy { $0 > 0.5 && $0 <= 1 }, "\(sleeper.recorded)")
        // This run's request is on record for the next one; the ECB is not paced.
        let recorded = try #require(log.lastRequest(to: .tickers))
        #expect(Date().timeIntervalSince(recorded) < 5)
        #expect(log.wait(before: .rates, interval: RetryPolicy.minimumInterval(for: .rates), now: Date()) == 0)
        // A time in the future (another clock) waits one interval at most.
        log.record(.tickers, at: Date().addingTimeInterval(3600))
        #expect(log.wait(before: .tickers, interval: 1, now: Date()) == 1)
    }

    @Test("Retry-After in seconds is honoured")
    func retryAfterSeconds() async throws {
        let client = ScriptedHTTPClient([Self.status(429, headers: ["Retry-After": "7"]), Self.ok()])
        let sleeper = RecordingSleeper()
        _ = try await load(Self.loader(client, sleeper: sleeper))
        #expect(sleeper.recorded == [7])
    }

    @Test("Retry-After past the 60 s cap gives up at once with a clear message", arguments: [("300", "300"), ("9223372036854775807", "9223372036854775807")])
    func retryAfterTooLong(header: String, said: String) async throws {
        // The largest Int as a Double is 2^63, which trapped in Int(_:) on its way back.
        let client = ScriptedHTTPClient([Self.status(418, headers: ["retry-after": header]), Self.ok()])
        let sleeper = RecordingSleeper()
        await #expect {
            try await load(Self.loader(client, sleeper: sleeper))
        } throws: { error in
            (error as? FetchError)?.errorDescription
                == "WazirX tickers: \(Self.tickersURL) asked to retry after \(said) s, longer than the 60 s we wait; giving up."
        }
        #expect(client.callCount == 1)
        #expect(sleeper.recorded.isEmpty)
    }

    @Test("Retry-After as an HTTP date")
    func retryAfterDate() {
        let now = Date(timeIntervalSince1970: 1_669_078_800)  // Tue, 22 Nov 2022 01:00:00 GMT
        #expect(RetryPolicy.retryAfter("Tue, 22 Nov 2022 01:00:30 GMT", now: now) == 30)
        #expect(RetryPolicy.retryAfter("Mon, 21 Nov 2022 01:00:00 GMT", now: now) == 0)
        #expect(RetryPolicy.retryAfter(" 12 ", now: now) == 12)
        #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.retryAfter("-5", now: now) == nil)
    }

    @Test("other 4xx are not retried", arguments: [400, 401, 403, 404, 451])
    func clientErrorsNotRetried(code: Int) async throws {
        let client = ScriptedHTTPClient([Self.status(code), Self.ok()])
        await #expect(throws: FetchError.httpStatus(source: .rates, location: Self.tickersURL, status: code)) {
            try await load(Self.loader(client, sleeper: RecordingSleeper()), source: .rates)
        }
        #expect(client.callCount == 1)
    }

    @Test("after the last retry, the last failure is reported with the number of attempts")
    func exhausted() async throws {
        let client = ScriptedHTTPClient(Array(repeating: Self.status(502), count: 5))
        let sleeper = RecordingSleeper()
        await #expect {
            try await load(Self.loader(client, sleeper: sleeper, retries: 2), source: .rates)
        } throws: { error in
            (error as? FetchError)?.errorDescription == "ECB rates: \(Self.tickersURL) answered HTTP 502 Bad Gateway (3 attempts)."
                && (error as? FetchError)?.exitStatus == .unavailable
        }
        #expect(client.callCount == 3)
        #expect(sleeper.recorded.count == 2)
    }

    @Test("backoff doubles up to the maximum, with jitter within half a step")
    func backoff() {
        let policy = RetryPolicy(baseDelay: 1, maximumDelay: 8)
        #expect(policy.backoff(retry: 1, random: 0) == 0.5)
        #expect(policy.backoff(retry: 1, random: 1) == 1)
        #expect(policy.backoff(retry: 3, random: 1) == 4)
        #expect(policy.backoff(retry: 10, random: 1) == 8)
        #expect(policy.backoff(retry: 10, random: 0) == 4)
    }
}
