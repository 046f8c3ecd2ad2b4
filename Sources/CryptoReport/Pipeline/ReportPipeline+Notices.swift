public import Foundation

/// The last stage, after the commit and outside the folder's lock: notices of fired alerts.
extension ReportPipeline {
    /// Sends the notices earlier runs could not deliver (marked late), then one of the alerts
    /// that started to fire: with a history, those the report run before did not fire (every
    /// one with `everyRun`); without, every one. A delivery that fails fails nothing: the
    /// notice is kept in the history for the next run, and the warnings returned say so.
    public func notify(_ outcome: Outcome, policy: NoticePolicy, historyPath: String?) async -> [String] {
        await notify(outcome, delivery: NoticeDelivery(policy: policy, http: http), historyPath: historyPath)
    }

    package func notify(_ outcome: Outcome, delivery: NoticeDelivery, historyPath: String?) async -> [String] {
        let policy = delivery.policy
        guard policy.isOn else { return [] }
        let store = historyPath.flatMap { path in FileManager.default.fileExists(atPath: path) ? try? HistoryStore(path: path) : nil }
        var warnings: [String] = []
        for pending in (try? store?.pendingNotices()) ?? [] {
            let failures = await delivery.deliver(AlertNotice(text: pending.text, alerts: pending.alerts).late(since: pending.createdAt))
            if failures.isEmpty {
                try? store?.forgetNotice(pending.id)
            } else {
                warnings += failures.map { "\($0); the notice of \(ReportDates.minute(pending.createdAt)) is kept for the next run" }
            }
        }
        let report = outcome.report
        var fired = report.alerts
        let fetchedAt = report.sources.first { $0.source.isMarketData }?.fetchedAt ?? report.generatedAt
        if !policy.everyRun, let store, let sourceTime = report.summary.newestTickerAt,
            let previous = try? store.firedAlerts(before: sourceTime, fetchedBefore: fetchedAt, exchange: report.exchange)
        {
            fired = fired.filter { !previous.contains($0.key) }
        }
        guard !fired.isEmpty else { return warnings }
        // Links only to a page this run wrote.
        let page = outcome.written.contains { $0.pathExtension == "html" }
        let notice = AlertNotice(report: report, alerts: fired, linkBase: page ? policy.linkBase : nil)
        let failures = await delivery.deliver(notice)
        guard !failures.isEmpty else { return warnings }
        let kept = (try? store?.keepNotice(text: notice.text, alerts: notice.alerts, at: clock.now())) != nil
        return warnings
            + failures.map { "\($0); " + (kept ? "the notice is kept and sent by the next run" : "the notice is lost, as the run keeps no history") }
    }
}
