import Foundation

/// Computes the summary of a selection of markets.
public struct SummaryBuilder: Sendable {
    /// Length of each top list.
    public var listLength = 5

    public init() {}

    public struct Input: Sendable {
        public var tickers: [Ticker]
        public var tickersReceived: Int
        public var skipped: Int
        public var converted: [MarketRow]
        public var selected: [MarketRow]
        public var shown: Int
        public var quoteRates: CurrencyConverter.Result
        public var rates: ExchangeRates
        /// The report currency.
        public var currency: String
    }

    public func summarise(_ input: Input) -> ReportSummary {
        let selected = input.selected
        let changes = selected.compactMap(\.changePercent)
        let unconvertible = input.tickers.count - input.converted.count
        return ReportSummary(
            counts: .init(
                tickersReceived: input.tickersReceived, skipped: input.skipped, unconvertible: unconvertible,
                converted: input.converted.count, selected: selected.count, shown: input.shown,
                assets: Set(selected.map { $0.baseAsset.lowercased() }).count),
            newestTickerAt: input.tickers.compactMap(\.updatedAt).max(),
            ratesUsed: input.quoteRates.rates.values.filter { !Self.isIdentity($0, currency: input.currency) }
                .sorted(by: Self.ratesOrder),
            gainers: top(selected.filter { ($0.changePercent ?? 0) > 0 }, by: \.changePercent),
            losers: top(selected.filter { ($0.changePercent ?? 0) < 0 }, by: \.changePercent, ascending: true),
            topVolume: top(selected.filter { $0.volumeValue != nil }, by: \.volumeValue),
            widestSpreads: top(selected.filter { $0.spreadPercent != nil }, by: \.spreadPercent),
            advancers: changes.filter { $0 > 0 }.count,
            decliners: changes.filter { $0 < 0 }.count,
            unchanged: changes.filter { $0 == 0 }.count,
            inrPremium: inrPremium(input.tickers, rates: input.rates))
    }

    private func top(_ rows: [MarketRow], by key: KeyPath<MarketRow, Decimal?>, ascending: Bool = false) -> [MarketRow] {
        // Keys made once per row (see `DecimalOrder`).
        let keys = rows.map { DecimalOrder($0[keyPath: key] ?? 0) }
        let ordered = rows.indices.sorted { left, right in
            let l = keys[left]
            let r = keys[right]
            if l != r { return ascending ? l < r : l > r }
            return rows[left].symbol < rows[right].symbol
        }
        return ordered.prefix(listLength).map { rows[$0] }
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
