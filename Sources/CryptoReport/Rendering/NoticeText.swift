package import Foundation

/// The one wording of every notice: the reports (HTML, Markdown, JSON) and the log lines.
package enum NoticeText {
    /// In UTC: the log and JSON.
    package static func text(_ notice: Notice) -> String {
        text(notice, time: ReportDates.minute)
    }

    /// - Parameters:
    ///   - time: how a time is written: the reader's zone in the HTML and Markdown reports.
    ///   - strings: the language: the HTML page's; English for Markdown, JSON and the log. A live
    ///     fetch's error stays as the fetch worded it.
    package static func text(_ notice: Notice, time: (Date) -> String, strings: PageStrings = .english) -> String {
        switch notice {
        case let .cachedSource(source, fetchedAt, liveError):
            let name = strings[source.isMarketData ? .noticeTickers : .noticeRates]
            let why = liveError.map { strings.format(.noticeLiveFailed, $0) } ?? strings[.noticeOffline]
            return strings.format(.noticeCached, name, time(fetchedAt), why)
        case let .ratesAhead(ratesDate, inEffect):
            return strings.format(.noticeRatesAhead, ratesDate, inEffect)
        case let .ratesBehind(ratesDate, expected):
            return strings.format(.noticeRatesBehind, ratesDate, expected)
        case .exchangeHalted(.allStale):
            return strings[.noticeHaltedStale]
        case .exchangeHalted(.noVolume):
            return strings[.noticeHaltedVolume]
        case let .staleMarkets(count):
            return strings.format(.noticeStale, String(count))
        case let .sourceFallback(failed, used, reason):
            return strings.format(.noticeFallback, used.displayName, failed.displayName, reason)
        }
    }

    /// A log line: the comparison `--compare` asked for is not drawn, and why.
    static func comparisonNotDrawn(_ gap: ComparisonChart.Gap) -> String {
        switch gap {
        case .tooFewMarkets:
            "--compare: no comparison chart is drawn, as fewer than two of the chosen markets are in the table."
        case .noHistory:
            "--compare: no comparison chart is drawn, as it needs prices of two days or more from the history and this run has none (--no-history, --output -, or --sample without --history)."
        case .tooFewDays:
            "--compare: no comparison chart is drawn yet, as the history holds prices of fewer than two days for the chosen markets; each day's run adds one."
        }
    }

    /// A log line: `--compare` names a market the table does not show.
    package static func notCompared(_ names: [String]) -> String {
        let list = names.map { "\"\($0)\"" }.joined(separator: ", ")
        return "--compare: no market in the table for \(list); the comparison chart leaves \(names.count == 1 ? "it" : "them") out."
    }

    /// A log line: files in the output folder named like reports of days still to come.
    package static func futureReports(_ names: [String], folder: String) -> String {
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
        return
            "Output: \(shown) in \(folder) \(names.count == 1 ? "is" : "are") dated after today, so no run of this tool wrote \(names.count == 1 ? "it" : "them"); the latest copies and the index leave \(names.count == 1 ? "it" : "them") out."
    }

    /// Files named like reports, dated after the run's data, that the folder's record of what
    /// this tool wrote does not hold.
    package static func unrecordedReports(_ names: [String], folder: String, record: String, day: String) -> String {
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? " and \(names.count - 3) more" : "")
        let one = names.count == 1
        return
            "Output: \(shown) in \(folder) \(one ? "is" : "are") dated after this run's data (\(day)) but not among the reports this tool recorded writing there (\(record)); the latest copies and the index leave \(one ? "it" : "them") out."
    }

    /// A second report of the same day and currency into one folder replaces the first (its
    /// name says only the day and the currency, not the filters).
    package static func replaced(_ names: [String], folder: String) -> String {
        let shown = names.prefix(2).joined(separator: ", ") + (names.count > 2 ? " and \(names.count - 2) more" : "")
        return
            "Output: replaced \(shown) in \(folder), which an earlier run wrote for the same day and currency; give a run with other filters its own --output to keep both."
    }
}
