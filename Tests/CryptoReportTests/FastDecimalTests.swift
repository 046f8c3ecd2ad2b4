import Foundation
import PropertyBased
import Testing

@testable import CryptoReport

/// `FastDecimal`'s arithmetic against Foundation's, result by result and byte by byte: the
/// reports' figures are computed with it, so a single differing digit would move a figure.
@Suite("FastDecimal computes exactly what Foundation.Decimal computes")
struct FastDecimalTests {
    static func bytes(_ value: Decimal) -> [UInt8] { withUnsafeBytes(of: value) { Array($0) } }

    /// Each operation both ways; the mismatches described, at most 20.
    static func mismatches(_ pairs: [(Decimal, Decimal)]) -> [String] {
        var found: [String] = []
        func expect(_ mine: Decimal, _ theirs: Decimal, _ what: String, _ a: Decimal, _ b: Decimal) {
            guard bytes(mine) != bytes(theirs), found.count < 20 else { return }
            found.append("\(a) \(what) \(b): \(mine) \(bytes(mine)) ≠ \(theirs) \(bytes(theirs))")
        }
        for (a, b) in pairs {
            expect(FastDecimal.multiply(a, b), a * b, "×", a, b)
            expect(FastDecimal.divide(a, b), a / b, "÷", a, b)
            expect(FastDecimal.add(a, b), a + b, "+", a, b)
            expect(FastDecimal.subtract(a, b), a - b, "−", a, b)
            let x = FastDecimal(a)
            let y = FastDecimal(b)
            if FastDecimal.compare(FastDecimal(publicParts: a), x) != 0, found.count < 20 { found.append("\(a) read through the public accessors differs") }
            if !a.isNaN, !b.isNaN {
                let theirs = a < b ? -1 : (a == b ? 0 : 1)
                // Foundation's comparison is exact while the exponents are close; the fast one always.
                if abs(x.exponent - y.exponent) < 20, FastDecimal.compare(x, y) != theirs, found.count < 20 {
                    found.append("compare(\(a), \(b)) = \(FastDecimal.compare(x, y)), Foundation \(theirs)")
                }
            }
        }
        return found
    }

    /// A `Decimal` with the given stored parts, compact-flagged as Foundation flags such a value.
    static func make(high: UInt64, low: UInt64, exponent: Int, negative: Bool) -> Decimal {
        var parts = FastDecimal(high: high, low: low, exponent: exponent, isNegative: negative && (high != 0 || low != 0), isCompact: false)
        parts.isCompact = (high != 0 || low != 0) && ((high % 10) * 6 + low % 10) % 10 != 0
        return parts.decimal
    }

    /// Operands as the reports meet them (parsed prices, ECB rates, their 38-digit quotients and
    /// products, literals) and at the edges (39 digits, powers of ten, ones, zeros).
    static let special: [Decimal] = {
        let texts = [
            "0", "1", "2", "100", "0.5", "10.9873", "1.0404", "83.15", "1.0390", "0.00000053", "5.3e-7", "16779.99",
            "1669107600000", "99999999999999999999", "0.1", "12345678901234567890123456789012345678",
            "340282366920938463463374607431768211455", "100000000000000000000000000000000000000",
            "0.00000000000000000001", "99999999999999999999999999999999999999",
        ]
        var values = texts.map { Fixtures.decimal($0) }
        values += [Decimal(100), Decimal(2), Decimal(1000), Decimal(0), Decimal.zero]
        values.append(Fixtures.decimal("10.9873") / Fixtures.decimal("1.0390"))
        values.append(Fixtures.decimal("83.15") / Fixtures.decimal("1.0390") * Fixtures.decimal("16779.99"))
        return values + values.map { -$0 }
    }()

    @Test("special operands, every pair")
    func specialPairs() {
        let pairs = Self.special.flatMap { a in Self.special.map { b in (a, b) } }
        #expect(Self.mismatches(pairs) == [])
    }

    @Test("random mantissas of every length, exponents −40…40, both signs")
    func random() async {
        let operand = zip(
            Gen.uint64(), Gen.uint64(), Gen.int(in: 0...127), Gen.int(in: -40...40), Gen.bool
        ).map { drawn in
            let (high, low, shift, exponent, negative) = drawn
            // A shift of the 128-bit pattern gives every bit length equally often.
            let (h, l) =
                shift >= 64
                ? (UInt64(0), high >> UInt64(shift - 64))
                : (shift == 0 ? (high, low) : (high >> UInt64(shift), low >> UInt64(shift) | high << UInt64(64 - shift)))
            return FastDecimalTests.make(high: h, low: l, exponent: exponent, negative: negative)
        }
        await propertyCheck(count: 3000, input: operand, operand) { a, b in
            #expect(Self.mismatches([(a, b)]) == [])
        }
    }

