import Foundation

/// The ECB rates cannot convert into the requested currency.
public enum ConversionError: LocalizedError, ExitStatusProviding, Equatable {
    case currencyNotInRates(currency: String, date: String, available: [String])
    case invalidRate(currency: String, text: String, date: String)
    /// Not one market could be priced; `reasons` are the distinct ones, e.g. `the ECB rates of … have no INR`.
    case noMarketConverted(count: Int, currency: String, reasons: [String])

    public var errorDescription: String? {
        switch self {
        case let .currencyNotInRates(currency, date, available):
            "ECB rates: the rates of \(date) have no \(currency); choose one of \(available.joined(separator: ", "))."
        case let .invalidRate(currency, text, date):
            "ECB rates: the rate of \(date) for \(currency) is \"\(text)\", not a positive number."
        case let .noMarketConverted(count, currency, reasons):
            "WazirX tickers: none of the \(count) markets can be priced in \(currency): \(reasons.joined(separator: "; "))."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .currencyNotInRates: .usage
        case .invalidRate, .noMarketConverted: .dataError
        }
    }
}
