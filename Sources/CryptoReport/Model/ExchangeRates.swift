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

    /// Every currency a report can be converted into, EUR included once (a file may list it too), sorted.
    public var currencies: [String] {
        Set(perEuro.keys).union(["EUR"]).sorted()
    }

    /// `code.uppercased()`. Codes come upper case already (`CurrencyCode`, the converter's
    /// target): only another spelling pays for the Unicode case mapping, which a ten-year
    /// `history` made five times a day.
    static func upperCased(_ code: String) -> String {
        for byte in code.utf8 where byte >= UInt8(ascii: "a") { return code.uppercased() }
        return code
    }
}
