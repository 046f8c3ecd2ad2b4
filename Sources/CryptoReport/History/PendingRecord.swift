import Foundation

/// A run's snapshot being recorded on a thread of its own while the run writes its reports, and
/// committed once their commit is decided (`allowCommit()`, `commit()`) or given up
/// (`abandon()`, which takes back a day committed before the reports' renames failed): the store's contract —
/// a day is stored only with its reports — holds, and its inserts (the run, its rates, its names
/// and its 450 rows: about two thirds of recording a day) are made beside the writing, whose
/// lanes wait on their files' syncs, instead of after it.
package final class PendingRecord: @unchecked Sendable {
    private let condition = NSCondition()
    /// Whether to commit, once said.
    private var decision: Bool?
    private var outcome: Result<Bool?, HistoryError>?
    /// A signal that ends the run before the commit rolls the day back (`RunInterruption`):
    /// otherwise the process would end with the transaction open and its journal left beside
    /// the database.
    private var undoToken: UInt64 = 0

    private let store: HistoryStore
    private let snapshot: Snapshot

    package init(_ snapshot: Snapshot, in store: HistoryStore) {
        self.store = store
        self.snapshot = snapshot
        undoToken = RunInterruption.shared.undoingIfInterrupted { [self] in abandon() }
        Thread { [self] in
            let result: Result<Bool?, HistoryError>
            do throws(HistoryError) {
                result = .success(try store.record(snapshot) { self.awaitDecision() })
            } catch {
                result = .failure(error)
            }
            condition.withLock {
                outcome = result
                condition.broadcast()
            }
        }.start()
    }

    private func awaitDecision() -> Bool {
        condition.withLock {
            while decision == nil { condition.wait() }
            return decision ?? false
        }
    }

    /// Commits the snapshot (the reports are on disk) and waits for it: false when it was stored
    /// already (`HistoryStore.record`). Uninterrupted (`RunInterruption`), the recording thread's
    /// COMMIT included, on the caller's stretch: called inside the stretch that committed the
    /// reports, a signal then ends the run with both stored or neither.
    @discardableResult
    package func commit() throws(HistoryError) -> Bool {
        try RunInterruption.shared.uninterrupted { finish(committing: true) }.get() ?? false
    }

    /// Lets the snapshot commit now, without waiting for it: the reports' commit is decided (its
    /// journal synced) and their renames go on beside the store's own syncs, which after them
    /// were a tenth of a daily run. `commit()` then waits for it; `abandon()`, should the renames
    /// fail, takes the day out again.
    package func allowCommit() {
        condition.withLock {
            if decision == nil { decision = true }
            condition.broadcast()
        }
    }

    /// Gives the snapshot up (the reports could not be written) and waits until nothing is left
    /// of it, so that the run ends with the store as it found it. A day committed already
    /// (`allowCommit`) is deleted again, with its markets; the names and rates it brought stay,
    /// as facts any later day may use.
    package func abandon() {
        guard case .success(true) = finish(committing: false) else { return }
        // The run fails with the reports' error either way; a day that cannot be taken out
        // stays, as a run killed after the commit would leave it.
        try? store.forget(snapshot)
    }

    private func finish(committing: Bool) -> Result<Bool?, HistoryError> {
        RunInterruption.shared.finished(undoToken)
        return condition.withLock {
            if decision == nil { decision = committing }
            condition.broadcast()
            while outcome == nil { condition.wait() }
            return outcome ?? .success(nil)
        }
    }
}
