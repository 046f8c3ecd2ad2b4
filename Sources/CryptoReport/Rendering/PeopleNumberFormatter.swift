import Foundation

/// Numbers for people, in a locale: money, percentages, volumes and rates.
///
/// Formats `Decimal` through Foundation's `Decimal.FormatStyle`, which works on the decimal digits
/// themselves, so no figure passes through a `Double` on its way to the page.
public struct PeopleNumberFormatter: Sendable {
    public var currency: String
    public var locale: Locale

    public init(currency: String, locale: Locale) {
        self.currency = currency
        self.locale = locale
    }

    /// The locale a currency is shown in unless `--locale` says otherwise.
    public static func defaultLocaleIdentifier(for currency: String) -> String {
        let known: [String: String] = [
            "USD": "en_US", "SEK": "sv_SE", "EUR": "en_IE", "GBP": "en_GB", "INR": "en_IN", "JPY": "ja_JP",
            "NOK": "nb_NO", "DKK": "da_DK", "CHF": "de_CH", "CAD": "en_CA", "AUD": "en_AU", "NZD": "en_NZ",
            "PLN": "pl_PL", "CZK": "cs_CZ", "HUF": "hu_HU", "ISK": "is_IS", "BGN": "bg_BG", "RON": "ro_RO",
            "TRY": "tr_TR", "BRL": "pt_BR", "CNY": "zh_CN", "HKD": "zh_HK", "IDR": "id_ID", "ILS": "he_IL",
            "KRW": "ko_KR", "MXN": "es_MX", "MYR": "ms_MY", "PHP": "en_PH", "SGD": "en_SG", "THB": "th_TH",
            "ZAR": "en_ZA",
        ]
        return known[currency.uppercased()] ?? "en_US"
    }

    /// Fraction digits that keep at least `significant` significant digits, and never fewer than
    /// `minimum`: SHIB at 0.0000086 USD shows as `$0.000008600`, not `$0.00`.
    public static func fractionDigits(for value: Decimal, significant: Int = 4, minimum: Int = 2) -> Int {
        guard !value.isZero, !value.isNaN else { return minimum }
        return max(minimum, significant - 1 - PlainNumber.magnitude(of: value))
    }

    public func money(_ value: Decimal?) -> String {
        guard let value, !value.isNaN else { return "" }
        return value.formatted(
            .currency(code: currency).locale(locale)
                .precision(.fractionLength(Self.fractionDigits(for: value)))
                .rounded(rule: .toNearestOrAwayFromZero))
    }

    /// A signed percentage with two decimals: `+1.23%`, `−0,50 %`.
    public func percent(_ value: Decimal?, fractionDigits: Int = 2) -> String {
        guard let value, !value.isNaN else { return "" }
        return (value / 100).formatted(
            .percent.locale(locale).precision(.fractionLength(fractionDigits))
                .sign(strategy: .always(includingZero: false))
                .rounded(rule: .toNearestOrAwayFromZero))
    }

    /// An unsigned percentage with enough decimals for small spreads: `0.072%`.
    public func spreadPercent(_ value: Decimal?) -> String {
        guard let value, !value.isNaN else { return "" }
        return (value / 100).formatted(
            .percent.locale(locale).precision(.fractionLength(Self.fractionDigits(for: value, significant: 2)))
                .rounded(rule: .toNearestOrAwayFromZero))
    }

    /// A quantity in its own units, grouped, up to 8 decimals as the exchange sends them.
    public func quantity(_ value: Decimal?) -> String {
        guard let value, !value.isNaN else { return "" }
        return value.formatted(.number.locale(locale).precision(.fractionLength(0...8)).rounded(rule: .toNearestOrAwayFromZero))
    }

    /// A rate with six significant digits: `10.7235`, `0.131211`.
    public func rate(_ value: Decimal) -> String {
        number(value, significant: 6)
    }

    /// A plain number with at least `significant` significant digits and two decimals.
    public func number(_ value: Decimal, significant: Int = 4) -> String {
        value.formatted(
            .number.locale(locale)
                .precision(.fractionLength(Self.fractionDigits(for: value, significant: significant)))
                .rounded(rule: .toNearestOrAwayFromZero))
    }
}
