import Foundation

/// Everything one run is asked to do. Codable with defaults, so that a configuration file can
/// hold any part of it.
public struct ReportRequest: Sendable, Equatable, Codable {
    public enum Destination: Sendable, Equatable, Codable {
        case directory(String)
        case standardOutput
    }

    /// ISO 4217 code of the report currency: any currency in the ECB file, or EUR.
    public var currency: String = "USD"
    /// `nil` picks the currency's own locale (USD: en_US, SEK: sv_SE, …).
    public var locale: String?
    public var formats: [ReportFormat] = ReportFormat.allCases
    public var destination: Destination = .directory("Output")
    /// `--tickers-url`; `nil` is the WazirX API.
    public var tickersLocation: String?
    /// `--ecb-url`; `nil` is the ECB daily file.
    public var ratesLocation: String?
    /// Use the built-in snapshot instead of the network.
    public var sample: Bool = false
    public var selection = Selection()
    /// Seconds each fetch may take.
    public var timeout: Double = 15
    /// `--templates DIR`; `nil` uses the built-in templates.
    public var templatesDirectory: String?
    /// Retries and backoff for failed fetches.
    public var retry = RetryPolicy()
    /// Seconds the whole fetch phase may take, retries included.
    public var deadline: Double = 120
    /// Largest payload accepted, in bytes.
    public var maximumBytes: Int = 50_000_000
    /// `nil`: `$XDG_CACHE_HOME/cryptoreport`, else `~/.cache/cryptoreport`.
    public var cacheDirectory: String?
    public var maxAge = MaxAge()
    /// A cached fallback is an error instead.
    public var strict = false
    /// Use only cached payloads; make no request.
    public var offline = false
    /// Accept ECB rates older than `maxAge.rates`.
    public var allowStale = false
    /// Seconds to wait for another run writing into the same folder.
    public var lockTimeout: Double = 60
    /// Where runs are recorded and trends read from.
    public var history: HistorySetting = .automatic
    /// Alert rules, as written in the configuration file.
    public var alerts: [String] = []
    /// Exit with 10 when an alert fires (after writing the reports).
    public var failOnAlert = false

    public enum HistorySetting: Sendable, Equatable, Codable {
        /// `history.sqlite` in the output folder; none when writing to standard output.
        case automatic
        case path(String)
        case disabled
    }

    /// The history database this request uses, if any.
    public var historyPath: String? {
        switch history {
        case .disabled: nil
        case let .path(path): path
        case .automatic:
            if case let .directory(folder) = destination {
                URL(fileURLWithPath: folder).appendingPathComponent("history.sqlite").path
            } else {
                nil
            }
        }
    }

    public init() {}

    /// `--format` values, repeated or comma-separated: `csv,html`, `all`.
    public static func parseFormats(_ values: [String]) throws(UsageError) -> [ReportFormat] {
        var formats: [ReportFormat] = []
        for name in values.flatMap({ $0.split(separator: ",") }) {
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard let parsed = ReportFormat.parse(trimmed) else {
                throw .invalid(option: "--format", value: trimmed, expected: "csv, markdown, html, json or all")
            }
            formats += parsed
        }
        return formats
    }

    /// The locale numbers are shown in.
    public var effectiveLocale: String {
        locale ?? PeopleNumberFormatter.defaultLocaleIdentifier(for: currency)
    }

    /// The currency and locale checked and normalised: all that `history` needs of a request.
    public func validatedMoney() throws(UsageError) -> ReportRequest {
        var request = self
        request.currency = currency.uppercased()
        guard request.currency.count == 3, request.currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw .invalid(option: "--currency", value: currency, expected: "a three-letter currency code such as USD or SEK")
        }
        if let locale {
            let identifier = locale.replacingOccurrences(of: "-", with: "_")
            guard Locale.availableIdentifiers.contains(identifier) else {
                throw .invalid(option: "--locale", value: locale, expected: "a locale identifier such as en_US or sv_SE")
            }
            request.locale = identifier
        }
        return request
    }

    /// The longest `--timeout`, `--deadline` or `--lock-timeout`, in seconds.
    public static let longestWait: Double = 86400

    /// Checks what can be checked before any fetch.
    public func validated() throws(UsageError) -> ReportRequest {
        var request = try validatedMoney()
        guard !formats.isEmpty else {
            throw .invalid(option: "--format", value: "", expected: "csv, markdown, html, json or all")
        }
        request.formats = Array(Set(formats)).sorted()
        if destination == .standardOutput && request.formats.count != 1 {
            throw .stdoutNeedsOneFormat(count: request.formats.count)
        }
        // A day at most: beyond that a cron run has hung, and far larger values overflow the clock.
        guard timeout > 0, timeout <= Self.longestWait else {
            throw .invalid(option: "--timeout", value: String(timeout), expected: "a positive number of seconds, up to 86400")
        }
        guard deadline > 0, deadline <= Self.longestWait else {
            throw .invalid(option: "--deadline", value: String(deadline), expected: "a positive number of seconds, up to 86400")
        }
        guard (0...10).contains(retry.retries) else {
            throw .invalid(option: "--retries", value: String(retry.retries), expected: "a whole number from 0 to 10")
        }
        guard maximumBytes > 0 else {
            throw .invalid(option: "--max-bytes", value: String(maximumBytes), expected: "a positive number of bytes")
        }
        guard lockTimeout >= 0, lockTimeout <= Self.longestWait else {
            throw .invalid(option: "--lock-timeout", value: String(lockTimeout), expected: "zero or more seconds, up to 86400")
        }
        if strict && offline {
            throw .invalid(option: "--strict", value: "--offline", expected: "one of the two: --offline always reads the cache")
        }
        for rule in alerts {
            do {
                _ = try AlertRule(parsing: rule)
            } catch {
                throw .invalid(option: "alert", value: rule, expected: "a rule like \"btc above 60000 SEK\" or \"any move 10 %\"")
            }
        }
        if let top = selection.top, top < 1 {
            throw .invalid(option: "--top", value: String(top), expected: "a positive whole number")
        }
        return request
    }
}
