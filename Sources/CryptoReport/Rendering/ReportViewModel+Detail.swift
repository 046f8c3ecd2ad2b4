import Foundation

/// One market's detail: what the table row shows and more (the open, the change in money, the
/// asset's other markets), and with history a dated chart with the reader's limits and the list of
/// earlier points. The HTML page opens it at `#btcusdt`, with or without its script; the chart
/// and the points are drawn by the script from the page's history data (`+HistoryData`), once a
/// reader opens the detail, so the page holds each price once instead of a chart and a table.
extension ReportViewModel {
    struct Detail {
        struct Other {
            var pair, symbol, anchor, price: String
            /// `+5,61 %`: this market's price over the detail's market's, both converted.
            var premium, premiumClass: String
            /// The other market has a detail of its own in this page.
            var isShown: Bool
            /// In the page's second currency.
            var alt: [Other] = []
        }

        var anchor, symbol, pair, quote: String
        /// The base asset, upper case (`BTC`): what the volume counts, whose other markets are listed.
        var base: String
        /// What the base asset is called (`Bitcoin`), on top of the detail; empty when unknown (`hasName`).
        var name: String
        var hasName: Bool
        /// Why there is no chart, where there is none: the history holds no earlier day of the
        /// market yet, or the report was made without one.
        var noChart: String
        /// The report currency, for `{{#alt}}` to find the second currency's.
        var currency: String
        var price, open, high, low, bid, ask: String
        var change, changeClass, arrow: String
        /// `+1 234,50 kr`: price − open.
        var changeMoney: String
        var spread, spreadPct, volume, volumeValue, fxRate, updatedAt: String
        /// The market is quoted in something other than the report currency (or USDT in USD):
        /// "1 INR = 1 INR" tells a reader nothing.
        var hasRate: Bool
        var others: [Other]
        var hasOthers: Bool
        /// The market has two or more dated prices: the page's script draws its chart and lists
        /// its earlier points from the history data.
        var hasSeries: Bool
        /// `above 180 000,00 kr`, the limits drawn on the chart.
        var limits: [Text]
        var hasLimits: Bool
        /// This detail in the page's second currency, if it has one.
        var alt: [Detail] = []
    }

    /// An element id from a symbol as sent: lower case, and nothing an address would need to
    /// escape (`btcusdt` stays `btcusdt`).
    static func anchor(_ symbol: String) -> String {
        // Nearly every symbol is lower-case letters and digits already: itself.
        if symbol.utf8.allSatisfy({ ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) }) {
            return symbol
        }
        return String(symbol.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
    }

    /// The price limits of the report's `above`/`below` rules that name this market or its asset,
    /// in the report currency at the ECB rates; a rule in a currency the rates lack is left out.
    static func limits(for market: MarketRow, in report: Report) -> [PriceChart.Limit] {
        let base = market.baseAsset.lowercased(), symbol = market.symbol.lowercased()
        return report.alertRules.compactMap { rule in
            guard let asset = rule.asset, asset == base || asset == symbol else { return nil }
            switch rule.condition {
            case let .above(limit, currency), let .below(limit, currency):
                guard let rate = try? report.rates.rate(from: CurrencyCode.atPar(currency), to: report.currency) else { return nil }
                let isAbove: Bool
                if case .above = rule.condition { isAbove = true } else { isAbove = false }
                return PriceChart.Limit(value: limit * rate, direction: isAbove ? "up" : "down")
            case .move, .moveSinceLastReport:
                return nil
            }
        }
    }

    /// - Parameter rows: the table's rows of `report.rows`, in order: a detail shows their figures
    ///   again, so they are taken as the table formatted them rather than formatted twice.
    static func details(_ report: Report, rows: [MarketLine], numbers: PeopleNumberFormatter, strings: PageStrings) -> [Detail] {
        let maker = DetailMaker(report, numbers: numbers, strings: strings)
        return zip(report.rows, rows).map { maker.detail($0, row: $1) }
    }

