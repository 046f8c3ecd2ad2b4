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
        /// The assets of the markets with the most volume value, first in the lists: BTC among
        /// 271 names took a long scroll on a phone.
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
        // Each asset at its first row: the rows' keys hashed on every core, then asked in order
        // (FirstSymbols); each asset's unit made, the units ordered and their JSON written on
        // every core too (ParallelChunks). Made in turn on one core, at 100,000 markets this
        // was the longest part of the view model, its other lanes' core idle meanwhile.
        // An asset of several markets (`--markets all`) is priced at the one `--markets primary`
        // keeps (`MarketSelector.primaryIndexByBase`): its USDT market, not whichever the table's
        // sort put first, such as BTC/INR with the Indian premium in its price.
        let rows = first.rows
        let keys = ParallelChunks.elements(rows.count, chunk: 4_096) { index -> (key: String, hash: Int, rank: MarketSelector.Rank) in
            let key = rows[index].baseAsset.lowercased()
            return (key, key.hashValue, MarketSelector.rank(rows[index]))
        }
        var seen = FirstSymbols(capacity: rows.count)
        var firsts: [Int] = []
        for index in rows.indices {
            var matched = 0
            let new = seen.insert(firsts.count, hash: keys[index].hash) { place in
                guard keys[firsts[place]].key == keys[index].key else { return false }
                matched = place
                return true
            }
            if new {
                firsts.append(index)
            } else if keys[index].rank < keys[firsts[matched]].rank {
                firsts[matched] = index
            }
        }
        // The first report's price is the row's own (symbols are unique among rows): only the
        // other currencies' are looked up, by symbol.
        let byReport = reports.dropFirst().map { report in
            Dictionary(report.rows.map { ($0.symbol, $0.price) }, uniquingKeysWith: { first, _ in first })
        }
        // USDT at par with USD, as every USDT market is converted (the page's rates say
        // "1 USDT = 10,7235 SEK"): priced at its own USDT/INR market it was 7 % more, and BTC
        // came to 14,916 USDT where BTC/USDT says 15,988.
        let usd = units.first { $0.name == "USD" }?.values
        let assets = ParallelChunks.elements(firsts.count, chunk: 4_096) { position -> ConverterData.Unit in
            let row = rows[firsts[position]]
            if let usd, CurrencyCode.atPar(row.baseAsset) == "USD" { return ConverterData.Unit(name: "USDT", market: "", values: usd) }
            let values = [PlainNumber.format(row.price)] + byReport.map { prices in prices[row.symbol].map { PlainNumber.format($0) } ?? "" }
            return ConverterData.Unit(name: row.baseAsset.uppercased(), market: row.symbol, values: values)
        }
        // By name, in the order of a stable sort (the halves sorted at once and merged).
        units += MarketSelector.stableSorted(Array(assets.indices)) { assets[$0].name < assets[$1].name }.map { assets[$0] }
        let data = ConverterData(
            ecbDate: first.rates.date,
            currencies: reports.map {
                ConverterData.Currency(
                    code: $0.currency, digits: PeopleNumberFormatter.minorUnits(of: $0.currency), locale: $0.localeIdentifier.replacingOccurrences(of: "_", with: "-"))
            },
            units: units,
            popular: first.summary.topVolume.map { $0.baseAsset.uppercased() }.reduce(into: [String]()) { names, name in
                if !names.contains(name) { names.append(name) }
            })
        return data.json
    }
}

extension ReportViewModel.ConverterData {
    /// The bytes `JSONEncoder` writes with `.sortedKeys, .withoutEscapingSlashes` (a test
    /// compares them), written by hand: with a unit per asset, encoding them was a thirtieth of
    /// a 10,000-market run.
    var json: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256 + units.count * 64)
        func string(_ text: String) { JSONRenderer.MarketWriter.appendString(text, to: &bytes) }
        bytes += #"{"currencies":["#.utf8
        for (index, currency) in currencies.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += #"{"code":"#.utf8
            string(currency.code)
            bytes += #","digits":"#.utf8
            bytes += String(currency.digits).utf8
            bytes += #","locale":"#.utf8
            string(currency.locale)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes += #"],"ecbDate":"#.utf8
        string(ecbDate)
        bytes += #","popular":["#.utf8
        for (index, name) in popular.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(name)
        }
        bytes += #"],"units":["#.utf8
        // The units' text in chunks on every core, joined in order.
        for chunk in ParallelChunks.map(units.count, chunk: 2_048, { range in unitsJSON(range) }) { bytes += chunk }
        bytes += "]}".utf8
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The units of `range`, each after a comma but the very first.
    private func unitsJSON(_ range: Range<Int>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count * 64)
        func string(_ text: String) { JSONRenderer.MarketWriter.appendString(text, to: &bytes) }
        for index in range {
            let unit = units[index]
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += #"{"market":"#.utf8
            string(unit.market)
            bytes += #","name":"#.utf8
            string(unit.name)
            bytes += #","values":["#.utf8
            for (position, value) in unit.values.enumerated() {
                if position > 0 { bytes.append(UInt8(ascii: ",")) }
                string(value)
            }
            bytes += "]}".utf8
        }
        return bytes
    }
}
