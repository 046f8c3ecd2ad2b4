import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// The production client, on swift-server/async-http-client (SwiftNIO): an event loop waiting in
/// epoll, not FoundationNetworking's URLSession, which spun while it waited (0.24 s of CPU per
/// 0.3 s), rounded time limits to whole seconds and named a redirect loop "URL error -1007".
///
/// - The time limit is exact and covers the whole exchange, body included: NIO's deadline for
///   the response head, and the same instant for the body, which is read while a timer waits.
/// - The body is counted while it streams (`HTTPClientResponse.Body.collect(upTo:)` would do the
///   same, but could not say how much of a body cut short arrived), and a declared length over
///   the cap is refused before any of it is read. A gzip body is decoded by NIO with the same
///   cap on its decoded size, so a gzip bomb is refused too.
/// - At most five redirects, http and https only; a loop, a sixth redirect and a redirect to a
///   `file:` (or any other) URL each have their own message.
public struct NIOHTTPClient: HTTPClient {
    public static let maximumRedirects = 5

    public init() {}

    public func get(_ url: URL, timeout: TimeInterval, maximumBytes: Int, source: DataSource) async throws -> HTTPResponse {
        let location = url.absoluteString
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw FetchError.unsupportedLocation(source: source, location: location)
        }
        let limit = TimeAmount.nanoseconds(Int64(min(max(timeout, 0), 86_400) * 1e9))
        var configuration = AsyncHTTPClient.HTTPClient.Configuration(
            redirectConfiguration: .follow(max: Self.maximumRedirects, allowCycles: false),
            timeout: .init(connect: limit, read: limit),
            decompression: .enabled(limit: .size(maximumBytes)))
        configuration.httpVersion = .automatic
        // A refused connection is an answer: the retries, with backoff and pacing, are ours
        // (SourceLoader). Left on, the pool would try again until the time limit and report a
        // refused port as a timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = AsyncHTTPClient.HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let exchange = Exchange(url: url, source: source, timeout: timeout, maximumBytes: maximumBytes)
        do {
            let response = try await exchange.run(on: client, deadline: .now() + limit)
            try? await client.shutdown()
            return response
        } catch {
            try? await client.shutdown()
            if error is CancellationError { throw error }
            throw exchange.translate(error)
        }
    }
}

/// One GET, with what is known of it for the error messages.
private final class Exchange: @unchecked Sendable {
    let url: URL
    let source: DataSource
    let timeout: TimeInterval
    let maximumBytes: Int
    private let lock = NSLock()
    /// Set once the response head arrived: a later failure broke the body off.
    private var head: (declaredLength: Int?, encoded: Bool)?
    private var received = 0

    init(url: URL, source: DataSource, timeout: TimeInterval, maximumBytes: Int) {
        self.url = url
        self.source = source
        self.timeout = timeout
        self.maximumBytes = maximumBytes
    }

    var location: String { url.absoluteString }

    struct TimeLimit: Error {}

    /// The request and its body, raced against the time limit.
    func run(on client: AsyncHTTPClient.HTTPClient, deadline: NIODeadline) async throws -> HTTPResponse {
        let nanoseconds = UInt64(max(0, (deadline - .now()).nanoseconds))
        return try await withThrowingTaskGroup(of: HTTPResponse?.self) { group in
            group.addTask { try await self.fetch(on: client, deadline: deadline) }
            group.addTask {
                try await Task.sleep(nanoseconds: nanoseconds)
                throw TimeLimit()
            }
            defer { group.cancelAll() }
            while let result = try await group.next() {
                if let response = result { return response }
            }
            throw CancellationError()
        }
    }

