import CCurl
public import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The production client, on the system's libcurl. Not FoundationNetworking's `URLSession`
/// (libcurl too, underneath): it keeps a core busy for as long as it waits for an answer. Not
/// AsyncHTTPClient: its TLS stack (BoringSSL) and SwiftNIO took most of a first build, for two
/// requests a day.
///
/// - The time limit is exact to the millisecond and covers the whole exchange, redirects and
///   body included.
/// - The head is counted while it arrives: past `maximumHeaderBytes` of status lines and headers
///   the transfer stops, refused as such (a server that would send them for ever, or a body in
///   its headers), and not retried.
/// - The body is counted while it arrives (after gzip decoding, so a gzip bomb is refused by the
///   same cap), and a declared length over the cap is refused before any of it is read.
/// - Redirects are followed here, not by curl, so that each has its own message: at most five,
///   http and https only; a loop, a sixth redirect and a redirect to a `file:` (or any other)
///   URL are refused.
/// - Cancelling the task (the other source failed, the run's deadline, a signal) stops the
///   transfer at once.
public struct CurlHTTPClient: HTTPClient {
    public static let maximumRedirects = 5
    /// The most an answer's head may take, every status line and header of it (1xx answers
    /// included), in bytes.
    public static let maximumHeaderBytes = 64 * 1024

    public init() {}

    public func get(_ url: URL, timeout: TimeInterval, maximumBytes: Int, source: DataSource) async throws -> HTTPResponse {
        let location = url.absoluteString
        guard Self.isWeb(url.absoluteString) else { throw FetchError.unsupportedLocation(source: source, location: location) }
        let limit = Duration.milliseconds(Int64((min(max(timeout, 0.001), 86_400) * 1000).rounded(.up)))
        let deadline = ContinuousClock.now + limit
        var target = location
        var visited: Set<String> = [location]
        var redirects = 0
        while true {
            let remaining = deadline - .now
            guard remaining > .zero else { throw FetchError.timedOut(source: source, location: location, seconds: timeout) }
            guard let transfer = Transfer(url: target, maximumBytes: maximumBytes) else {
                throw FetchError.unreachable(source: source, location: location, reason: Transfer.notStarted)
            }
            let outcome = await transfer.perform(milliseconds: Self.milliseconds(remaining))
            let failure = { (reason: String) in FetchError.badRedirect(source: source, location: location, reason: reason) }
            switch try outcome.get(source: source, location: location, timeout: timeout) {
            case let .answer(response):
                return response
            case let .redirect(next):
                guard Self.isWeb(next) else {
                    let scheme = next.prefix { $0 != ":" }.lowercased()
                    throw failure("the server redirected to a \(scheme.isEmpty ? "relative" : scheme): URL, which is refused")
                }
                guard visited.insert(next).inserted else { throw failure("the server redirected in a loop") }
                redirects += 1
                guard redirects <= Self.maximumRedirects else { throw failure("the server redirected more than \(Self.maximumRedirects) times") }
                target = next
            }
        }
    }

    public func post(_ url: URL, json: Data, timeout: TimeInterval, source: DataSource) async throws -> HTTPResponse {
        let location = url.absoluteString
        guard Self.isWeb(location) else { throw FetchError.unsupportedLocation(source: source, location: location) }
        let limit = Duration.milliseconds(Int64((min(max(timeout, 0.001), 86_400) * 1000).rounded(.up)))
        guard let transfer = Transfer(url: location, maximumBytes: 1 << 20, json: json) else {
            throw FetchError.unreachable(source: source, location: location, reason: Transfer.notStarted)
        }
        switch try await transfer.perform(milliseconds: Self.milliseconds(limit)).get(source: source, location: location, timeout: timeout) {
        case let .answer(response): return response
        case .redirect: throw FetchError.badRedirect(source: source, location: location, reason: "the server redirected a POST, which is not followed")
        }
    }

