import Foundation

/// Stored runs' last prices in one currency, by run and by lower-cased symbol: what the trends
/// read from the history. Each run is priced once, by whoever needs it first: the read-ahead
/// (`TrendCalculator.readAhead`) before the report's own time is known, or the trends for a
/// run the read-ahead did not price.
package struct StoredPrices: Sendable {
    package let currency: String
    /// Lower-cased symbol → its slot in each run's prices (`StoredDayPricer.slots`).
    private(set) var slots: [String: Int] = [:]
    private var byRun: [Int64: [Decimal?]] = [:]
    /// Stored rows of the priced runs whose last price could not be read (a damaged or
    /// hand-edited database): left out of the prices.
    package private(set) var unreadableRows = 0

    init(currency: String) {
        self.currency = currency
    }

    /// The run's prices by slot; `nil` when it was not priced.
    func prices(of run: RunSummary?) -> [Decimal?]? {
        run.flatMap { byRun[$0.id] }
    }

    func has(_ run: RunSummary) -> Bool { byRun[run.id] != nil }

    /// Prices the runs of `runs` not priced yet, in each of `prices`' currencies, reading the
    /// store once and pricing each run as it is read.
    static func add(
        _ runs: [RunSummary], to prices: inout [StoredPrices], from store: HistoryStore, stablecoins: [String] = CurrencyConverter.defaultStablecoins
    ) throws(HistoryError) {
        let missing = runs.filter { run in prices.contains { !$0.has(run) } }
        guard !missing.isEmpty else { return }
        var pricers: [StoredDayPricer] = []
        // A day's prices need the rates of its currencies and of every fiat quote a market may
        // have (`CurrencyConverter`: USD for the stablecoins, EUR, TRY, INR …): a day holds some 30.
        let currencies = Set(prices.map { $0.currency.uppercased() }).union(CurrencyConverter.ecbCurrencies)
        let unreadable = try store.forEachLastPrices(of: missing, currencies: currencies) { names, id, stored, rates in
            if pricers.isEmpty {
                pricers = prices.map { StoredDayPricer(names: names, currency: $0.currency, stablecoins: stablecoins) }
                // Names are only ever added, with higher ids: the old symbols keep their slots.
                for index in prices.indices { prices[index].slots = pricers[index].slots }
            }
            for index in prices.indices where prices[index].byRun[id] == nil {
                prices[index].byRun[id] = pricers[index].prices(stored, rates: rates)
            }
        }
        for index in prices.indices { prices[index].unreadableRows += unreadable }
    }
}
