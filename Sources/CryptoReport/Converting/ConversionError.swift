public import Foundation

/// The ECB rates cannot convert into the requested currency.
public enum ConversionError: LocalizedError, ExitStatusProviding, Equatable {
    case currencyNotInRates(currency: String, date: String, available: [String])
    case invalidRate(currency: String, text: String, date: String)
    /// The currency is listed more than once with different rates.
    case ambiguousRate(currency: String, rates: [Decimal], date: String)
    /// Not one market could be priced; `reasons` are the distinct ones, e.g. `the ECB rates of … have no INR`.
    case noMarketConverted(count: Int, currency: String, reasons: [String])

    public var errorDescription: String? {
        switch self {
        case let .currencyNotInRates(currency, date, available):
            "ECB rates: the rates of \(date) have no \(currency); choose one of \(available.joined(separator: ", "))."
        case let .invalidRate(currency, text, date):
            "ECB rates: the rate of \(date) for \(currency) is \"\(text)\", \(DecimalText.refusal(text) ?? "not a positive number")."
        case let .ambiguousRate(currency, rates, date):
            "ECB rates: the rates of \(date) list \(currency) \(rates.count) times with different rates (\(Self.list(rates))); neither is used."
        case let .noMarketConverted(count, currency, reasons):
            "WazirX tickers: none of the \(count) markets can be priced in \(currency): \(reasons.joined(separator: "; "))."
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .currencyNotInRates: .usage
        case .invalidRate, .ambiguousRate, .noMarketConverted: .dataError
        }
    }

    /// `1, 10.9873`: the rates as the ECB wrote them, at most five.
    static func list(_ rates: [Decimal]) -> String {
        rates.prefix(5).map { "\($0)" }.joined(separator: ", ") + (rates.count > 5 ? ", …" : "")
    }
}