    /// Makes one market's detail at a time. The built-in page is written with one (`lazyDetails`),
    /// so the details are never held whole: their text is written once and then dropped.
    struct DetailMaker {
        var report: Report
        var numbers: PeopleNumberFormatter
        var strings: PageStrings
        /// Every converted market (`report.allMarkets`).
        var markets: [MarketRow]
        /// Whether each of `markets` is in the table (by lower-cased symbol), found once here
        /// rather than a lower-cased copy of a symbol and a set lookup per other market listed.
        var isShown: [Bool]
        /// Where each lower-cased base asset's markets are in `markets`: positions, not copies
        /// of the markets.
        var byAsset: [String: [Int]]

        init(_ report: Report, numbers: PeopleNumberFormatter, strings: PageStrings) {
            self.report = report
            self.numbers = numbers
            self.strings = strings
            markets = report.allMarkets
            if report.markets.isEmpty {
                // The rows are every market: all shown, no set of every symbol to hash.
                isShown = Array(repeating: true, count: markets.count)
            } else {
                let shown = Set(report.rows.map { $0.symbol.lowercased() })
                isShown = markets.map { shown.contains($0.symbol.lowercased()) }
            }
            var byAsset: [String: [Int]] = [:]
            byAsset.reserveCapacity(markets.count / 4)
            for (index, market) in markets.enumerated() {
                byAsset[CurrencyConverter.lowercased(market.baseAsset), default: []].append(index)
            }
            // Each asset's markets sorted by symbol once, here (a stable sort, so a detail's
            // list, filtered, is in the order sorting it gave): sorted per detail, the
            // comparator would copy this whole maker for every comparison.
            let markets = markets
            for (asset, positions) in byAsset where positions.count > 1 {
                byAsset[asset] = positions.sorted { markets[$0].symbol < markets[$1].symbol }
            }
            self.byAsset = byAsset
        }

        /// The detail of `market`, whose table row is `row`.
        func detail(_ market: MarketRow, row: MarketLine) -> Detail {
            // Lower case without a new string where it is already (the feed's names are):
            // `lowercased()` would make one for every market listed.
            let symbol = CurrencyConverter.lowercased(market.symbol)
            // By position: the asset's markets read in place, not copied with their strings
            // retained for every detail.
            let markets = markets
            let others = (byAsset[CurrencyConverter.lowercased(market.baseAsset)] ?? [])
                .filter { CurrencyConverter.lowercased(markets[$0].symbol) != symbol }
                .map { position -> Detail.Other in
                    let price = markets[position].price
                    let premium = premiumCell(price, over: market.price, numbers: numbers)
                    return Detail.Other(
                        pair: "\(markets[position].baseAsset.uppercased())/\(markets[position].quoteAsset.uppercased())",
                        symbol: markets[position].symbol, anchor: anchor(markets[position].symbol), price: numbers.money(price),
                        premium: premium.text, premiumClass: premium.changeClass, isShown: isShown[position])
                }
            let base = market.baseAsset.uppercased()
            let labels = limits(for: market, in: report).map { Text(text: limitLabel($0, numbers: numbers, strings: strings)) }
            let hasSeries = market.trend.map { $0.days.count == $0.series.count && $0.series.count > 1 } ?? false
            // Foundation's difference, worked out in integers (`FastDecimal`).
            let changeMoney = market.open.map { FastDecimal.isAvailable ? (FastDecimal(market.price) - FastDecimal($0)).decimal : market.price - $0 }
            return Detail(
                anchor: row.anchor, symbol: market.symbol, pair: row.pair, quote: row.quote, base: base, name: row.name, hasName: row.hasName,
                noChart: hasSeries ? "" : strings[report.hasHistory ? .noSeries : .noHistory],
                currency: report.currency, price: row.price, open: row.open, high: row.high,
                low: row.low, bid: row.bid, ask: row.ask,
                change: row.change, changeClass: row.changeClass,
                arrow: row.arrow, changeMoney: signed(changeMoney, numbers: numbers),
                spread: row.spread, spreadPct: row.spreadPct,
                volume: market.volume == nil ? row.volume : row.volume + " " + base, volumeValue: row.volumeValue,
                fxRate: row.fxRate, updatedAt: row.updatedAt,
                hasRate: hasRate(market.fxRate), others: others, hasOthers: !others.isEmpty, hasSeries: hasSeries,
                limits: labels, hasLimits: !labels.isEmpty && hasSeries)
        }
    }

