import ArgumentParser
import CryptoReport
import Foundation

/// `cryptoreport history --symbol btc --currency SEK --format csv --days 90`
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Export one asset's recorded series, converted at each day's own ECB rates, to standard output.")

    @Option(help: "Base asset (its primary market) or market symbol, e.g. btc or btcinr.")
    var symbol: String

    @Option(help: "Currency to show prices in (default: the configuration file's, else USD).")
    var currency: String?

    @Option(help: "csv, markdown (md) or json.")
    var format = "csv"

    @Option(help: "How many days back.")
    var days = 90

    @Option(help: "History database (default: the configuration file's, else history.sqlite in its output folder, else Output/history.sqlite).")
    var history: String?

    @Option(help: "Locale for Markdown numbers (default: the configuration file's, else the currency's own).")
    var locale: String?

    @OptionGroup var configFile: ConfigOptions

    /// What to export, with the configuration file's settings under the flags.
    struct Plan {
        var path: String
        var currency: String
        var locale: String
    }

    func validate() throws {
        guard (1...3650).contains(days) else { throw ValidationError("--days: \(days) is not valid; use 1 to 3650.") }
        guard ["csv", "markdown", "md", "json"].contains(format.lowercased()) else {
            throw ValidationError("--format: \"\(format)\" is not valid; use csv, markdown or json.")
        }
        _ = try plan()
    }

    func plan() throws -> Plan {
        var request = try configFile.request()
        if let currency { request.currency = currency }
        if let locale { request.locale = locale }
        do {
            // Only what an export uses: a configuration made for reports on standard output
            // (`output = "-"` and every format) is no reason to refuse one.
            request = try request.validatedMoney()
        } catch {
            throw ValidationError(error.errorDescription ?? "invalid request")
        }
        let path = ConfigOptions.historyPath(flag: history, request: request)
        guard FileManager.default.fileExists(atPath: path) else {
            throw ValidationError("--history: no history database at \(path); run a report first, or backfill.")
        }
        return Plan(path: path, currency: request.currency, locale: request.effectiveLocale)
    }

    func run() throws {
        let plan = try plan()
        do {
            let points: [HistoryExporter.Point]
            let exporter: HistoryExporter
            try ReportWriter.finishInterruptedCommit(inFolderOf: plan.path)
            do throws(HistoryError) {
                exporter = HistoryExporter(store: try HistoryStore(path: plan.path))
                points = try exporter.series(symbol: symbol, currency: plan.currency, days: days, now: Date())
            } catch {
                // Here the database is an input: one that cannot be read is not an output problem.
                throw error.asInput
            }
            let text: String
            switch format.lowercased() {
            case "json": text = exporter.json(points, symbol: symbol.lowercased(), currency: plan.currency)
            case "markdown", "md":
                text = exporter.markdown(points, symbol: symbol, currency: plan.currency, locale: Locale(identifier: plan.locale))
            default: text = exporter.csv(points)
            }
            FileHandle.standardOutput.write(Data(text.utf8))
        } catch {
            throw CryptoReportCommand.fail(error)
        }
    }
}
