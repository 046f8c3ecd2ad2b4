import Foundation
import GRDB
import Testing

@testable import CryptoReport

/// Schema v6's packed last prices are no longer written or read: the trends read the rows. A
/// file that an earlier version packed is read by its rows all the same.
@Suite("Packed last prices (schema v6) are left alone")
struct PackedLastsTests {
    /// Every run's last prices as `forEachLastPrices` hands them, and the count of rows left out.
    static func read(_ store: HistoryStore, _ runs: [RunSummary]) throws -> ([Int64: [String]], unreadable: Int) {
        var result: [Int64: [String]] = [:]
        let unreadable = try store.forEachLastPrices(of: runs) { _, id, prices, _ in
            #expect(result[id] == nil, "each run handed once")
            result[id] = prices.map { "\($0.nameID):\($0.last)" }
        }
        return (result, unreadable)
    }

    @Test("no pack is written, and a pack an earlier version left (here a damaged one) is never read: the rows are, edits and damage included")
    func rowsAreRead() throws {
        let store = try HistoryStore()
        for days in [4, 3, 2, 1] { try store.record(try HistoryTests.snapshot(daysAgo: days, factor: 1)) }
        #expect(try store.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM run_lasts") } == 0)
        let runs = try store.runs(in: Date(timeIntervalSince1970: 0)...Date())
        let (before, _) = try Self.read(store, runs)
        try store.write { db in
            // What an earlier version might have left, and no reader of today's may take.
            try db.execute(sql: "INSERT INTO run_lasts (run_id, lasts) VALUES (?, x'01020304')", arguments: [runs[2].id])
            try db.execute(sql: "UPDATE market SET last = 'abc' WHERE run_id = ? AND name_id = 1", arguments: [runs[0].id])
            try db.execute(sql: "DELETE FROM market WHERE run_id = ? AND name_id = 2", arguments: [runs[1].id])
        }
        let (after, unreadable) = try Self.read(store, runs)
        #expect(unreadable == 1, "the damaged row is counted")
        #expect(after[runs[2].id] == before[runs[2].id], "the run with a pack is read by its rows")
        #expect(after[runs[1].id]?.count == (before[runs[1].id]?.count ?? 0) - 1, "the deleted market is gone")
        #expect(after[runs[0].id]?.count == (before[runs[0].id]?.count ?? 0) - 1, "the damaged market is left out")
    }
}