    /// The rate is not 1 (a market quoted in the report currency itself has none to show),
    /// compared in integers: Foundation's `!=` compacts both sides, for every detail.
    static func hasRate(_ rate: Decimal) -> Bool {
        FastDecimal.isAvailable ? FastDecimal.compare(FastDecimal(rate), FastDecimal.one) != 0 : rate != 1
    }

    /// `+5,61 %`: `price` over `base`, less one, as a percentage with two decimals, and its class.
    ///
    /// The figure is `(price / base − 1) × 100` in `Decimal`, rounded when shown: three costly
    /// `Decimal` operations per pair of markets. Shown with two
    /// decimals, only the hundredths count, so they are worked out from the two prices in
    /// `Double` (each within a few units of 10⁻¹⁶ of the `Decimal`) and kept only when the
    /// quotient is far from a rounding tie — a thousandth of a hundredth, millions of times the
    /// error. Near a tie, at zero, or for any value `Double` cannot hold, the `Decimal` way.
    static func premiumCell(_ price: Decimal, over base: Decimal, numbers: PeopleNumberFormatter) -> (text: String, changeClass: String) {
        if let priceParts = DecimalParts(price), let baseParts = DecimalParts(base), !priceParts.isNegative,
            !baseParts.isNegative, !baseParts.isZero, abs(priceParts.exponent) < 200, abs(baseParts.exponent) < 200
        {
            let ratio = approximate(priceParts) / approximate(baseParts)
            let hundredths = (ratio - 1) * 10_000
            let fraction = abs(hundredths) - abs(hundredths).rounded(.down)
            let margin = 1e-3 * max(1, ratio) + abs(hundredths) * 1e-12
            if ratio.isFinite, abs(hundredths) < 1e12, abs(fraction - 0.5) > margin {
                let rounded = Int64(hundredths.rounded(.toNearestOrAwayFromZero))
                if rounded != 0, let text = numbers.percent(hundredths: rounded) {
                    return (text, rounded > 0 ? "up" : "down")
                }
            }
        }
        let premium = base > 0 ? (price / base - 1) * 100 : nil
        return (numbers.percent(premium), changeClass(premium))
    }

    /// A decimal's value as the nearest few `Double`s: within 4 × 10⁻¹⁶ of it, relatively.
    private static func approximate(_ parts: DecimalParts) -> Double {
        (Double(parts.high) * 18_446_744_073_709_551_616.0 + Double(parts.low)) * pow(10, Double(parts.exponent))
    }

    /// `above 180 000,00 kr`: a limit as the detail and its chart name it.
    static func limitLabel(_ limit: PriceChart.Limit, numbers: PeopleNumberFormatter, strings: PageStrings) -> String {
        strings.format(limit.direction == "up" ? .limitAbove : .limitBelow, numbers.money(limit.value))
    }

    /// Money with its sign, as a change is read: `+1 234,50 kr`, `−0,0012 kr`, `-$212.00`. A
    /// negative is the locale's own (sv_SE's U+2212, en_US's hyphen-minus), as the percentages
    /// beside it are: one page, one minus sign.
    static func signed(_ value: Decimal?, numbers: PeopleNumberFormatter) -> String {
        guard let value else { return "" }
        let text = numbers.money(value)
        let isPositive = FastDecimal.isAvailable ? FastDecimal(value).isPositive : value > 0
        return isPositive ? "+" + text : text
    }
}
