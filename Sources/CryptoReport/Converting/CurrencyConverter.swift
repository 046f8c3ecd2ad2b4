import Foundation

/// Finds, for each quote asset, the rate into the report currency.
///
/// - `inr`: the ECB cross rate INR → target.
/// - `usdt`: USDT is taken at par with USD, so the ECB cross rate USD → target.
/// - any other asset X: the last price of `Xusdt` × USD → target; if that market is missing
///   (or USD has no rate), the last price of `Xinr` × INR → target; otherwise X cannot be converted.
package struct CurrencyConverter: Sendable {
    package let rates: ExchangeRates
    package let target: String
    /// The target's ECB rate, looked up once: each fiat quote's cross rate divides by it.
    private let targetPerEuro: Decimal

    package init(rates: ExchangeRates, target: String) throws(ConversionError) {
        self.rates = rates
        self.target = ExchangeRates.upperCased(target)
        // Fail before any work when the report currency itself is unusable.
        targetPerEuro = try rates.unitsPerEuro(self.target)
    }

    package struct Result: Sendable {
        /// Keyed by lower-cased quote asset.
        package var rates: [String: QuoteRate]
        /// Quote assets with no rate, each with why, for the warning: `no xyzusdt or xyzinr market
        /// to price XYZ in USD`, or the ECB rate it would need (`the ECB rates of … have no INR`).
        package var reasons: [String: String] = [:]
        package var unconvertible: Set<String> { Set(reasons.keys) }
    }

    /// Only the report currency's own rate is required (checked by `init`): a USD or INR rate
    /// missing from the file costs the markets that need it, with a warning, not the whole report.
    /// A rate that is there but not a positive number is corrupt data and fails the run, as it
    /// does for the report currency: never a silent default rate.
    package func quoteRates(for tickers: some Collection<Ticker>) throws(ConversionError) -> Result {
        // Only the markets a crypto quote is priced through (`xusdt`, `xinr`) are looked up,
        // so no market but those is keyed by its lower-cased symbol.
        let (quotes, lastBySymbol) = Self.pricing(tickers)
        var result = Result(rates: Dictionary(minimumCapacity: quotes.count))
        for quote in quotes {
            switch try rate(for: quote, lastBySymbol: lastBySymbol) {
            case let .success(rate): result.rates[quote] = rate
            case let .failure(reason): result.reasons[quote] = reason.text
            }
        }
        return result
    }

    /// The quote assets (lower-cased, each once, sorted), and the first last price of each market
    /// a crypto quote is priced through.
    static func pricing(_ tickers: some Collection<Ticker>) -> (quotes: [String], lastBySymbol: [String: Decimal]) {
        let quotes = quoteAssets(tickers)
        let wanted = pricingMarkets(quotes)
        return (quotes, wanted.isEmpty ? [:] : firstLasts(tickers, of: wanted))
    }

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

    /// The first last price of each of `wanted` (lower-cased symbols) among the tickers.
    private static func firstLasts(_ tickers: some Collection<Ticker>, of wanted: Set<String>) -> [String: Decimal] {
        var lasts: [String: Decimal] = [:]
        for ticker in tickers {
            let symbol = lowercased(ticker.symbol)
            if wanted.contains(symbol) && lasts[symbol] == nil { lasts[symbol] = ticker.last }
        }
        return lasts
    }

    /// The markets that price the crypto quotes among `quotes`: `xusdt` and `xinr`.
    private static func pricingMarkets(_ quotes: [String]) -> Set<String> {
        var wanted = Set<String>()
        for quote in quotes where quote != "inr" && quote != "usdt" {
            wanted.insert(quote + "usdt")
            wanted.insert(quote + "inr")
        }
        return wanted
    }

    struct Reason: Error {
        var text: String
    }

    private func rate(for quote: String, lastBySymbol: [String: Decimal]) throws(ConversionError) -> Swift.Result<QuoteRate, Reason> {
        switch quote {
        case "inr":
            return try fiat("INR").map { QuoteRate(quoteAsset: quote, rate: $0, via: "ECB") }
        case "usdt":
            return try fiat("USD").map { QuoteRate(quoteAsset: quote, rate: $0, via: "ECB USD, USDT at par") }
        default:
            var reason = Reason(text: "no \(quote)usdt or \(quote)inr market to price \(quote.uppercased()) in \(target)")
            for (fiatCode, market) in [("USD", quote + "usdt"), ("INR", quote + "inr")] {
                guard let last = lastBySymbol[market] else { continue }
                switch try fiat(fiatCode) {
                case let .success(rate): return .success(QuoteRate(quoteAsset: quote, rate: FastDecimal.multiply(last, rate), via: market))
                case let .failure(missing): reason = missing
                }
            }
            return .failure(reason)
        }
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