    static func isWeb(_ location: String) -> Bool {
        guard let scheme = URL(string: location)?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000))
    }
}

/// One request on one curl handle, run on a thread of its own: curl waits in poll(2), which
/// takes no CPU, and a blocked thread of Swift's concurrency pool (two on two cores) would
/// stall the rest of the run.
private final class Transfer: Sendable {
    /// What arrived, filled in by curl's callbacks on the transfer's thread.
    struct Received {
        var body = Data()
        var headers: [String: String] = [:]
        var declaredLength: Int?
        var encoded = false
        var headComplete = false
        var overCap = false
        /// Bytes of head so far, of every response of the transfer (a 1xx's too).
        var headerBytes = 0
        var headersOverCap = false
    }

    let maximumBytes: Int
    let url: String
    /// A POST's body, sent as JSON; nil for a GET.
    let json: Data?
    let received = Mutex(Received())
    let cancelled = Atomic<Bool>(false)
    /// Touched off the transfer's thread only by `curl_multi_wakeup`, which curl documents as
    /// safe to call from any thread.
    nonisolated(unsafe) private let multi: UnsafeMutableRawPointer
    nonisolated(unsafe) private let easy: UnsafeMutableRawPointer
    /// A POST's `Content-Type` header, freed with the handles.
    nonisolated(unsafe) private var headers: UnsafeMutablePointer<curl_slist>?

    /// Why `init` gave no transfer: libcurl missing from the system, or refusing a handle.
    static var notStarted: String {
        guard cryptoreport_curl_load() == 1 else {
            return "libcurl (libcurl.so.4, Debian's libcurl4) could not be loaded: \(String(cString: cryptoreport_curl_load_failure()))"
        }
        return "libcurl could not start a transfer"
    }

    init?(url: String, maximumBytes: Int, json: Data? = nil) {
        guard cryptoreport_curl_load() == 1, let multi = cryptoreport_curl_multi_init() else { return nil }
        guard let easy = cryptoreport_curl_easy_init() else {
            cryptoreport_curl_multi_cleanup(multi)
            return nil
        }
        self.multi = multi
        self.easy = easy
        self.url = url
        self.maximumBytes = maximumBytes
        self.json = json
    }

    deinit {
        cryptoreport_curl_multi_remove_handle(multi, easy)
        cryptoreport_curl_easy_cleanup(easy)
        cryptoreport_curl_multi_cleanup(multi)
        // After the handle that points at it.
        cryptoreport_curl_slist_free_all(headers)
    }

