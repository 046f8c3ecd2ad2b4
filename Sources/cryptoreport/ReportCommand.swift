import ArgumentParser
import CryptoReport
import Foundation
import Logging

struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Daily crypto price reports from WazirX tickers and ECB exchange rates.",
        discussion: """
            Fetches every WazirX 24h ticker and the ECB reference rates, converts every market into \
            one currency and writes CSV, Markdown, HTML and JSON reports.

            \(CryptoReportCommand.exitCodes)
            """)

    @Option(help: "Report currency: USD, EUR or any currency in the ECB file. (default: USD)")
    var currency: String?

    @Option(help: "Locale for numbers in Markdown and HTML (default: the currency's own, e.g. sv_SE for SEK).")
    var locale: String?

    @Option(
        name: .customLong("format"),
        help: "csv, markdown (md), html, json or all; repeat or separate with commas. (default: all)")
    var formats: [String] = []

    @Option(help: "Folder for the reports, or - for standard output (one format only). (default: Output)")
    var output: String?

    @Option(help: "primary (one market per asset) or all. (default: primary)")
    var markets: String?

    @Option(help: "Only these base assets or market symbols, comma-separated (e.g. btc,eth,wrxinr).")
    var symbols: String?

    @Option(help: "Order by change, volume, spread, name or price. (default: volume)")
    var sort: String?

    // Unconditional, so that `--top -1` is refused as a bad number, not taken for a missing one.
    @Option(parsing: .unconditional, help: "Show only the first N markets.")
    var top: Int?

    @Option(name: .customLong("tickers-url"), help: "Where to read the tickers: http(s) URL, file:// URL or path.")
    var tickersURL: String?

    @Option(name: .customLong("ecb-url"), help: "Where to read the ECB rates: http(s) URL, file:// URL or path.")
    var ecbURL: String?

    @Flag(help: "Use the built-in real snapshot (WazirX 2022-11-22, ECB 2022-11-21); no network.")
    var sample = false

    @Option(help: "Seconds each fetch may take. (default: 15)")
    var timeout: Double?

    @Option(help: "Retries after a failed fetch (connection errors, timeouts, HTTP 5xx, 429, 418). (default: 3)")
    var retries: Int?

    @Option(help: "Seconds the whole fetch phase may take, retries included. (default: 120)")
    var deadline: Double?

    @Option(name: .customLong("max-bytes"), help: "Largest payload accepted, in bytes; refused while downloading. (default: 50000000)")
    var maxBytes: Int?

    @Option(name: .customLong("cache-dir"), help: "Cache folder (default: $XDG_CACHE_HOME/cryptoreport or ~/.cache/cryptoreport).")
    var cacheDirectory: String?

    @Option(
        name: .customLong("max-age"),
        help: "Oldest usable cache or ECB rates: 3d for both, or tickers=12h / rates=7d (defaults: tickers=24h, rates=5d). Repeatable.")
    var maxAges: [String] = []

    // The switches come in pairs (`--strict`, `--no-strict`), so that a flag can turn off what
    // the configuration file turns on.
    @Flag(inversion: .prefixedNo, help: "Fail instead of falling back to a cached payload.")
    var strict: Bool?

    @Flag(inversion: .prefixedNo, help: "Make no request: use only cached payloads.")
    var offline: Bool?

    @Flag(name: .customLong("allow-stale"), inversion: .prefixedNo, help: "Accept ECB rates older than --max-age.")
    var allowStale: Bool?

    @Option(name: .customLong("lock-timeout"), help: "Seconds to wait for another run writing into the same folder. (default: 60)")
    var lockTimeout: Double?

    @Option(help: "History database (default: history.sqlite in the output folder).")
    var history: String?

    @Flag(name: .customLong("no-history"), help: "Neither record this run nor show trends.")
    var noHistory = false

    @OptionGroup var configFile: ConfigOptions

    @Flag(name: .customLong("fail-on-alert"), inversion: .prefixedNo, help: "Exit with 10 when an alert fires (the reports are still written).")
    var failOnAlert: Bool?

    @Option(help: "Folder with your own report.md.mustache / report.html.mustache.")
    var templates: String?

    @Flag(name: .shortAndLong, help: "Print nothing on success.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Log what happens to standard error.")
    var verbose = false

    func validate() throws {
        if sample && (tickersURL != nil || ecbURL != nil) {
            throw ValidationError("--sample reads the built-in snapshot; leave out --tickers-url and --ecb-url.")
        }
        _ = try settings()
    }

    func run() async throws {
        // `quiet` and `verbose` are the command's, not the library's: the file's, unless a flag says.
        let (request, quiet, verbose) = try settings()
        let pipeline = ReportPipeline(logger: CryptoReportCommand.logger(verbose: verbose, quiet: quiet))
        do {
            let outcome = try await pipeline.run(request)
            if let text = outcome.standardOutput {
                FileHandle.standardOutput.write(Data(text.utf8))
            } else if !quiet {
                print(outcome.written.map(\.relativePath).joined(separator: "\n"))
            }
            // Alerts reach standard error even with --quiet, so that cron mails them.
            for message in AlertText.messages(outcome.report) {
                FileHandle.standardError.write(Data("cryptoreport: alert: \(message)\n".utf8))
            }
            if request.failOnAlert && !outcome.report.alerts.isEmpty {
                throw AlertsFired(count: outcome.report.alerts.count)
            }
        } catch {
            throw CryptoReportCommand.fail(error)
        }
    }

    /// Built-in defaults, then the configuration file, then the flags: each overrides the one
    /// before. With the command's own `quiet` and `verbose`, from one reading of the file.
    private func settings() throws -> (request: ReportRequest, quiet: Bool, verbose: Bool) {
        let file = try configFile.file()
        var request = ReportRequest()
        file?.apply(to: &request)
        do {
            try flagSettings().apply(to: &request)
        } catch let error as UsageError {
            throw ValidationError(error.errorDescription ?? "invalid flag")
        }
        if sample {
            // The built-in snapshot replaces any source the file names.
            request.sample = true
            request.tickersLocation = nil
            request.ratesLocation = nil
        }
        // Either flag given decides alone: `-q` silences a file's `verbose = true`, and the reverse.
        let flagged = quiet || verbose
        do {
            return (
                try request.validated(), quiet || (!flagged && file?.quiet == true),
                verbose || (!flagged && file?.verbose == true)
            )
        } catch {
            throw ValidationError(error.errorDescription ?? "invalid request")
        }
    }

    /// The flags given, as one more layer of settings over the file's: the same `apply` puts
    /// both into the request. Values are checked here, as the file's are when it is read.
    private func flagSettings() throws -> ConfigFile {
        var flags = ConfigFile()
        flags.currency = currency
        flags.locale = locale
        if !formats.isEmpty {
            _ = try ReportRequest.parseFormats(formats)
            flags.formats = formats
        }
        flags.output = output
        if let markets, Selection.Markets(rawValue: markets.lowercased()) == nil {
            throw ValidationError("--markets: \"\(markets)\" is not valid; use primary or all.")
        }
        flags.markets = markets
        if let sort, Selection.SortKey(rawValue: sort.lowercased()) == nil {
            throw ValidationError("--sort: \"\(sort)\" is not valid; use change, volume, spread, name or price.")
        }
        flags.sort = sort
        flags.symbols = symbols.map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        flags.top = top
        flags.tickersURL = tickersURL
        flags.ecbURL = ecbURL
        flags.timeout = timeout
        flags.retries = retries
        flags.deadline = deadline
        flags.maxBytes = maxBytes
        flags.cacheDir = cacheDirectory
        if !maxAges.isEmpty {
            var probe = MaxAge()
            for value in maxAges { try probe.apply(value) }
            flags.maxAge = maxAges
        }
        flags.strict = strict
        flags.offline = offline
        flags.allowStale = allowStale
        flags.lockTimeout = lockTimeout
        flags.history = history
        flags.noHistory = noHistory ? true : nil
        flags.failOnAlert = failOnAlert
        flags.templates = templates
        return flags
    }
}
