import Foundation
import GRDB
import Testing

@testable import CryptoReport

/// A run's day is inserted while its reports are written and committed only once they are on
/// disk (`PendingRecord`): what is stored is what `record` stores, and nothing is stored before
/// the commit, after an abandon, or twice.
@Suite("Recording a day beside the reports")
struct PendingRecordTests {
    static func everything(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try ["SELECT * FROM run", "SELECT * FROM market", "SELECT * FROM market_name", "SELECT * FROM rate ORDER BY date, currency"].flatMap { sql in
                try Row.fetchAll(db, sql: sql).map(\.description)
            }
        }
    }

    /// A store in a folder of its own (kept while the test holds it), with the day two days back.
    static func storeWithEarlierDay() throws -> (TemporaryFolder, String, HistoryStore) {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("a.sqlite").path
        let store = try HistoryStore(path: path)
        try store.record(try HistoryTests.snapshot(daysAgo: 2, factor: 1))
        return (folder, path, store)
    }

    static func runsAndMarkets(_ path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in
            try ["SELECT * FROM run", "SELECT * FROM market"].flatMap { sql in try Row.fetchAll(db, sql: sql).map(\.description) }
        }
    }

    @Test("committed, the day is stored as record stores it, and no other connection sees it before")
    func committed() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("a.sqlite").path
        let reference = folder.url.appendingPathComponent("b.sqlite").path
        let earlier = try HistoryTests.snapshot(daysAgo: 2, factor: Fixtures.decimal("0.9"))
        var day = try HistoryTests.snapshot(daysAgo: 1, factor: Fixtures.decimal("1.1"))
        // A market whose name is stored by this day.
        day.tickers.append(Ticker(symbol: "newcoininr", baseAsset: "newcoin", quoteAsset: "inr", last: 7))
        for file in [path, reference] { try HistoryStore(path: file).record(earlier) }
        try HistoryStore(path: reference).record(day)

        let store = try HistoryStore(path: path)
        let pending = PendingRecord(day, in: store)
        let other = try HistoryStore(path: path)
        #expect(try other.runs(in: Date(timeIntervalSince1970: 0)...Date()).count == 1, "nothing shows before the commit")
        #expect(try pending.commit())
        #expect(try other.runs(in: Date(timeIntervalSince1970: 0)...Date()).count == 2)
        #expect(try Self.everything(path) == Self.everything(reference))
        #expect(try PendingRecord(day, in: store).commit() == false, "a replayed day is stored once")
        #expect(try Self.everything(path) == Self.everything(reference))
    }

    @Test("abandoned, nothing of the day is stored, and the store takes the next one")
    func abandoned() throws {
        let (folder, path, store) = try Self.storeWithEarlierDay()
        defer { withExtendedLifetime(folder) {} }
        let before = try Self.everything(path)
        var day = try HistoryTests.snapshot(daysAgo: 1, factor: 1)
        day.tickers.append(Ticker(symbol: "newcoininr", baseAsset: "newcoin", quoteAsset: "inr", last: 7))
        PendingRecord(day, in: store).abandon()
        #expect(try Self.everything(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
        #expect(try store.record(day))
        #expect(try store.runs(in: Date(timeIntervalSince1970: 0)...Date()).count == 2)
    }

    @Test("allowed to commit beside the reports' renames, which then fail: the day is taken out again, and the store takes it later")
    func committedThenAbandoned() throws {
        let (folder, path, store) = try Self.storeWithEarlierDay()
        defer { withExtendedLifetime(folder) {} }
        let runsAndMarkets = try Self.runsAndMarkets(path)
        let day = try HistoryTests.snapshot(daysAgo: 1, factor: Fixtures.decimal("1.1"))
        let pending = PendingRecord(day, in: store)
        pending.allowCommit()
        // Committed on its own thread meanwhile: another connection sees it once it is.
        let other = try HistoryStore(path: path)
        var seen = 0
        for _ in 0..<500 where seen < 2 {
            seen = try other.runs(in: Date(timeIntervalSince1970: 0)...Date()).count
            if seen < 2 { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(seen == 2, "the day is committed without waiting for commit()")
        pending.abandon()
        // Its run and markets gone, none left without a run; names and rates may stay.
        #expect(try Self.runsAndMarkets(path) == runsAndMarkets)
        let orphans = try DatabaseQueue(path: path).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM market WHERE run_id NOT IN (SELECT id FROM run)")
        }
        #expect(orphans == 0)
        #expect(try store.record(day))
    }

    @Test("a run whose reports cannot be written records nothing")
    func reportsFail() async throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("history.sqlite").path
        try HistoryStore(path: path).record(try HistoryTests.snapshot(daysAgo: 7, factor: Fixtures.decimal("0.5")))
        let before = try Self.everything(path)
        // A folder where a report goes fails the commit before any report is replaced.
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("cryptoreport-2022-11-22-SEK.json"), withIntermediateDirectories: false)
        var request = Settings()
        request.report.currency = "SEK"
        request.output.destination = .directory(folder.url.path)
        request.fetch.tickers = .at(Fixtures.tickersURL.path)
        request.fetch.rates = .at(Fixtures.ratesURL.path, .rates)
        await #expect(throws: OutputError.self) { try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).run(request) }
        #expect(try Self.everything(path) == before)
        // The folder out of the way, the same run records its day.
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("cryptoreport-2022-11-22-SEK.json"))
        let outcome = try await ReportPipeline(clock: FixedClock(Fixtures.reportTime)).run(request)
        #expect(outcome.historyFailure == nil)
        #expect(try HistoryStore(path: path).runs(in: Date(timeIntervalSince1970: 0)...Date()).count == 2)
    }
}
