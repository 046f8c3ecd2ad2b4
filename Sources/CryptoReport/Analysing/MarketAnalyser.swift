package import Foundation

/// Turns tickers into report rows: converts every price and computes change and spread.
package struct MarketAnalyser: Sendable {
    package init() {}

    package struct Result: Sendable {
        package var rows: [MarketRow]
        package var diagnostics: [Diagnostic]
    }

    package func analyse(_ tickers: [Ticker], rates: CurrencyConverter.Result, currency: String) -> Result {
        var rows: [MarketRow] = []
        rows.reserveCapacity(tickers.count)
        var leftOut: [String: [String]] = [:]
        for ticker in tickers {
            guard let quoteRate = rates.rates[ticker.quoteAsset.lowercased()] else {
                leftOut[ticker.quoteAsset.lowercased(), default: []].append(ticker.symbol)
                continue
            }
            rows.append(row(ticker, rate: quoteRate.rate, currency: currency))
        }
        // One warning per quote asset: a missing INR rate must not print two hundred lines.
        let diagnostics = leftOut.keys.sorted().map { quote in
            Diagnostic(
                .tickers,
                .leftOut(symbols: leftOut[quote] ?? [], quoteAsset: quote, reason: rates.reasons[quote] ?? "no rate for \(quote.uppercased())"))
        }
        return Result(rows: rows, diagnostics: diagnostics)
    }

    package func row(_ ticker: Ticker, rate: Decimal, currency: String) -> MarketRow {
        let last = ticker.last
        var change: Decimal?
        if let open = ticker.open, DecimalParts.isPositive(open) {
            change = (last - open) / open * 100
        }
        var spread: Decimal?
        var spreadPercent: Decimal?
        if let bid = ticker.bid, let ask = ticker.ask, DecimalParts.isPositive(bid), DecimalParts.isPositive(ask) {
            spread = (ask - bid) * rate
            spreadPercent = (ask - bid) / ((ask + bid) / 2) * 100
        }
        return MarketRow(
            symbol: ticker.symbol, baseAsset: ticker.baseAsset, quoteAsset: ticker.quoteAsset, currency: currency,
            price: last * rate,
            open: ticker.open.map { $0 * rate }, high: ticker.high.map { $0 * rate }, low: ticker.low.map { $0 * rate },
            bid: ticker.bid.map { $0 * rate }, ask: ticker.ask.map { $0 * rate },
            changePercent: change, spread: spread, spreadPercent: spreadPercent,
            volume: ticker.volume, volumeValue: ticker.volume.map { $0 * last * rate },
            fxRate: rate, updatedAt: ticker.updatedAt)
    }
}
