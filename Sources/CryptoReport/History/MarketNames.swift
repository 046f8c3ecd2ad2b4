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
        var symbol: Bytes
        var baseAsset: Bytes
        var quoteAsset: Bytes

        init(_ symbol: String, _ baseAsset: String, _ quoteAsset: String) {
            self.symbol = Bytes(symbol)
            self.baseAsset = Bytes(baseAsset)
            self.quoteAsset = Bytes(quoteAsset)
        }
    }

    /// A text compared and hashed by its UTF-8 bytes, read in place, so that recording a day's
    /// markets makes no byte arrays per name.
    struct Bytes: Hashable {
        var text: String

        init(_ text: String) {
            self.text = text
        }

        static func == (lhs: Bytes, rhs: Bytes) -> Bool {
            lhs.text.utf8.elementsEqual(rhs.text.utf8)
        }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
            // The length ends each text, so that three names' bytes hash apart however they split.
            hasher.combine(text.utf8.count)
        }
    }

    /// Every stored name, those left out of reads too (a writer must not store one again).
    private var byID: [Int64: Name] = [:]
    /// The ids of names the feed could not have sent (`isFeedIdentifier`).
    private var unsafe: Set<Int64> = []
    /// Made when a writer first asks for an id (`id(for:in:)`): readers look names up by id only
    /// and need not hash every name.
    private var ids: [Key: Int64]?

    static func load(_ db: Database) throws -> MarketNames {
        var names = MarketNames()
        // Sized once, so that loading never rehashes the table.
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM market_name") ?? 0
        names.byID.reserveCapacity(count)
        // Columns by position from the statement (`HistoryStore.forEachRun`): a `Row`'s generic
        // subscript looks up type metadata per value.
        let statement = try db.makeStatement(sql: "SELECT id, symbol, base_asset, quote_asset FROM market_name")
        let rows = try Row.fetchCursor(statement)
        let raw = statement.sqliteStatement
        while try rows.next() != nil {
            let name = Name(
                symbol: String(sqliteStatement: raw, index: 1), baseAsset: String(sqliteStatement: raw, index: 2),
                quoteAsset: String(sqliteStatement: raw, index: 3))
            let id = Int64(sqliteStatement: raw, index: 0)
            names.byID[id] = name
            // A shared database is another input: a name the feed could not have sent (a control
            // character, markup, an escape sequence) is left out of every read with its rows, as
            // the feed's row would be, and never reaches a terminal or a page.
            if ![name.symbol, name.baseAsset, name.quoteAsset].allSatisfy(isFeedIdentifier) { names.unsafe.insert(id) }
        }
        return names
    }

    /// What `TickerDecoder` accepts as a symbol or an asset.
    static func isFeedIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.count <= TickerDecoder.maximumIdentifierLength && !SourceText.containsUnsafe(text)
    }

    subscript(id: Int64) -> Name? { unsafe.contains(id) ? nil : byID[id] }

    /// Every name by id, but those left out of reads.
    var table: [Int64: Name] { unsafe.isEmpty ? byID : byID.filter { !unsafe.contains($0.key) } }

    /// Every id with its name, in id order (the order names were first stored), but those left out of reads.
    var all: [(id: Int64, name: Name)] {
        table.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The id of the ticker's name, stored first if new.
    mutating func id(for ticker: Ticker, in db: Database) throws -> Int64 {
        let key = Key(ticker.symbol, ticker.baseAsset, ticker.quoteAsset)
        if ids == nil {
            // Keys are unique in the table (byte for byte, as here), so any order makes the same map.
            var made: [Key: Int64] = [:]
            made.reserveCapacity(byID.count)
            for (id, name) in byID { made[Key(name.symbol, name.baseAsset, name.quoteAsset)] = id }
            ids = made
        }
        if let id = ids?[key] { return id }
        try db.execute(
            sql: "INSERT INTO market_name (symbol, base_asset, quote_asset) VALUES (?, ?, ?)",
            arguments: [ticker.symbol, ticker.baseAsset, ticker.quoteAsset])
        let id = db.lastInsertedRowID
        ids?[key] = id
        byID[id] = Name(symbol: ticker.symbol, baseAsset: ticker.baseAsset, quoteAsset: ticker.quoteAsset)
        return id
    }
}
