public import Foundation

/// A source answered, but not with data a report can be made from.
public enum DataError: LocalizedError, ExitStatusProviding, Equatable {
    case empty(source: DataSource)
    case htmlInsteadOfData(source: DataSource, expected: String)
    case apiError(source: DataSource, code: String?, message: String)
    case malformed(source: DataSource, expected: String, detail: String)
    /// `firstProblem`: why the first row was refused, so that the one line says something useful.
    case noValidTickers(source: DataSource = .tickers, received: Int, firstProblem: String? = nil)
    case noRates(detail: String)
    /// `against`: what the rates were judged against, `the tickers` or, when no ticker carries a time, `the fetch`.
    case staleRates(date: String, age: String, limit: String, against: String = "the tickers")

    public var errorDescription: String? {
        switch self {
        case let .empty(source):
            "\(source.displayName): empty (no data, or only white space)."
        case let .htmlInsteadOfData(source, expected):
            "\(source.displayName): got an HTML page instead of \(expected)."
        case let .apiError(source, code, message):
            if let code {
                "\(source.displayName): the API answered with error \(code): \(message)"
                    + (message.hasSuffix(".") ? "" : ".")
            } else {
                "\(source.displayName): the API answered with an error: \(message)"
                    + (message.hasSuffix(".") ? "" : ".")
            }
        case let .malformed(source, expected, detail):
            "\(source.displayName): not \(expected) (\(detail))."
        case let .noValidTickers(source, received, nil):
            "\(source.displayName): none of the \(received) tickers received is usable."
        case let .noValidTickers(source, received, firstProblem?):
            "\(source.displayName): none of the \(received) tickers received is usable (first: \(firstProblem))."
        case let .noRates(detail):
            "ECB rates: \(detail)."
        case let .staleRates(date, age, limit, against):
            "ECB rates: the newest rates are of \(date), \(age) older than \(against), past the \(limit) limit (--max-age); --allow-stale accepts them."
        }
    }

    public var exitStatus: ExitStatus { .dataError }
}
