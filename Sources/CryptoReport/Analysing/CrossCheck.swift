package import Foundation

/// `--cross-check`: each base asset's price in the report currency on the report's exchange,
/// against its price on every other exchange read, each taken from that exchange's primary
/// market for the asset (the table's `--markets primary` choice). A difference over the
/// tolerance is a warning; an asset only one exchange lists is no difference.
package struct CrossCheck: Sendable {
    /// Another exchange's markets, as read.
    package struct Other: Sendable {
        package var exchange: Exchange
        package var tickers: [Ticker]

        package init(exchange: Exchange, tickers: [Ticker]) {
            self.exchange = exchange
            self.tickers = tickers
        }
    }

    /// In percent of the report's price.
    package var tolerance: Decimal

    package init(tolerance: Decimal) {
        self.tolerance = tolerance
    }

    /// The differences over the tolerance, by asset, then exchange; `rows` are the report's
    /// every priced market (before any filter), `converter` its currency's.
    package func differences(
        rows: [MarketRow], exchange: Exchange, others: [Other], converter: CurrencyConverter
    ) -> [Diagnostic] {
        let own = Self.primaryPrices(rows)
        var found: [Diagnostic] = []
        for other in others {
            guard let rates = try? converter.quoteRates(for: other.tickers) else { continue }
            let theirs = Self.primaryPrices(MarketAnalyser().analyse(other.tickers, rates: rates, currency: converter.target).rows)
            for (asset, price) in own.sorted(by: { $0.key < $1.key }) {
                guard let otherPrice = theirs[asset], price > 0 else { continue }
                let difference = (otherPrice - price) / price * 100
                guard (difference < 0 ? -difference : difference) > tolerance else { continue }
                found.append(
                    Diagnostic(
                        other.exchange.tickers,
                        .crossCheck(
                            asset: asset, currency: converter.target, price: price, exchange: exchange, otherPrice: otherPrice,
                            other: other.exchange, percent: difference, tolerance: tolerance), group: "prices apart across exchanges"))
            }
        }
        return found
    }

    /// Each base asset (lower case) with its primary market's price.
    static func primaryPrices(_ rows: [MarketRow]) -> [String: Decimal] {
        MarketSelector.primaryByBase(rows).mapValues(\.price)
    }
}
