package import Foundation

/// Ticker times stamped after the feed was read. The report is dated by its newest ticker, so
/// one row a year ahead dated every file a year ahead (or failed the run, the ECB rates then
/// "365 days older than the tickers"), and the folder's `latest` names stayed on that day until
/// the real one caught up. Such a time is left empty, as one that is no time at all.
package enum FutureTickerTimes {
    /// How far the exchange's clock may run ahead of this machine's before a time is judged
    /// impossible rather than early.
    package static let allowance: TimeInterval = 3_600

    /// Empties every time later than `readAt` plus the allowance; one diagnostic a ticker,
    /// grouped with the other times left empty.
    package static func leaveEmpty(_ tickers: inout [Ticker], readAt: Date) -> [Diagnostic] {
        let latest = readAt.addingTimeInterval(allowance)
        // Looked for before anything is written: the usual feed has none, and writing would copy it.
        guard tickers.contains(where: { ($0.updatedAt ?? .distantPast) > latest }) else { return [] }
        var notes: [Diagnostic] = []
        for index in tickers.indices {
            guard let at = tickers[index].updatedAt, at > latest else { continue }
            tickers[index].updatedAt = nil
            notes.append(
                Diagnostic(
                    .tickers,
                    "\(tickers[index].symbol): at \(ReportDates.minute(at)) is after the feed was read (\(ReportDates.minute(readAt))); left empty",
                    group: "at left empty"))
        }
        return notes
    }
}
