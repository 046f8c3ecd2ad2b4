package import Foundation

/// Ticker times stamped after the feed was read. The report is dated by its newest ticker, so
/// one row a year ahead dated every file a year ahead (or failed the run, the ECB rates then
/// "365 days older than the tickers"), and the folder's `latest` names stayed on that day until
/// the real one caught up. Such a time is left empty, as one that is no time at all.
///
/// Only a time ahead of both this machine's clock and the feed's own middle time: WazirX stamps
/// its rows alike, so a machine whose clock runs behind (a hardware clock in local time before
/// NTP has set it) sees every row "ahead" of it, and must not lose every time for that.
package enum FutureTickerTimes {
    /// How far a time may run ahead before it is judged impossible rather than early.
    package static let allowance: TimeInterval = 3_600

    /// Empties every time later than `readAt`, and than the middle time of the tickers, plus the
    /// allowance; one diagnostic a ticker, grouped with the other times left empty.
    package static func leaveEmpty(_ tickers: inout [Ticker], readAt: Date) -> [Diagnostic] {
        let afterRead = readAt.addingTimeInterval(allowance)
        // Looked for before anything else: the usual feed has none, and writing would copy it.
        guard tickers.contains(where: { ($0.updatedAt ?? .distantPast) > afterRead }) else { return [] }
        let times = tickers.compactMap(\.updatedAt).sorted()
        let latest = max(afterRead, times[times.count / 2].addingTimeInterval(allowance))
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

    /// The decoded tickers with such times left empty and said among their diagnostics: what the
    /// report is built from and the history records alike.
    package static func judged(_ decoded: TickerDecoder.Result, readAt: Date) -> TickerDecoder.Result {
        var judged = decoded
        let notes = leaveEmpty(&judged.tickers, readAt: readAt)
        if !notes.isEmpty { judged.diagnostics += notes }
        return judged
    }
}
