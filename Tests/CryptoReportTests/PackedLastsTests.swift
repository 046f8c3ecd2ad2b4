import Foundation
import GRDB
import Testing

@testable import CryptoReport

@Suite("Packed last prices (schema v6)")
struct PackedLastsTests {
    typealias Read = [Int64: (prices: [String], rates: ExchangeRates?)]

    /// Every run's last prices as `forEachLastPrices` hands them, each written out field by field
    /// (a `FastDecimal`'s compact flag included), and the count of rows left out.
    static func read(_ store: HistoryStore, _ runs: [RunSummary]) throws -> (Read, unreadable: Int) {
        var result: Read = [:]
        let unreadable = try store.forEachLastPrices(of: runs) { _, id, prices, rates in
            #expect(result[id] == nil, "each run handed once")
            result[id] = (prices.map { "\($0.nameID):\($0.last)" }, rates)
        }
        return (result, unreadable)
    }

    static func packedRuns(_ store: HistoryStore) throws -> [Int64] {
        try store.read { try Int64.fetchAll($0, sql: "SELECT run_id FROM run_lasts ORDER BY run_id") }
    }

    static func allRuns(_ store: HistoryStore) throws -> [RunSummary] {
        try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
    }

    static func same(_ a: Read, _ b: Read) -> Bool {
        a.count == b.count && a.allSatisfy { id, value in b[id].map { $0.prices == value.prices && $0.rates == value.rates } ?? false }
    }

    @Test("a run's pack gives exactly the prices its rows give, and the trends' month is read from packs")
    func packsAreTheRows() throws {
        let store = try HistoryStore()
        // Products of 28 digits (the long form) beside the capture's own prices (the integer form).
        // And the odd tickers of the schema's tests: every stored form of a last price.
        for (days, factor) in [(9, "1"), (5, "0.3333333333333333333333333333"), (2, "1.07"), (1, "1")] {
            try store.record(try HistorySchemaTests.realSnapshot(daysAgo: days, factor: Fixtures.decimal(factor)))
        }
        let runs = try Self.allRuns(store)
        #expect(try Self.packedRuns(store) == runs.map(\.id).sorted())
        let (packed, packedLeft) = try Self.read(store, runs)
        #expect(packed.count == 4 && packed.values.allSatisfy { $0.prices.count > 400 })
        try store.write { try $0.execute(sql: "DELETE FROM run_lasts") }
        let (rows, rowsLeft) = try Self.read(store, runs)
        #expect(Self.same(packed, rows))
        #expect(packedLeft == 0 && rowsLeft == 0)
    }

    @Test("a hand edit of a run's rows drops its pack: the edit is what is read, a damaged row counted")
    func editsDropPacks() throws {
        let store = try HistoryStore()
        for days in [4, 3, 2, 1] { try store.record(try HistoryTests.snapshot(daysAgo: days, factor: 1)) }
        let runs = try Self.allRuns(store)
        try store.write { db in
            try db.execute(sql: "UPDATE market SET last = 'abc' WHERE run_id = ? AND name_id = 1", arguments: [runs[0].id])
            try db.execute(sql: "DELETE FROM market WHERE run_id = ? AND name_id = 2", arguments: [runs[1].id])
        }
        #expect(try Self.packedRuns(store) == [runs[2].id, runs[3].id])
        let (read, unreadable) = try Self.read(store, runs)
        #expect(unreadable == 1)
        #expect(read[runs[0].id]?.prices.contains { $0.hasPrefix("1:") } == false)
        #expect(read[runs[1].id]?.prices.contains { $0.hasPrefix("2:") } == false)
        #expect(read[runs[2].id]?.prices.contains { $0.hasPrefix("1:") } == true)
        // A market added by hand to a packed run drops its pack too; a deleted run takes its pack.
        try store.write { db in
            try db.execute(sql: "INSERT INTO market_name (symbol, base_asset, quote_asset) VALUES ('newinr', 'new', 'inr')")
            try db.execute(sql: "INSERT INTO market (run_id, name_id, last) VALUES (?, ?, 1)", arguments: [runs[2].id, db.lastInsertedRowID])
        }
        #expect(try Self.packedRuns(store) == [runs[3].id])
        #expect(try Self.read(store, runs).0[runs[2].id]?.prices.count == read[runs[2].id].map { $0.prices.count + 1 })
        try store.forget(try HistoryTests.snapshot(daysAgo: 1, factor: 1))
        #expect(try Self.packedRuns(store).isEmpty)
    }

