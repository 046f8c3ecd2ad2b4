import Foundation

/// Where and what to write: the output stage's part of the settings.
public struct OutputSpec: Sendable, Equatable {
    public enum Destination: Sendable, Equatable {
        case directory(String)
        case standardOutput
    }

    @Setting("output", Rules.destination) public var destination: Destination = .directory("Output")
    /// Distinct, in `ReportFormat` order, however often a flag repeats them.
    @Setting("formats", Rules.formats, merge: { $0 = Array(Set($1)).sorted() }) public var formats: [ReportFormat] = ReportFormat.reports
    @Setting("csv_dialect", .choice) public var csvDialect: CSVDialect = .rfc4180
    /// `cryptoreport-latest-<CURRENCY>.<ext>` copies of the newest reports, and their removal
    /// when the newest run has no alerts file; off with `--no-latest`.
    @Setting("no_latest", Rules.boolean, merge: { $0 = !$1 }) public var latest = true
    /// `nil`: the built-in templates.
    @Setting("templates", Rules.path) public var templates: String? = nil
    /// `nil`: `history.sqlite` in the output folder, or none for standard output or the built-in
    /// sample. A layer naming a database undoes a `no_history` below it.
    @Setting("history", Rules.databaseFile) public var database: String? = nil
    @Setting("no_history", Rules.boolean, yieldsTo: "history") public var noHistory = false
    /// Longer than the fetch's deadline (120 s): the lock is held from before the fetch, and a
    /// second cron job into the folder (the USD one beside the SEK one) gave up at 60 s while
    /// the first still waited on a slow feed within its rights.
    @Setting("lock_timeout", Rules.seconds(allowingZero: true)) public var lockTimeout: Duration = .seconds(180)

    public init() {}

    /// The history database a report uses, if any. A run of the built-in sample records nothing
    /// unless a database is named: its 2022 figures would sit among the real days.
    public func historyPath(sample: Bool) -> String? {
        database == nil && (sample || destination == .standardOutput) ? nil : sharedHistoryPath
    }

    /// Where `history` and `backfill` find the reports' database: as above, else
    /// `Output/history.sqlite`. `nil` when history is switched off.
    public var sharedHistoryPath: String? {
        guard !noHistory else { return nil }
        guard case let .directory(folder) = destination else { return database ?? "Output/history.sqlite" }
        return database ?? URL(fileURLWithPath: folder).appendingPathComponent("history.sqlite").path
    }
}
