package import Foundation
import Synchronization

/// Numbers for people, in a locale: money, percentages, volumes and rates.
///
/// The figures are Foundation's `Decimal.FormatStyle`'s, which works on the decimal digits
/// themselves, so no figure passes through a `Double` on its way to the page. To keep that from
/// costing an ICU call per cell, each style is learnt from Foundation once per locale and currency
/// and then applied to the digits directly (`LocaleNumberStyle`); `reference` keeps Foundation's
/// own path, which the tests compare against, and which any style or value the fast path cannot
/// match byte for byte still takes.
package struct PeopleNumberFormatter: Sendable {
    package var currency: String {
        didSet { styles = Styles.shared(currency: currency, locale: locale) }
    }
    package var locale: Locale {
        didSet { styles = Styles.shared(currency: currency, locale: locale) }
    }
    /// Foundation for every cell: the reference the fast path is tested against.
    var reference = false
    private var styles: Styles
    /// The decimals of the currency's own amounts (see `minorUnits(of:)`).
    package var minorUnits: Int { styles.minorUnits }

    package init(currency: String, locale: Locale) {
        self.currency = currency
        self.locale = locale
        styles = Styles.shared(currency: currency, locale: locale)
    }

    /// The same formatter taking Foundation's path for every value.
    package func referenceFormatter() -> PeopleNumberFormatter {
        var copy = self
        copy.reference = true
        return copy
    }

    /// The locale a currency is shown in unless `--locale` says otherwise.
    package static func defaultLocaleIdentifier(for currency: String) -> String {
        defaultLocales[currency.uppercased()] ?? "en_US"
    }

    static let defaultLocales: [String: String] = [
        "USD": "en_US", "SEK": "sv_SE", "EUR": "en_IE", "GBP": "en_GB", "INR": "en_IN", "JPY": "ja_JP",
        "NOK": "nb_NO", "DKK": "da_DK", "CHF": "de_CH", "CAD": "en_CA", "AUD": "en_AU", "NZD": "en_NZ",
        "PLN": "pl_PL", "CZK": "cs_CZ", "HUF": "hu_HU", "ISK": "is_IS", "BGN": "bg_BG", "RON": "ro_RO",
        "TRY": "tr_TR", "BRL": "pt_BR", "CNY": "zh_CN", "HKD": "zh_HK", "IDR": "id_ID", "ILS": "he_IL",
        "KRW": "ko_KR", "MXN": "es_MX", "MYR": "ms_MY", "PHP": "en_PH", "SGD": "en_SG", "THB": "th_TH",
        "ZAR": "en_ZA",
    ]

    /// Fraction digits that keep at least `significant` significant digits of a value of
    /// `magnitude` (`PlainNumber.magnitude`, `nil` for zero), and never fewer than two: SHIB at
    /// 0.0000086 USD shows as `$0.000008600`, not `$0.00`.
    package static func fractionDigits(magnitude: Int?, significant: Int = 4) -> Int {
        guard let magnitude else { return 2 }
        return max(2, significant - 1 - magnitude)
    }

    package static func fractionDigits(for value: Decimal, significant: Int = 4) -> Int {
        fractionDigits(magnitude: value.isZero || value.isNaN ? nil : PlainNumber.magnitude(of: value), significant: significant)
    }

    /// The decimals of a currency's own amounts, as Foundation's currency style shows them: none
    /// for the ECB's yen, won, Icelandic króna and rupiah, two for its others (and for any
    /// currency not listed). A table rather than asking Foundation, which would cost a formatter
    /// every run; `NumberReferenceTests` holds it to Foundation's for every currency the ECB lists.
    package static func minorUnits(of currency: String) -> Int {
        wholeCurrencies.contains(currency.uppercased()) ? 0 : 2
    }

    static let wholeCurrencies: Set<String> = ["JPY", "KRW", "ISK", "IDR"]

    /// Fraction digits of an amount of `magnitude` in a currency with `minorUnits`: below a
    /// thousand, `fractionDigits` (`$0.000008600`, `¥152.03`); from a thousand up, the currency's
    /// own, as its people write it (`$17,105.73`, but `¥2,426,289`, not `¥2,426,288.58`).
    package static func moneyDigits(magnitude: Int?, minorUnits: Int) -> Int {
        guard let magnitude, magnitude < 3 else { return minorUnits }
        return fractionDigits(magnitude: magnitude)
    }

    /// `wholeWhenWhole`: an amount that is a whole number shows none of its zero decimals (a
    /// threshold, "1 072 kr", not a price, "1 072,00 kr").
    package func money(_ value: Decimal?, wholeWhenWhole: Bool = false) -> String {
        guard let value, !value.isNaN else { return "" }
        var digits = Self.moneyDigits(magnitude: value.isZero ? nil : PlainNumber.magnitude(of: value), minorUnits: minorUnits)
        if wholeWhenWhole {
            var exact = value
            var whole = Decimal()
            NSDecimalRound(&whole, &exact, 0, .plain)
            if whole == value { digits = 0 }
        }
        if !reference, let text = styles.money?.format(value, fraction: digits...digits) { return text }
        return Styles.money(value, currency: currency, locale: locale, fraction: digits...digits)
    }

    /// A signed percentage with two decimals: `+1.23%`, `−0,50 %`.
    package func percent(_ value: Decimal?, fractionDigits: Int = 2) -> String {
        guard let value, !value.isNaN else { return "" }
        if !reference, let digits = Styles.percentDigits(value, scale: fractionDigits),
            let text = styles.signedPercent?.format(digits, fraction: fractionDigits...fractionDigits)
        {
            return text
        }
        return Styles.signedPercent(value, locale: locale, fraction: fractionDigits...fractionDigits)
    }

    /// `percent(value)` of a value given as a whole number of hundredths (non-zero), with two
    /// decimals; `nil` where the style is Foundation's.
    func percent(hundredths: Int64) -> String? {
        guard !reference, hundredths != 0 else { return nil }
        let parts = DecimalParts(isNegative: hundredths < 0, exponent: -2, high: 0, low: hundredths.magnitude)
        return styles.signedPercent?.format(parts, fraction: 2...2)
    }

    /// An unsigned percentage with enough decimals for small spreads: `0.072%`.
    package func spreadPercent(_ value: Decimal?) -> String {
        guard let value, !value.isNaN else { return "" }
        let digits = Self.fractionDigits(for: value, significant: 2)
        if !reference, let parts = Styles.percentDigits(value, scale: digits), let text = styles.percent?.format(parts, fraction: digits...digits) {
            return text
        }
        return Styles.percent(value, locale: locale, fraction: digits...digits)
    }

    /// A quantity in its own units, grouped, up to 8 decimals as the exchange sends them.
    package func quantity(_ value: Decimal?) -> String {
        guard let value, !value.isNaN else { return "" }
        if !reference, let text = styles.number?.format(value, fraction: 0...8) { return text }
        return Styles.number(value, locale: locale, fraction: 0...8)
    }

    /// A rate with six significant digits: `10.7235`, `0.131211`.
    package func rate(_ value: Decimal) -> String {
        number(value, significant: 6)
    }

    /// A plain number with at least `significant` significant digits and two decimals.
    package func number(_ value: Decimal, significant: Int = 4) -> String {
        let digits = Self.fractionDigits(for: value, significant: significant)
        if !reference, let text = styles.number?.format(value, fraction: digits...digits) { return text }
        return Styles.number(value, locale: locale, fraction: digits...digits)
    }

    /// The four styles of one locale and currency, learnt once per process and shared.
    final class Styles: Sendable {
        let money, signedPercent, percent, number: LocaleNumberStyle?
        /// `minorUnits(of: currency)`, looked up once, not per amount.
        let minorUnits: Int

        init(currency: String, locale: Locale) {
            minorUnits = PeopleNumberFormatter.minorUnits(of: currency)
            let checked = !Self.isVerified(currency: currency, locale: locale.identifier)
            money = LocaleNumberStyle.learn(signed: false, checked: checked) { Self.money($0, currency: currency, locale: locale, fraction: $1) }
            signedPercent = LocaleNumberStyle.learn(signed: true, checked: checked) { Self.signedPercent($0, locale: locale, fraction: $1) }
            percent = LocaleNumberStyle.learn(signed: false, checked: checked) { Self.percent($0, locale: locale, fraction: $1) }
            number = LocaleNumberStyle.learn(signed: false, checked: checked) { Self.number($0, locale: locale, fraction: $1) }
        }

        /// The styles a report shows unless `--locale` says otherwise: each currency in its own
        /// locale, and every currency in en_US and sv_SE (a page's other currencies are shown in
        /// its first one's locale; our readers' two). The tests check each of these against
        /// Foundation on every check value (`NumberReferenceTests.verified`), with the ICU data
        /// this binary is built with, so a run learns them from the probes alone, without
        /// hundreds of ICU calls a locale to check them again. Any other locale is checked as it
        /// is learnt.
        static let verified: [(currency: String, locale: String)] = defaultLocales.sorted { $0.key < $1.key }.flatMap { currency, locale in
            [(currency, locale)] + ["en_US", "sv_SE"].filter { $0 != locale }.map { (currency, $0) }
        }

        static func isVerified(currency: String, locale: String) -> Bool {
            guard let own = defaultLocales[currency] else { return false }
            return locale == own || locale == "en_US" || locale == "sv_SE"
        }

        private static let cache = Mutex<[String: Styles]>([:])

        static func shared(currency: String, locale: Locale) -> Styles {
            let key = "\(locale.identifier)|\(currency)"
            return cache.withLock { cache in
                if let styles = cache[key] { return styles }
                let styles = Styles(currency: currency, locale: locale)
                cache[key] = styles
                return styles
            }
        }

        /// The digits Foundation shows for a percentage: it formats `value / 100` and ICU moves
        /// the point back. The division is exact while the mantissa has room for two more
        /// digits; past 36 digits (every quotient the analyser makes) it rounds near the 38th
        /// digit. Shown with `scale` fraction digits, that rounding changes nothing unless the
        /// value lies within a few units of its last digits of a tie at `scale`: only then is
        /// the division made, once, instead of for every percentage.
        static func percentDigits(_ value: Decimal, scale: Int) -> DecimalParts? {
            guard let parts = DecimalParts(value) else { return nil }
            let count = parts.digitCount
            if count <= 36 { return parts }
            // Digits dropped when shown, and how far from the tie the value must be: a
            // hundred times the division's largest error (a unit of the 36th digit).
            let drop = -scale - parts.exponent
            let margin = count - 34
            if drop > margin && drop <= 38 {
                let mantissa = UInt128(parts.high) << 64 | UInt128(parts.low)
                var power = UInt128(1)
                for _ in 0..<drop { power *= 10 }
                let remainder = mantissa % power
                let half = power / 2
                var slack = UInt128(1)
                for _ in 0..<margin { slack *= 10 }
                if (remainder > half ? remainder - half : half - remainder) > slack { return parts }
            }
            guard var shown = DecimalParts(value / 100) else { return nil }
            shown.exponent += 2
            return shown
        }

        // Foundation's path, the reference for every style.

        static func money(_ value: Decimal, currency: String, locale: Locale, fraction: ClosedRange<Int>) -> String {
            value.formatted(
                .currency(code: currency).locale(locale).precision(.fractionLength(fraction))
                    .rounded(rule: .toNearestOrAwayFromZero))
        }

        static func signedPercent(_ value: Decimal, locale: Locale, fraction: ClosedRange<Int>) -> String {
            (value / 100).formatted(
                .percent.locale(locale).precision(.fractionLength(fraction))
                    .sign(strategy: .always(includingZero: false))
                    .rounded(rule: .toNearestOrAwayFromZero))
        }

        static func percent(_ value: Decimal, locale: Locale, fraction: ClosedRange<Int>) -> String {
            (value / 100).formatted(
                .percent.locale(locale).precision(.fractionLength(fraction)).rounded(rule: .toNearestOrAwayFromZero))
        }

        static func number(_ value: Decimal, locale: Locale, fraction: ClosedRange<Int>) -> String {
            value.formatted(.number.locale(locale).precision(.fractionLength(fraction)).rounded(rule: .toNearestOrAwayFromZero))
        }
    }
}
