public import Foundation

/// Cross rates between two currencies through the euro.
extension ExchangeRates {
    /// Units of `code` per 1 EUR; EUR is 1 by definition.
    public func unitsPerEuro(_ code: String) throws(ConversionError) -> Decimal {
        let code = Self.upperCased(code)
        if code == "EUR" { return 1 }
        if let rate = perEuro[code] { return rate }
        if let rates = ambiguous[code] {
            throw .ambiguousRate(currency: code, rates: rates, date: date)
        }
        if let text = invalid[code] {
            throw .invalidRate(currency: code, text: text, date: date)
        }
        throw .currencyNotInRates(currency: code, date: date, available: currencies)
    }

    /// How many units of `target` one unit of `source` buys: ECB[target] / ECB[source].
    public func rate(from source: String, to target: String) throws(ConversionError) -> Decimal {
        let targetPerEuro = try unitsPerEuro(target)
        let sourcePerEuro = try unitsPerEuro(source)
        return FastDecimal.divide(targetPerEuro, sourcePerEuro)
    }
}
