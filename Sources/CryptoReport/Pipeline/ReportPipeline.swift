public import Foundation
public import Logging

/// One report run: fetch → parse → convert → analyse → render → write.
///
/// Every stage between the edges is a pure function over in-memory values; I/O happens only in
/// the loader and cache (fetch) and the writer (output), all replaceable for tests.
public struct ReportPipeline: Sendable {
    public var http: any HTTPClient
    public var files: any FileReading
    public var clock: any ReportClock
    public var sleeper: any Sleeper
    public var environment: [String: String]
    public var logger: Logger
    /// Where `--output -` prints its report, before the run's day is recorded: a day is stored
    /// only with its report, and a report standard output could not take is not.
    public var standardOutput: any ReportPrinting = StandardOutput()

    public init(
        http: any HTTPClient = CurlHTTPClient(), files: any FileReading = LocalFileReader(),
        clock: any ReportClock = SystemClock(), sleeper: any Sleeper = TaskSleeper(),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "cryptoreport")
    ) {
        self.http = http
        self.files = files
        self.clock = clock
        self.sleeper = sleeper
        self.environment = environment
        self.logger = logger
    }

    /// What a run produced.
    public struct Outcome: Sendable {
        public var report: Report
        /// Files written, in format order; empty for standard output.
        public var written: [URL]
        /// The reports were made, but the history could not be opened or updated: the command
        /// says so even with `--quiet` and exits 74.
        public var historyFailure: HistoryError?
    }

    /// Runs the whole pipeline: each stage is given its part of the settings, already valid.
    public func run(_ spec: ReportSpec, fetch: FetchPolicy, output: OutputSpec) async throws -> Outcome {
        // A bad template or an unwritable folder is known before any fetch.
        let templates = try TemplateRenderer(directory: output.templates.map { URL(fileURLWithPath: $0) }, formats: Set(output.formats))
        guard case let .directory(path) = output.destination else {
            return try await run(spec, fetch: fetch, output: output, templates: templates, writer: nil)
        }
        let folder = ReportWriter(directory: URL(fileURLWithPath: path))
        let isNew = !FileManager.default.fileExists(atPath: path)
        try folder.prepare()
        do {
            let timeout = output.lockTimeout.timeInterval
            let lock = try await OutputLock.acquire(in: folder.directory, timeout: timeout, sleeper: sleeper) {
                logger.warning("another run is writing into \(folder.directory.path); waiting for it, up to \(FetchError.format(timeout)) s (--lock-timeout)")
            }
            // Held until the run ends.
            defer { withExtendedLifetime(lock) {} }
            try folder.recover()
            return try await run(spec, fetch: fetch, output: output, templates: templates, writer: folder)
        } catch {
            // A typo (`--currency XYZ`, a missing feed file) leaves no empty folder of its making.
            if isNew { OutputLock.removeIfOnlyLock(folder.directory) }
            throw error
        }
    }

    /// The run once its folder is ready and locked (`writer`), or for standard output.
    private func run(
        _ spec: ReportSpec, fetch: FetchPolicy, output: OutputSpec, templates: TemplateRenderer, writer: ReportWriter?
    ) async throws -> Outcome {
        let started = ContinuousClock.now
        // `--verbose`'s steps, each with the time since the run began.
        func step(_ message: @autoclosure () -> String) {
            logger.debug("\(message()) (\((ContinuousClock.now - started).formatted(.units(allowed: [.milliseconds]))))")
        }
        let prepared = try await prepareAll(spec, fetch: fetch)
        var snapshot = prepared.snapshot
        step(Self.readStep(prepared.report, currencies: spec.currencies.map(\.code)))
        let opened = openHistory(output.historyPath(sample: fetch.sample), currencies: spec.currencies.map(\.code), stablecoins: spec.stablecoins)
        var historyFailure = opened.failure
        let history = opened.store
        // The first currency's report, then the other one's (`--currency SEK,USD`): the same
        // fetch, history and rules, priced in each currency.
        var reports = ([prepared.report] + prepared.others).enumerated().map { index, report in
            var report = report
            if let history {
                report = withTrends(
                    report, from: TrendCalculator(store: history, ahead: opened.ahead, exchange: report.exchange, stablecoins: spec.stablecoins),
                    saysDamage: index == 0)
            }
            return report
        }
        if let history {
            step("history \(history.path): earlier days for \(reports[0].rows.count { ($0.trend?.series.count ?? 0) > 1 }) of \(reports[0].rows.count) markets")
        }
        for index in reports.indices {
            let alerts = AlertEvaluator(stablecoins: spec.stablecoins).evaluate(
                spec.alerts, report: reports[index], tickers: snapshot.tickers,
                rates: snapshot.rates)
            reports[index].alerts = alerts.fired
            reports[index].alertRules = spec.alerts
            reports[index].alertNotes = alerts.notes
            // Said once: the other currency's report has the same data, diagnostics and notes.
            if index == 0 {
                for note in alerts.notes {
                    logger.warning("\(AlertText.note(note))")
                }
                if !reports[index].summary.notCompared.isEmpty {
                    logger.warning("\(NoticeText.notCompared(reports[index].summary.notCompared))")
                }
                // Only the HTML page draws the comparison.
                if output.formats.contains(.html), let gap = ReportViewModel.comparisonGap(reports[index]) {
                    logger.warning("\(NoticeText.comparisonNotDrawn(gap))")
                }
            }
        }
        let report = reports[0]
        let others = Array(reports.dropFirst())
        // Recorded with the day, so that the next run's notices are of alerts that start to fire.
        snapshot.firedAlerts = report.alerts.map(\.key)
        for each in reports {
            if let holdings = each.holdings { snapshot.holdingsTotals[each.currency] = holdings.total }
        }
        if !spec.alerts.isEmpty { step("\(spec.alerts.count) alert rule\(spec.alerts.count == 1 ? "" : "s") checked, \(report.alerts.count) fired") }
        for diagnostic in report.diagnostics {
            logger.warning("\(DiagnosticText.line(diagnostic))")
        }
        for notice in report.notices where notice.kind != .cachedSource {
            logger.warning("\(NoticeText.text(notice))")
        }
        // One view model of the first report for its Markdown and its HTML (unless the page shows
        // other currencies too): it was made once for each. The details, most of its cost, only
        // when that page is written; the index makes its own small summary.
        let needsView = output.formats.contains { $0 == .markdown || $0 == .html }
        // The built-in page makes each detail as it writes its data (`lazyDetails`); a template
        // of the user's is given them all.
        let view =
            needsView
            ? ReportViewModel(report, details: others.isEmpty && output.formats.contains(.html), lazyDetails: !templates.usesOwnTemplate(.html))
            : nil
        // Markdown keeps English (only the HTML page and the index follow the locale's language):
        // a second model only when the page's language is another.
        let markdownView = view.flatMap { view -> ReportViewModel? in
            if PageStrings(localeIdentifier: report.localeIdentifier).language == .english { return view }
            guard output.formats.contains(.markdown) else { return nil }
            return templates.usesOwnTemplate(.markdown)
                ? ReportViewModel(report, strings: .english, details: false) : view.worded(.english, report: report)
        }
        // HTML is one page for every currency; each other format is one file per currency. Each
        // is made when it is staged and let go once on disk (ReportWriter.File).
        var planned: [(report: Report, format: ReportFormat, make: () throws -> String)] = []
        for (index, each) in reports.enumerated() {
            for format in output.formats where index == 0 || format != .html {
                let eachView = index == 0 ? (format == .markdown ? markdownView : view) : nil
                let make = {
                    if format == .html && !others.isEmpty { return templates.render(each, format: .html, alternatives: others) }
                    return try render(each, as: format, templates: templates, csvDialect: output.csvDialect, view: eachView)
                }
                // A user's template is rendered bounded in time and size (`TemplateRenderer.bounded`).
                planned.append((each, format, templates.usesOwnTemplate(format) ? { try TemplateRenderer.bounded(format, make) } : make))
            }
        }
        guard let writer else {
            if let text = try planned.first.map({ try $0.make() }) { try standardOutput.print(text) }
            step("\(planned.first.map { $0.format.rawValue } ?? "nothing") written to standard output")
            record(snapshot, in: history, failure: &historyFailure)
            if let history { step(Self.recordStep(history, failure: historyFailure)) }
            return Outcome(report: report, written: [], historyFailure: historyFailure)
        }
        var files = try planned.map { each, format, make in
            let name = "cryptoreport-\(each.dataDate)-\(each.currency).\(format.fileExtension)"
            // CSV and JSON are written to their files as they are made, never whole in memory.
            switch format {
            case .csv:
                return ReportWriter.File(
                    name: name,
                    contents: .bytes { write in
                        streamReport(to: write) { CSVRenderer(dialect: output.csvDialect).write(each, to: &$0) }
                    })
            case .json:
                return ReportWriter.File(
                    name: name,
                    contents: .bytes { write in
                        try streamReport(to: write) { try JSONRenderer().write(each, to: &$0) }
                    })
            default: break
            }
            if templates.usesOwnTemplate(format) {
                // A user's template: rendered now, before the commit and outside its
                // uninterrupted stretch, so that a signal meanwhile stops the run at once.
                return ReportWriter.File(name: name, contents: .text(try make()))
            }
            return ReportWriter.File(name: name, contents: .rendered(make))
        }
        var obsolete: [String] = []
        for each in reports {
            // The alerts file of an earlier run of the same report must not outlive its alerts.
            let alertsName = "cryptoreport-\(each.dataDate)-\(each.currency)-alerts.csv"
            if each.alerts.isEmpty {
                obsolete.append(alertsName)
            } else {
                files.append(ReportWriter.File(name: alertsName, contents: .text(CSVRenderer(dialect: output.csvDialect).alerts(each))))
            }
            // The holdings, for a spreadsheet; gone with them.
            let holdingsName = "cryptoreport-\(each.dataDate)-\(each.currency)-holdings.csv"
            if each.holdings == nil {
                obsolete.append(holdingsName)
            } else {
                files.append(ReportWriter.File(name: holdingsName, contents: .text(CSVRenderer(dialect: output.csvDialect).holdings(each))))
            }
        }
        // The latest copies, index.html and the record change with the reports, in the same commit.
        let shared = SharedFolder(directory: writer.directory, latest: output.latest).additions(
            for: report, names: files.map(\.name), removing: obsolete,
            pageCurrencies: output.formats.contains(.html) && !others.isEmpty ? reports.map(\.currency) : [])
        obsolete += shared.removing
        if !shared.future.isEmpty {
            logger.warning("\(NoticeText.futureReports(shared.future, folder: writer.directory.path))")
        }
        if !shared.unrecorded.isEmpty {
            logger.warning(
                "\(NoticeText.unrecordedReports(shared.unrecorded, folder: writer.directory.path, record: SharedFolder.recordName, day: report.dataDate))")
        }
        if !shared.replaced.isEmpty {
            logger.warning("\(NoticeText.replaced(shared.replaced, folder: writer.directory.path))")
        }
        // One commit step: the files staged, the day recorded and the files published under one
        // journal (ReportWriter.write(files:removing:recording:)). The run's own reports are what
        // it names; the copies and the index follow them.
        let committed = try writer.write(files: files + shared.files, removing: obsolete, recording: history.map { DayRecord(snapshot, in: $0) })
        let written = Array(committed.written.prefix(files.count))
        if let failure = committed.notRecorded {
            historyFailure = historyFailure ?? (failure as? HistoryError)?.asNotRecorded ?? .notRecorded(path: history?.path ?? "", reason: "\(failure)")
        }
        step(
            "\(files.count + shared.files.count) files written in \(writer.directory.path): \(files.count) of this run's, \(shared.files.count) latest copies, index and record of reports"
        )
        if let history { step(Self.recordStep(history, failure: historyFailure)) }
        return Outcome(report: report, written: written, historyFailure: historyFailure)
    }

    /// Whether the day was stored, for `--verbose`.
    static func recordStep(_ history: HistoryStore, failure: HistoryError?) -> String {
        "the day \(failure == nil ? "recorded" : "not recorded") in \(history.path)"
    }

    /// What was read and converted, for `--verbose`.
    static func readStep(_ report: Report, currencies: [String]) -> String {
        let counts = report.summary.counts
        let notTrading = counts.notTrading > 0 ? ", \(counts.notTrading) not trading" : ""
        return "\(counts.tickersReceived) tickers read (\(counts.skipped) skipped\(notTrading)), ECB rates of \(report.rates.date); "
            + "\(counts.converted) markets converted to \(currencies.joined(separator: " and ")), \(counts.shown) in the table"
    }

    package func render(
        _ report: Report, as format: ReportFormat, templates: TemplateRenderer, csvDialect: CSVDialect = .rfc4180
    ) throws -> String {
        try render(report, as: format, templates: templates, csvDialect: csvDialect, view: nil)
    }

    /// `view`: the report's view model, when the run made it once for all its templates.
    func render(
        _ report: Report, as format: ReportFormat, templates: TemplateRenderer, csvDialect: CSVDialect, view: ReportViewModel?
    ) throws -> String {
        switch format {
        case .csv: CSVRenderer(dialect: csvDialect).render(report)
        case .json: try JSONRenderer().render(report)
        case .markdown: templates.render(view ?? ReportViewModel(report, strings: .english, details: false), format: format)
        case .html: templates.render(view ?? ReportViewModel(report), format: format)
        case .ledger: PriceDirectiveRenderer(.ledger).render(report)
        case .beancount: PriceDirectiveRenderer(.beancount).render(report)
        }
    }
}