    private func fetch(on client: AsyncHTTPClient.HTTPClient, deadline: NIODeadline) async throws -> HTTPResponse {
        var request = HTTPClientRequest(url: location)
        request.method = .GET
        request.headers.add(name: "User-Agent", value: "cryptoreport")
        let response = try await client.execute(request, deadline: deadline)
        if (300..<400).contains(Int(response.status.code)), let target = response.headers.first(name: "location") {
            // AsyncHTTPClient follows http(s) redirects itself and hands back, unfollowed, one to
            // any other scheme.
            let scheme = URL(string: target, relativeTo: url)?.scheme?.lowercased() ?? "unknown"
            if scheme != "http" && scheme != "https" {
                throw FetchError.badRedirect(
                    source: source, location: location, reason: "the server redirected to a \(scheme): URL, which is refused")
            }
        }
        let encoded = response.headers.first(name: "content-encoding").map { $0.lowercased() != "identity" } ?? false
        let declared = response.headers.first(name: "content-length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        lock.withLock { head = (declared, encoded) }
        if let declared, declared > maximumBytes, !encoded {
            throw FetchError.tooLarge(source: source, location: location, limit: maximumBytes)
        }
        var body = Data()
        for try await chunk in response.body {
            let count = lock.withLock {
                received += chunk.readableBytes
                return received
            }
            guard count <= maximumBytes else { throw FetchError.tooLarge(source: source, location: location, limit: maximumBytes) }
            body.append(contentsOf: chunk.readableBytesView)
        }
        var headers: [String: String] = [:]
        for (name, value) in response.headers where headers[name.lowercased()] == nil { headers[name.lowercased()] = value }
        return HTTPResponse(status: Int(response.status.code), headers: headers, body: body)
    }

    /// Every failure as one `FetchError` in plain words.
    func translate(_ error: any Error) -> FetchError {
        if let error = error as? FetchError { return error }
        if error is TimeLimit { return .timedOut(source: source, location: location, seconds: timeout) }
        if error is NIOTooManyBytesError { return .tooLarge(source: source, location: location, limit: maximumBytes) }
        // NIOHTTPDecompression.DecompressionError.limit (swift-nio-extras, not linked here): a
        // gzip body decoding past the cap.
        if String(describing: type(of: error)).contains("DecompressionError") {
            if "\(error)".contains("limit") { return .tooLarge(source: source, location: location, limit: maximumBytes) }
            return .badEncoding(source: source, location: location)
        }
        if let error = error as? HTTPClientError {
            if [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(error) {
                return .timedOut(source: source, location: location, seconds: timeout)
            }
            if error == .redirectCycleDetected { return .badRedirect(source: source, location: location, reason: "the server redirected in a loop") }
            if error == .redirectLimitReached {
                return .badRedirect(source: source, location: location, reason: "the server redirected more than \(NIOHTTPClient.maximumRedirects) times")
            }
            if [.emptyScheme, .invalidURL, .emptyHost].contains(error) || "\(error)".contains("unsupportedScheme") {
                return .unsupportedLocation(source: source, location: location)
            }
        }
        // After the head, a failure broke the body off.
        let (started, count) = lock.withLock { (head, received) }
        if let started, !Self.isTLS(error) {
            if started.encoded { return .cutShort(source: source, location: location, received: nil, expected: nil) }
            if let expected = started.declaredLength, count < expected {
                return .cutShort(source: source, location: location, received: count, expected: expected)
            }
            return unreachable("the connection was lost")
        }
        return unreachable(Self.reason(for: error))
    }

    /// NIOSSL's errors, recognised by name: this module does not link NIOSSL itself.
    static func isTLS(_ error: any Error) -> Bool {
        let name = String(describing: type(of: error))
        return name.contains("SSL") || name.contains("TLS")
    }

    private func unreachable(_ reason: String) -> FetchError {
        .unreachable(source: source, location: location, reason: reason)
    }

    /// NIO's connection errors carry the system's: name the common ones.
    static func reason(for error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            let underlying = error.connectionErrors.map { $0.error }
            if underlying.isEmpty && (error.dnsAError != nil || error.dnsAAAAError != nil) {
                return "the host name could not be resolved"
            }
            if let first = underlying.first { return reason(for: first) }
            return "the connection could not be made"
        }
        if let error = error as? IOError {
            switch error.errnoCode {
            case ECONNREFUSED: return "the connection was refused"
            case ECONNRESET, EPIPE: return "the connection was lost"
            case ENETUNREACH, EHOSTUNREACH: return "there is no network connection"
            default: return "the connection failed (\(String(cString: strerror(error.errnoCode))))"
            }
        }
        if let error = error as? ChannelError, case .connectTimeout = error { return "the connection timed out" }
        if error is HTTPParserError { return "the server's response was not valid HTTP" }
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed { return "the connection was lost" }
        if isTLS(error) { return "the TLS connection could not be established" }
        let name = String(describing: type(of: error))
        if name.contains("DNS") || name.contains("Resolution") { return "the host name could not be resolved" }
        return "the transfer failed (\(name))"
    }
}
