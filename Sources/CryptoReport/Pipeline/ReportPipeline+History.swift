import Foundation
import Logging

/// The history a run reads its trends from and records its day into.
extension ReportPipeline {
    /// The history as the run opened it, with the runs its trends will read priced ahead.
    struct OpenedHistory: Sendable {
        var store: HistoryStore?
        /// Why the store could not be opened: the run goes on without trends, and ends saying
        /// that it could not be recorded.
        var failure: HistoryError?
        var ahead: [StoredPrices] = []
    }

    /// Opens the history (made if not there yet: called once the sources are read, so that a
    /// failed first run leaves no empty database behind) and prices the month a report's
    /// trends read (`TrendCalculator.readAhead`).
    func openHistory(_ path: String?, currencies: [String], stablecoins: [String] = CurrencyConverter.defaultStablecoins) -> OpenedHistory {
        guard let path else { return OpenedHistory() }
        let store: HistoryStore
        do throws(HistoryError) {
            store = try HistoryStore(path: path)
        } catch {
            return OpenedHistory(failure: error.asNotRecorded)
        }
        // Unreadable now, it is said once, by the trends that read it again.
        let ahead = (try? TrendCalculator.readAhead(store, currencies: currencies, stablecoins: stablecoins)) ?? []
        return OpenedHistory(store: store, ahead: ahead)
    }

    /// `saysDamage`: whether stored rows left out for damage are said (once a run, by the first
    /// currency's report).
    func withTrends(_ report: Report, from calculator: TrendCalculator, saysDamage: Bool = true) -> Report {
        var report = report
        let now = report.summary.newestTickerAt ?? report.generatedAt
        if let holdings = report.holdings {
            do {
                report.holdings?.past = try calculator.store.holdingsPast(
                    currency: report.currency, total: holdings.total, at: now, exchange: calculator.exchange)
            } catch {
                logger.warning("\(error.errorDescription ?? "history unreadable") The holdings have no changes over time.")
            }
        }
        do {
            // By position: each row's trend is the one its symbol's key gave it.
            let (trends, unreadable) = try calculator.rowTrendsAndDamage(
                for: report.rows, currency: report.currency, at: now)
            for index in report.rows.indices {
                report.rows[index].trend = trends[index]
            }
            report.hasHistory = true
            if saysDamage && unreadable > 0 {
                let damage = HistoryError.unreadableRows(path: calculator.store.path, symbol: nil, rows: unreadable)
                logger.warning("\(damage.errorDescription ?? "") The trends leave them out.")
            }
        } catch {
            logger.warning("\(error.errorDescription ?? "history unreadable") The report has no trends.")
        }
        return report
    }

    func record(_ snapshot: Snapshot, in history: HistoryStore?, failure: inout HistoryError?) {
        guard let history else { return }
        do {
            // One transaction, committed or not begun when a signal ends the run.
            try RunInterruption.shared.uninterrupted { () throws(HistoryError) in _ = try history.record(snapshot) }
        } catch {
            failure = failure ?? error.asNotRecorded
        }
    }
}
