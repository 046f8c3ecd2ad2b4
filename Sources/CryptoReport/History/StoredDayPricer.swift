import Foundation

/// Prices one stored run's markets in the report currency, one price per stored symbol (its
/// `slots`), as `CurrencyConverter` prices a run's tickers: each quote asset at that day's rate, a
/// crypto quote through the run's own market of it (against USDT, another stablecoin, EUR …).
///
/// What a stored name means (its symbol's slot, its quote asset, whether it prices a quote
/// asset) is worked out once per name, not once per name and day: a `Ticker`, a lower-cased
/// symbol hashed and the converter's look at every market of every day were most of reading a
/// month of history. The converter itself is given, of each day, only the markets its answer
/// depends on (one per quote asset, and the first of each symbol that may price one, in stored
/// order), so its rates are the ones it gave for the whole day.
struct StoredDayPricer {
    private struct Name {
        var symbol: String
        var baseAsset: String
        var quoteAsset: String
        /// Slot of its lower-cased symbol.
        var symbolSlot: Int
        /// Index of the lower-cased quote asset in `quotes`.
        var quote: Int
        /// Index of the lower-cased symbol among those that may price a quote asset (a market
        /// whose base asset is the quote asset of any stored market); −1 for others.
        var pricing: Int
    }

    private let currency: String
    private let stablecoins: [String]
    /// Lower-cased symbol → its slot in each run's prices, in the order the symbols were first
    /// stored: a store that gained names since gives the same slots to the old ones.
    private(set) var slots: [String: Int] = [:]
    private var names: [Name] = []
    /// Slot in `names` by name id, dense (ids are SQLite's rowids, counted up from 1); the
    /// dictionary only for ids too sparse for an array.
    private var slotByID: [Int32] = []
    private var slotBySparseID: [Int64: Int] = [:]
    private var quotes: [String] = []
    private var pricingCount = 0

    init(names stored: MarketNames, currency: String, stablecoins: [String] = CurrencyConverter.defaultStablecoins) {
        self.currency = currency
        self.stablecoins = stablecoins
        let table = stored.table.sorted { $0.key < $1.key }
        var quoteIndex: [String: Int] = [:]
        var pricingIndex: [String: Int] = [:]
        let dense = (table.last?.key ?? 0) < Int64(max(4 * table.count, 1 << 16))
        if dense { slotByID = [Int32](repeating: -1, count: Int(table.last?.key ?? 0) + 1) }
        // The markets that may price a quote asset, whichever day asks (`CurrencyConverter`):
        // those of an asset some stored market is quoted in.
        let quoteAssets = Set(table.map { TrendCalculator.lowercased($0.value.quoteAsset) })
        for (id, name) in table {
            let symbol = TrendCalculator.lowercased(name.symbol)
            let quote = TrendCalculator.lowercased(name.quoteAsset)
            let quoteSlot = quoteIndex[quote] ?? quotes.count
            if quoteSlot == quotes.count {
                quotes.append(quote)
                quoteIndex[quote] = quoteSlot
            }
            var pricing = -1
            if quoteAssets.contains(TrendCalculator.lowercased(name.baseAsset)) {
                pricing = pricingIndex[symbol] ?? pricingCount
                if pricing == pricingCount {
                    pricingIndex[symbol] = pricing
                    pricingCount += 1
                }
            }
            if dense && id >= 0 { slotByID[Int(id)] = Int32(names.count) } else { slotBySparseID[id] = names.count }
            let symbolSlot = slots[symbol] ?? slots.count
            if symbolSlot == slots.count { slots[symbol] = symbolSlot }
            names.append(
                Name(symbol: name.symbol, baseAsset: name.baseAsset, quoteAsset: name.quoteAsset, symbolSlot: symbolSlot, quote: quoteSlot, pricing: pricing))
        }
    }

    private func slot(_ id: Int64) -> Int? {
        if id >= 0 && id < Int64(slotByID.count) {
            let slot = slotByID[Int(id)]
            return slot >= 0 ? Int(slot) : nil
        }
        return slotBySparseID[id]
    }

    /// The run's last prices in the report currency at each symbol's slot; all `nil` when the
    /// run's day has no usable rates for that currency. The last of a symbol stored twice wins,
    /// as it did in a dictionary of prices.
    func prices(_ stored: [HistoryStore.LastPrice], rates: ExchangeRates?) -> [Decimal?] {
        var prices = [Decimal?](repeating: nil, count: slots.count)
        guard let rates, let converter = try? CurrencyConverter(rates: rates, target: currency, stablecoins: stablecoins) else { return prices }
        var quoteSeen = [Bool](repeating: false, count: quotes.count)
        var pricingSeen = [Bool](repeating: false, count: pricingCount)
        var sample: [Ticker] = []
        for price in stored {
            guard let slot = slot(price.nameID) else { continue }
            let name = names[slot]
            var needed = !quoteSeen[name.quote]
            quoteSeen[name.quote] = true
            if name.pricing >= 0 && !pricingSeen[name.pricing] {
                pricingSeen[name.pricing] = true
                needed = true
            }
            if needed { sample.append(Ticker(symbol: name.symbol, baseAsset: name.baseAsset, quoteAsset: name.quoteAsset, last: price.last.decimal)) }
        }
        guard let quoteRates = try? converter.quoteRates(for: sample) else { return prices }
        // Each quote asset's rate read once; each price a FastDecimal product (Foundation's own
        // result): a month of 10,000 markets is 300,000 of them.
        var quoteRate = [FastDecimal?](repeating: nil, count: quotes.count)
        for (index, quote) in quotes.enumerated() where quoteSeen[index] {
            quoteRate[index] = quoteRates.rates[quote].map { FastDecimal($0.rate) }
        }
        let exact = FastDecimal.isAvailable
        for price in stored {
            guard let slot = slot(price.nameID) else { continue }
            let name = names[slot]
            guard let rate = quoteRate[name.quote] else { continue }
            prices[name.symbolSlot] = exact ? (price.last * rate).decimal : price.last.decimal * rate.decimal
        }
        return prices
    }
}
