import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A response, status and body; whatever the status.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var body: Data

    public init(status: Int, body: Data) {
        self.status = status
        self.body = body
    }
}

/// The one HTTP call the tool makes: a GET with a timeout.
public protocol HTTPClient: Sendable {
    /// Throws `FetchError` when no response arrives; an HTTP error status is a response.
    func get(_ url: URL, timeout: TimeInterval, source: DataSource) async throws -> HTTPResponse
}

/// The production client, on URLSession.
public struct URLSessionHTTPClient: HTTPClient {
    public init() {}

    public func get(_ url: URL, timeout: TimeInterval, source: DataSource) async throws -> HTTPResponse {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.setValue("cryptoreport", forHTTPHeaderField: "User-Agent")
        let handle = CancellableTask()
        // Not `session.data(for:)`: on Linux its cancellation handler cancels the task synchronously
        // while the Swift task's status lock is held, and deadlocks against a transfer completing
        // at the same moment (seen when one fetch fails while the other is in flight).
        let (data, response, error) = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<(Data?, URLResponse?, (any Error)?), Never>) in
                let task = session.dataTask(with: request) { data, response, error in
                    continuation.resume(returning: (data, response, error))
                }
                handle.start(task)
            }
        } onCancel: {
            DispatchQueue.global().async { handle.cancel() }
        }
        if let error = error as? URLError {
            throw Self.translate(error, url: url, timeout: timeout, source: source)
        } else if let error {
            throw FetchError.unreachable(source: source, location: url.absoluteString, reason: error.localizedDescription)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        return HTTPResponse(status: status, body: data ?? Data())
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
        default: reason = "network error \(error.code.rawValue)"
        }
        return .unreachable(source: source, location: location, reason: reason)
    }
}

/// A data task that may be cancelled before it has started.
private final class CancellableTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var isCancelled = false

    func start(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelled = isCancelled
        lock.unlock()
        task.resume()
        if cancelled { task.cancel() }
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        let task = task
        lock.unlock()
        task?.cancel()
    }
}
