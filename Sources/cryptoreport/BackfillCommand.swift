import ArgumentParser
import CryptoReport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `cryptoreport backfill --days 30`
struct BackfillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backfill",
        abstract: "Fill the history with daily klines of the primary markets and the ECB 90-day rates.",
        discussion: """
            Keeps to one request per second to WazirX; run it again to resume where it stopped. Uses the \
            reports' settings (configuration file, CRYPTOREPORT_* environment): their database, symbols, \
            timeout, retries, payload limit, tickers source and cache folder; with no_history set it \
            writes nothing unless --history names a database.
            """)

    @Option(parsing: .unconditional, help: "Days of history per market (1 to 1000): enough daily closes for an N-day change in the next report.")
    var days = 30

    @Option(
        help: ArgumentHelp(
            "History database (default: the settings' history, else history.sqlite in their output folder, else Output/history.sqlite).",
            valueName: "path"),
        transform: SettingKey.flag("history"))
    var history: String?

    @Option(
        help: "Only these base assets or market symbols, comma-separated (default: the settings' symbols, else every primary market).",
        transform: SettingKey.flag("symbols"))
    var symbols: [String]?

    @OptionGroup var settingsOptions: SettingsOptions

    @Option(name: .customLong("api-url"), help: "Base URL of the WazirX API.")
    var apiURL = "https://api.wazirx.com"

    @Option(name: .customLong("ecb-history-url"), help: "The ECB 90-day history file.")
    var ecbHistoryURL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml"

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Seconds each request may take. (default: the settings', else 15)", valueName: "seconds"),
        transform: SettingKey.flag("timeout"))
    var timeout: Duration?

    @Option(parsing: .unconditional, help: "Retries after a failed request. (default: the settings', else 3)", transform: SettingKey.flag("retries"))
    var retries: Int?

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    /// The flags that are settings too, as a layer over the file's and the environment's.
    func layer() -> SettingsLayer {
        var layer = SettingsLayer()
        layer.set("history", history)
        layer.set("symbols", symbols)
        layer.set("timeout", timeout)
        layer.set("retries", retries)
        layer.set("quiet", quiet ? true : nil)
        return layer
    }

    func validate() throws {
        guard (1...1000).contains(days) else { throw ValidationError("--days: \(days) is not valid; use 1 to 1000.") }
    }

    func run() async throws {
        let terminal = isatty(2) == 1
        do {
            let settings = try settingsOptions.settings(flags: layer())
            guard let history = settings.output.sharedHistoryPath else { throw BackfillRefused.historyOff }
            try ReportWriter.finishInterruptedCommit(inFolderOf: history)
            let quiet = settings.command.quiet
            var options = Backfiller.Options(fetch: settings.fetch)
            options.days = days
            options.apiBase = apiURL
            options.ratesHistoryURL = ecbHistoryURL
            options.symbols = settings.report.selection.symbols
            // The reports' cache folder, so that a backfill and a report keep to WazirX's limit together.
            options.requestLog = RequestLog(directory: settings.fetch.cacheFolder(environment: ProcessInfo.processInfo.environment))
            let store = try HistoryStore(path: history)
            let backfiller = Backfiller(
                store: store, logger: CryptoReportCommand.logger(verbose: settings.command.verbose, quiet: quiet),
                progress: { done, total, symbol in
                    guard !quiet else { return }
                    StandardStreams.writeError(BackfillProgress.line(done: done, total: total, symbol: symbol, terminal: terminal))
                })
            let outcome = try await backfiller.run(options)
            // Nothing stored, though markets were asked for: cron must hear of it.
            if outcome.leftOut > 0 && outcome.fetched == 0 && outcome.skipped == 0 { throw BackfillRefused.nothingStored(outcome.leftOut) }
            if !quiet {
                let leftOut = outcome.leftOut > 0 ? ", \(outcome.leftOut) left out (see the warnings)" : ""
                try StandardStreams.writeOutput(
                    "backfilled \(outcome.fetched) markets (\(outcome.skipped) already done\(leftOut)) of \(outcome.markets), \(outcome.rateDays) days of ECB rates, into \(history)\n"
                )
            }
        } catch {
            if terminal && !quiet { StandardStreams.writeError("\n") }
            throw CryptoReportCommand.fail(error)
        }
    }
}

/// `no_history = true` means no history is written by anything.
enum BackfillRefused: LocalizedError, ExitStatusProviding {
    case historyOff
    /// Every market asked for was left out.
    case nothingStored(Int)

    var errorDescription: String? {
        switch self {
        case .historyOff:
            "backfill: history is switched off (no_history in the settings); pass --history PATH to fill a database anyway."
        case let .nothingStored(count):
            "backfill: no day of the \(count) \(count == 1 ? "market" : "markets") could be stored (see the warnings); none is marked done."
        }
    }

    var exitStatus: ExitStatus {
        switch self {
        case .historyOff: .usage
        case .nothingStored: .dataError
        }
    }
}
