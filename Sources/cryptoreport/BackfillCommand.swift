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
        discussion: "Keeps to one request per second to WazirX; run it again to resume where it stopped.")

    @Option(help: "Days of history per market (1 to 1000): enough daily closes for an N-day change in the next report.")
    var days = 30

    @Option(help: "History database (default: the configuration file's, else history.sqlite in its output folder, else Output/history.sqlite).")
    var history: String?

    @Option(help: "Only these base assets or market symbols, comma-separated (default: the configuration file's symbols, else every primary market).")
    var symbols: String?

    @OptionGroup var configFile: ConfigOptions

    @Option(name: .customLong("api-url"), help: "Base URL of the WazirX API.")
    var apiURL = "https://api.wazirx.com"

    @Option(name: .customLong("ecb-history-url"), help: "The ECB 90-day history file.")
    var ecbHistoryURL = "https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml"

    @Option(help: "Seconds each request may take.")
    var timeout: Double = 15

    @Option(help: "Retries after a failed request.")
    var retries = 3

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        guard (1...1000).contains(days) else { throw ValidationError("--days: \(days) is not valid; use 1 to 1000.") }
        _ = try configFile.request()
    }

    func run() async throws {
        var options = Backfiller.Options()
        options.days = days
        options.apiBase = apiURL
        options.ratesHistoryURL = ecbHistoryURL
        // The same database and markets as the reports: flags, then the configuration file.
        let request = try configFile.request()
        let history = ConfigOptions.historyPath(flag: history, request: request)
        options.symbols = symbols.map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        } ?? request.selection.symbols
        options.timeout = timeout
        // The reports' cache folder, so that a backfill and a report keep to WazirX's limit together.
        options.requestLog = RequestLog(
            directory: request.cacheDirectory.map { URL(fileURLWithPath: $0) }
                ?? PayloadCache.defaultDirectory(environment: ProcessInfo.processInfo.environment))
        options.retry.retries = retries
        let quiet = quiet
        let terminal = isatty(2) == 1
        do {
            try ReportWriter.finishInterruptedCommit(inFolderOf: history)
            let store = try HistoryStore(path: history)
            let backfiller = Backfiller(
                store: store, logger: CryptoReportCommand.logger(verbose: false, quiet: quiet),
                progress: { done, total, symbol in
                    guard !quiet else { return }
                    FileHandle.standardError.write(Data(BackfillProgress.line(done: done, total: total, symbol: symbol, terminal: terminal).utf8))
                })
            let outcome = try await backfiller.run(options)
            if !quiet {
                print(
                    "backfilled \(outcome.fetched) markets (\(outcome.skipped) already done) of \(outcome.markets), \(outcome.rateDays) days of ECB rates, into \(history)"
                )
            }
        } catch {
            if terminal && !quiet { FileHandle.standardError.write(Data("\n".utf8)) }
            throw CryptoReportCommand.fail(error)
        }
    }
}
