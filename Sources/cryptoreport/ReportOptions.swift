import ArgumentParser
import CryptoReport
import Foundation

/// The report's flags: each read by its setting's own rules (`SettingKeys`), so a flag, an
/// environment variable and a file key accept the same values and say the same about a bad one.
/// Numbers are parsed unconditionally, so that `--timeout -1` is refused as a bad number rather
/// than taken for a missing one.
struct ReportOptions: ParsableArguments {
    @Option(help: "Report currency: USD, EUR or any currency in the ECB file; two, like SEK,USD, make one HTML page that switches between them (and each other format once per currency). (default: USD)", completion: .list(Completions.currencies), transform: SettingKeys.currency.flag)
    var currency: [CurrencyCode]?

    @Option(help: "Locale for numbers in Markdown and HTML (default: the currency's own, e.g. sv_SE for SEK).", completion: .list(Completions.locales), transform: SettingKeys.locale.flag)
    var locale: ReportLocale?

    @Option(name: .customLong("timezone"), help: ArgumentHelp("Time zone for the times people read in HTML and Markdown, e.g. Europe/Stockholm; CSV and JSON keep UTC. (default: the machine's, from TZ)", valueName: "zone"), transform: SettingKeys.timeZone.flag)
    var timeZone: TimeZone?

    @Option(name: .customLong("format"), help: "csv, markdown (md), html, json, ledger, beancount or all (the first four); repeat or separate with commas. (default: all)", completion: Completions.formats, transform: SettingKeys.formats.flag)
    var formats: [[ReportFormat]] = []

    @Option(name: .customLong("csv-dialect"), help: "rfc4180 (',' and '.') or excel (a byte-order mark; ';' and ',' for a decimal-comma locale such as sv_SE). (default: rfc4180)", completion: .list(CSVDialect.allCases.map(\.rawValue)), transform: SettingKeys.csvDialect.flag)
    var csvDialect: CSVDialect?

    @Option(help: ArgumentHelp("Folder for the reports, or - for standard output (one format only). (default: Output)", valueName: "dir"), completion: .directory, transform: SettingKeys.output.flag)
    var output: OutputSpec.Destination?

    @Flag(name: .customLong("latest"), inversion: .prefixedNo, help: "Keep cryptoreport-latest-<CURRENCY>.<ext> copies of the newest reports in the folder (--no-latest: leave them as they are). (default: on)")
    var latest: Bool?

    @Option(help: "primary (one market per asset) or all. (default: primary)", completion: .list(Selection.Markets.allCases.map(\.rawValue)), transform: SettingKeys.markets.flag)
    var markets: Selection.Markets?

    @Option(help: "Only these base assets or market symbols, comma-separated (e.g. btc,eth,wrxinr).", completion: Completions.assets, transform: SettingKeys.symbols.flag)
    var symbols: [String]?

    @Option(help: "Order by change, volume, spread, name or price. (default: volume)", completion: .list(Selection.SortKey.allCases.map(\.rawValue)), transform: SettingKeys.sort.flag)
    var sort: Selection.SortKey?

    @Option(parsing: .unconditional, help: "Show only the first N markets.", transform: SettingKeys.top.flag)
    var top: Int?

    @Option(
        name: .customLong("min-volume-value"), parsing: .unconditional,
        help: ArgumentHelp(
            "Least 24 h volume value, in the report currency, for a market to enter the top lists. (default: 100 USD's worth)",
            valueName: "amount"),
        transform: SettingKeys.minVolumeValue.flag)
    var minVolumeValue: Decimal?

    @Option(
        help: "Up to five base assets or markets for the HTML page's comparison chart, e.g. btc,eth,sol. (default: the five with the most volume value)",
        completion: Completions.assets, transform: SettingKeys.compare.flag)
    var compare: [String]?

    @Option(name: .customLong("alert"), help: "An alert rule, e.g. \"btc above 60000 SEK\"; repeatable (replaces the file's alerts).")
    var alertRules: [String] = []

    @Option(name: .customLong("tickers-url"), help: ArgumentHelp("Where to read the tickers: http(s) URL, file:// URL or path.", valueName: "url"), completion: .file(), transform: SettingKeys.tickersURL.flag)
    var tickersURL: SourceLocation?

    @Option(name: .customLong("ecb-url"), help: ArgumentHelp("Where to read the ECB rates: http(s) URL, file:// URL or path.", valueName: "url"), completion: .file(), transform: SettingKeys.ecbURL.flag)
    var ecbURL: SourceLocation?

    @Flag(help: "Use the built-in real snapshot (WazirX 2022-11-22, ECB 2022-11-21); no network, no history unless --history.")
    var sample = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds each fetch may take. (default: 15)", valueName: "seconds"), transform: SettingKeys.timeout.flag)
    var timeout: Duration?

    @Option(parsing: .unconditional, help: "Retries after a failed fetch (connection errors, timeouts, HTTP 5xx, 429, 418). (default: 3)", transform: SettingKeys.retries.flag)
    var retries: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds the whole fetch phase may take, retries included. (default: 120)", valueName: "seconds"), transform: SettingKeys.deadline.flag)
    var deadline: Duration?

