import CBuildInfo

/// What `--version` prints.
enum BuildInfo {
    static let number = "0.8.0"

    /// `0.8.0`, or `0.8.0 (commit 3db4d1e)` for a binary built by `make build`.
    static var version: String {
        let commit = String(cString: cryptoreport_commit())
        return commit.isEmpty ? number : "\(number) (commit \(commit))"
    }
}
