public import Foundation

/// How old each source's data may be: a cached copy used in place of a failed fetch, and the
/// ECB rates relative to the tickers.
public struct MaxAge: Sendable, Equatable, Codable {
    public var tickers: TimeInterval = 24 * 3600
    /// The ECB publishes nothing on weekends and TARGET holidays, so a day is not enough.
    public var rates: TimeInterval = 5 * 24 * 3600

    public init(tickers: TimeInterval = 24 * 3600, rates: TimeInterval = 5 * 24 * 3600) {
        self.tickers = tickers
        self.rates = rates
    }

    /// How old a cached copy of `source` may be. Asset names have no limit: they change seldom,
    /// and the built-in list that stands in for them is older than any cached copy.
    public subscript(source: DataSource) -> TimeInterval {
        if source == .wazirxAssets { return .infinity }
        return source.isMarketData ? tickers : rates
    }

    /// One `--max-age` value: `12h` for both sources, or `tickers=6h`, `rates=3d`. Units: `s`,
    /// `m`, `h`, `d`, and one is needed but for 0: a bare `3`, meant as days, was 3 seconds,
    /// and failed every morning's run as stale ECB rates (exit 65).
    public struct Limit: Sendable, Equatable {
        /// `nil`: both sources.
        public var source: DataSource?
        public var seconds: TimeInterval

        public init?(_ text: String) {
            let parts = text.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let durationText = parts.last, let seconds = MaxAge.seconds(durationText) else { return nil }
            switch parts.count == 2 ? parts[0].lowercased() : "both" {
            case "tickers": source = .tickers
            case "rates", "ecb": source = .rates
            case "both": source = nil
            default: return nil
            }
            self.seconds = seconds
        }
    }

    public mutating func apply(_ limit: Limit) {
        if limit.source != .rates { tickers = limit.seconds }
        if limit.source != .tickers { rates = limit.seconds }
    }

    static func seconds(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var number = text.lowercased()
        var unit: TimeInterval = 1
        if let last = number.last, let scale = units[last] {
            unit = scale
            number.removeLast()
        }
        guard let value = Double(number), value.isFinite, value >= 0, unit != 1 || value == 0 || text.lowercased().hasSuffix("s") else { return nil }
        return value * unit
    }

    /// `36 h`, `5 days`, `90 min`.
    public static func describe(_ seconds: TimeInterval) -> String {
        if seconds >= 2 * 86400 { return "\(Self.trim(seconds / 86400)) days" }
        if seconds >= 2 * 3600 { return "\(Self.trim(seconds / 3600)) h" }
        if seconds >= 120 { return "\(Self.trim(seconds / 60)) min" }
        return "\(Self.trim(seconds)) s"
    }

    private static func trim(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
