public import Foundation

/// When and how long to wait before trying a source again.
public struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first attempt.
    public var retries: Int = 3
    /// The first backoff; each retry doubles it, up to `maximumDelay`, with jitter.
    public var baseDelay: TimeInterval = 1
    public var maximumDelay: TimeInterval = 30
    /// The longest `Retry-After` we honour; a server asking for more is given up on.
    public var retryAfterCap: TimeInterval = 60

    /// The defaults.
    public init() {}

    public init(retries: Int = 3, baseDelay: TimeInterval = 1, maximumDelay: TimeInterval = 30, retryAfterCap: TimeInterval = 60) {
        self.retries = retries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.retryAfterCap = retryAfterCap
    }

    /// WazirX documents a limit of one request per second; the ECB states none.
    public static func minimumInterval(for source: DataSource) -> TimeInterval {
        source == .rates ? 0 : 1  // WazirX's one request per second, for tickers and klines
    }

    /// Exponential backoff with "equal jitter": half the step fixed, half random, so that many
    /// clients retrying together spread out. `random` is in 0...1.
    public func backoff(retry: Int, random: Double) -> TimeInterval {
        let step = min(maximumDelay, baseDelay * pow(2, Double(max(0, retry - 1))))
        return step / 2 + step / 2 * min(1, max(0, random))
    }

    /// Seconds to wait from a `Retry-After` header: delta-seconds or an HTTP date.
    public static func retryAfter(_ value: String, now: Date) -> TimeInterval? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return seconds >= 0 ? TimeInterval(seconds) : nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }
}
