package import Foundation

/// Computes the summary of a selection of markets.
package struct SummaryBuilder: Sendable {
    /// Length of each top list.
    package var listLength = 5

    package init() {}

    package struct Input: Sendable {
        package var tickers: [Ticker]
        package var tickersReceived: Int
        package var skipped: Int
        package var converted: [MarketRow]
        package var selected: [MarketRow]
        package var shown: Int
        package var quoteRates: CurrencyConverter.Result
        package var rates: ExchangeRates
        /// The report currency.
        package var currency: String
        /// The least volume value (report currency) for the top lists; `nil`: the default,
        /// `ReportSpec.defaultMinimumVolumeUSD` converted at `rates`.
        package var minimumVolumeValue: Decimal? = nil
    }

    package func summarise(_ input: Input) -> ReportSummary {
        let selected = input.selected
        let changes = selected.compactMap(\.changePercent)
        let unconvertible = input.tickers.count - input.converted.count
        let floor = volumeFloor(input)
        // Only markets that traded lead a list: a 70 % spread on a market nobody traded is not
        // news, and a zero volume passes no floor, not even a floor of zero.
        // Positions, not rows: each filter of whole market rows was a copy of the selection.
        // Signs and comparisons on integers (`FastDecimal`): Foundation's compact both sides of
        // every comparison, several per market.
        let fastFloor = FastDecimal(floor)
        let traded = selected.indices.filter { index in
            guard let value = selected[index].volumeValue.map({ FastDecimal($0) }) else { return false }
            return value.isPositive && FastDecimal.compare(value, fastFloor) >= 0
        }
        let changeSigns = changes.map { FastDecimal.compare(FastDecimal($0), FastDecimal.zero) }
        func changeSign(_ index: Int) -> Int { selected[index].changePercent.map { FastDecimal.compare(FastDecimal($0), FastDecimal.zero) } ?? 0 }
        return ReportSummary(
            counts: .init(
                tickersReceived: input.tickersReceived, skipped: input.skipped, unconvertible: unconvertible,
                converted: input.converted.count, selected: selected.count, shown: input.shown,
                assets: Set(selected.map { $0.baseAsset.lowercased() }).count),
            newestTickerAt: input.tickers.compactMap(\.updatedAt).max(),
            ratesUsed: input.quoteRates.rates.values.filter { !Self.isIdentity($0, currency: input.currency) }
                .sorted(by: Self.ratesOrder),
            gainers: top(selected, traded.filter { changeSign($0) > 0 }, by: \.changePercent),
            losers: top(selected, traded.filter { changeSign($0) < 0 }, by: \.changePercent, ascending: true),
            topVolume: top(selected, traded, by: \.volumeValue),
            widestSpreads: top(selected, traded.filter { selected[$0].spreadPercent != nil }, by: \.spreadPercent),
            advancers: changeSigns.filter { $0 > 0 }.count,
            decliners: changeSigns.filter { $0 < 0 }.count,
            unchanged: changeSigns.filter { $0 == 0 }.count,
            inrPremium: inrPremium(input.tickers, rates: input.rates),
            volumeFloor: floor, belowVolumeFloor: selected.count - traded.count)
    }

    /// The floor asked for, else 100 USD's worth in the report currency (100 when the ECB
    /// file has no USD rate to convert with).
    private func volumeFloor(_ input: Input) -> Decimal {
        if let floor = input.minimumVolumeValue { return floor }
        let usd = (try? input.rates.rate(from: "USD", to: input.currency)) ?? 1
        // Whole units: the floor is shown to people, and "10 723,50 kr" reads as false precision.
        var floor = ReportSpec.defaultMinimumVolumeUSD * usd
        var rounded = Decimal()
        NSDecimalRound(&rounded, &floor, 0, .plain)
        return rounded
    }

    /// The first `listLength` of `rows` at `positions`, ordered by `key`.
    private func top(
        _ rows: [MarketRow], _ positions: [Int], by key: KeyPath<MarketRow, Decimal?>, ascending: Bool = false
    ) -> [MarketRow] {
        // Keys made once per row (see `DecimalOrder`).
        let keys = positions.map { DecimalOrder(rows[$0][keyPath: key] ?? 0) }
        let ordered = positions.indices.sorted { left, right in
            let l = keys[left]
            let r = keys[right]
            if l != r { return ascending ? l < r : l > r }
            return rows[positions[left]].symbol < rows[positions[right]].symbol
        }
        return ordered.prefix(listLength).map { rows[positions[$0]] }
    }

    private func inrPremium(_ tickers: [Ticker], rates: ExchangeRates) -> ReportSummary.INRPremium? {
        guard let usdtInr = tickers.first(where: { $0.symbol.lowercased() == "usdtinr" }),
            let ecb = try? rates.rate(from: "USD", to: "INR"), ecb > 0
        else { return nil }
        return .init(usdtInrLast: usdtInr.last, ecbUsdInr: ecb, percent: (usdtInr.last / ecb - 1) * 100)
    }

    /// A quote asset that is the report currency itself (USDT, at par, in a USD report; INR in
    /// an INR report): "1 USD = 1.00000 USD" tells a reader nothing.
    static func isIdentity(_ rate: QuoteRate, currency: String) -> Bool {
        let fiat = rate.quoteAsset.lowercased() == "usdt" ? "USD" : rate.quoteAsset.uppercased()
        return fiat == currency.uppercased() && rate.rate == 1
    }

    /// USDT first, then INR, then the crypto quotes by name: the order people read them in.
    private static func ratesOrder(_ left: QuoteRate, _ right: QuoteRate) -> Bool {
        let preference = MarketSelector.quotePreference
        let l = preference.firstIndex(of: left.quoteAsset) ?? preference.count
        let r = preference.firstIndex(of: right.quoteAsset) ?? preference.count
        return l != r ? l < r : left.quoteAsset < right.quoteAsset
    }
}
