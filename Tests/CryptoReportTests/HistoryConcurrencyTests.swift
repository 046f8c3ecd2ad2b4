import Foundation
import Synchronization
import Testing

@testable import CryptoReport

/// Two runs on one history at once: a SEK and a USD cron job at 07:00, or a run by hand during
/// the cron job's. Both must be stored, neither refused ("database is locked", "table run
/// already exists": exit 74 in a tester's try, 5 runs of 40).
@Suite("Runs sharing a history at the same moment")
struct HistoryConcurrencyTests {
    /// `body(index)` on `count` threads, started together; their errors.
    static func together(_ count: Int, _ body: @escaping @Sendable (Int) throws -> Void) -> [String] {
        let errors = Mutex<[String]>([])
        let start = DispatchGroup(), done = DispatchGroup()
        start.enter()
        for index in 0..<count {
            done.enter()
            Thread {
                start.wait()
                do { try body(index) } catch { errors.withLock { $0.append("\(error)") } }
                done.leave()
            }.start()
        }
        start.leave()
        done.wait()
        return errors.withLock { $0 }
    }

    @Test("first runs at once make the schema once: every store opens")
    func firstRunsAtOnce() throws {
        let folder = try TemporaryFolder()
        for round in 0..<16 {
            let path = folder.url.appendingPathComponent("h\(round).sqlite").path
            let errors = Self.together(4) { _ in _ = try HistoryStore(path: path) }
            #expect(errors.isEmpty, "round \(round): \(errors)")
        }
    }

    /// Each run holds the write lock for its day's transaction; the other waits its turn instead
    /// of being refused.
    @Test("two runs recording at once: both days are stored")
    func recordingAtOnce() throws {
        let folder = try TemporaryFolder()
        let path = folder.url.appendingPathComponent("h.sqlite").path
        try HistoryStore(path: path).record(try HistoryTests.snapshot(daysAgo: 9, factor: 1))
        let snapshots = [try HistoryTests.snapshot(daysAgo: 2, factor: 1), try HistoryTests.snapshot(daysAgo: 1, factor: 1.01)]
        let errors = Self.together(2) { index in
            let store = try HistoryStore(path: path)
            // A read first, as a run's trends are read before its recording begins.
            _ = try store.newestRunTime()
            let stored = try store.record(snapshots[index])
            if !stored { throw HistoryError.failed(path: path, reason: "run \(index) not stored: \(String(describing: stored))") }
        }
        #expect(errors.isEmpty, "\(errors)")
        #expect(try HistoryStore(path: path).runs(in: Date.distantPast...Date.distantFuture).count == 3)
    }
}
