import Foundation

/// Where and what to write: the output stage's part of the settings.
public struct OutputSpec: Sendable, Equatable {
    public enum Destination: Sendable, Equatable {
        case directory(String)
        case standardOutput
    }

    public enum History: Sendable, Equatable {
        /// `history.sqlite` in the output folder; none when writing to standard output or from
        /// the built-in sample.
        case automatic
        case path(String)
        case disabled
    }

    public var destination: Destination = .directory("Output")
    /// Distinct, in `ReportFormat` order.
    public var formats: [ReportFormat] = ReportFormat.reports
    public var csvDialect: CSVDialect = .rfc4180
    /// `cryptoreport-latest-<CURRENCY>.<ext>` copies of the newest reports, and their removal
    /// when the newest run has no alerts file; off with `--no-latest`.
    public var latest = true
    /// `nil`: the built-in templates.
    public var templates: String?
    public var history: History = .automatic
    /// How long to wait for another run writing into the same folder.
    public var lockTimeout: Duration = .seconds(60)

    public init() {}

    /// The history database a report uses, if any. A run of the built-in sample records nothing
    /// unless a database is named: its 2022 figures would sit among the real days.
    public func historyPath(sample: Bool) -> String? {
        switch history {
        case .disabled: nil
        case let .path(path): path
        case .automatic:
            if case let .directory(folder) = destination, !sample {
                URL(fileURLWithPath: folder).appendingPathComponent("history.sqlite").path
            } else {
                nil
            }
        }
    }

    /// Where `history` and `backfill` find the reports' database: as above, else
    /// `Output/history.sqlite`. `nil` when history is switched off.
    public var sharedHistoryPath: String? {
        switch history {
        case .disabled: nil
        case let .path(path): path
        case .automatic:
            if case let .directory(folder) = destination {
                URL(fileURLWithPath: folder).appendingPathComponent("history.sqlite").path
            } else {
                "Output/history.sqlite"
            }
        }
    }
}
