import Foundation

/// Finds, for each quote asset, the rate into the report currency.
///
/// - `inr`: the ECB cross rate INR → target.
/// - `usdt`: USDT is taken at par with USD, so the ECB cross rate USD → target.
/// - any other asset X: the last price of `Xusdt` × USD → target; if that market is missing,
///   the last price of `Xinr` × INR → target; otherwise X cannot be converted.
public struct CurrencyConverter: Sendable {
    public var rates: ExchangeRates
    public var target: String

    public init(rates: ExchangeRates, target: String) throws(ConversionError) {
        self.rates = rates
        self.target = target.uppercased()
        // Fail before any work when the report currency itself is unusable.
        _ = try rates.unitsPerEuro(self.target)
    }

    public struct Result: Sendable {
        /// Keyed by lower-cased quote asset.
        public var rates: [String: QuoteRate]
        /// Quote assets with no rate.
        public var unconvertible: Set<String>
    }

    public func quoteRates(for tickers: [Ticker]) throws(ConversionError) -> Result {
        var lastBySymbol: [String: Decimal] = [:]
        for ticker in tickers where lastBySymbol[ticker.symbol.lowercased()] == nil {
            lastBySymbol[ticker.symbol.lowercased()] = ticker.last
        }
        var result = Result(rates: [:], unconvertible: [])
        for quote in Set(tickers.map { $0.quoteAsset.lowercased() }).sorted() {
            if let rate = try rate(for: quote, lastBySymbol: lastBySymbol) {
                result.rates[quote] = rate
            } else {
                result.unconvertible.insert(quote)
            }
        }
        return result
    }

    private func rate(for quote: String, lastBySymbol: [String: Decimal]) throws(ConversionError) -> QuoteRate? {
        switch quote {
        case "inr":
            return QuoteRate(quoteAsset: quote, rate: try rates.rate(from: "INR", to: target), via: "ECB")
        case "usdt":
            return QuoteRate(quoteAsset: quote, rate: try rates.rate(from: "USD", to: target), via: "ECB USD, USDT at par")
        default:
            if let last = lastBySymbol[quote + "usdt"] {
                return QuoteRate(quoteAsset: quote, rate: last * (try rates.rate(from: "USD", to: target)), via: quote + "usdt")
            }
            if let last = lastBySymbol[quote + "inr"] {
                return QuoteRate(quoteAsset: quote, rate: last * (try rates.rate(from: "INR", to: target)), via: quote + "inr")
            }
            return nil
        }
    }
}
