import ArgumentParser
import CryptoReport
import Foundation

/// The report's flags, each read by its setting's rule (`SettingKey.flag`), so that a flag, a
/// variable and a file key take the same values; `layer()` names the key each sets. Numbers are
/// parsed unconditionally, so that `--timeout -1` is refused as a bad number rather than taken
/// for a missing one.
struct ReportOptions: ParsableArguments {
    @Option(
        help:
            "Report currency: USD, EUR or any currency in the ECB file; two, like SEK,USD, make one HTML page that switches between them (and each other format once per currency). (default: USD)",
        completion: Completions.currencyList, transform: SettingKey.flag("currency"))
    var currency: [CurrencyCode]?
    @Option(
        help: "Locale for numbers in Markdown and HTML (default: the currency's own, e.g. sv_SE for SEK).", completion: .list(Completions.locales),
        transform: SettingKey.flag("locale"))
    var locale: ReportLocale?
    @Option(
        help: ArgumentHelp(
            "Time zone for the times people read in HTML and Markdown, e.g. Europe/Stockholm; CSV and JSON keep UTC. (default: the machine's, from TZ)",
            valueName: "zone"), transform: SettingKey.flag("timezone"))
    var timezone: TimeZone?

    @Option(
        name: .customLong("format"),
        help: "csv, markdown (md), html, json, ledger, beancount or all (the first four); repeat or separate with commas. (default: all)",
        completion: Completions.formats, transform: SettingKey.flag("formats") as @Sendable (String) throws -> [ReportFormat])
    var formats: [[ReportFormat]] = []
    @Option(
        help: "rfc4180 (',' and '.') or excel (a byte-order mark; ';' and ',' for a decimal-comma locale such as sv_SE). (default: rfc4180)",
        completion: .list(CSVDialect.allCases.map(\.rawValue)), transform: SettingKey.flag("csv_dialect"))
    var csvDialect: CSVDialect?
    @Option(
        help: ArgumentHelp("Folder for the reports, or - for standard output (one format only). (default: Output)", valueName: "dir"), completion: .directory,
        transform: SettingKey.flag("output"))
    var output: OutputSpec.Destination?
    // `--latest` / `--no-latest`, the key being `no_latest`: `layer()` turns it round.
    @Flag(
        inversion: .prefixedNo,
        help: "Keep cryptoreport-latest-<CURRENCY>.<ext> copies of the newest reports in the folder (--no-latest: leave them as they are). (default: on)")
    var latest: Bool?

    @Option(
        help: "primary (one market per asset) or all. (default: primary)", completion: .list(Selection.Markets.allCases.map(\.rawValue)),
        transform: SettingKey.flag("markets"))
    var markets: Selection.Markets?
    @Option(
        help: "Only these base assets or market symbols, comma-separated (e.g. btc,eth,wrxinr).", completion: Completions.assets,
        transform: SettingKey.flag("symbols"))
    var symbols: [String]?
    @Option(
        help: "Order by change, volume, spread, name or price. (default: volume)", completion: .list(Selection.SortKey.allCases.map(\.rawValue)),
        transform: SettingKey.flag("sort"))
    var sort: Selection.SortKey?
    @Option(
        parsing: .unconditional, help: "Show only the first N markets (move alerts watch these rows; above/below alerts every market).",
        transform: SettingKey.flag("top"))
    var top: Int?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Least 24 h volume value, in the report currency, for a market to enter the top lists. (default: 100 USD's worth)", valueName: "amount"),
        transform: SettingKey.flag("min_volume_value"))
    var minVolumeValue: Decimal?
    @Option(
        help: "Up to five base assets or markets for the HTML page's comparison chart, e.g. btc,eth,sol. (default: the five with the most volume value)",
        completion: Completions.assets, transform: SettingKey.flag("compare"))
    var compare: [String]?
    @Option(
        name: .customLong("holding"),
        help: ArgumentHelp("An asset you hold, ASSET=AMOUNT (btc=0.5), or with its cost, btc=0.5@150000 SEK; repeatable.", valueName: "asset=amount"),
        transform: SettingKey.flag("holdings") as @Sendable (String) throws -> [Holding])
    var holdings: [[Holding]] = []
    @Option(
        name: .customLong("alert"), help: "An alert rule, e.g. \"btc above 60000 SEK\"; repeatable (replaces the file's alerts).",
        transform: AlertRule.init(parsing:))
    var alerts: [AlertRule] = []

