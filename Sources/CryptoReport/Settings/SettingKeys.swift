package import Foundation

/// Every setting the configuration file and the environment know, with the flag that sets it
/// in the README's table. Adding an option: a field in its part of `Settings` (with its
/// default), a key here, a flag in the command, a row in the README.
package enum SettingKeys {
    // What the report shows.
    package static let currency = SettingKey("currency", .currencies) { $0.report.currencies = $1 }
    package static let locale = SettingKey("locale", .locale) { $0.report.locale = $1 }
    package static let markets = SettingKey("markets", .choice) { $0.report.selection.markets = $1 }
    package static let symbols = SettingKey("symbols", .symbols) { $0.report.selection.symbols = $1 }
    package static let sort = SettingKey("sort", .choice) { $0.report.selection.sort = $1 }
    package static let top = SettingKey("top", .positive) { $0.report.selection.top = $1 }
    package static let alerts = SettingKey("alerts", .alerts) { $0.report.alerts = $1 }
    package static let timeZone = SettingKey("timezone", .timeZone) { $0.report.timeZone = $1 }
    package static let compare = SettingKey("compare", .compare) { $0.report.compare = $1 }
    package static let minVolumeValue = SettingKey("min_volume_value", .amount) { $0.report.minimumVolumeValue = $1 }

    // Where the data comes from, and how hard to try.
    package static let tickersURL = SettingKey("tickers_url", .location(.tickers)) { $0.fetch.tickers = $1 }
    package static let ecbURL = SettingKey("ecb_url", .location(.rates)) { $0.fetch.rates = $1 }
    package static let sample = SettingKey("sample", .boolean) { $0.fetch.sample = $1 }
    package static let timeout = SettingKey("timeout", .seconds(allowingZero: false)) { $0.fetch.timeout = $1 }
    package static let retries = SettingKey("retries", .whole(0...10, expected: "a whole number from 0 to 10")) {
        $0.fetch.retry.retries = $1
    }
    package static let deadline = SettingKey("deadline", .seconds(allowingZero: false)) { $0.fetch.deadline = $1 }
    package static let maxBytes = SettingKey("max_bytes", .positive) { $0.fetch.maximumBytes = $1 }
    package static let cacheDir = SettingKey("cache_dir", .path) { $0.fetch.cacheDirectory = $1 }
    /// Each limit over the one before: `tickers=12h` keeps the layer below's limit for rates.
    package static let maxAge = SettingKey("max_age", .maxAge) { settings, limits in
        for limit in limits { settings.fetch.maxAge.apply(limit) }
    }
    package static let strict = SettingKey("strict", .boolean) { $0.fetch.strict = $1 }
    package static let offline = SettingKey("offline", .boolean) { $0.fetch.offline = $1 }
    package static let allowStale = SettingKey("allow_stale", .boolean) { $0.fetch.allowStale = $1 }

    // What is written, and where.
    /// Distinct and in report order, however often a flag repeats them.
    package static let formats = SettingKey("formats", .formats) { $0.output.formats = Array(Set($1)).sorted() }
    package static let output = SettingKey("output", .destination) { $0.output.destination = $1 }
    package static let templates = SettingKey("templates", .path) { $0.output.templates = $1 }
    package static let history = SettingKey("history", .path) { $0.output.history = .path($1) }
    /// `false` undoes a lower layer's `true`; a database named by any layer is kept.
    package static let noHistory = SettingKey("no_history", .boolean) { settings, off in
        if off {
            settings.output.history = .disabled
        } else if settings.output.history == .disabled {
            settings.output.history = .automatic
        }
    }
    package static let csvDialect = SettingKey("csv_dialect", .choice) { $0.output.csvDialect = $1 }
    package static let noLatest = SettingKey("no_latest", .boolean) { $0.output.latest = !$1 }
    package static let lockTimeout = SettingKey("lock_timeout", .seconds(allowingZero: true)) { $0.output.lockTimeout = $1 }

    // How the command reports. Either of quiet and verbose set aside the other below it: `-q`
    // silences a file's `verbose = true`, and the reverse.
    package static let quiet = SettingKey("quiet", .boolean) { settings, on in
        settings.command.quiet = on
        if on { settings.command.verbose = false }
    }
    package static let verbose = SettingKey("verbose", .boolean) { settings, on in
        settings.command.verbose = on
        if on { settings.command.quiet = false }
    }
    package static let failOnAlert = SettingKey("fail_on_alert", .boolean) { $0.command.failOnAlert = $1 }

    /// Every key, in the README's order.
    package static let all: [any AnySettingKey] = [
        currency, locale, timeZone, formats, csvDialect, output, noLatest, symbols, markets, sort, top, minVolumeValue, compare, history, noHistory,
        failOnAlert, alerts,
        tickersURL, ecbURL, sample, timeout, retries, deadline, maxBytes, cacheDir, maxAge, strict, offline, allowStale,
        lockTimeout, templates, quiet, verbose,
    ]

    package static func named(_ name: String) -> (any AnySettingKey)? {
        all.first { $0.name == name }
    }
}
