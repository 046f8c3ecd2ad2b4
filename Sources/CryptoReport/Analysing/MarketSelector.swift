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
        // Positions, sorted, then the rows copied once, not filtered and then sorted as copies.
        // Every market without `--symbols` asks nothing of a row: no copy of each one and no
        // lower-cased symbol just to keep them all.
        let kept =
            wanted.isEmpty && selection.markets == .all
            ? Array(rows.indices)
            : rows.indices.filter { index in
                let row = rows[index]
                let symbol = row.symbol.lowercased()
                if wanted.contains(symbol) { return true }
                if !wanted.isEmpty && !wanted.contains(row.baseAsset.lowercased()) { return false }
                return selection.markets == .all || primary.contains(symbol)
            }
        return sortedPositions(kept, of: rows).map { rows[$0] }
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

    /// `primaryByBase` as positions in `rows`, not a dictionary of whole market rows.
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
        // Keys made once per row, not n log n times by comparing Decimals and lower-casing
        // symbols inside the comparator.
        let names = positions.map { rows[$0].symbol.lowercased() }
        if selection.sort == .name {
            return Self.stableSorted(positions) { names[$0] < names[$1] }
        }
        // The one figure read in place, without a copy of each whole row and its strings.
        let sort = selection.sort
        let keys: [DecimalOrder?] = positions.map { position in
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

    /// `values` in the order of a stable sort of their indices by `precedes`.
    static func stableSorted(_ values: [Int], by precedes: (Int, Int) -> Bool) -> [Int] {
        values.indices.sorted(by: precedes).map { values[$0] }
    }
}