    func perform(milliseconds: Int) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                Thread { continuation.resume(returning: self.run(milliseconds: milliseconds)) }.start()
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
            cryptoreport_curl_multi_wakeup(multi)
        }
    }

    private func run(milliseconds: Int) -> Outcome {
        var errorText = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        let code: CURLcode? = errorText.withUnsafeMutableBufferPointer { buffer in
            guard configure(milliseconds: milliseconds, errorBuffer: buffer.baseAddress) else { return nil }
            return transfer()
        }
        var status = 0
        var osError = 0
        var redirect: UnsafeMutablePointer<CChar>?
        cryptoreport_curl_get_long(easy, CURLINFO_RESPONSE_CODE, &status)
        cryptoreport_curl_get_long(easy, CURLINFO_OS_ERRNO, &osError)
        cryptoreport_curl_get_string(easy, CURLINFO_REDIRECT_URL, &redirect)
        // The buffer goes with this call: the handle must not keep pointing at it, and the
        // transfer is taken off the multi handle here, on its own thread.
        cryptoreport_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, nil)
        cryptoreport_curl_multi_remove_handle(multi, easy)
        let message = String(decoding: errorText.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Outcome(
            code: code, cancelled: cancelled.load(ordering: .relaxed), status: status, osError: Int32(truncatingIfNeeded: osError),
            redirect: redirect.map { String(cString: $0) }, message: message, received: received.withLock { $0 },
            maximumBytes: maximumBytes)
    }

    private func configure(milliseconds: Int, errorBuffer: UnsafeMutablePointer<CChar>?) -> Bool {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let results = [
            cryptoreport_curl_set_string(easy, CURLOPT_URL, url),
            cryptoreport_curl_set_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"),
            cryptoreport_curl_set_string(easy, CURLOPT_USERAGENT, "cryptoreport"),
            // Every encoding curl decodes, decoded before the write callback counts it.
            cryptoreport_curl_set_string(easy, CURLOPT_ACCEPT_ENCODING, ""),
            cryptoreport_curl_set_long(easy, CURLOPT_TIMEOUT_MS, milliseconds),
            cryptoreport_curl_set_long(easy, CURLOPT_NOSIGNAL, 1),
            cryptoreport_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer),
            cryptoreport_curl_set_write(easy, CURLOPT_HEADERFUNCTION, onHeader),
            cryptoreport_curl_set_pointer(easy, CURLOPT_HEADERDATA, me),
            cryptoreport_curl_set_write(easy, CURLOPT_WRITEFUNCTION, onBody),
            cryptoreport_curl_set_pointer(easy, CURLOPT_WRITEDATA, me),
        ]
        guard results.allSatisfy({ $0 == CURLE_OK }) else { return false }
        if let json {
            headers = cryptoreport_curl_slist_append(nil, "Content-Type: application/json")
            let posted = json.withUnsafeBytes { body in
                [
                    cryptoreport_curl_set_long(easy, CURLOPT_POSTFIELDSIZE, body.count),
                    // Copied by curl: the body need not outlive this call.
                    cryptoreport_curl_set_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: body.baseAddress)),
                    cryptoreport_curl_set_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers)),
                ]
            }
            guard headers != nil, posted.allSatisfy({ $0 == CURLE_OK }) else { return false }
        }
        return cryptoreport_curl_multi_add_handle(multi, easy) == CURLM_OK
    }

    /// Drives the transfer until it ends or the task is cancelled; its result, or nil when cancelled.
    private func transfer() -> CURLcode? {
        var running: Int32 = 1
        while true {
            guard cryptoreport_curl_multi_perform(multi, &running) == CURLM_OK else { return CURLE_FAILED_INIT }
            if running == 0 { break }
            if cancelled.load(ordering: .relaxed) { return nil }
            cryptoreport_curl_multi_poll(multi, 1000)
        }
        var queued: Int32 = 0
        while let message = cryptoreport_curl_multi_info_read(multi, &queued) {
            if message.pointee.msg == CURLMSG_DONE { return message.pointee.data.result }
        }
        return CURLE_FAILED_INIT
    }

    /// One header line; a status line starts a new response (after a 1xx). At the blank line
    /// that ends the head, a declared length over the cap stops the transfer before the body.
    func header(_ line: String) -> Bool {
        received.withLock { received in
            received.headerBytes += line.utf8.count
            guard received.headerBytes <= CurlHTTPClient.maximumHeaderBytes else {
                received.headersOverCap = true
                return false
            }
            if line.hasPrefix("HTTP/") {
                received = Received(headerBytes: received.headerBytes)
                return true
            }
            guard line != "\r\n", line != "\n" else {
                received.headComplete = true
                if let length = received.declaredLength, length > maximumBytes, !received.encoded {
                    received.overCap = true
                    return false
                }
                return true
            }
            guard let colon = line.firstIndex(of: ":") else { return true }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if received.headers[name] == nil { received.headers[name] = value }
            if name == "content-length" { received.declaredLength = Int(value) }
            if name == "content-encoding" { received.encoded = value.lowercased() != "identity" }
            return true
        }
    }

    func body(_ bytes: UnsafeRawBufferPointer) -> Bool {
        received.withLock { received in
            guard received.body.count + bytes.count <= maximumBytes else {
                received.overCap = true
                return false
            }
            received.body.append(contentsOf: bytes)
            return true
        }
    }
}

