import ArgumentParser
import CryptoReport
import Foundation
import Logging

/// `cryptoreport report …`, the same as `cryptoreport …`: for `cryptoreport help report` and
/// for scripts that name the subcommand.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Daily crypto price reports from WazirX tickers and ECB exchange rates.",
        discussion: CryptoReportCommand.configuration.discussion)

    @OptionGroup var options: ReportOptions

    /// The settings resolved once, the pipeline given its parts, the outcome printed.
    func run() async throws {
        do {
            let settings: Settings
            do {
                settings = try options.settings()
            } catch {
                // A misspelt variable may be why the settings fail (CRYPTOREPORT_FORMAT for FORMATS): name it too.
                Self.warnOfUnknownVariables(CryptoReportCommand.logger(verbose: false, quiet: false))
                throw error
            }
            if settings.output.destination == .standardOutput { SignalHandling.reportsToStandardOutput() }
            let command = settings.command
            let logger = CryptoReportCommand.logger(verbose: command.verbose, quiet: command.quiet)
            Self.warnOfUnknownVariables(logger)
            let pipeline = ReportPipeline(logger: logger)
            // The reader's zone, unless a setting names one: the machine's (its TZ, else /etc/localtime).
            var report = settings.report
            report.timeZone = report.timeZone ?? Self.machineTimeZone(logger)
            let outcome = try await pipeline.run(report, fetch: settings.fetch, output: settings.output)
            // The paths, for a script to take: a standard output that cannot take them fails the
            // run (73), once the alerts and a history failure are said.
            var unprinted: OutputError?
            if !outcome.written.isEmpty && !command.quiet {
                do throws(OutputError) {
                    try StandardStreams.writeOutput(outcome.written.map { $0.relativePath + "\n" }.joined())
                } catch {
                    unprinted = error
                }
            }
            // Alerts reach standard error even with --quiet, so that cron mails them.
            for message in AlertText.messages(outcome.report) {
                StandardStreams.writeError("cryptoreport: alert: \(message)\n")
            }
            // After the commit, the folder's lock let go: a slow webhook delays no report.
            for warning in await pipeline.notify(outcome, policy: settings.notices, historyPath: settings.output.historyPath(sample: settings.fetch.sample)) {
                logger.warning("\(warning)")
            }
            // Reaches standard error even with --quiet: a day missing from the history must reach cron.
            if let failure = outcome.historyFailure { throw failure }
            if let unprinted { throw unprinted }
            if command.failOnAlert && !outcome.report.alerts.isEmpty {
                throw AlertsFired(count: outcome.report.alerts.count)
            }
        } catch {
            throw CryptoReportCommand.fail(error, hint: Self.offlineHint(for: error))
        }
    }

    /// A network failure with no cached copy to fall back on, often a first try without a
    /// network: the way to see the tool anyway.
    static func offlineHint(for error: any Error) -> String? {
        guard let error = error as? FetchError else { return nil }
        if case .notCached = error { return offlineHint }
        return error.isNetworkFailure ? offlineHint : nil
    }

    static let offlineHint = "Without a network, `cryptoreport --sample` makes the report of a bundled snapshot."

    /// `TZ`, else `/etc/localtime`. Foundation reads `TZ` itself, but neither glibc's
    /// `:Europe/Stockholm` nor a path (`:/etc/localtime`, common in containers), and it falls
    /// back to `/etc/localtime` without a word for a zone it does not know: a cron line's
    /// `TZ=Europe/Stokholm` gave the machine's times with exit 0.
    static func machineTimeZone(_ logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment) -> TimeZone {
        guard let variable = environment["TZ"], !variable.isEmpty else { return TimeZone.current }
        let name = variable.hasPrefix(":") ? String(variable.dropFirst()) : variable
        if name.hasPrefix("/") {
            // A zone file: named by its path under zoneinfo, once links are followed.
            let resolved = URL(fileURLWithPath: name).resolvingSymlinksInPath().path
            if let range = resolved.range(of: "/zoneinfo/"), let zone = TimeZone(identifier: String(resolved[range.upperBound...])) {
                return zone
            }
            if resolved == URL(fileURLWithPath: "/etc/localtime").resolvingSymlinksInPath().path { return TimeZone.current }
        } else if let zone = TimeZone(identifier: name) {
            return zone
        }
        let machine = TimeZone.current
        logger.warning(
            "TZ=\(variable) names no time zone (such as Europe/Stockholm); times are in the machine's, \(machine.identifier). --timezone sets one for the reports."
        )
        return machine
    }

    static func warnOfUnknownVariables(_ logger: Logger) {
        for (variable, meant) in EnvironmentReader().unknownVariables(in: ProcessInfo.processInfo.environment) {
            logger.warning("Environment: \(variable) names no setting\(meant.map { " (did you mean \($0)?)" } ?? ""); it is ignored.")
        }
    }
}
