import Foundation

/// Daily prices for plain-text accounting: `P` directives for hledger and Ledger, `price`
/// directives for Beancount. One price per base asset: its primary market's (with `--markets
/// all` too), at the CSV's precision so that a price read back equals the CSV's figure, with `.`
/// as the decimal mark and no grouping, in commodity-name order.
package struct PriceDirectiveRenderer: Sendable {
    package var dialect: CommodityName.Dialect

    package init(_ dialect: CommodityName.Dialect) {
        self.dialect = dialect
    }

    package func render(_ report: Report) -> String {
        let currency = report.currency.uppercased()
        var lines = [
            "; cryptoreport: WazirX prices of \(report.dataDate) in \(currency) (ECB reference rates of \(report.rates.date))"
        ]
        var prices: [(name: String, asset: String, line: String)] = []
        var leftOut: [String] = []
        for row in MarketSelector.primaryByBase(report.rows).values {
            guard let name = CommodityName.name(of: row.baseAsset, in: dialect) else {
                leftOut.append(row.baseAsset)
                continue
            }
            // A price of the currency in itself says nothing (and a tool may reject it).
            if name == currency { continue }
            let at = row.updatedAt ?? report.summary.newestTickerAt ?? report.generatedAt
            let amount = "\(PlainNumber.format(row.price)) \(currency)"
            let line =
                switch dialect {
                case .ledger: "P \(ReportDates.day(at)) \(Self.time(at)) \(name) \(amount)"
                case .beancount: "\(ReportDates.day(at)) price \(name) \(amount)"
                }
            prices.append((name, row.baseAsset.lowercased(), line))
        }
        // Two assets may map to one name (`1inch` and `x1inch` in Beancount): the first by asset
        // name keeps it, the other is said in a comment rather than written as a wrong price.
        var seen = Set<String>()
        for price in prices.sorted(by: { ($0.asset, $0.name) < ($1.asset, $1.name) }) {
            if seen.insert(price.name).inserted {
                lines.append(price.line)
            } else {
                leftOut.append(price.asset)
            }
        }
        for asset in leftOut.sorted() {
            lines.append("; left out: \(asset.filter { !$0.isNewline }) has no commodity name of its own in this format")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `00:51:32` in UTC, the time Ledger and hledger read after the date.
    static func time(_ date: Date) -> String {
        let iso = ReportDates.iso8601(date)
        guard let t = iso.firstIndex(of: "T") else { return "00:00:00" }
        return String(iso[iso.index(after: t)...].prefix(8))
    }
}
