package import Foundation

/// Turns tickers into report rows: converts every price and computes change and spread.
package struct MarketAnalyser: Sendable {
    /// The feed the tickers are from, which the diagnostics name.
    package var source: DataSource

    package init(source: DataSource = .tickers) {
        self.source = source
    }

    package struct Result: Sendable {
        package var rows: [MarketRow]
        package var diagnostics: [Diagnostic]
    }

    package func analyse(_ tickers: [Ticker], rates: CurrencyConverter.Result, currency: String) -> Result {
        // Which tickers have a rate; then each kept market converted from its own ticker alone.
        var kept: [(index: Int, rate: Decimal)] = []
        kept.reserveCapacity(tickers.count)
        var leftOut: [String: [String]] = [:]
        for index in tickers.indices {
            let quote = tickers[index].quoteAsset.lowercased()
            if let quoteRate = rates.rates[quote] {
                kept.append((index, quoteRate.rate))
            } else {
                leftOut[quote, default: []].append(tickers[index].symbol)
            }
        }
        let rows = kept.map { row(tickers[$0.index], rate: $0.rate, currency: currency) }
        // One warning per quote asset: a missing INR rate must not print two hundred lines.
        var diagnostics = leftOut.keys.sorted().map { quote in
            Diagnostic(
                source,
                .leftOut(symbols: leftOut[quote] ?? [], quoteAsset: quote, reason: rates.reasons[quote] ?? "no rate for \(quote.uppercased())"))
        }
        // A crossed book is the feed's to explain, not ours to mend: the market stays as sent,
        // its spread negative, and the reader is told why (the sign bit alone: no arithmetic).
        for position in rows.indices where rows[position].spread?.isSignMinus == true {
            let ticker = tickers[kept[position].index]
            guard let bid = ticker.bid, let ask = ticker.ask else { continue }
            diagnostics.append(Diagnostic(source, .crossedBook(symbol: ticker.symbol, bid: bid, ask: ask), group: "bid above ask"))
        }
        // So are 24 h figures that contradict each other, which the feed sent as they are.
        for (index, _) in kept {
            let ticker = tickers[index]
            // A high of zero is a market that did not trade in 24 h, not a contradiction.
            guard let low = ticker.low, let high = ticker.high, high > 0 else { continue }
            if high < low || ticker.last < low || ticker.last > high {
                diagnostics.append(
                    Diagnostic(
                        source, .contradictoryRange(symbol: ticker.symbol, low: low, high: high, last: ticker.last),
                        group: "figures that contradict each other"))
            }
        }
        return Result(rows: rows, diagnostics: diagnostics)
    }

    package func row(_ ticker: Ticker, rate: Decimal, currency: String) -> MarketRow {
        guard FastDecimal.isAvailable else { return foundationRow(ticker, rate: rate, currency: currency) }
        // The same operations in the same order as `foundationRow`, each giving Foundation's own
        // result (`FastDecimal`): ten products, three quotients and three sums a market.
        let fastRate = FastDecimal(rate)
        let last = FastDecimal(ticker.last)
        let hundred = FastDecimal.hundred
        func converted(_ value: Decimal?) -> Decimal? { value.map { (FastDecimal($0) * fastRate).decimal } }
        func fast(_ value: Decimal?) -> FastDecimal? { value.map { FastDecimal($0) } }
        var change: Decimal?
        if let open = fast(ticker.open), open.isPositive {
            change = ((last - open) / open * hundred).decimal
        }
        var spread: Decimal?
        var spreadPercent: Decimal?
        if let bid = fast(ticker.bid), let ask = fast(ticker.ask), bid.isPositive, ask.isPositive {
            let difference = ask - bid
            spread = (difference * fastRate).decimal
            spreadPercent = (difference / ((ask + bid) / FastDecimal.two) * hundred).decimal
        }
        return MarketRow(
            symbol: ticker.symbol, baseAsset: ticker.baseAsset, quoteAsset: ticker.quoteAsset, currency: currency,
            price: (last * fastRate).decimal,
            open: converted(ticker.open), high: converted(ticker.high), low: converted(ticker.low),
            bid: converted(ticker.bid), ask: converted(ticker.ask),
            changePercent: change, spread: spread, spreadPercent: spreadPercent,
            volume: ticker.volume, volumeValue: ticker.volume.map { (FastDecimal($0) * last * fastRate).decimal },
            fxRate: rate, updatedAt: ticker.updatedAt)
    }

    /// The figures through Foundation's operators: the definition `row` reproduces, used where
    /// `FastDecimal` cannot read Foundation's storage.
    package func foundationRow(_ ticker: Ticker, rate: Decimal, currency: String) -> MarketRow {
        let last = ticker.last
        var change: Decimal?
        if let open = ticker.open, open > 0 {
            change = (last - open) / open * 100
        }
        var spread: Decimal?
        var spreadPercent: Decimal?
        if let bid = ticker.bid, let ask = ticker.ask, bid > 0, ask > 0 {
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
