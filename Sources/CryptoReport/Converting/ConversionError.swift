import Foundation

/// The ECB rates cannot convert into the requested currency.
public enum ConversionError: LocalizedError, ExitStatusProviding, Equatable {
    case currencyNotInRates(currency: String, date: String, available: [String])
    case invalidRate(currency: String, text: String, date: String)

    public var errorDescription: String? {
        switch self {
        case let .currencyNotInRates(currency, date, available):
            "ECB rates: the rates of \(date) have no \(currency); choose one of \(available.joined(separator: ", "))."
        case let .invalidRate(currency, text, date):
            "ECB rates: the rate of \(date) for \(currency) is \"\(text)\", not a positive number."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .currencyNotInRates: .usage
        case .invalidRate: .dataError
        }
    }
}
