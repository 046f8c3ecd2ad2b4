import Foundation
import GRDB

/// The `market_name` table in memory: each stored market's symbol, base and quote asset by id.
/// A few hundred rows, read once per read or write of the store, so that market rows carry a
/// small integer instead of three strings.
struct MarketNames {
    struct Name: Sendable {
        var symbol: String
        var baseAsset: String
        var quoteAsset: String
    }

    /// Names are compared as SQLite compares them, byte for byte: Swift's `==` would take two
    /// canonically equivalent spellings for one market and store the second under the first's bytes.
    struct Key: Hashable {
        var symbol: [UInt8]
        var baseAsset: [UInt8]
        var quoteAsset: [UInt8]

        init(_ symbol: String, _ baseAsset: String, _ quoteAsset: String) {
            self.symbol = Array(symbol.utf8)
            self.baseAsset = Array(baseAsset.utf8)
            self.quoteAsset = Array(quoteAsset.utf8)
        }
    }

    private var byID: [Int64: Name] = [:]
    private var ids: [Key: Int64] = [:]

    static func load(_ db: Database) throws -> MarketNames {
        var names = MarketNames()
        // Sized once: grown an insert at a time, rehashing the keys was half of loading them.
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM market_name") ?? 0
        names.byID.reserveCapacity(count)
        names.ids.reserveCapacity(count)
        let rows = try Row.fetchCursor(db, sql: "SELECT id, symbol, base_asset, quote_asset FROM market_name")
        while let row = try rows.next() {
            names.remember(Name(symbol: row[1], baseAsset: row[2], quoteAsset: row[3]), id: row[0])
        }
        return names
    }

    subscript(id: Int64) -> Name? { byID[id] }

    /// Every name by id.
    var table: [Int64: Name] { byID }

    /// Every id with its name, in id order (the order names were first stored).
    var all: [(id: Int64, name: Name)] {
        byID.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The id of the ticker's name, stored first if new.
    mutating func id(for ticker: Ticker, in db: Database) throws -> Int64 {
        let key = Key(ticker.symbol, ticker.baseAsset, ticker.quoteAsset)
        if let id = ids[key] { return id }
        try db.execute(
            sql: "INSERT INTO market_name (symbol, base_asset, quote_asset) VALUES (?, ?, ?)",
            arguments: [ticker.symbol, ticker.baseAsset, ticker.quoteAsset])
        let id = db.lastInsertedRowID
        remember(Name(symbol: ticker.symbol, baseAsset: ticker.baseAsset, quoteAsset: ticker.quoteAsset), id: id)
        return id
    }

    private mutating func remember(_ name: Name, id: Int64) {
        ids[Key(name.symbol, name.baseAsset, name.quoteAsset)] = id
        byID[id] = name
    }
}
