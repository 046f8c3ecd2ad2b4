import Foundation

/// Where a payload came from this run.
public enum SourceOrigin: Sendable, Equatable {
    /// Fetched over the network just now.
    case network
    /// Read from a local file (`--tickers-url path`).
    case file
    /// The built-in snapshot.
    case sample
    /// A cached copy of an earlier fetch; `liveError` says why the live fetch was not used
    /// (`nil` with `--offline`).
    case cache(liveError: String?)

    public var status: SourceStatus {
        switch self {
        case .network: .live
        case .file: .file
        case .sample: .sample
        case .cache: .cached
        }
    }
}

/// A source's status as reports and the history record it; the raw values are the JSON report's
/// and the history database's words, stable across releases.
public enum SourceStatus: String, Sendable, Equatable, Codable, CaseIterable {
    case live
    case file
    case sample
    case cached
    /// A day filled in by `cryptoreport backfill` (history only).
    case backfill
}
