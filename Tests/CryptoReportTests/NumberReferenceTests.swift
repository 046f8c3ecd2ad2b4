import Foundation
import Testing

@testable import CryptoReport

/// The fast number paths (`DecimalParts`, `LocaleNumberStyle`) against Foundation's own, on every
/// figure of the real sample in four currencies and on seeded random decimals. The reports'
/// figures must not move by a digit or a byte.
@Suite("Fast number paths agree with Foundation.Decimal")
struct NumberReferenceTests {
    /// What `PlainNumber` did before it read the digits itself: `NSDecimalRound`, then `description`.
    static func referencePlain(_ value: Decimal, significantDigits: Int = PlainNumber.significantDigits) -> String {
        guard !value.isNaN else { return "" }
        guard !value.isZero else { return "0" }
        var input = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &input, significantDigits - 1 - referenceMagnitude(value), .plain)
        return rounded.description
    }

    static func referenceMagnitude(_ value: Decimal) -> Int {
        let text = (value < 0 ? -value : value).description
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let integer = parts.first.map(String.init) ?? ""
        if integer != "0" && !integer.isEmpty { return integer.count - 1 }
        let fraction = parts.count > 1 ? parts[1] : ""
        return -(fraction.prefix { $0 == "0" }.count + 1)
    }

    /// Every figure a report prints, and each one negated and shifted, so that signs, grouping and
    /// small magnitudes are covered too.
    static func figures(currency: String) async throws -> [Decimal] {
        let report = try await GoldenReportTests.report(currency: CurrencyCode(stringLiteral: currency))
        var values: [Decimal] = []
        for row in report.rows {
            values += [row.price, row.fxRate]
            values += [row.open, row.high, row.low, row.bid, row.ask, row.changePercent, row.spread, row.spreadPercent,
                       row.volume, row.volumeValue].compactMap { $0 }
        }
        values += report.summary.ratesUsed.map(\.rate)
        if let premium = report.summary.inrPremium { values += [premium.percent, premium.usdtInrLast, premium.ecbUsdInr] }
        return values + values.map { -$0 } + values.map { $0 / 1000 } + values.map { $0 * 1000 }
    }

    static func check(_ values: [Decimal], numbers: PeopleNumberFormatter) -> [String] {
        let reference = numbers.referenceFormatter()
        var mismatches: [String] = []
        func expect(_ mine: String, _ theirs: String, _ what: String, _ value: Decimal) {
            if mine != theirs && mismatches.count < 20 { mismatches.append("\(what)(\(value)): \(mine) ≠ \(theirs)") }
        }
        for value in values {
            expect(DecimalParts.plainText(value), value.description, "description", value)
            expect(PlainNumber.format(value), referencePlain(value), "PlainNumber.format", value)
            expect(PlainNumber.format(value, significantDigits: 6), referencePlain(value, significantDigits: 6), "PlainNumber.format/6", value)
            if !value.isZero {
                expect("\(PlainNumber.magnitude(of: value))", "\(referenceMagnitude(value))", "magnitude", value)
            }
            expect(numbers.money(value), reference.money(value), "money", value)
            expect(numbers.percent(value), reference.percent(value), "percent", value)
            expect(numbers.spreadPercent(value), reference.spreadPercent(value), "spreadPercent", value)
            expect(numbers.quantity(value), reference.quantity(value), "quantity", value)
            expect(numbers.number(value), reference.number(value), "number", value)
            expect(numbers.rate(value), reference.rate(value), "rate", value)
        }
        return mismatches
    }

    @Test("every figure of the sample, in USD, SEK, EUR and INR", arguments: ["USD", "SEK", "EUR", "INR"])
    func sample(currency: String) async throws {
        let values = try await Self.figures(currency: currency)
        #expect(values.count > 5000)
        let locale = Locale(identifier: PeopleNumberFormatter.defaultLocaleIdentifier(for: currency))
        let numbers = PeopleNumberFormatter(currency: currency, locale: locale)
        #expect(Self.check(values, numbers: numbers) == [])
    }

    @Test("the fast path is taken: every style is learnt for the report locales", arguments: ["USD", "SEK", "EUR", "INR", "JPY", "CHF", "PLN"])
    func learnt(currency: String) {
        let locale = Locale(identifier: PeopleNumberFormatter.defaultLocaleIdentifier(for: currency))
        let styles = PeopleNumberFormatter.Styles.shared(currency: currency, locale: locale)
        #expect(styles.money != nil)
        #expect(styles.signedPercent != nil)
        #expect(styles.percent != nil)
        #expect(styles.number != nil)
    }

    /// SplitMix64: a fixed seed, so a failure repeats.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Up to 38 digits at exponents from −40 to 20, as parsed, and as products, quotients and
    /// differences produce them (those fill the mantissa to 38 digits).
    static func randomDecimals(count: Int, seed: UInt64) -> [Decimal] {
        var generator = SeededGenerator(state: seed)
        let posix = Locale(identifier: "en_US_POSIX")
        return (0..<count).map { _ in
            let length = Int.random(in: 1...38, using: &generator)
            var text = String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<length { text += String(Int.random(in: 0...9, using: &generator)) }
            // A run of 9s or 0s after a 4 or 5 makes rounding ties and carries.
            if Bool.random(using: &generator) {
                text += ["4999", "5000", "9999", "0001", "5"][Int.random(in: 0..<5, using: &generator)]
            }
            let significand = Decimal(string: String(text.prefix(38)), locale: posix) ?? 1
            let value = Decimal(
                sign: Bool.random(using: &generator) ? .minus : .plus, exponent: Int.random(in: -40...20, using: &generator),
                significand: significand)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: return value
            case 1: return value * Fixtures.decimal("10.7235")
            case 2: return value / Fixtures.decimal("1.0404")
            default: return value - Fixtures.decimal("0.5")
            }
        }
    }

    @Test("seeded random decimals", arguments: [("USD", UInt64(1)), ("SEK", 2), ("EUR", 3), ("INR", 4)])
    func random(currency: String, seed: UInt64) {
        let locale = Locale(identifier: PeopleNumberFormatter.defaultLocaleIdentifier(for: currency))
        let numbers = PeopleNumberFormatter(currency: currency, locale: locale)
        #expect(Self.check(Self.randomDecimals(count: 3000, seed: seed), numbers: numbers) == [])
    }

    @Test("storage layout: NaN is refused, parts are read as Foundation built them")
    func layout() {
        #expect(DecimalParts.layout != nil)
        #expect(DecimalParts(.nan) == nil)
        #expect(DecimalParts(Fixtures.decimal("-12.345")) == DecimalParts(isNegative: true, exponent: -3, high: 0, low: 12345))
        #expect(DecimalParts(0)?.isZero == true)
    }
}