    @Test("report-shaped operands: prices of up to 12 digits against rates and their products")
    func reportShaped() async {
        let price = zip(Gen.uint64(in: 1...999_999_999_999), Gen.int(in: -12...4)).map { drawn in
            FastDecimalTests.make(high: 0, low: drawn.0, exponent: drawn.1, negative: false)
        }
        let rate = Gen.int(in: 0..<Self.special.count).map { FastDecimalTests.special[$0] }
        await propertyCheck(count: 3000, input: price, price, rate) { a, b, r in
            let converted = a * r
            #expect(Self.mismatches([(a, b), (a, r), (converted, b), (b - a, a), ((a + b) / 2, converted), (converted, 100)]) == [])
        }
    }

    @Test("seeded bulk: 100,000 pairs of mixed shapes")
    func bulk() {
        var generator = NumberReferenceTests.SeededGenerator(state: 17)
        var pairs: [(Decimal, Decimal)] = []
        for _ in 0..<100_000 {
            func operand() -> Decimal {
                let digits = Int.random(in: 0...128, using: &generator)
                let high = digits > 64 ? generator.next() >> UInt64(128 - digits) : 0
                let low = digits == 0 ? 0 : (digits >= 64 ? generator.next() : generator.next() >> UInt64(64 - digits))
                return FastDecimalTests.make(
                    high: high, low: low, exponent: Int.random(in: -30...30, using: &generator), negative: Bool.random(using: &generator))
            }
            pairs.append((operand(), operand()))
        }
        #expect(Self.mismatches(pairs) == [])
    }

    /// Foundation traps on an overflowing product or quotient, so only cases it computes are here.
    @Test("operands far apart go to Foundation and come back as its result")
    func fallbacks() {
        let pairs: [(Decimal, Decimal)] = [
            (Fixtures.decimal("1e30"), Fixtures.decimal("3")), (Fixtures.decimal("7"), Fixtures.decimal("3e-30")),
            (Fixtures.decimal("123456789e-40"), Fixtures.decimal("987654321e40")), (0, Fixtures.decimal("0.001")),
            (Fixtures.decimal("99999999999999999999999999999999999999e20"), Fixtures.decimal("99999999999999999999999999999999999999e20")),
        ]
        #expect(Self.mismatches(pairs) == [])
    }

    @Test("digit counts and the 256-bit division helpers")
    func integers() {
        for (index, power) in FastDecimal.powersOfTen.enumerated() {
            #expect(FastDecimal.digitCount(power.high, power.low) == index + 1)
            if index > 0 {
                let (below, borrow) = power.low.subtractingReportingOverflow(1)
                #expect(FastDecimal.digitCount(power.high - (borrow ? 1 : 0), below) == index)
            }
        }
        #expect(FastDecimal.digitCount(.max, .max) == 39)
        #expect(FastDecimal.digitCount(0, 0) == 0)
    }
}

/// The analyser's fast figures against its Foundation definition, on every market of the real
/// sample in the four report currencies, byte for byte.
@Suite("MarketAnalyser's figures are Foundation's")
struct FastAnalyserTests {
    static func figures(_ row: MarketRow) -> [Decimal?] {
        [
            row.price, row.open, row.high, row.low, row.bid, row.ask, row.changePercent, row.spread, row.spreadPercent,
            row.volume, row.volumeValue, row.fxRate,
        ]
    }

    static func bytes(_ value: Decimal?) -> [UInt8] { value.map(FastDecimalTests.bytes) ?? [] }

    @Test("every market of the sample", arguments: ["USD", "SEK", "EUR", "INR"])
    func sample(currency: String) throws {
        let tickers = try TickerDecoder().decode(EmbeddedSample.tickers).tickers
        let rates = try ECBRatesParser().parseLatest(EmbeddedSample.rates)
        let quoteRates = try CurrencyConverter(rates: rates, target: currency).quoteRates(for: tickers)
        var compared = 0
        var differing: [String] = []
        for ticker in tickers {
            guard let rate = quoteRates.rates[ticker.quoteAsset.lowercased()]?.rate else { continue }
            // Shifted copies too: negative differences, far smaller and larger magnitudes.
            for scale in [Decimal(1), Fixtures.decimal("0.0001"), Fixtures.decimal("10000")] {
                var scaled = ticker
                scaled.last = FastDecimal.multiply(ticker.last, scale)
                scaled.bid = ticker.bid.map { FastDecimal.multiply($0, scale) }
                let fast = MarketAnalyser().row(scaled, rate: rate, currency: currency)
                let reference = MarketAnalyser().foundationRow(scaled, rate: rate, currency: currency)
                compared += 1
                if Self.figures(fast).map(Self.bytes) != Self.figures(reference).map(Self.bytes), differing.count < 10 {
                    differing.append("\(ticker.symbol) ×\(scale): \(Self.figures(fast)) ≠ \(Self.figures(reference))")
                }
            }
        }
        #expect(compared > 1000)
        #expect(differing == [])
    }
}