private let onHeader: curl_write_callback = { pointer, size, count, context in
    guard let pointer, let context else { return 0 }
    let bytes = UnsafeRawBufferPointer(start: pointer, count: size * count)
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.header(String(decoding: bytes, as: UTF8.self)) ? size * count : 0
}

private let onBody: curl_write_callback = { pointer, size, count, context in
    guard let pointer, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.body(UnsafeRawBufferPointer(start: pointer, count: size * count)) ? size * count : 0
}

/// How one transfer ended, in curl's terms, and what it means for the caller.
private struct Outcome: Sendable {
    enum Result { case answer(HTTPResponse), redirect(String) }

    /// nil when the transfer was cancelled or could not be set up.
    let code: CURLcode?
    let cancelled: Bool
    let status: Int
    let osError: Int32
    let redirect: String?
    let message: String
    let received: Transfer.Received
    let maximumBytes: Int

    /// The response or the redirect to follow, or every failure as one `FetchError` in plain words.
    func get(source: DataSource, location: String, timeout: TimeInterval) throws -> Result {
        let unreachable = { (reason: String) in FetchError.unreachable(source: source, location: location, reason: reason) }
        if cancelled { throw CancellationError() }
        if received.overCap { throw FetchError.tooLarge(source: source, location: location, limit: maximumBytes) }
        let headersTooLarge = FetchError.headersTooLarge(source: source, location: location, limit: CurlHTTPClient.maximumHeaderBytes)
        if received.headersOverCap { throw headersTooLarge }
        guard let code else { throw unreachable("the transfer could not be set up") }
        switch code {
        case CURLE_OK:
            if (300..<400).contains(status), let redirect { return .redirect(redirect) }
            return .answer(HTTPResponse(status: status, headers: received.headers, body: received.body))
        case CURLE_OPERATION_TIMEDOUT:
            throw FetchError.timedOut(source: source, location: location, seconds: timeout)
        // Before the head is complete, curl's refusal of one header line larger than it takes
        // (100 KiB, over `maximumHeaderBytes` before any of it is handed on).
        case CURLE_OUT_OF_MEMORY where !received.headComplete:
            throw headersTooLarge
        case CURLE_BAD_CONTENT_ENCODING:
            throw FetchError.badEncoding(source: source, location: location)
        case CURLE_URL_MALFORMAT:
            throw FetchError.unsupportedLocation(source: source, location: location)
        // The scheme was checked before: curl says this of an answer that is not HTTP ("HTTP/0.9").
        case CURLE_UNSUPPORTED_PROTOCOL:
            throw unreachable("the server's response was not valid HTTP")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            throw unreachable("the host name could not be resolved")
        case CURLE_COULDNT_CONNECT:
            switch osError {
            case ECONNREFUSED: throw unreachable("the connection was refused")
            case ENETUNREACH, EHOSTUNREACH: throw unreachable("there is no network connection")
            default: throw unreachable("the connection could not be made")
            }
        case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            // After the head, a failure broke the body off.
            guard received.headComplete else { throw unreachable("the connection was lost") }
            if received.encoded { throw FetchError.cutShort(source: source, location: location, received: nil, expected: nil) }
            if let expected = received.declaredLength, received.body.count < expected {
                throw FetchError.cutShort(source: source, location: location, received: received.body.count, expected: expected)
            }
            throw unreachable("the connection was lost")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ISSUER_ERROR:
            throw unreachable("the TLS connection could not be established (\(message))")
        case CURLE_WEIRD_SERVER_REPLY:
            throw unreachable("the server's response was not valid HTTP")
        default:
            throw unreachable("the transfer failed (\(message.isEmpty ? String(cString: cryptoreport_curl_easy_strerror(code)) : message))")
        }
    }
}