    @Test("a damaged pack is read from its run's rows")
    func damagedPack() throws {
        let store = try HistoryStore()
        try store.record(try HistoryTests.snapshot(daysAgo: 1, factor: Fixtures.decimal("0.3333333333333333333333333333")))
        let runs = try Self.allRuns(store)
        let (good, _) = try Self.read(store, runs)
        let pack = try store.read { try Data.fetchOne($0, sql: "SELECT lasts FROM run_lasts") } ?? Data()
        var damaged: [Data] = [Data(), Data([1, 0x80]), pack.dropLast(), pack + [0], Data([1, 0, 0xFF, 0xFF, 0xFF, 0x7F])]
        // Another version's; a name listed twice (a step of zero).
        damaged.append(Data([2]) + pack.dropFirst())
        damaged.append(Data([1, 0, 2, 1, 10, 0xFE, 1, 0, 0, 0, 0, 10, 0xFE, 2, 0, 0, 0]))
        // Cut at the end of a price: a shorter pack that says how many it holds.
        var prices: [HistoryStore.LastPrice] = []
        let whole = pack.withUnsafeBytes { PackedLasts.unpack($0, into: &prices) }
        #expect(whole == 0 && prices.count > 400)
        let shorter = PackedLasts.pack(Array(prices.prefix(10)), unreadable: 0)
        damaged.append(pack.prefix(shorter.count))
        for bytes in damaged {
            try store.write { try $0.execute(sql: "UPDATE run_lasts SET lasts = ?", arguments: [bytes]) }
            var into: [HistoryStore.LastPrice] = [(7, FastDecimal(Decimal(1)))]
            #expect(bytes.withUnsafeBytes { PackedLasts.unpack($0, into: &into) } == nil, "\(Array(bytes.prefix(8)))")
            #expect(into.count == 1, "a refused pack leaves the buffer as it was")
            let (read, unreadable) = try Self.read(store, runs)
            #expect(Self.same(read, good) && unreadable == 0)
        }
        // A whole pack is what is read, not the rows: one of ten prices saying five rows left out.
        try store.write { try $0.execute(sql: "UPDATE run_lasts SET lasts = ?", arguments: [Data(PackedLasts.pack(Array(prices.prefix(10)), unreadable: 5))]) }
        let (read, unreadable) = try Self.read(store, runs)
        #expect(read[runs[0].id]?.prices == Array(good[runs[0].id]?.prices.prefix(10) ?? []))
        #expect(unreadable == 5)
    }

    @Test("a backfilled day of the month is packed with the rows it merged")
    func backfilledDay() throws {
        let store = try HistoryStore()
        try store.record(try HistoryTests.snapshot(daysAgo: 1, factor: 1))
        for symbols in [["btcusdt"], ["ethusdt", "usdtinr"]] {
            var day = try HistoryTests.snapshot(daysAgo: 3, factor: Fixtures.decimal("0.9"), kind: .backfill)
            day.tickers = day.tickers.filter { symbols.contains($0.symbol) }
            try store.recordBackfill(symbol: symbols[0], days: 3, snapshots: [day], at: HistoryTests.captured)
        }
        let runs = try Self.allRuns(store)
        #expect(try Self.packedRuns(store) == runs.map(\.id).sorted())
        let (packed, _) = try Self.read(store, runs)
        #expect(packed[runs[0].id]?.prices.count == 3)
        try store.write { try $0.execute(sql: "DELETE FROM run_lasts") }
        #expect(Self.same(packed, try Self.read(store, runs).0))
    }

    @Test("packs round-trip every kind of price, and say the rows left out")
    func roundTrip() {
        let values: [HistoryStore.LastPrice] = [
            (1, FastDecimal(high: 0, low: 0, exponent: 0, isNegative: false, isCompact: false)),
            (2, FastDecimal(high: 0, low: 1, exponent: -128, isNegative: true, isCompact: true)),
            (300, FastDecimal(high: UInt64.max, low: UInt64.max, exponent: 127, isNegative: false, isCompact: true)),
            (1 << 40, FastDecimal(Decimal(string: "171447.35") ?? 0)),
            // Either side of a low word's four bytes.
            ((1 << 40) + 1, FastDecimal(high: 0, low: UInt64(UInt32.max), exponent: -2, isNegative: false, isCompact: true)),
            ((1 << 40) + 200, FastDecimal(high: 0, low: UInt64(UInt32.max) + 1, exponent: 3, isNegative: true, isCompact: true)),
            ((1 << 40) + 201, FastDecimal(high: 1, low: 5, exponent: 0, isNegative: false, isCompact: false)),
        ]
        let pack = PackedLasts.pack(values, unreadable: 3)
        var read: [HistoryStore.LastPrice] = []
        #expect(pack.withUnsafeBytes { PackedLasts.unpack($0, into: &read) } == 3)
        #expect(read.map(\.nameID) == values.map(\.nameID))
        #expect(read.map(\.last) == values.map(\.last))
    }

