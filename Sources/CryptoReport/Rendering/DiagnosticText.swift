import Foundation

/// The one wording of every diagnostic: the reports' warnings and the log lines.
package enum DiagnosticText {
    /// Without the source: `left out abcxyz: …`.
    package static func message(_ diagnostic: Diagnostic) -> String {
        switch diagnostic.kind {
        case let .unmatchedSymbol(symbol):
            return "no market matches \"\(symbol)\" (--symbols)"
        case let .leftOut(symbols, quoteAsset, reason):
            let what =
                symbols.count == 1
                ? symbols[0]
                : "\(symbols.count) markets quoted in \(quoteAsset.uppercased()) (\(symbols.prefix(3).joined(separator: ", "))\(symbols.count > 3 ? ", …" : ""))"
            return "left out \(what): \(reason)"
        case let .crossedBook(symbol, bid, ask):
            return
                "\(symbol): bidPrice \(DecimalParts.plainText(bid)) is above askPrice \(DecimalParts.plainText(ask)) (a crossed book); its spread is negative"
        case let .contradictoryRange(symbol, low, high, last):
            let (low, high, last) = (DecimalParts.plainText(low), DecimalParts.plainText(high), DecimalParts.plainText(last))
            let what = high < low ? "highPrice \(high) is below lowPrice \(low)" : "lastPrice \(last) is outside lowPrice \(low) to highPrice \(high)"
            return "\(symbol): \(what); its figures are shown as sent"
        case let .noVolumeFloor(currency):
            return
                "the rates have no USD, so the top lists' floor of 100 USD's worth cannot be put in \(currency): every market that traded may lead a list (--min-volume-value sets a floor)"
        case let .ambiguousRate(currency, rates):
            return "\(currency) is listed \(rates.count) times with different rates (\(ConversionError.list(rates))); it is left out"
        case let .crossCheck(asset, currency, price, exchange, otherPrice, other, percent, tolerance):
            let apart = PlainNumber.format(Self.rounded(percent < 0 ? -percent : percent, places: 2))
            return "cross-check: \(asset.uppercased()) is \(PlainNumber.format(Self.rounded(price, places: 8))) \(currency) on \(exchange.displayName) "
                + "but \(PlainNumber.format(Self.rounded(otherPrice, places: 8))) \(currency) on \(other.displayName), \(apart) % apart "
                + "(over the \(PlainNumber.format(tolerance)) % of --cross-check-tolerance)"
        case let .notCrossChecked(other, reason):
            return "cross-check: \(other.displayName) could not be read, so no price was compared with it: \(reason)"
        case let .input(text):
            return text
        case let .moreLikeIt(count, group):
            return "… and \(grouped(count)) more \(count == 1 ? "row" : "rows") like it (\(group))"
        }
    }

    /// `999,980`: the same in every locale, as the rest of standard error is English.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }

    /// A report's warnings: its sources' diagnostics, then the alert rules it could not check.
    package static func lines(_ report: Report) -> [String] {
        report.diagnostics.map(line) + report.alertNotes.map(AlertText.note)
    }

    /// `value` to `places` decimals, for a figure a sentence quotes.
    static func rounded(_ value: Decimal, places: Int) -> Decimal {
        var value = value
        var result = Decimal()
        NSDecimalRound(&result, &value, places, .plain)
        return result
    }

    /// With the source: `WazirX tickers: left out abcxyz: …`.
    package static func line(_ diagnostic: Diagnostic) -> String {
        "\(diagnostic.source.displayName): \(message(diagnostic))"
    }
}

extension Diagnostic: CustomStringConvertible {
    package var message: String { DiagnosticText.message(self) }
    public var description: String { DiagnosticText.line(self) }

}
