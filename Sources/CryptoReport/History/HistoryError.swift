public import Foundation

/// The history database could not be used, or holds nothing for what was asked.
public enum HistoryError: LocalizedError, ExitStatusProviding, Equatable {
    case cannotOpen(path: String, reason: String)
    case failed(path: String, reason: String)
    /// The reports were written, but this run could not be recorded: exit 74, so that cron
    /// hears of a day missing from the history.
    case notRecorded(path: String, reason: String)
    /// The database read by `history`, which is its input: exit 66, not 73.
    case unreadable(path: String, reason: String)
    /// No recorded run in the window has ECB rates for the currency.
    case currencyNotRecorded(currency: String, available: [String])
    /// Runs were recorded in the window, but none holds the market.
    case noSeries(symbol: String, days: Int, runs: Int)
    /// Stored rows of the asset's markets, or of those that price it, that are not what this tool
    /// writes (a damaged or hand-edited database): left out of the series, and an error when
    /// nothing else is left. `symbol` `nil`: rows of the month a report's trends read, said as a
    /// warning, the trends made without them.
    case unreadableRows(path: String, symbol: String?, rows: Int)
    /// Runs of the asset whose stored ECB rates lack the currency (an ECB file of fewer
    /// currencies, a currency the ECB stopped or began to list): left out of an export, said as
    /// a warning (a `--days 30` export of 28 days said nothing of the other two).
    case unpricedRuns(path: String, symbol: String, currency: String, runs: Int)
    /// `history` or `backfill` was pointed at no database; `named`: a setting gave the path,
    /// else it is where the reports keep theirs.
    case noDatabase(path: String, named: Bool)
    /// The database holds no run at all (a backfill that failed before storing a day made it).
    case noRuns(path: String)
    /// `history --source`: the database holds runs, but none of `exchange`; `recorded`: the
    /// exchanges it has runs of.
    case noRunsOfExchange(path: String, exchange: Exchange, recorded: [Exchange])

    public var errorDescription: String? {
        switch self {
        case let .cannotOpen(path, reason): "History: cannot open \(path): \(reason)."
        case let .failed(path, reason): "History: \(path): \(reason)."
        case let .unreadable(path, reason): "History: cannot read \(path): \(reason)."
        case let .notRecorded(path, reason):
            "History: \(path): \(reason); the reports were written, but this run is not in the history."
        case let .currencyNotRecorded(currency, available):
            "History: no recorded ECB rates have \(currency); choose one of \(available.joined(separator: ", "))."
        case let .noSeries(symbol, days, runs):
            "History: no market matches \"\(symbol)\" in the \(runs) recorded run\(runs == 1 ? "" : "s") of the last \(days) days."
        case let .unreadableRows(path, symbol, rows):
            "History: \(path): \(rows) stored row\(rows == 1 ? "" : "s") \(symbol.map { "for \"\($0)\"" } ?? "of the month the trends read") cannot be read "
                + "(not figures this tool writes); the database may be damaged."
        case let .unpricedRuns(path, symbol, currency, runs):
            "History: \(path): \(runs) recorded run\(runs == 1 ? "" : "s") of \"\(symbol)\" \(runs == 1 ? "has" : "have") no \(currency) among \(runs == 1 ? "its" : "their") ECB rates."
        case let .noDatabase(path, true): "History: no database at \(path); run a report first, or backfill."
        case let .noDatabase(path, false):
            "History: no database at \(path), where the reports keep it; run a report first (a --sample run records one only when given --history), backfill, or name one with --history."
        case let .noRuns(path): "History: \(path) holds no run yet; run a report first (a --sample run records one only when given --history), or backfill."
        case let .noRunsOfExchange(path, exchange, recorded):
            "History: \(path) holds no run of \(exchange.displayName); choose --source \(recorded.map(\.rawValue).joined(separator: " or ")), or leave --source out."
        }
    }

    /// The same failure, met after the reports were written.
    public var asNotRecorded: HistoryError {
        switch self {
        case let .cannotOpen(path, reason), let .failed(path, reason), let .unreadable(path, reason):
            .notRecorded(path: path, reason: reason)
        default: self
        }
    }

    /// The same failure, met while reading the database for an export.
    public var asInput: HistoryError {
        switch self {
        case let .cannotOpen(path, reason), let .failed(path, reason): .unreadable(path: path, reason: reason)
        default: self
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .cannotOpen, .failed: .cannotCreateOutput
        case .unreadable: .noInput
        case .notRecorded: .ioError
        case .currencyNotRecorded, .noSeries, .noDatabase, .noRuns, .noRunsOfExchange: .usage
        case .unreadableRows, .unpricedRuns: .dataError
        }
    }
}
