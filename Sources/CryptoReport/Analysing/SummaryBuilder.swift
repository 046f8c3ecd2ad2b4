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
        /// Rows of markets not trading, left out.
        package var notTrading = 0
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
        let unconvertible = input.tickers.count - input.converted.count
        let setFloor = volumeFloor(input)
        let floor = setFloor ?? 0
        // Three parts that read the markets independently.
        let parts = (0..<3).map { index -> Part in
            var part = Part()
            switch index {
            case 0: part.lists = topLists(selected, floor: floor)
            case 1:
                var assets = Set<String>(minimumCapacity: selected.count / 4)
                for row in selected { assets.insert(row.baseAsset.lowercased()) }
                part.assets = assets.count
            default:
                // Signs on integers (`FastDecimal`): Foundation's compact both sides of every
                // comparison.
                var signs = (up: 0, down: 0, flat: 0)
                for row in selected {
                    guard let change = row.changePercent else { continue }
                    switch FastDecimal.compare(FastDecimal(change), FastDecimal.zero) {
                    case 1...: signs.up += 1
                    case ..<0: signs.down += 1
                    default: signs.flat += 1
                    }
                }
                part.signs = signs
                var newest: Date?
                for ticker in input.tickers {
                    if let at = ticker.updatedAt, newest.map({ at > $0 }) ?? true { newest = at }
                }
                part.newest = newest
            }
            return part
        }
        let lists = parts[0].lists ?? Lists()
        let signs = parts[2].signs ?? (0, 0, 0)
        return ReportSummary(
            counts: .init(
                tickersReceived: input.tickersReceived, skipped: input.skipped, notTrading: input.notTrading, unconvertible: unconvertible,
                converted: input.converted.count, selected: selected.count, shown: input.shown,
                assets: parts[1].assets),
            newestTickerAt: parts[2].newest,
            ratesUsed: input.quoteRates.rates.values.filter { !Self.isIdentity($0, currency: input.currency) }
                .sorted(by: Self.ratesOrder),
            gainers: lists.gainers, losers: lists.losers, topVolume: lists.topVolume, widestSpreads: lists.widestSpreads,
            advancers: signs.up,
            decliners: signs.down,
            unchanged: signs.flat,
            inrPremium: inrPremium(input.tickers, rates: input.rates),
            volumeFloor: floor, belowVolumeFloor: selected.count - lists.traded, volumeFloorUnknown: setFloor == nil)
    }

    /// What each part of `summarise` found.
    private struct Part {
        var lists: Lists?
        var assets = 0
        var signs: (up: Int, down: Int, flat: Int)?
        var newest: Date?
    }

    private struct Lists {
        var gainers: [MarketRow] = [], losers: [MarketRow] = [], topVolume: [MarketRow] = [], widestSpreads: [MarketRow] = []
        /// Markets at or above the volume floor.
        var traded = 0
    }

    /// The top lists, of the markets that traded at least `floor`.
    private func topLists(_ selected: [MarketRow], floor: Decimal) -> Lists {
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
        func changeSign(_ index: Int) -> Int { selected[index].changePercent.map { FastDecimal.compare(FastDecimal($0), FastDecimal.zero) } ?? 0 }
        return Lists(
            gainers: top(selected, traded.filter { changeSign($0) > 0 }) { selected[$0].changePercent },
            losers: top(selected, traded.filter { changeSign($0) < 0 }, ascending: true) { selected[$0].changePercent },
            topVolume: top(selected, traded) { selected[$0].volumeValue },
            widestSpreads: top(selected, traded.filter { selected[$0].spreadPercent != nil }) { selected[$0].spreadPercent },
            traded: traded.count)
    }

    /// The floor asked for, else 100 USD's worth in the report currency (100 when the ECB
    /// file has no USD rate to convert with).
    /// `nil` when no floor is set and the rates cannot say what 100 USD are worth: no floor then
    /// (every market that traded may lead a list), which the report says.
    private func volumeFloor(_ input: Input) -> Decimal? {
        if let floor = input.minimumVolumeValue { return floor }
        let usd: Decimal
        if CurrencyCode.atPar(input.currency) == "USD" {
            usd = 1
        } else if let rate = try? input.rates.rate(from: "USD", to: input.currency) {
            usd = rate
        } else {
            return nil
        }
        // Whole units: the floor is shown to people, and "10 723,50 kr" reads as false precision.
        var floor = ReportSpec.defaultMinimumVolumeUSD * usd
        var rounded = Decimal()
        NSDecimalRound(&rounded, &floor, 0, .plain)
        return rounded
    }

    /// The first `listLength` of `rows` at `positions`, ordered by `key` (then by symbol, then
    /// as given), as a stable sort of them all would order them.
    private func top(_ rows: [MarketRow], _ positions: [Int], ascending: Bool = false, key: (Int) -> Decimal?) -> [MarketRow] {
        // One pass keeping the best few: sorting every market (and reading each through a key
        // path, a copy of the whole row) for five of them was most of the summary.
        func precedes(_ a: (order: DecimalOrder, position: Int), _ b: (order: DecimalOrder, position: Int)) -> Bool {
            if a.order != b.order { return ascending ? a.order < b.order : a.order > b.order }
            return rows[a.position].symbol < rows[b.position].symbol
        }
        var best: [(order: DecimalOrder, position: Int)] = []
        best.reserveCapacity(listLength + 1)
        for position in positions {
            let candidate = (order: DecimalOrder(key(position) ?? 0), position: position)
            guard best.count < listLength || best.last.map({ precedes(candidate, $0) }) == true else { continue }
            // After every equal one: a stable order.
            var index = best.count
            while index > 0 && precedes(candidate, best[index - 1]) { index -= 1 }
            best.insert(candidate, at: index)
            if best.count > listLength { best.removeLast() }
        }
        return best.map { rows[$0.position] }
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
        CurrencyCode.atPar(rate.quoteAsset) == currency.uppercased() && rate.rate == 1
    }

    /// USDT first, then INR, then the crypto quotes by name: the order people read them in.
    private static func ratesOrder(_ left: QuoteRate, _ right: QuoteRate) -> Bool {
        let preference = MarketSelector.quotePreference
        let l = preference.firstIndex(of: left.quoteAsset) ?? preference.count
        let r = preference.firstIndex(of: right.quoteAsset) ?? preference.count
        return l != r ? l < r : left.quoteAsset < right.quoteAsset
    }
}