    @Option(name: .customLong("max-bytes"), parsing: .unconditional, help: ArgumentHelp("Largest payload accepted, in bytes; refused while downloading. (default: 50000000)", valueName: "bytes"), transform: SettingKeys.maxBytes.flag)
    var maxBytes: Int?

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp("Cache folder (default: $XDG_CACHE_HOME/cryptoreport or ~/.cache/cryptoreport).", valueName: "dir"), completion: .directory, transform: SettingKeys.cacheDir.flag)
    var cacheDirectory: String?

    @Option(name: .customLong("max-age"), help: "Oldest usable cache or ECB rates: 3d for both, or tickers=12h / rates=7d (defaults: tickers=24h, rates=5d). Repeatable.", transform: SettingKeys.maxAge.flag)
    var maxAges: [[MaxAge.Limit]] = []

    // The switches come in pairs (`--strict`, `--no-strict`), so that a flag can turn off what
    // the configuration file or the environment turns on.
    @Flag(inversion: .prefixedNo, help: "Fail instead of falling back to a cached payload.")
    var strict: Bool?

    @Flag(inversion: .prefixedNo, help: "Make no request: use only cached payloads.")
    var offline: Bool?

    @Flag(name: .customLong("allow-stale"), inversion: .prefixedNo, help: "Accept ECB rates older than --max-age.")
    var allowStale: Bool?

    @Option(name: .customLong("lock-timeout"), parsing: .unconditional, help: ArgumentHelp("Seconds to wait for another run writing into the same folder. (default: 60)", valueName: "seconds"), transform: SettingKeys.lockTimeout.flag)
    var lockTimeout: Duration?

    @Option(help: ArgumentHelp("History database (default: history.sqlite in the output folder).", valueName: "path"), completion: .file(extensions: ["sqlite"]), transform: SettingKeys.history.flag)
    var history: String?

    @Flag(name: .customLong("no-history"), help: "Neither record this run nor show trends.")
    var noHistory = false

    @Flag(name: .customLong("fail-on-alert"), inversion: .prefixedNo, help: "Exit with 10 when an alert fires (the reports are still written).")
    var failOnAlert: Bool?

    @Option(help: ArgumentHelp("Folder with your own report.md.mustache / report.html.mustache.", valueName: "dir"), completion: .directory, transform: SettingKeys.templates.flag)
    var templates: String?

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Log what happens to standard error.")
    var verbose = false

    @OptionGroup var settingsOptions: SettingsOptions

    func validate() throws {
        if sample && (tickersURL != nil || ecbURL != nil) {
            throw ValidationError("--sample reads the built-in snapshot; leave out --tickers-url and --ecb-url.")
        }
    }

    /// The flags given, as the top layer of settings.
    func layer() throws(SettingsError) -> SettingsLayer {
        var layer = SettingsLayer()
        layer.set(SettingKeys.currency, currency)
        layer.set(SettingKeys.locale, locale)
        layer.set(SettingKeys.timeZone, timeZone)
        layer.set(SettingKeys.formats, formats.isEmpty ? nil : Array(Set(formats.joined())).sorted())
        layer.set(SettingKeys.csvDialect, csvDialect)
        layer.set(SettingKeys.output, output)
        layer.set(SettingKeys.noLatest, latest.map { !$0 })
        layer.set(SettingKeys.markets, markets)
        layer.set(SettingKeys.symbols, symbols)
        layer.set(SettingKeys.sort, sort)
        layer.set(SettingKeys.top, top)
        layer.set(SettingKeys.minVolumeValue, minVolumeValue)
        layer.set(SettingKeys.compare, compare)
        if !alertRules.isEmpty {
            var rules: [AlertRule] = []
            for text in alertRules {
                do {
                    rules.append(try AlertRule(parsing: text))
                } catch {
                    throw .flag(name: "--alert", message: error.message)
                }
            }
            layer.set(SettingKeys.alerts, rules)
        }
        layer.set(SettingKeys.tickersURL, tickersURL)
        layer.set(SettingKeys.ecbURL, ecbURL)
        layer.set(SettingKeys.sample, sample ? true : nil)
        layer.set(SettingKeys.timeout, timeout)
        layer.set(SettingKeys.retries, retries)
        layer.set(SettingKeys.deadline, deadline)
        layer.set(SettingKeys.maxBytes, maxBytes)
        layer.set(SettingKeys.cacheDir, cacheDirectory)
        layer.set(SettingKeys.maxAge, maxAges.isEmpty ? nil : Array(maxAges.joined()))
        layer.set(SettingKeys.strict, strict)
        layer.set(SettingKeys.offline, offline)
        layer.set(SettingKeys.allowStale, allowStale)
        layer.set(SettingKeys.lockTimeout, lockTimeout)
        // `--no-history` after `--history`, so that the two together mean no history.
        layer.set(SettingKeys.noHistory, history != nil ? false : nil)
        layer.set(SettingKeys.history, history)
        layer.set(SettingKeys.noHistory, noHistory ? true : nil)
        layer.set(SettingKeys.failOnAlert, failOnAlert)
        layer.set(SettingKeys.templates, templates)
        layer.set(SettingKeys.quiet, quiet ? true : nil)
        layer.set(SettingKeys.verbose, verbose ? true : nil)
        return layer
    }

    func settings() throws(SettingsError) -> Settings {
        let settings = try settingsOptions.settings(flags: try layer())
        try settings.checkReport()
        return settings
    }
}
