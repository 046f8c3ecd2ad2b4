import Foundation

/// Finds, for each quote asset, the rate into the report currency, by the same rules for every
/// exchange:
///
/// - a USD stablecoin (`stablecoins`: USDT, USDC, BUSD, TUSD, USDP, PAX, FDUSD by default) is
///   taken at par with USD: the ECB cross rate USD → target;
/// - a currency the ECB publishes (EUR, INR, GBP, TRY, …): its ECB cross rate;
/// - any other asset X: the last price of X's own market against USDT, else against another
///   stablecoin (in `stablecoins`' order), else against EUR, else against another ECB currency
///   (alphabetically), times that quote's rate. Never through an inverted market (USDT/X): an
///   asset none of these reaches cannot be converted, and its markets are left out.
package struct CurrencyConverter: Sendable {
    package let rates: ExchangeRates
    package let target: String
    /// Lower case, in the order they are tried for pricing another asset.
    package let stablecoins: [String]
    /// The target's ECB rate, looked up once: each fiat quote's cross rate divides by it.
    private let targetPerEuro: Decimal

    package static let defaultStablecoins = ["usdt", "usdc", "busd", "tusd", "usdp", "pax", "fdusd"]

    package init(rates: ExchangeRates, target: String, stablecoins: [String] = defaultStablecoins) throws(ConversionError) {
        self.rates = rates
        self.target = ExchangeRates.upperCased(target)
        self.stablecoins = stablecoins.map { $0.lowercased() }
        // Fail before any work when the report currency itself is unusable.
        targetPerEuro = try rates.unitsPerEuro(self.target)
    }

    package struct Result: Sendable {
        /// Keyed by lower-cased quote asset.
        package var rates: [String: QuoteRate]
        /// Quote assets with no rate, each with why, for the warning: `no market of XYZ against
        /// USDT, another USD stablecoin or an ECB currency to price it in USD`, or the ECB rate it would need (`the ECB rates of … have no INR`).
        package var reasons: [String: String] = [:]
        package var unconvertible: Set<String> { Set(reasons.keys) }
    }

    /// Only the report currency's own rate is required (checked by `init`): a USD or INR rate
    /// missing from the file costs the markets that need it, with a warning, not the whole report.
    /// A rate that is there but not a positive number is corrupt data and fails the run, as it
    /// does for the report currency: never a silent default rate.
    package func quoteRates(for tickers: some Collection<Ticker>) throws(ConversionError) -> Result {
        let quotes = Self.quoteAssets(tickers)
        let priced = quotes.filter { kind(of: $0) == .crypto }
        let markets = priced.isEmpty ? [:] : Self.firstLasts(tickers, of: Set(priced))
        var result = Result(rates: Dictionary(minimumCapacity: quotes.count))
        for quote in quotes {
            switch try rate(for: quote, markets: markets) {
            case let .success(rate): result.rates[quote] = rate
            case let .failure(reason): result.reasons[quote] = reason.text
            }
        }
        return result
    }

    enum Kind { case stablecoin, fiat, crypto }

    /// How a quote asset (lower case) is priced.
    func kind(of asset: String) -> Kind {
        if stablecoins.contains(asset) { return .stablecoin }
        let code = asset.uppercased()
        if Self.ecbCurrencies.contains(code) || rates.perEuro[code] != nil || rates.invalid[code] != nil || rates.ambiguous[code] != nil {
            return .fiat
        }
        return .crypto
    }

    /// Every currency the ECB's reference rates have listed since 1999, and EUR: a fiat quote
    /// is one even on a day its rate is missing, which is then said, not priced through a market.
    static let ecbCurrencies: Set<String> = [
        "EUR", "USD", "JPY", "BGN", "CYP", "CZK", "DKK", "EEK", "GBP", "HUF", "LTL", "LVL", "MTL", "PLN", "ROL", "RON", "SEK", "SIT",
        "SKK", "CHF", "ISK", "NOK", "TRL", "TRY", "RUB", "HRK", "AUD", "BRL", "CAD", "CNY", "HKD", "IDR", "ILS", "INR", "KRW", "MXN",
        "MYR", "NZD", "PHP", "SGD", "THB", "ZAR",
    ]

    /// The tickers' quote assets, lower-cased, each once, sorted.
    private static func quoteAssets(_ tickers: some Collection<Ticker>) -> [String] {
        // A stored run's few markets (each day of a `history` export, a trend's sample of a day)
        // compared in an array, without a set made and hashed for two quotes.
        if tickers.count <= 16 {
            var quotes: [String] = []
            for ticker in tickers {
                let quote = lowercased(ticker.quoteAsset)
                if !quotes.contains(quote) { quotes.append(quote) }
            }
            return quotes.count > 1 ? quotes.sorted() : quotes
        }
        var quotes = Set<String>()
        // The feed lists a quote's markets together: a run of one quote is hashed once.
        var previous: String?
        for ticker in tickers where ticker.quoteAsset != previous {
            previous = ticker.quoteAsset
            quotes.insert(lowercased(ticker.quoteAsset))
        }
        return quotes.sorted()
    }

    /// A market that prices a quote asset: its symbol as the feed sent it, and its last price.
    struct PricingMarket {
        var symbol: String
        var last: Decimal
    }

    /// The first market of each base asset in `bases` against each quote, keyed by base, then
    /// quote (lower case). Found by the tickers' own base and quote, never by joining names.
    private static func firstLasts(_ tickers: some Collection<Ticker>, of bases: Set<String>) -> [String: [String: PricingMarket]] {
        var markets: [String: [String: PricingMarket]] = [:]
        for ticker in tickers {
            let base = lowercased(ticker.baseAsset)
            guard bases.contains(base) else { continue }
            let quote = lowercased(ticker.quoteAsset)
            if markets[base]?[quote] == nil { markets[base, default: [:]][quote] = PricingMarket(symbol: ticker.symbol, last: ticker.last) }
        }
        return markets
    }

    struct Reason: Error {
        var text: String
    }

    private func rate(for quote: String, markets: [String: [String: PricingMarket]]) throws(ConversionError) -> Swift.Result<QuoteRate, Reason> {
        switch kind(of: quote) {
        case .stablecoin:
            return try fiat("USD").map { QuoteRate(quoteAsset: quote, rate: $0, via: "ECB USD, \(quote.uppercased()) at par") }
        case .fiat:
            return try fiat(quote.uppercased()).map { QuoteRate(quoteAsset: quote, rate: $0, via: "ECB") }
        case .crypto:
            let own = markets[quote] ?? [:]
            var reason = Reason(
                text: "no market of \(quote.uppercased()) against USDT, another USD stablecoin or an ECB currency to price it in \(target)")
            for counter in pricingOrder(among: own.keys) {
                guard let market = own[counter] else { continue }
                let rate = counter == "eur" || kind(of: counter) == .fiat ? try fiat(counter.uppercased()) : try fiat("USD")
                switch rate {
                case let .success(rate):
                    return .success(QuoteRate(quoteAsset: quote, rate: FastDecimal.multiply(market.last, rate), via: market.symbol))
                case let .failure(missing): reason = missing
                }
            }
            return .failure(reason)
        }
    }

    /// The quotes an asset's own market may be against, in the order they are tried: the
    /// stablecoins, EUR, then the other ECB currencies it has a market against, alphabetically.
    private func pricingOrder(among available: some Collection<String>) -> [String] {
        let others = available.filter { $0 != "eur" && !stablecoins.contains($0) && kind(of: $0) == .fiat }.sorted()
        return stablecoins + ["eur"] + others
    }

    /// The feed's symbols are lower case already; only another spelling pays for a new string.
    static func lowercased(_ text: String) -> String {
        text.utf8.allSatisfy { $0 < 0x80 && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } ? text : text.lowercased()
    }

    /// The ECB cross rate from a fiat currency into the target, or why there is none.
    private func fiat(_ code: String) throws(ConversionError) -> Swift.Result<Decimal, Reason> {
        do throws(ConversionError) {
            // `rates.rate(from: code, to: target)`, the target's rate read once (`init`).
            return .success(FastDecimal.divide(targetPerEuro, try rates.unitsPerEuro(code)))
        } catch {
            guard case let .currencyNotInRates(currency, date, _) = error else { throw error }
            return .failure(Reason(text: "the ECB rates of \(date) have no \(currency)"))
        }
    }
}
