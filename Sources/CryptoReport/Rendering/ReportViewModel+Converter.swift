import Foundation

/// The page's converter: an amount of any asset or currency into a report currency, at the
/// report's own rates. The page's script multiplies the amount by these exact decimal strings
/// (the CSV's figures, never a Double) and formats the product in the currency's locale.
extension ReportViewModel {
    struct ConverterData: Encodable {
        struct Currency: Encodable {
            var code: String
            /// The currency's own decimals (`PeopleNumberFormatter.minorUnits`): the script shows
            /// a product from a thousand up with these, as the page's prices.
            var digits: Int
            /// A BCP 47 tag for the browser's `Intl.NumberFormat`: `sv-SE`.
            var locale: String
        }

        struct Unit: Encodable {
            /// `BTC`, `USD`.
            var name: String
            /// The market priced (`btcusdt`); empty for a currency, priced at the ECB rates.
            var market: String
            /// One unit's value in each report currency, in `currencies` order, as the CSV
            /// writes it; empty where the report has none.
            var values: [String]
        }

        var ecbDate: String
        var currencies: [Currency]
        var units: [Unit]
        /// The assets of the markets with the most volume value, first in the lists, so that
        /// BTC is not a long scroll away among hundreds of names.
        var popular: [String] = []
    }

    /// The fiat currencies a reader may convert from besides the report's: the quote currencies
    /// of the markets (USD for USDT, INR) and the ECB's base.
    static let converterCurrencies = ["USD", "EUR", "INR", "SEK"]

    /// JSON for the converter, over `reports` (the page's currencies, first shown first): each
    /// asset at its primary market in the table, each currency at the ECB rates.
    static func converterData(_ reports: [Report]) -> String {
        guard let first = reports.first else { return "" }
        var units: [ConverterData.Unit] = []
        var codes: [String] = []
        for code in reports.map(\.currency) + converterCurrencies where !codes.contains(code) {
            codes.append(code)
        }
        for code in codes {
            let values = reports.map { report in
                (try? report.rates.rate(from: code, to: report.currency)).map { PlainNumber.format($0) } ?? ""
            }
            if values.contains(where: { !$0.isEmpty }) {
                units.append(ConverterData.Unit(name: code, market: "", values: values))
            }
        }
        // Each asset once. An asset of several markets (`--markets all`) is priced at the one
        // `--markets primary` keeps (`MarketSelector.primaryIndexByBase`): its USDT market, not
        // whichever the table's sort put first, such as BTC/INR with the Indian premium in its price.
        let rows = first.rows
        var placeOfAsset: [String: Int] = [:]
        var firsts: [Int] = []
        for index in rows.indices {
            let key = rows[index].baseAsset.lowercased()
            if let place = placeOfAsset[key] {
                if MarketSelector.rank(rows[index]) < MarketSelector.rank(rows[firsts[place]]) { firsts[place] = index }
            } else {
                placeOfAsset[key] = firsts.count
                firsts.append(index)
            }
        }
        // The first report's price is the row's own (symbols are unique among rows): only the
        // other currencies' are looked up, by symbol.
        let byReport = reports.dropFirst().map { report in
            Dictionary(report.rows.map { ($0.symbol, $0.price) }, uniquingKeysWith: { first, _ in first })
        }
        // USDT at par with USD, as every USDT market is converted (the page's rates say
        // "1 USDT = 10,7235 SEK"), not at its USDT/INR market, whose Indian premium would
        // make BTC in USDT disagree with BTC/USDT.
        let usd = units.first { $0.name == "USD" }?.values
        let assets = firsts.map { index -> ConverterData.Unit in
            let row = rows[index]
            if let usd, CurrencyCode.atPar(row.baseAsset) == "USD" { return ConverterData.Unit(name: "USDT", market: "", values: usd) }
            let values = [PlainNumber.format(row.price)] + byReport.map { prices in prices[row.symbol].map { PlainNumber.format($0) } ?? "" }
            return ConverterData.Unit(name: row.baseAsset.uppercased(), market: row.symbol, values: values)
        }
        // By name, in the order of a stable sort.
        units += MarketSelector.stableSorted(Array(assets.indices)) { assets[$0].name < assets[$1].name }.map { assets[$0] }
        let data = ConverterData(
            ecbDate: first.rates.date,
            currencies: reports.map {
                ConverterData.Currency(
                    code: $0.currency, digits: PeopleNumberFormatter.minorUnits(of: $0.currency),
                    locale: $0.localeIdentifier.replacingOccurrences(of: "_", with: "-"))
            },
            units: units,
            popular: first.summary.topVolume.map { $0.baseAsset.uppercased() }.reduce(into: [String]()) { names, name in
                if !names.contains(name) { names.append(name) }
            })
        return data.json
    }
}

extension ReportViewModel.ConverterData {
    /// The data as JSON, for the page's converter (in an attribute: escaped as any text there).
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Strings, numbers and arrays of them: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
