import Foundation

/// The one wording of every notice: the reports (HTML, Markdown, JSON) and the log lines.
package enum NoticeText {
    /// In UTC: the log and JSON.
    package static func text(_ notice: Notice) -> String {
        text(notice, time: ReportDates.minute)
    }

    /// - Parameter time: how a time is written: the reader's zone in the HTML and Markdown reports.
    package static func text(_ notice: Notice, time: (Date) -> String) -> String {
        switch notice {
        case let .cachedSource(source, fetchedAt, liveError):
            let name = source == .tickers ? "Tickers" : "ECB rates"
            let why = liveError.map { " — live fetch failed: \($0)" } ?? " — offline run"
            return "\(name) from cache, fetched \(time(fetchedAt))\(why)"
        case let .ratesAhead(ratesDate, inEffect):
            return "ECB rates are of \(ratesDate), published after these tickers (the rates in effect were those of \(inEffect)); prices are converted at later rates."
        case let .ratesBehind(ratesDate, expected):
            return "ECB rates are of \(ratesDate); the rates of \(expected) should have been published by the time of these tickers."
        case .exchangeHalted(.allStale):
            return "WazirX appears halted: every market's last update is over an hour older than the fetch."
        case .exchangeHalted(.noVolume):
            return "WazirX appears halted: no market traded anything in 24 h."
        case let .staleMarkets(count):
            return "\(count) markets have not updated for over an hour; they are marked stale."
        }
    }

    /// A log line: `--compare` names a market the table does not show.
    package static func notCompared(_ names: [String]) -> String {
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        return "--compare: no market in the table for \(list); the comparison chart leaves \(names.count == 1 ? "it" : "them") out."
    }
}
