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

    @Option(help: "Currency to show prices in.")
    var currency = "USD"

    @Option(help: "csv, markdown (md) or json.")
    var format = "csv"

    @Option(help: "How many days back.")
    var days = 90

    @Option(help: "History database (default: Output/history.sqlite).")
    var history = "Output/history.sqlite"

    @Option(help: "Locale for Markdown numbers (default: the currency's own).")
    var locale: String?

    func validate() throws {
        guard (1...3650).contains(days) else { throw ValidationError("--days: \(days) is not valid; use 1 to 3650.") }
        guard ["csv", "markdown", "md", "json"].contains(format.lowercased()) else {
            throw ValidationError("--format: \"\(format)\" is not valid; use csv, markdown or json.")
        }
        guard FileManager.default.fileExists(atPath: history) else {
            throw ValidationError("--history: no history database at \(history); run a report first, or backfill.")
        }
    }

    func run() throws {
        do {
            let store = try HistoryStore(path: history)
            let exporter = HistoryExporter(store: store)
            let code = currency.uppercased()
            let points = try exporter.series(symbol: symbol, currency: code, days: days, now: Date())
            let text: String
            switch format.lowercased() {
            case "json": text = exporter.json(points, symbol: symbol.lowercased(), currency: code)
            case "markdown", "md":
                let identifier = locale ?? PeopleNumberFormatter.defaultLocaleIdentifier(for: code)
                text = exporter.markdown(points, symbol: symbol, currency: code, locale: Locale(identifier: identifier))
            default: text = exporter.csv(points)
            }
            FileHandle.standardOutput.write(Data(text.utf8))
        } catch {
            throw CryptoReportCommand.fail(error)
        }
    }
}
