package import Foundation

/// When each source was last asked, shared by every run on this machine through a small file per
/// source in the cache folder. WazirX allows one request per second; within a run the loader keeps
/// its requests apart, and this keeps two runs apart too: one queued on the output lock behind
/// another asks right after it finishes, often within the second.
///
/// Best effort: a file that cannot be read or written costs the pacing, never the run.
package struct RequestLog: Sendable {
    package var directory: URL

    package init(directory: URL) {
        self.directory = directory
    }

    private func url(_ source: DataSource) -> URL {
        directory.appendingPathComponent("\(source.rawValue).last-request")
    }

    /// The wall-clock time of the last request to `source`, by any run.
    package func lastRequest(to source: DataSource) -> Date? {
        guard let text = try? String(contentsOf: url(source), encoding: .utf8),
            let milliseconds = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return nil }
        return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    package func record(_ source: DataSource, at time: Date) {
        // An atomic write goes through a temporary file, which a signal must not strand.
        RunInterruption.shared.uninterrupted {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try? Data(String(Int64((time.timeIntervalSince1970 * 1000).rounded())).utf8).write(to: url(source), options: .atomic)
        }
    }

    /// How long to wait before asking `source` at `now` so that it is asked at most once per
    /// `interval`; a time in the future (clock skew) waits one interval at most.
    package func wait(before source: DataSource, interval: TimeInterval, now: Date) -> TimeInterval {
        guard interval > 0, let last = lastRequest(to: source) else { return 0 }
        return min(interval, max(0, interval - now.timeIntervalSince(last)))
    }
}