    @Option(
        name: .customLong("source"),
        help: ArgumentHelp(
            "Exchanges to read the markets from, in fallback order: wazirx, binance or binance-us, e.g. wazirx,binance. (default: wazirx)",
            valueName: "list"), completion: .list(Exchange.allCases.map(\.rawValue)), transform: SettingKey.flag("sources"))
    var sources: [Exchange]?
    @Option(
        name: .customLong("source-url"),
        help: ArgumentHelp(
            "Read one feed elsewhere: NAME=URL, NAME being wazirx, binance, binance-info, binance-us, binance-us-info or wazirx-assets (the names of assets); repeatable.",
            valueName: "name=url"), transform: SettingKey.flag("source_urls") as @Sendable (String) throws -> [SourceOverride])
    var sourceURLs: [[SourceOverride]] = []
    @Option(
        name: .customLong("usd-stablecoins"),
        help: ArgumentHelp(
            "Quote assets taken at par with USD. (default: usdt,usdc,busd,tusd,usdp,pax,fdusd)", valueName: "list"),
        transform: SettingKey.flag("usd_stablecoins"))
    var stablecoins: [String]?
    @Flag(inversion: .prefixedNo, help: "Read every exchange of --source and warn of an asset whose prices differ by more than --cross-check-tolerance.")
    var crossCheck: Bool?
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Largest difference between exchanges' prices that --cross-check accepts. (default: 2%)", valueName: "percent"),
        transform: SettingKey.flag("cross_check_tolerance"))
    var crossCheckTolerance: Decimal?
    @Option(
        name: .customLong("tickers-url"), help: ArgumentHelp("Where to read the tickers: http(s) URL, file:// URL or path.", valueName: "url"),
        completion: .file(), transform: SettingKey.flag("tickers_url"))
    var tickersURL: SourceLocation?
    @Option(
        name: .customLong("ecb-url"), help: ArgumentHelp("Where to read the ECB rates: http(s) URL, file:// URL or path.", valueName: "url"),
        completion: .file(), transform: SettingKey.flag("ecb_url"))
    var ecbURL: SourceLocation?
    @Flag(help: "Use the built-in real snapshot (WazirX 2022-11-22, ECB 2022-11-21); no network, no history unless --history.")
    var sample = false

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds each fetch may take. (default: 15)", valueName: "seconds"), transform: SettingKey.flag("timeout"))
    var timeout: Duration?
    @Option(
        parsing: .unconditional, help: "Retries after a failed fetch (connection errors, timeouts, HTTP 5xx, 429, 418). (default: 3)",
        transform: SettingKey.flag("retries"))
    var retries: Int?
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds the whole fetch phase may take, retries included. (default: 120)", valueName: "seconds"),
        transform: SettingKey.flag("deadline"))
    var deadline: Duration?
    @Option(
        parsing: .unconditional, help: ArgumentHelp("Largest payload accepted, in bytes; refused while downloading. (default: 50000000)", valueName: "bytes"),
        transform: SettingKey.flag("max_bytes"))
    var maxBytes: Int?
    @Option(
        help: ArgumentHelp("Cache folder (default: $XDG_CACHE_HOME/cryptoreport or ~/.cache/cryptoreport).", valueName: "dir"), completion: .directory,
        transform: SettingKey.flag("cache_dir"))
    var cacheDir: String?
    @Option(
        parsing: .unconditionalSingleValue,
        help: "Oldest usable cache or ECB rates: 3d for both, or tickers=12h / rates=7d (defaults: tickers=24h, rates=5d). Repeatable.",
        transform: SettingKey.flag("max_age") as @Sendable (String) throws -> [MaxAge.Limit])
    var maxAge: [[MaxAge.Limit]] = []

    // The switches come in pairs (`--strict`, `--no-strict`), so that a flag can turn off what
    // the configuration file or the environment turns on.
    @Flag(inversion: .prefixedNo, help: "Fail instead of falling back to a cached payload.")
    var strict: Bool?
    @Flag(inversion: .prefixedNo, help: "Make no request: use only cached payloads.")
    var offline: Bool?
    @Flag(inversion: .prefixedNo, help: "Accept ECB rates older than --max-age.")
    var allowStale: Bool?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds to wait for another run writing into the same folder. (default: 180)", valueName: "seconds"),
        transform: SettingKey.flag("lock_timeout"))
    var lockTimeout: Duration?
    @Option(
        help: ArgumentHelp("History database (default: history.sqlite in the output folder).", valueName: "path"), completion: .file(extensions: ["sqlite"]),
        transform: SettingKey.flag("history"))
    var history: String?
    @Flag(help: "Neither record this run nor show trends.")
    var noHistory = false
    @Flag(inversion: .prefixedNo, help: "Exit with 10 when an alert fires (the reports are still written).")
    var failOnAlert: Bool?
    @Option(
        name: .customLong("notify"),
        help: ArgumentHelp("POST a notice of alerts that start to fire to this webhook, as JSON {\"text\", \"alerts\"}; repeatable.", valueName: "url"),
        transform: SettingKey.flag("notify") as @Sendable (String) throws -> [URL])
    var notify: [[URL]] = []
    @Option(
        help: ArgumentHelp(
            "Run this through /bin/sh with the notice's text on standard input and its JSON in CRYPTOREPORT_ALERTS.", valueName: "command"),
        transform: SettingKey.flag("notify_command"))
    var notifyCommand: String?
    @Flag(inversion: .prefixedNo, help: "Send a notice on every run an alert fires, not only when it starts to fire.")
    var notifyEveryRun: Bool?
    @Option(
        help: ArgumentHelp("Where the report folder is published: each notice line links to its page.", valueName: "url"),
        transform: SettingKey.flag("link_base"))
    var linkBase: String?
    @Option(
        help: ArgumentHelp("Folder with your own report.md.mustache / report.html.mustache.", valueName: "dir"), completion: .directory,
        transform: SettingKey.flag("templates"))
    var templates: String?

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false
    @Flag(name: .shortAndLong, help: "Log what happens to standard error.")
    var verbose = false

    @OptionGroup var settingsOptions: SettingsOptions

    /// A report option given twice, which swift-argument-parser would quietly take the last of:
    /// `--currency SEK --currency USD` made a USD report, not both. `--format`, `--alert` and
    /// `--max-age` add up and may repeat; a switch repeated says the same thing twice.
    static func repeated(_ arguments: [String]) -> String? {
        let addingUp: Set = ["format", "alert", "max-age", "source-url", "notify", "holding"]
        var seen = Set<String>()
        for argument in arguments {
            if argument == "--" { break }
            guard argument.hasPrefix("--") else { continue }
            let name = String(argument.dropFirst(2).prefix { $0 != "=" })
            guard !addingUp.contains(name), let key = SettingsLayer.key(name.replacingOccurrences(of: "-", with: "_")),
                key.rule.kind != .boolean
            else { continue }
            guard seen.insert(name).inserted else {
                let hint =
                    name == "currency"
                    ? " (two currencies: --currency SEK,USD)"
                    : key.rule.kind == .strings ? " (several: separated by commas, like btc,eth)" : ""
                return "--\(name) is given twice; give it once\(hint)"
            }
        }
        return nil
    }

    func validate() throws {
        if sample && (tickersURL != nil || ecbURL != nil || !sourceURLs.isEmpty) {
            throw ValidationError("--sample reads the built-in snapshot; leave out --tickers-url, --ecb-url and --source-url.")
        }
        if sample, let sources, sources != [.wazirx] {
            throw ValidationError("--sample reads the built-in WazirX snapshot; leave out --source.")
        }
        // Given together on one command line, one of them would be ignored without a word.
        if history != nil && noHistory {
            throw ValidationError("--history names a database and --no-history records none; give one of them.")
        }
        if quiet && verbose {
            throw ValidationError("--quiet prints nothing on success and --verbose logs every step; give one of them.")
        }
    }

    /// The flags given, as a layer of settings: each flag sets its key when it was given (a
    /// switch when it is on; a list when it holds anything).
    func layer() -> SettingsLayer {
        var layer = SettingsLayer()
        layer.set("currency", currency)
        layer.set("locale", locale)
        layer.set("timezone", timezone)
        layer.set("markets", markets)
        layer.set("symbols", symbols)
        layer.set("sort", sort)
        layer.set("top", top)
        layer.set("alerts", alerts.isEmpty ? nil : alerts)
        layer.set("holdings", holdings.isEmpty ? nil : Array(holdings.joined()))
        layer.set("compare", compare)
        layer.set("min_volume_value", minVolumeValue)
        layer.set("usd_stablecoins", stablecoins)
        layer.set("sources", sources)
        layer.set("source_urls", sourceURLs.isEmpty ? nil : Array(sourceURLs.joined()))
        layer.set("cross_check", crossCheck)
        layer.set("cross_check_tolerance", crossCheckTolerance)
        layer.set("tickers_url", tickersURL)
        layer.set("ecb_url", ecbURL)
        layer.set("sample", sample ? true : nil)
        layer.set("timeout", timeout)
        layer.set("deadline", deadline)
        layer.set("retries", retries)
        layer.set("max_bytes", maxBytes)
        layer.set("cache_dir", cacheDir)
        layer.set("max_age", maxAge.isEmpty ? nil : Array(maxAge.joined()))
        layer.set("strict", strict)
        layer.set("offline", offline)
        layer.set("allow_stale", allowStale)
        layer.set("output", output)
        layer.set("formats", formats.isEmpty ? nil : Array(formats.joined()))
        layer.set("csv_dialect", csvDialect)
        // `--latest` / `--no-latest`, the key being `no_latest`.
        layer.set("no_latest", latest.map { !$0 })
        layer.set("templates", templates)
        layer.set("history", history)
        layer.set("no_history", noHistory ? true : nil)
        layer.set("lock_timeout", lockTimeout)
        layer.set("quiet", quiet ? true : nil)
        layer.set("verbose", verbose ? true : nil)
        layer.set("fail_on_alert", failOnAlert)
        layer.set("notify", notify.isEmpty ? nil : Array(notify.joined()))
        layer.set("notify_command", notifyCommand)
        layer.set("notify_every_run", notifyEveryRun)
        layer.set("link_base", linkBase)
        return layer
    }

    func settings() throws(SettingsError) -> Settings {
        let settings = try settingsOptions.settings(flags: layer())
        try settings.checkReport()
        return settings
    }
}
