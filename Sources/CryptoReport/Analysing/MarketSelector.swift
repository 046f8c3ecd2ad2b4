import Foundation

/// Applies `--markets`, `--symbols`, `--sort` and `--top`.
package struct MarketSelector: Sendable {
    package var selection: Selection

    package init(_ selection: Selection) {
        self.selection = selection
    }

    /// Markets chosen by `--markets` and `--symbols`, in report order; `--top` is not applied, so a
    /// summary can describe the whole selection.
    package func select(_ rows: [MarketRow]) -> [MarketRow] {
        let wanted = Set(selection.symbols)
        let primary = selection.markets == .primary ? primaryMarkets(rows) : []
        // Positions, sorted, then the rows copied once: filtering the rows and then sorting
        // them copied every market twice (some 40 MB each at 100,000 markets).
        // Every market without `--symbols` asks nothing of a row: the filter below copied each
        // one and lower-cased its symbol, 100,000 times on one core, to keep them all.
        let kept = wanted.isEmpty && selection.markets == .all ? Array(rows.indices) : rows.indices.filter { index in
            let row = rows[index]
            let symbol = row.symbol.lowercased()
            if wanted.contains(symbol) { return true }
            if !wanted.isEmpty && !wanted.contains(row.baseAsset.lowercased()) { return false }
            return selection.markets == .all || primary.contains(symbol)
        }
        // Copied on every core: 48 MB of rows at 100,000 markets, and the pages they fill.
        let order = sortedPositions(kept, of: rows)
        return ParallelChunks.elements(order.count, chunk: 4_096) { rows[order[$0]] }
    }

    /// The `--symbols` entries that name none of the tickers received (neither a symbol nor a
    /// base asset), for a warning: a typo must not pass for a quiet market. A market received but
    /// left out (no rate to price it) has its own warning.
    package func unmatched(in tickers: [Ticker]) -> [String] {
        guard !selection.symbols.isEmpty else { return [] }
        var known = Set<String>()
        for ticker in tickers {
            known.insert(ticker.symbol.lowercased())
            known.insert(ticker.baseAsset.lowercased())
        }
        return selection.symbols.filter { !known.contains($0.lowercased()) }
    }

    /// The rows a table shows: the selection cut to `--top`.
    package func cut(_ rows: [MarketRow]) -> [MarketRow] {
        guard let top = selection.top else { return rows }
        return Array(rows.prefix(max(0, top)))
    }

    static let quotePreference = ["usdt", "inr", "btc", "wrx"]

    /// The markets `names` mean among `rows`, in their order, each once: an exact market symbol,
    /// else a base asset's primary market; and the names that mean none.
    static func resolve(_ names: [String], in rows: [MarketRow]) -> (found: [String], missing: [String]) {
        let symbols = Dictionary(rows.map { ($0.symbol.lowercased(), $0.symbol) }, uniquingKeysWith: { first, _ in first })
        let primary = primaryIndexByBase(rows)
        var found: [String] = [], missing: [String] = []
        for name in names {
            guard let market = symbols[name.lowercased()] ?? primary[name.lowercased()].map({ rows[$0].symbol }) else {
                missing.append(name)
                continue
            }
            if !found.contains(market) { found.append(market) }
        }
        return (found, missing)
    }

    /// Symbols of each base asset's primary market.
    func primaryMarkets(_ rows: [MarketRow]) -> Set<String> {
        Set(Self.primaryIndexByBase(rows).values.map { rows[$0].symbol.lowercased() })
    }

    /// Each base asset's (lower-cased) primary market: quoted in USDT, else INR, else BTC, else
    /// WRX, else the first quote by name; the first such row on a tie.
    static func primaryByBase(_ rows: [MarketRow]) -> [String: MarketRow] {
        primaryIndexByBase(rows).mapValues { rows[$0] }
    }

    /// How a base asset's markets rank for its primary one, best first: by `quotePreference`,
    /// then by quote name.
    struct Rank: Comparable, Sendable {
        var preference: Int
        var quote: String

        static func < (left: Rank, right: Rank) -> Bool {
            (left.preference, left.quote) < (right.preference, right.quote)
        }
    }

    static func rank(_ row: MarketRow) -> Rank {
        let quote = row.quoteAsset.lowercased()
        return Rank(preference: quotePreference.firstIndex(of: quote) ?? quotePreference.count, quote: quote)
    }

    /// `primaryByBase` as positions in `rows`: a dictionary of whole market rows, grown one
    /// insert at a time, cost more memory at 100,000 markets than the rows themselves.
    static func primaryIndexByBase(_ rows: [MarketRow]) -> [String: Int] {
        var best: [String: Int] = [:]
        for (index, row) in rows.enumerated() {
            let base = row.baseAsset.lowercased()
            if let current = best[base], rank(rows[current]) <= rank(row) { continue }
            best[base] = index
        }
        return best
    }

    /// `positions` in report order.
    func sortedPositions(_ positions: [Int], of rows: [MarketRow]) -> [Int] {
        // Keys made once per row, on every core: comparing Decimals, and lower-casing symbols,
        // inside the comparator did it n log n times.
        let names = ParallelChunks.elements(positions.count, chunk: 4_096) { rows[positions[$0]].symbol.lowercased() }
        if selection.sort == .name {
            return Self.stableSorted(positions) { names[$0] < names[$1] }
        }
        // The one figure read in place: a copy of each whole row was a retain of its four strings.
        let sort = selection.sort
        let keys: [DecimalOrder?] = ParallelChunks.elements(positions.count, chunk: 4_096) { index in
            let position = positions[index]
            switch sort {
            case .name: return nil
            case .price: return DecimalOrder(rows[position].price)
            case .change: return rows[position].changePercent.map(DecimalOrder.init)
            case .spread: return rows[position].spreadPercent.map(DecimalOrder.init)
            case .volume: return rows[position].volumeValue.map(DecimalOrder.init)
            }
        }
        // Largest first, empty values last, ties by symbol so that every run orders alike. Keys
        // compared in place; a name (a retain and release when copied) only on a tie.
        return keys.withUnsafeBufferPointer { keys in
            Self.stableSorted(positions) { left, right in
                switch (keys[left], keys[right]) {
                case let (l?, r?): return l != r ? l > r : names[left] < names[right]
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): return names[left] < names[right]
                }
            }
        }
    }

    /// `values` in the order a stable sort of their indices by `precedes` gives, each half
    /// sorted on its own core and the halves merged, the first half's first on a tie: the same
    /// order as one stable sort of the whole (`SelectionTests` compares them). Sorting 100,000
    /// markets was a tenth of the part of a run that is on one core. The merge is made in two
    /// parts at once too: the output's first half from the halves' heads, found by a binary
    /// search (`split`), its second from the rest; on one core it was a serial tail of the sort.
    static func stableSorted(_ values: [Int], by precedes: (Int, Int) -> Bool) -> [Int] {
        let count = values.count
        guard count >= 8_192 else { return values.indices.sorted(by: precedes).map { values[$0] } }
        let middle = count / 2
        let halves = ParallelChunks.map(2, chunk: 1) { half in
            Array(half.lowerBound == 0 ? 0..<middle : middle..<count).sorted(by: precedes)
        }
        let (left, right) = (halves[0], halves[1])
        let (i, j) = split(left, right, first: count / 2, by: precedes)
        return [Int](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            // Each part initializes only its own places: [0, i + j) and [i + j, count).
            ParallelChunks.concurrently(2) { part in
                let (l, r, at) = part == 0 ? (left[..<i], right[..<j], 0) : (left[i...], right[j...], i + j)
                merge(l, r, into: base + at, values: values, by: precedes)
            }
            initialized = count
        }
    }

    /// How many of the merge's first `first` come from `left` and from `right`: the split where
    /// every element before it on either side goes before every element after it on the other.
    static func split(_ left: [Int], _ right: [Int], first: Int, by precedes: (Int, Int) -> Bool) -> (Int, Int) {
        var low = max(0, first - right.count), high = min(first, left.count)
        while true {
            let i = (low + high) / 2, j = first - i
            if i < left.count, j > 0, !precedes(right[j - 1], left[i]) {
                // left[i] goes before right[j - 1] (ties keep the left's first): more from the left.
                low = i + 1
            } else if i > 0, j < right.count, precedes(right[j], left[i - 1]) {
                // right[j] goes before left[i - 1]: fewer from the left.
                high = i - 1
            } else {
                return (i, j)
            }
        }
    }

    /// The stable merge of `left` and `right` (indices into `values`), their values written from `out`.
    private static func merge(
        _ left: ArraySlice<Int>, _ right: ArraySlice<Int>, into out: UnsafeMutablePointer<Int>, values: [Int], by precedes: (Int, Int) -> Bool
    ) {
        var (i, j, at) = (left.startIndex, right.startIndex, 0)
        while i < left.endIndex && j < right.endIndex {
            // The right one first only when it strictly precedes: ties keep the first half's.
            if precedes(right[j], left[i]) {
                (out + at).initialize(to: values[right[j]])
                j += 1
            } else {
                (out + at).initialize(to: values[left[i]])
                i += 1
            }
            at += 1
        }
        for index in left[i...] { (out + at).initialize(to: values[index]); at += 1 }
        for index in right[j...] { (out + at).initialize(to: values[index]); at += 1 }
    }
}
