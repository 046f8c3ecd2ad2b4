import ArgumentParser
import CryptoReport
import Foundation

/// `cryptoreport history --symbol btc --currency SEK --format csv --days 90`
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Export one asset's recorded series, converted at each day's own ECB rates, to standard output.")

    /// What `history` writes.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, markdown, md, json
    }

    @Option(help: "Base asset (its primary market) or market symbol, e.g. btc or btcinr.", completion: Completions.assets)
    var symbol: String

    @Option(
        help: "Currency to show prices in (default: the settings' first, else USD).", completion: .list(Completions.currencies),
        transform: SettingKey.flag("currency"))
    var currency: [CurrencyCode]?

    @Option(help: "csv, markdown (md) or json.")
    var format = Format.csv

    @Option(parsing: .unconditional, help: "How many days back (1 to 3650).")
    var days = 90

    @Option(
        help: ArgumentHelp(
            "History database (default: the settings' history, else history.sqlite in their output folder, else Output/history.sqlite).",
            valueName: "path"),
        transform: SettingKey.flag("history"))
    var history: String?

    @Option(
        help: "Locale for Markdown numbers (default: the settings', else the currency's own).", completion: .list(Completions.locales),
        transform: SettingKey.flag("locale"))
    var locale: ReportLocale?

    @Option(
        help: ArgumentHelp("Only the runs of one exchange: wazirx, binance or binance-us. (default: every exchange's)", valueName: "name"),
        completion: .list(Exchange.allCases.map(\.rawValue)), transform: HistoryCommand.exchange)
    var source: Exchange?

    @OptionGroup var settingsOptions: SettingsOptions

    /// `--source`'s exchange, named as the report's `--source` names it.
    static func exchange(_ text: String) throws -> Exchange {
        guard let exchange = Exchange(rawValue: text.lowercased()) else {
            let names = Exchange.allCases.map(\.rawValue)
            throw ValidationError("expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")")
        }
        return exchange
    }

    /// The flags that are settings too, as a layer over the file's and the environment's.
    func layer() -> SettingsLayer {
        var layer = SettingsLayer()
        layer.set("currency", currency)
        layer.set("history", history)
        layer.set("locale", locale)
        return layer
    }

    func validate() throws {
        guard (1...3650).contains(days) else { throw ValidationError("--days: \(days) is not valid; use 1 to 3650.") }
        if let currency, currency.count > 1 {
            throw ValidationError("--currency: history shows one currency at a time; run it once per currency.")
        }
    }

    func run() throws {
        do {
            let settings = try settingsOptions.settings(flags: layer())
            // Reading what earlier runs recorded: `no_history` stops writing, not this.
            var output = settings.output
            output.noHistory = false
            let path = output.sharedHistoryPath ?? "Output/history.sqlite"
            guard FileManager.default.fileExists(atPath: path) else {
                throw HistoryError.noDatabase(path: path, named: output.database != nil)
            }
            let currency = settings.report.currency.code
            let locale = settings.report.locale?.identifier ?? PeopleNumberFormatter.defaultLocaleIdentifier(for: currency)
            // Read-only: a commit a killed run left in the folder is finished by the next report
            // or backfill, never here (recovery writes, and a journal may be another user's).
            let points: [HistoryExporter.Point]
            let emptyWindow: HistoryExporter.EmptyWindow?
            do throws(HistoryError) {
                let exporter = HistoryExporter(store: try HistoryStore(path: path), exchange: source) { leftOut in
                    StandardStreams.writeError("cryptoreport: warning: \(leftOut.errorDescription ?? "") They are left out.\n")
                }
                let now = Date()
                points = try exporter.series(symbol: symbol, currency: currency, days: days, now: now)
                emptyWindow = points.isEmpty ? try exporter.emptyWindow(symbol: symbol, currency: currency, now: now) : nil
            } catch {
                // Here the database is an input: one that cannot be read is not an output problem.
                throw error.asInput
            }
            if let emptyWindow {
                StandardStreams.writeError(
                    "cryptoreport: history: no run in the last \(days) days; the newest recorded run is of \(ReportDates.minute(emptyWindow.newestRun)): --days \(emptyWindow.daysNeeded) reaches it.\n"
                )
            }
            let bytes: [UInt8]
            switch format {
            case .json: bytes = try HistoryRenderer(symbol: symbol.lowercased(), currency: currency).jsonBytes(points)
            case .markdown, .md:
                bytes = Array(HistoryRenderer(symbol: symbol, currency: currency).markdown(points, locale: Locale(identifier: locale)).utf8)
            case .csv: bytes = HistoryRenderer(symbol: symbol, currency: currency).csvBytes(points)
            }
            try StandardStreams.writeOutput(bytes)
        } catch {
            throw CryptoReportCommand.fail(error)
        }
    }
}
