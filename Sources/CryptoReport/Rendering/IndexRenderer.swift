import Foundation

/// `index.html` of an output folder: the reports it holds by date (newest first) and currency,
/// with a link to each file, the stable `latest` names, and the summary and alerts of the run
/// that wrote it. Self-contained with the report's own stylesheet, so it looks like the reports.
package struct IndexRenderer: Sendable {
    struct Link { var label, href: String }

    struct Entry {
        var date, currency: String
        var files: [Link]
        var hasAlerts: Bool
        var alertsHref: String
    }

    struct Latest {
        var currency: String
        var files: [Link]
    }

    struct ViewModel {
        var title, generatedAt, reportCount, locale: String
        /// The report's stylesheet (`Templates/report.css`), so that the index keeps its look as it changes.
        var pageStyle: String
        /// The page's texts and language, as the report's (`PageStrings`).
        var t: PageStrings
        var lang: String
        /// Sentences with figures, worded in the page's language.
        var generatedLine, latestAlertsLine, breadthLine, topGainersLine, topLosersLine, footer: String
        var summary: Summary
        var reports: [Entry]
        var hasReports: Bool
        var latest: [Latest]
        var hasLatest: Bool
    }

    package init() {}

    /// - Parameters:
    ///   - reports: every dated report file in the folder once this run's are in place.
    ///   - latest: the `latest` names in the folder once this run's are in place.
    ///   - report: this run's report, for the summary and alerts.
    ///   - pages: the currencies each two-currency HTML page holds (`cryptoreport-2022-11-22-SEK.html`
    ///     → SEK, USD), dated or latest: its second currency has no HTML file of its own, and is
    ///     linked to the page, opening in that currency (`#cur=USD`).
    ///   - alertsPage: the HTML page this run wrote in the report's currency, which the alerts
    ///     link into; `nil` when it wrote none (an earlier run's page of the day may lack the markets).
    package func render(
        reports: [ReportFileName], latest: [String], report: Report, pages: [String: [String]] = [:], alertsPage: String? = nil
    ) -> String {
        Self.template?.render(model(reports: reports, latest: latest, report: report, pages: pages, alertsPage: alertsPage)) ?? ""
    }

    /// `Templates/index.html.mustache`, compiled once.
    private static let template = TemplateRenderer.builtIn("index.html")

    /// What `Templates/index.html.mustache` shows.
    func model(
        reports: [ReportFileName], latest: [String], report: Report, pages: [String: [String]] = [:], alertsPage: String? = nil
    ) -> ViewModel {
        let t = PageStrings(localeIdentifier: report.localeIdentifier)
        let summary = Summary(report, strings: t, page: alertsPage)
        struct Day: Hashable { var date, currency: String }
        var groups: [Day: [ReportFileName]] = [:]
        for file in reports { groups[Day(date: file.date, currency: file.currency), default: []].append(file) }
        // A page's second currency has a row even when the run wrote nothing else for it.
        for (name, currencies) in pages {
            guard let page = ReportFileName(parsing: name) else { continue }
            for currency in currencies.dropFirst() { groups[Day(date: page.date, currency: currency), default: []] += [] }
        }
        let entries = groups.map { day, files -> Entry in
            let formats = files.compactMap { file -> ReportFormat? in
                if case let .report(format) = file.kind { return format }
                return nil
            }
            let alerts = files.first { $0.kind == .alerts }
            var links = formats.map { ($0, Link(label: Self.label($0), href: ReportFileName(date: day.date, currency: day.currency, kind: .report($0)).name)) }
            if !formats.contains(.html), let page = Self.page(holding: day.currency, among: pages, where: { ReportFileName(parsing: $0)?.date == day.date }) {
                links.append((.html, Link(label: Self.label(.html), href: page)))
            }
            return Entry(
                date: day.date, currency: day.currency, files: links.sorted { $0.0 < $1.0 }.map(\.1),
                hasAlerts: alerts != nil, alertsHref: alerts?.name ?? "")
        }
        .sorted { ($0.date, $1.currency) > ($1.date, $0.currency) }
        var latestByCurrency: [String: [(format: ReportFormat?, link: Link)]] = [:]
        for name in latest.sorted() {
            guard let parsed = Self.latestFile(name) else { continue }
            let label = parsed.format.map(Self.label) ?? t[.alertsFile]
            latestByCurrency[parsed.currency, default: []].append((parsed.format, Link(label: label, href: name)))
        }
        // A currency whose newest view is in another currency's latest page.
        for currency in Set(latestByCurrency.keys).union(pages.values.flatMap { $0 })
        where !(latestByCurrency[currency] ?? []).contains(where: { $0.format == .html }) {
            guard let page = Self.page(holding: currency, among: pages, where: { latest.contains($0) && $0.hasPrefix("cryptoreport-latest-") }) else {
                continue
            }
            latestByCurrency[currency, default: []].append((.html, Link(label: Self.label(.html), href: page)))
        }
        // In format order, the alerts file last, as in the table.
        let latestLinks = latestByCurrency.sorted { $0.key < $1.key }.map { currency, files in
            Latest(
                currency: currency,
                files: files.sorted { left, right in
                    switch (left.format, right.format) {
                    case let (l?, r?): l < r
                    case (.some, nil): true
                    default: false
                    }
                }
                .map(\.link))
        }
        let count = entries.count
        let generatedAt = PeopleTime(zone: report.timeZone, locale: Locale(identifier: report.localeIdentifier)).minute(report.generatedAt)
        return ViewModel(
            title: t[.indexTitle], generatedAt: generatedAt,
            reportCount: t.format(count == 1 ? .reportOne : .reportOther, count.formatted(.number.locale(Locale(identifier: report.localeIdentifier)))),
            locale: report.localeIdentifier, pageStyle: EmbeddedTemplates.pageFiles["report.css"] ?? "", t: t, lang: t.code,
            generatedLine: t.format(.generated, generatedAt),
            latestAlertsLine: t.format(.latestAlerts, report.dataDate, report.currency), breadthLine: t.format(.breadthOf, report.dataDate),
            topGainersLine: t.format(.topGainersIn, report.currency), topLosersLine: t.format(.topLosersIn, report.currency),
            footer: t.format(.indexFooter, t.localeName(report.localeIdentifier)),
            summary: summary, reports: entries, hasReports: !entries.isEmpty,
            latest: latestLinks, hasLatest: !latestLinks.isEmpty)
    }

    /// The page among `pages` (those `accepting` takes) that holds `currency` as its second
    /// one, with the fragment that opens it in that currency: `cryptoreport-2022-11-22-SEK.html#cur=USD`.
    static func page(holding currency: String, among pages: [String: [String]], where accepting: (String) -> Bool) -> String? {
        pages.keys.sorted().first { name in
            accepting(name) && (pages[name] ?? []).dropFirst().contains(currency)
        }
        .map { "\($0)#cur=\(currency)" }
    }

    static func label(_ format: ReportFormat) -> String {
        switch format {
        case .csv: "CSV"
        case .markdown: "Markdown"
        case .html: "HTML"
        case .json: "JSON"
        case .ledger: "Ledger"
        case .beancount: "Beancount"
        }
    }

    /// `cryptoreport-latest-SEK.html` → SEK, HTML; `…-SEK-alerts.csv` → SEK, alerts (no format).
    static func latestFile(_ name: String) -> (currency: String, format: ReportFormat?)? {
        // The same shape as a dated name, with `latest` for the date.
        guard let parsed = ReportFileName(parsing: name.replacingOccurrences(of: "cryptoreport-latest-", with: "cryptoreport-2000-01-01-"))
        else { return nil }
        if case let .report(format) = parsed.kind { return (parsed.currency, format) }
        return (parsed.currency, nil)
    }
}
