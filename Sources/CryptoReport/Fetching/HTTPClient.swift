import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response, status, headers and body; whatever the status.
public struct HTTPResponse: Sendable {
    public var status: Int
    /// Header names in lower case.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String] = [:], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// The one HTTP call the tool makes: a GET with a time limit and a size limit.
public protocol HTTPClient: Sendable {
    /// Throws `FetchError` when no complete response arrives in time or the body grows past
    /// `maximumBytes`; an HTTP error status is a response, not an error.
    func get(_ url: URL, timeout: TimeInterval, maximumBytes: Int, source: DataSource) async throws -> HTTPResponse
}

/// The production client, on URLSession. The body is streamed through a delegate so that an
/// oversized payload is refused while it downloads, not after.
public struct URLSessionHTTPClient: HTTPClient {
    public init() {}

    public func get(_ url: URL, timeout: TimeInterval, maximumBytes: Int, source: DataSource) async throws -> HTTPResponse {
        let configuration = URLSessionConfiguration.ephemeral
        // FoundationNetworking hands libcurl whole seconds (2.5 s became 2 s, 0.5 s at once), so
        // URLSession's own limits are set a little past the time limit and the precise one is
        // ours, below, for idle time and total time alike.
        let sessionTimeout = timeout.rounded(.up) + 1
        configuration.timeoutIntervalForRequest = sessionTimeout
        configuration.timeoutIntervalForResource = sessionTimeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let collector = BodyCollector(maximumBytes: maximumBytes)
        let session = URLSession(configuration: configuration, delegate: collector, delegateQueue: nil)
        var request = URLRequest(url: url, timeoutInterval: sessionTimeout)
        request.setValue("cryptoreport", forHTTPHeaderField: "User-Agent")
        // Not `session.data(for:)`: on Linux its cancellation handler cancels the task synchronously
        // while the Swift task's status lock is held, and deadlocks against a transfer completing
        // at the same moment (seen when one fetch fails while the other is in flight).
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<BodyCollector.Outcome, Never>) in
                collector.start(session.dataTask(with: request), continuation: continuation)
                // FoundationNetworking on Linux does not enforce timeoutIntervalForResource: a
                // server trickling bytes would hold the request open forever. Enforce it here.
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { collector.expire() }
            }
        } onCancel: {
            DispatchQueue.global().async { collector.cancel() }
        }
        session.finishTasksAndInvalidate()
        if outcome.tooLarge {
            throw FetchError.tooLarge(source: source, location: url.absoluteString, limit: maximumBytes)
        }
        if outcome.expired {
            throw FetchError.timedOut(source: source, location: url.absoluteString, seconds: timeout)
        }
        // The answer began, then broke off: say so, not an opaque code. An encoded (gzip) body is
        // counted after decoding, so only a plain one can say how much of it arrived.
        if let error = outcome.error, (error as? URLError)?.code != .cancelled, let response = outcome.response,
            response.expectedContentLength > 0
        {
            if response.value(forHTTPHeaderField: "Content-Encoding") != nil {
                throw FetchError.cutShort(source: source, location: url.absoluteString, received: nil, expected: nil)
            }
            if Int64(outcome.body.count) < response.expectedContentLength {
                throw FetchError.cutShort(
                    source: source, location: url.absoluteString, received: outcome.body.count,
                    expected: Int(response.expectedContentLength))
            }
        }
        if let error = outcome.error as? URLError {
            throw Self.translate(error, url: url, timeout: timeout, source: source)
        } else if let error = outcome.error {
            throw FetchError.unreachable(source: source, location: url.absoluteString, reason: error.localizedDescription)
        }
        guard let response = outcome.response else {
            throw FetchError.unreachable(source: source, location: url.absoluteString, reason: "no HTTP response")
        }
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key] = value }
        }
        return HTTPResponse(status: response.statusCode, headers: headers, body: outcome.body)
    }

    /// URLError's own text is often a Foundation dump; say it in one plain phrase.
    static func translate(_ error: URLError, url: URL, timeout: TimeInterval, source: DataSource) -> FetchError {
        let location = url.absoluteString
        let reason: String
        switch error.code {
        case .timedOut:
            return .timedOut(source: source, location: location, seconds: timeout)
        case .cannotFindHost, .dnsLookupFailed: reason = "the host name could not be resolved"
        case .cannotConnectToHost: reason = "the connection was refused"
        case .networkConnectionLost: reason = "the connection was lost"
        case .notConnectedToInternet: reason = "there is no network connection"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            reason = "the TLS connection could not be established"
        case .badServerResponse, .cannotParseResponse: reason = "the server's response was not valid HTTP"
        case .unsupportedURL, .badURL: reason = "the URL is not supported"
        case .cancelled: reason = "the request was cancelled"
        default: reason = "the transfer failed (URL error \(error.code.rawValue))"
        }
        return .unreachable(source: source, location: location, reason: reason)
    }
}

/// Collects one data task's body, refusing it once it passes the size limit.
///
/// It never calls `URLSessionTask.cancel()`: in FoundationNetworking (Linux) a cancel that races
/// the task's own completion crashes the process ("Trying to access a behaviour for a task that in
/// not in the registry"). To give up on a task — time limit, size limit, Swift cancellation — the
/// collector answers its caller at once and lets the abandoned transfer end by itself, on its idle
/// timeout at the latest, ignoring everything it still delivers.
private final class BodyCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Outcome: Sendable {
        var response: HTTPURLResponse?
        var body = Data()
        var error: (any Error)?
        var tooLarge = false
        /// The time limit passed before the transfer completed.
        var expired = false
    }

    private let maximumBytes: Int
    private let lock = NSLock()
    private var outcome = Outcome()
    private var continuation: CheckedContinuation<Outcome, Never>?
    private var isCancelled = false

    init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<Outcome, Never>) {
        lock.lock()
        self.continuation = continuation
        let cancelled = isCancelled
        lock.unlock()
        if cancelled {
            finish { $0.error = URLError(.cancelled) }
        } else {
            task.resume()
        }
    }

    /// Swift task cancellation.
    func cancel() {
        lock.withLock { isCancelled = true }
        finish { $0.error = URLError(.cancelled) }
    }

    /// The time limit passed; a completed transfer ignores it.
    func expire() {
        finish { $0.expired = true }
    }

    /// Answers the caller once, with the outcome so far changed by `change`; later calls do nothing.
    private func finish(_ change: (inout Outcome) -> Void) {
        lock.lock()
        guard let continuation else {
            lock.unlock()
            return
        }
        self.continuation = nil
        change(&outcome)
        let result = outcome
        outcome.body = Data()
        lock.unlock()
        continuation.resume(returning: result)
    }

    private var isAnswered: Bool {
        lock.withLock { continuation == nil }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let declaredTooLarge = response.expectedContentLength > Int64(maximumBytes)
        lock.withLock { outcome.response = response as? HTTPURLResponse }
        if declaredTooLarge { finish { $0.tooLarge = true } }
        completionHandler(declaredTooLarge || isAnswered ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        guard continuation != nil else {
            lock.unlock()
            return
        }
        outcome.body.append(data)
        let overflow = outcome.body.count > maximumBytes
        lock.unlock()
        if overflow { finish { $0.tooLarge = true } }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish { outcome in
            if outcome.response == nil { outcome.response = task.response as? HTTPURLResponse }
            outcome.error = error
        }
    }
}
