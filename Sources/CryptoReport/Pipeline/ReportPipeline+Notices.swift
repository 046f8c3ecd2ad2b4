import Foundation

/// The last stage, after the commit and outside the folder's lock: notices of fired alerts.
extension ReportPipeline {
    /// Sends the notices earlier runs could not deliver (marked late) to the targets that missed
    /// them, then one of the alerts that started to fire: with a history, those the report run
    /// before did not fire (every one with `everyRun`); without, every one. A delivery that fails
    /// fails nothing: the notice is kept in the history for the target that missed it, and the
    /// warnings returned say so. Kept notices are bounded: those older than
    /// `NoticePolicy.keptFor` are dropped, and past `NoticePolicy.keptPerTarget` for one target
    /// the oldest; a warning per target says how many.
    public func notify(_ outcome: Outcome, policy: NoticePolicy, historyPath: String?) async -> [String] {
        await notify(outcome, delivery: NoticeDelivery(policy: policy, http: http), historyPath: historyPath)
    }

    package func notify(_ outcome: Outcome, delivery: NoticeDelivery, historyPath: String?) async -> [String] {
        let policy = delivery.policy
        guard policy.isOn else { return [] }
        let store = historyPath.flatMap { path in FileManager.default.fileExists(atPath: path) ? try? HistoryStore(path: path) : nil }
        let now = clock.now()
        var warnings: [String] = []
        if let dropped = try? store?.dropNotices(before: now.addingTimeInterval(-NoticePolicy.keptFor)) {
            warnings += dropped.map { Self.dropWarning($0, "older than \(Int(NoticePolicy.keptFor / 86400)) days") }
        }
        warnings += await sendLate(store, delivery: delivery)
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
        let kept =
            (try? store?.keepNotice(text: notice.text, alerts: notice.alerts, at: now, for: failures.map(\.target.identity))) != nil
        warnings += failures.map {
            "\($0.reason); " + (kept ? "the notice is kept and sent by the next run" : "the notice is lost, as the run keeps no history")
        }
        if let dropped = try? store?.dropNotices(beyond: NoticePolicy.keptPerTarget) {
            warnings += dropped.map { Self.dropWarning($0, "the oldest, as at most \(NoticePolicy.keptPerTarget) are kept per target") }
        }
        return warnings
    }

    /// The kept notices, oldest first, each to the targets of this run that missed it. A target
    /// that fails is not tried again with the others: they wait for the next run.
    private func sendLate(_ store: HistoryStore?, delivery: NoticeDelivery) async -> [String] {
        guard let store, let pending = try? store.pendingNotices(), !pending.isEmpty else { return [] }
        let targets = delivery.policy.targets
        var failed: Set<NoticeTarget> = []
        var warnings: [String] = []
        for notice in pending {
            guard notice.isOwnForm else {
                try? store.forgetNotice(notice.id)
                warnings.append(
                    "a kept notice of \(ReportDates.minute(notice.createdAt)) in the history is not in the tool's own form (control characters, or no list of alerts), so it was dropped unsent"
                )
                continue
            }
            // A target this run does not have (another job's, on the same history) keeps its notices.
            let meant = notice.target.map { identity in targets.filter { $0.identity == identity } } ?? targets
            let tried = meant.filter { !failed.contains($0) }
            guard !tried.isEmpty else { continue }
            let failures = await delivery.deliver(AlertNotice(text: notice.text, alerts: notice.alerts).late(since: notice.createdAt), to: tried)
            failed.formUnion(failures.map(\.target))
            warnings += failures.map { "\($0.reason); the notice of \(ReportDates.minute(notice.createdAt)) is kept for the next run" }
            if notice.target == nil {
                // Kept before notices were kept per target: from now on, kept for each that missed it.
                let missed = meant.filter { failed.contains($0) }
                guard (try? store.keepNotice(text: notice.text, alerts: notice.alerts, at: notice.createdAt, for: missed.map(\.identity))) != nil
                else { continue }
                try? store.forgetNotice(notice.id)
            } else if failures.isEmpty {
                try? store.forgetNotice(notice.id)
            }
        }
        return warnings
    }

    /// `Notice: 3 notices for https://… are dropped unsent, older than 7 days`.
    static func dropWarning(_ dropped: HistoryStore.DroppedNotices, _ reason: String) -> String {
        let target = dropped.target.map { NoticeTarget(identity: $0)?.name ?? $0 } ?? "every target"
        let counted = dropped.count == 1 ? "1 notice" : "\(dropped.count) notices"
        return "Notice: \(counted) for \(target) \(dropped.count == 1 ? "is" : "are") dropped unsent, \(reason)"
    }
}
