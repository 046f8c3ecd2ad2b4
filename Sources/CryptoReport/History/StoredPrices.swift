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
    /// store once. `beside`: from how many runs they are priced on a thread of their own while
    /// the next ones are read (`BesidePricer`), rather than in turn with the reading.
    static func add(
        _ runs: [RunSummary], to prices: inout [StoredPrices], from store: HistoryStore, pricedBesideFrom beside: Int = 8
    ) throws(HistoryError) {
        let missing = runs.filter { run in prices.contains { !$0.has(run) } }
        guard !missing.isEmpty else { return }
        var pricers: [StoredDayPricer] = []
        // A day's prices need only the rates of its currencies, and of USD and INR, through which
        // the converter prices USDT and INR markets (`CurrencyConverter`): a day holds some 30.
        let currencies = Set(prices.map { $0.currency.uppercased() } + ["USD", "INR"])
        let besidePricer = missing.count >= beside ? BesidePricer() : nil
        do throws(HistoryError) {
            let unreadable = try store.forEachLastPrices(of: missing, currencies: currencies) { names, id, stored, rates in
                if pricers.isEmpty {
                    pricers = prices.map { StoredDayPricer(names: names, currency: $0.currency) }
                    // Names are only ever added, with higher ids: the old symbols keep their slots.
                    for index in prices.indices { prices[index].slots = pricers[index].slots }
                    besidePricer?.start(pricers)
                }
                let wanted = prices.indices.filter { prices[$0].byRun[id] == nil }
                if let besidePricer {
                    besidePricer.hand((id, stored, rates, wanted))
                } else {
                    for index in wanted { prices[index].byRun[id] = pricers[index].prices(stored, rates: rates) }
                }
            }
            for index in prices.indices { prices[index].unreadableRows += unreadable }
        } catch {
            _ = besidePricer?.finish()
            throw error
        }
        for (id, index, list) in besidePricer?.finish() ?? [] { prices[index].byRun[id] = list }
    }

    /// Prices runs on a thread of its own as they are handed over: reading a month's last
    /// prices and pricing them were one after the other on the read-ahead's thread, which the
    /// report then waited for; now the pricing (a third of it) goes on beside the reading.
    /// Each run's prices are what `StoredDayPricer.prices` makes of it, whichever thread runs it.
    private final class BesidePricer: @unchecked Sendable {
        typealias Run = (id: Int64, stored: [HistoryStore.LastPrice], rates: ExchangeRates?, wanted: [Int])
        private let condition = NSCondition()
        private var waiting: [Run] = []
        private var priced: [(id: Int64, index: Int, prices: [Decimal?])] = []
        private var handedAll = false
        private var started = false
        private var stopped = false

        func start(_ pricers: [StoredDayPricer]) {
            condition.withLock { started = true }
            Thread { [self] in
                while let run = next() {
                    let made = run.wanted.map { (run.id, $0, pricers[$0].prices(run.stored, rates: run.rates)) }
                    condition.withLock { priced += made }
                }
                condition.withLock {
                    stopped = true
                    condition.broadcast()
                }
            }.start()
        }

        private func next() -> Run? {
            condition.withLock {
                while waiting.isEmpty && !handedAll { condition.wait() }
                return waiting.isEmpty ? nil : waiting.removeFirst()
            }
        }

        func hand(_ run: Run) {
            condition.withLock {
                waiting.append(run)
                condition.broadcast()
            }
        }

        /// Every run handed over, priced; waits for the last.
        func finish() -> [(id: Int64, index: Int, prices: [Decimal?])] {
            condition.withLock {
                handedAll = true
                condition.broadcast()
                while started && !stopped { condition.wait() }
                return priced
            }
        }
    }
}
