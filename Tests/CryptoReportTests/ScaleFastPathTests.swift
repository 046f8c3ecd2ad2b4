import Foundation
import Testing

@testable import CryptoReport

/// The shortcuts the details take at scale give what the `Decimal` ways they replace give.
@Suite("Details' fast paths equal Foundation's")
struct ScaleFastPathTests {
    static let values: [Decimal] = {
        var values: [Decimal] = [0, 1, -1, 2, 10, 100, 0.5, 0.999999, 1.000001]
        for text in [
            "1.0", "1.00000000000000000000", "0.99999999999999999999999999999999999999", "1.0000000000000000000000000000000000001",
            "0.131211", "10.9525", "1e-38", "1e20", "-0.0001", "3804540.51", "12345678901234567890123456789012345678",
        ] {
            if let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) { values.append(value) }
        }
        // Quotients with 38 digits, as cross rates are.
        values += [(1 as Decimal) / 3, (10 as Decimal) / 7, (11.4 as Decimal) / 11.4, (2 as Decimal) / 3 * 3]
        return values
    }()

    @Test("a detail shows its rate exactly when Foundation finds it is not 1")
    func hasRate() {
        for value in Self.values {
            #expect(ReportViewModel.hasRate(value) == (value != 1), "\(value)")
        }
    }

    @Test("a change in money is signed as Foundation's comparison with zero signs it, and worked out as Foundation subtracts")
    func signedChange() {
        let numbers = PeopleNumberFormatter(currency: "SEK", locale: Locale(identifier: "sv_SE"))
        for a in Self.values {
            for b in Self.values {
                let difference = (FastDecimal(a) - FastDecimal(b)).decimal
                #expect(difference == a - b)
                let text = numbers.money(difference)
                #expect(ReportViewModel.signed(difference, numbers: numbers) == (difference > 0 ? "+" + text : text))
            }
        }
    }
}
