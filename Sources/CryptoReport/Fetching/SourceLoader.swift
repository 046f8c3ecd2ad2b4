package import Foundation
package import Logging

/// A feed's raw bytes, where they came from and when they were fetched.
package struct FetchedPayload: Sendable {
    package typealias Origin = SourceOrigin

    package var source: DataSource
    package var location: SourceLocation
    package var data: Data
    package var fetchedAt: Date
    package var origin: Origin

    package init(source: DataSource, location: SourceLocation, data: Data, fetchedAt: Date, origin: Origin = .network) {
        self.source = source
        self.location = location
        self.data = data
        self.fetchedAt = fetchedAt
        self.origin = origin
    }
}

/// Reads a feed from wherever its location says, retrying what is worth retrying, and turns
/// every failure into a `FetchError`.
package struct SourceLoader: Sendable {
    package var http: any HTTPClient
    package var files: any FileReading
    package var clock: any ReportClock
    package var sleeper: any Sleeper
    package var logger: Logger
    /// Seconds one request may take.
    package var timeout: TimeInterval
    /// Bodies larger than this are refused while they download.
    package var maximumBytes: Int
    package var retry: RetryPolicy
    /// No attempt starts, and none goes on, past this instant…
    package var deadline: ContinuousClock.Instant
    /// …which is this many seconds after the run began, for messages.
    package var deadlineSeconds: TimeInterval
    /// Keeps requests to a rate-limited source apart across runs; nil: within this run only.
    package var requestLog: RequestLog?

    package init(
        http: any HTTPClient = CurlHTTPClient(), files: any FileReading = LocalFileReader(),
        clock: any ReportClock = SystemClock(), sleeper: any Sleeper = TaskSleeper(),
        logger: Logger = Logger(label: "cryptoreport"), timeout: TimeInterval = 15,
        maximumBytes: Int = 50 * 1024 * 1024, retry: RetryPolicy = RetryPolicy(),
        deadlineSeconds: TimeInterval = 120, startedAt: ContinuousClock.Instant = .now
    ) {
        self.http = http
        self.files = files
        self.clock = clock
        self.sleeper = sleeper
        self.logger = logger
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.retry = retry
        self.deadlineSeconds = deadlineSeconds
        // Clamped: `Int64` milliseconds trap past about 292 million years, a caller's 1e16 s included.
        self.deadline = startedAt + .milliseconds(Int64(min(max(deadlineSeconds, 0), 1e12) * 1000))
    }

    package func load(_ location: SourceLocation, source: DataSource) async throws -> FetchedPayload {
        switch location {
        case let .http(url):
            let data = try await fetch(url, source: source)
            return FetchedPayload(source: source, location: location, data: data, fetchedAt: clock.now(), origin: .network)
        case let .file(path):
            let data = try files.contents(of: path, source: source)
            guard data.count <= maximumBytes else {
                throw FetchError.fileTooLarge(source: source, path: path, limit: maximumBytes)
            }
            return FetchedPayload(source: source, location: location, data: data, fetchedAt: clock.now(), origin: .file)
        case .embedded:
            let data = source == .tickers ? EmbeddedSample.tickers : EmbeddedSample.rates
            return FetchedPayload(source: source, location: location, data: data, fetchedAt: clock.now(), origin: .sample)
        }
    }

    /// GET with retries: backoff with jitter, `Retry-After` honoured up to its cap, never two
    /// requests to a source closer than its minimum interval, and nothing past the deadline.
    func fetch(_ url: URL, source: DataSource) async throws -> Data {
        let location = url.absoluteString
        let attempts = retry.retries + 1
        let totalSeconds = deadlineSeconds
        var lastError: FetchError?
        var made = 0
        for attempt in 1...attempts {
            // Another run may have asked this source a moment ago (the wait between our own
            // attempts below already covers this run's). The wall clock, not `clock`: the log is
            // shared with other processes, which write theirs.
            if let requestLog {
                let interval = RetryPolicy.minimumInterval(for: source)
                let wait = requestLog.wait(before: source, interval: interval, now: Date())
                if wait > 0 { try await sleeper.sleep(seconds: wait) }
                if interval > 0 { requestLog.record(source, at: Date()) }
            }
            let attemptTimeout = min(timeout, Self.seconds(deadline - ContinuousClock.now))
            guard attemptTimeout > 0 else {
                throw lastError.map { FetchError.exhausted(last: $0, attempts: attempt - 1) }
                    ?? FetchError.deadlinePassed(source: source, seconds: totalSeconds)
            }
            made += 1
            var retryAfter: TimeInterval?
            do {
                let response = try await http.get(url, timeout: attemptTimeout, maximumBytes: maximumBytes, source: source)
                if (200..<300).contains(response.status) { return response.body }
                let error = FetchError.httpStatus(source: source, location: location, status: response.status)
                guard error.isRetryable else { throw error }
                if let header = response.headers["retry-after"] {
                    retryAfter = RetryPolicy.retryAfter(header, now: clock.now())
                    if let wait = retryAfter, wait > retry.retryAfterCap {
                        throw FetchError.retryAfterTooLong(
                            // A server's number past Int (2^63 s) trapped in Int(_:).
                            source: source, location: location, seconds: Int(exactly: wait.rounded(.up)) ?? Int.max, cap: Int(retry.retryAfterCap))
                    }
                }
                lastError = error
            } catch let error as FetchError {
                if case .timedOut = error, attemptTimeout < timeout {
                    throw FetchError.deadlinePassed(source: source, seconds: totalSeconds)
                }
                guard error.isRetryable else { throw error }
                lastError = error
            }
            // The run gave up on this source (the other one failed): no retry, and no warning
            // announcing one.
            try Task.checkCancellation()
            guard attempt < attempts, let failure = lastError else { break }
            // Counted from the answer, not the request, so two requests are always at least the
            // source's minimum interval apart.
            let wait = max(
                retryAfter ?? retry.backoff(retry: attempt, random: Double.random(in: 0...1)),
                RetryPolicy.minimumInterval(for: source))
            guard Self.seconds(deadline - ContinuousClock.now) > wait else {
                logger.warning("\(source.displayName): no time left before the run's deadline for another attempt.")
                break
            }
            logger.warning(
                "\(failure.errorDescription ?? "fetch failed") Retrying in \(String(format: "%.1f", wait)) s (attempt \(attempt + 1) of \(attempts)).")
            try await sleeper.sleep(seconds: wait)
        }
        let failure = lastError ?? FetchError.unreachable(source: source, location: location, reason: "no attempt was made")
        throw made > 1 ? FetchError.exhausted(last: failure, attempts: made) : failure
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}

extension Report.SourceInfo {
    /// Where a payload came from, for the report.
    package init(_ payload: FetchedPayload) {
        self.init(source: payload.source, location: payload.location.description, fetchedAt: payload.fetchedAt, origin: payload.origin)
    }
}
