package import Foundation

/// Values the holdings at each asset's primary market in the report currency.
package struct HoldingsValuer: Sendable {
    package var holdings: [Holding]

    package init(_ holdings: [Holding]) {
        self.holdings = holdings
    }

    /// nil without holdings. `rows`: every priced market of the report (before any filter);
    /// `costRate` gives report-currency units per unit of a cost's currency.
    package func value(
        rows: [MarketRow], currency: String, costRate: (String) throws -> Decimal
    ) throws(UsageError) -> HoldingsValue? {
        guard !holdings.isEmpty else { return nil }
        let primary = MarketSelector.primaryByBase(rows)
        var positions: [HoldingsValue.Position] = []
        for holding in holdings {
            guard let row = primary[holding.asset] else { throw UsageError.holdingUnpriced(asset: holding.asset) }
            let value = holding.amount * row.price
            var position = HoldingsValue.Position(
                asset: holding.asset, amount: holding.amount, market: row.symbol, price: row.price, value: value, sharePercent: 0,
                valueDayAgo: row.open.map { holding.amount * $0 })
            if let cost = holding.cost, let code = holding.costCurrency {
                guard let rate = try? costRate(code == "USDT" ? "USD" : code) else {
                    throw UsageError.holdingCostCurrency(asset: holding.asset, currency: code)
                }
                let paid = cost * rate
                position.cost = paid
                position.gain = value - paid
                position.gainPercent = paid > 0 ? (value - paid) / paid * 100 : nil
            }
            positions.append(position)
        }
        let total = positions.reduce(Decimal(0)) { $0 + $1.value }
        for index in positions.indices where total > 0 { positions[index].sharePercent = positions[index].value / total * 100 }
        let dayAgo = positions.allSatisfy { $0.valueDayAgo != nil } ? positions.reduce(Decimal(0)) { $0 + ($1.valueDayAgo ?? 0) } : nil
        let change = dayAgo.map { total - $0 }
        let percent = dayAgo.flatMap { $0 > 0 ? (total - $0) / $0 * 100 : nil }
        return HoldingsValue(currency: currency, total: total, change24h: change, change24hPercent: percent, positions: positions)
    }
}
