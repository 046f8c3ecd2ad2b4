public import Foundation

/// ECB euro reference rates of one day: units of each currency per 1 EUR.
public struct ExchangeRates: Sendable, Equatable {
    /// The ECB's `Cube@time`, `YYYY-MM-DD`.
    public var date: String
    /// Currency code (upper case) to units per EUR. Always positive; EUR itself is not listed.
    public var perEuro: [String: Decimal]
    /// Currencies whose rate was present but not a positive number, with the text the ECB sent.
    /// Kept so that a run needing one of them can say exactly what was wrong.
    public var invalid: [String: String]
    /// Currencies listed more than once with different rates, each with its rates in document
    /// order. Neither is right, so neither is used: corrupt data for a report that needs one.
    public var ambiguous: [String: [Decimal]]

    public init(date: String, perEuro: [String: Decimal], invalid: [String: String] = [:], ambiguous: [String: [Decimal]] = [:]) {
        self.date = date
        self.perEuro = perEuro
        self.invalid = invalid
        self.ambiguous = ambiguous
    }

    /// Adds one rate as the ECB writes it (`<Cube currency='SEK' rate='10.9873'/>`). A code that is
    /// not three ASCII letters is ignored; a currency repeated with the same rate is one rate, and
    /// with a different one is kept aside in `ambiguous`; a rate that is not a positive decimal is
    /// kept aside in `invalid`, on one line and cut short, for the error that needs it (a repeat of
    /// a currency whose first rate was invalid changes nothing).
    mutating func record(currency code: String, rate text: String) {
        let currency = code.trimmingCharacters(in: .whitespaces).uppercased()
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }), invalid[currency] == nil else { return }
        let rate = DecimalText.parse(text.trimmingCharacters(in: .whitespaces)).flatMap { $0 > 0 ? $0 : nil }
        if let known = ambiguous[currency] {
            if let rate, !known.contains(rate) { ambiguous[currency] = known + [rate] }
            return
        }
        if let first = perEuro[currency] {
            if let rate, rate != first {
                perEuro[currency] = nil
                ambiguous[currency] = [first, rate]
            }
            return
        }
        if let rate {
            perEuro[currency] = rate
        } else {
            invalid[currency] = TickerDecoder.oneLine(text, limit: 40)
        }
    }

    /// Every currency a report can be converted into, EUR included once (a file may list it too), sorted.
    public var currencies: [String] {
        Set(perEuro.keys).union(["EUR"]).sorted()
    }

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

    /// `code.uppercased()`. Codes come upper case already (`CurrencyCode`, the converter's
    /// target): only another spelling pays for the Unicode case mapping, which a ten-year
    /// `history` made five times a day.
    static func upperCased(_ code: String) -> String {
        for byte in code.utf8 where byte >= UInt8(ascii: "a") { return code.uppercased() }
        return code
    }

    /// How many units of `target` one unit of `source` buys: ECB[target] / ECB[source].
    public func rate(from source: String, to target: String) throws(ConversionError) -> Decimal {
        let targetPerEuro = try unitsPerEuro(target)
        let sourcePerEuro = try unitsPerEuro(source)
        return FastDecimal.divide(targetPerEuro, sourcePerEuro)
    }
}
