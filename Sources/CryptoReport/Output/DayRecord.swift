import Foundation

/// The day a commit records in the history together with its reports
/// (`ReportWriter.write(files:removing:recording:)`): stored once the commit is decided (its
/// journal synced), before the first rename, so that a crash anywhere leaves both or neither.
package struct DayRecord: Sendable {
    /// The database, as the journal names it for recovery.
    package var history: String
    /// The run's key in the database (`run.source_time`, milliseconds).
    package var sourceTime: Int64
    /// Stores the day; true when it was not stored before. Untyped: a typed-throwing closure
    /// type crashes Swift 6.3's SIL generation.
    package var record: @Sendable () throws -> Bool
    /// Takes the day out again: its reports could not be put in place.
    package var forget: @Sendable () -> Void

    package init(
        history: String, sourceTime: Int64, record: @escaping @Sendable () throws -> Bool, forget: @escaping @Sendable () -> Void
    ) {
        self.history = history
        self.sourceTime = sourceTime
        self.record = record
        self.forget = forget
    }

    package init(_ snapshot: Snapshot, in store: HistoryStore) {
        self.init(
            history: store.path, sourceTime: HistoryStore.milliseconds(snapshot.sourceTime),
            record: { try store.record(snapshot) },
            // A day that cannot be taken out stays, as a run killed after its commit would leave it.
            forget: { try? store.forget(snapshot) })
    }
}