    @Test("only the newest five weeks of runs keep packs, whatever order days are recorded in")
    func keptForTheMonth() throws {
        let store = try HistoryStore()
        for days in [60, 40, 37, 34, 10, 1] { try store.record(try HistoryTests.snapshot(daysAgo: days, factor: 1)) }
        // A day older than the window, recorded last (as a backfill does): no pack.
        try store.record(try HistoryTests.snapshot(daysAgo: 50, factor: 1, kind: .backfill))
        let runs = try Self.allRuns(store)
        let newest = runs.map(\.sourceTime).max() ?? Date()
        let young = runs.filter { $0.sourceTime >= newest.addingTimeInterval(-PackedLasts.keptFor) }.map(\.id).sorted()
        #expect(young.count == 3)
        #expect(try Self.packedRuns(store) == young)
    }

    /// A v5 file of three runs at `path` (recorded, then taken back to v5), and its last prices
    /// as the rows give them.
    static func v5File(at path: String) throws -> Read {
        let store = try HistoryStore(path: path)
        for days in [40, 2, 1] { try store.record(try HistoryTests.snapshot(daysAgo: days, factor: Fixtures.decimal("1.0\(days)"))) }
        try store.write { try $0.execute(sql: "DELETE FROM run_lasts") }
        let rows = try Self.read(store, try Self.allRuns(store)).0
        try store.write { db in
            try db.execute(
                sql: """
                    DROP TRIGGER market_insert_drops_lasts; DROP TRIGGER market_update_drops_lasts;
                    DROP TRIGGER market_delete_drops_lasts; DROP TABLE run_lasts;
                    DELETE FROM grdb_migrations WHERE identifier = 'v6'
                    """)
        }
        return rows
    }

    @Test("v6: a v5 file gains packs of its newest runs, read as its rows are")
    func migration() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("history.sqlite").path
        let before = try Self.v5File(at: path)
        let store = try HistoryStore(path: path)
        let runs = try Self.allRuns(store)
        #expect(runs.count == 3 && store.packsLasts)
        #expect(try Self.packedRuns(store) == runs.filter { $0.sourceTime > HistoryTests.captured.addingTimeInterval(-10 * HistoryTests.day) }.map(\.id))
        #expect(Self.same(try Self.read(store, runs).0, before))
    }

    /// Marks the file immutable (`chattr +i`), which even root may not write: SQLite then opens it
    /// read-only. False where the file system or the user cannot.
    static func setImmutable(_ path: String, _ on: Bool) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [on ? "+i" : "-i", path]
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    /// Whether `chattr +i` works on a file of the temporary folder (root on a file system that has it).
    static let canSetImmutable: Bool = {
        guard let folder = try? TemporaryFolder() else { return false }
        let path = folder.url.appendingPathComponent("probe").path
        guard FileManager.default.createFile(atPath: path, contents: Data()), setImmutable(path, true) else { return false }
        return setImmutable(path, false)
    }()

    @Test(
        "a v5 file this user may only read is read by its rows, with no packs to read",
        .enabled(if: Self.canSetImmutable, "chattr +i is refused here (not root, or the file system lacks it): skipped"))
    func readOnlyV5() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("history.sqlite").path
        let before = try Self.v5File(at: path)
        try #require(Self.setImmutable(path, true))
        defer {
            _ = Self.setImmutable(path, false)
            // The folder is removed only once the file may be.
            withExtendedLifetime(folder) {}
        }
        let store = try HistoryStore(path: path)
        #expect(!store.packsLasts)
        let runs = try Self.allRuns(store)
        #expect(Self.same(try Self.read(store, runs).0, before))
        #expect(try store.read { try HistoryStore.migrator.appliedIdentifiers($0) }.contains("v6") == false)
    }
}
