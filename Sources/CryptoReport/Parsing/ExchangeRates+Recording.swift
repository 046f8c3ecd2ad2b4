import Foundation

/// The rates as the ECB's file gives them, one `<Cube currency rate>` at a time.
extension ExchangeRates {
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
}
