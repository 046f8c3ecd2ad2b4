public import Foundation

/// A source could not be read at all.
public enum FetchError: LocalizedError, ExitStatusProviding, Equatable {
    case unreachable(source: DataSource, location: String, reason: String)
    /// A redirect loop, too many redirects, or one to another scheme: the server's setup, which
    /// another attempt will meet again.
    case badRedirect(source: DataSource, location: String, reason: String)
    case timedOut(source: DataSource, location: String, seconds: Double)
    case httpStatus(source: DataSource, location: String, status: Int)
    /// The server answered, then the body stopped short of the length it declared. The byte
    /// counts are nil for an encoded (gzip) body, whose declared length is not the length read.
    case cutShort(source: DataSource, location: String, received: Int?, expected: Int?)
    /// A body sent gzip-encoded that does not decode: the server's fault, the same on every attempt.
    case badEncoding(source: DataSource, location: String)
    case fileMissing(source: DataSource, path: String)
    case fileUnreadable(source: DataSource, path: String, reason: String)
    case tooLarge(source: DataSource, location: String, limit: Int)
    /// The answer's head (status line and headers) is over `limit` bytes: refused, not retried.
    case headersTooLarge(source: DataSource, location: String, limit: Int)
    /// A local file past `--max-bytes`: said as a file's size, not as what a server sent.
    case fileTooLarge(source: DataSource, path: String, limit: Int)
    case unsupportedLocation(source: DataSource, location: String)
    case retryAfterTooLong(source: DataSource, location: String, seconds: Int, cap: Int)
    case deadlinePassed(source: DataSource, seconds: Double)
    case notCached(source: DataSource, directory: String)
    /// The last failure of several attempts.
    indirect case exhausted(last: FetchError, attempts: Int)

    /// A failure the network may cause for every source at once: unreachable, too slow, cut
    /// short, a server error or rate limit (after any retries). Not a refusal of this resource (a
    /// 404), bad data or a local file.
    public var isNetworkFailure: Bool {
        switch self {
        case .unreachable, .timedOut, .cutShort, .deadlinePassed: true
        case let .httpStatus(_, _, status): status >= 500 || status == 429 || status == 418
        case let .exhausted(last, _): last.isNetworkFailure
        default: false
        }
    }

    public var errorDescription: String? {
        switch self {
        case let .unreachable(source, location, reason), let .badRedirect(source, location, reason):
            "\(source.displayName): cannot reach \(location): \(reason)."
        case let .timedOut(source, location, seconds):
            "\(source.displayName): no answer from \(location) within \(Self.format(seconds)) s."
        case let .httpStatus(source, location, status):
            "\(source.displayName): \(location) answered HTTP \([String(status), Self.reasonPhrases[status] ?? ""].filter { !$0.isEmpty }.joined(separator: " "))."
        case let .cutShort(source, location, received?, expected?):
            "\(source.displayName): the answer from \(location) was cut short (\(received) of \(expected) bytes)."
        case let .cutShort(source, location, _, _):
            "\(source.displayName): the answer from \(location) broke off before it was complete."
        case let .badEncoding(source, location):
            "\(source.displayName): the answer from \(location) says it is gzip-encoded, but does not decode."
        case let .fileMissing(source, path):
            "\(source.displayName): no such file \(path)."
        case let .fileUnreadable(source, path, reason):
            "\(source.displayName): cannot read \(path): \(reason)."
        case let .tooLarge(source, location, limit):
            "\(source.displayName): \(location) sent more than \(limit) bytes (--max-bytes); refusing it."
        case let .headersTooLarge(source, location, limit):
            "\(source.displayName): \(location) answered with over \(limit / 1024) KiB of headers; refusing it."
        case let .fileTooLarge(source, path, limit):
            "\(source.displayName): \(path) is larger than \(limit) bytes (--max-bytes); refusing it."
        case let .unsupportedLocation(source, location):
            "\(source.displayName): \(location) is not an http(s) URL, a file:// URL or a path."
        case let .retryAfterTooLong(source, location, seconds, cap):
            "\(source.displayName): \(location) asked to retry after \(seconds) s, longer than the \(cap) s we wait; giving up."
        case let .deadlinePassed(source, seconds):
            "\(source.displayName): no complete answer within the run's deadline of \(Self.format(seconds)) s."
        case let .notCached(source, directory):
            "\(source.displayName): --offline, but no usable cached copy in \(directory)."
        case let .exhausted(last, attempts):
            (last.errorDescription.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 } ?? "failed")
                + " (\(attempts) attempts)."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .fileMissing, .fileUnreadable: .noInput
        case .tooLarge, .headersTooLarge, .fileTooLarge, .badEncoding: .dataError
        case .unsupportedLocation: .usage
        case .unreachable, .badRedirect, .timedOut, .httpStatus, .cutShort, .retryAfterTooLong, .deadlinePassed, .notCached: .unavailable
        case let .exhausted(last, _): last.exitStatus
        }
    }

    /// Worth another attempt: the network or the server may recover. Other 4xx will not.
    public var isRetryable: Bool {
        switch self {
        case .unreachable, .timedOut, .cutShort: true
        case let .httpStatus(_, _, status): status >= 500 || status == 429 || status == 418
        default: false
        }
    }

    /// The reason phrases of RFC 9110 (and 429 of RFC 6585, 418): HTTP/2 sends none, and a
    /// server's own may say anything.
    static let reasonPhrases: [Int: String] = [
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout",
        409: "Conflict", 410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        418: "I'm a teapot", 421: "Misdirected Request", 422: "Unprocessable Content", 425: "Too Early",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported", 511: "Network Authentication Required",
    ]

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
