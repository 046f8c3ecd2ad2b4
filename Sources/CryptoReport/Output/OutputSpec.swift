import Foundation

/// Where and what to write: the output stage's part of the settings.
public struct OutputSpec: Sendable, Equatable {
    public enum Destination: Sendable, Equatable {
        case directory(String)
        case standardOutput
    }

    public var destination: Destination = .directory("Output")
    /// Distinct, in `ReportFormat` order.
    public var formats: [ReportFormat] = ReportFormat.reports
    public var csvDialect: CSVDialect = .rfc4180
    /// `cryptoreport-latest-<CURRENCY>.<ext>` copies of the newest reports, and their removal
    /// when the newest run has no alerts file; off with `--no-latest`.
    public var latest = true
    /// `nil`: the built-in templates.
    public var templates: String? = nil
    /// `nil`: `history.sqlite` in the output folder, or none for standard output or the built-in
    /// sample. A layer naming a database undoes a `no_history` below it.
    public var database: String? = nil
    public var noHistory = false
    /// Longer than the fetch's deadline (120 s): the lock is held from before the fetch, and a
    /// second cron job into the folder (the USD one beside the SEK one) gave up at 60 s while
    /// the first still waited on a slow feed within its rights.
    public var lockTimeout: Duration = .seconds(180)

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
