import ArgumentParser
import CryptoReport
import Foundation
import Logging

@main
struct CryptoReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cryptoreport",
        abstract: "Daily crypto price reports from WazirX tickers and ECB exchange rates.",
        discussion: exitCodes,
        subcommands: [ReportCommand.self, HistoryCommand.self, BackfillCommand.self],
        defaultSubcommand: ReportCommand.self)

    static let exitCodes = """
        Exit codes: 0 success, 10 an alert fired with --fail-on-alert, 64 usage error, \
        65 bad data from a source, 66 input file missing or unreadable, 69 source unreachable \
        or HTTP error, 70 internal error, 73 output cannot be written, 74 reports written but the history not updated, 75 another run holds \
        the output folder, 130/143 stopped by SIGINT/SIGTERM.
        """

    /// Every failure, bad flags included, ends as one line on stderr and a documented exit code;
    /// `--help` still prints the full help.
    static func main() async {
        SignalHandling.install()
        var command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            FileHandle.standardError.write(Data("cryptoreport: \(message(for: error)) (see cryptoreport --help)\n".utf8))
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }

    /// Prints the one line for `error` and returns the exit code to throw.
    static func fail(_ error: any Error) -> ExitCode {
        FileHandle.standardError.write(Data("cryptoreport: \(describe(error))\n".utf8))
        return ExitCode(status(for: error).rawValue)
    }

    static func describe(_ error: any Error) -> String {
        if let localized = error as? any LocalizedError, let description = localized.errorDescription {
            return description
        }
        return "internal error: \(type(of: error))"
    }

    static func status(for error: any Error) -> ExitStatus {
        (error as? any ExitStatusProviding)?.exitStatus ?? .internalError
    }

    static func logger(verbose: Bool, quiet: Bool) -> Logger {
        var logger = Logger(label: "cryptoreport") { label in
            StandardErrorLogHandler(label: label)
        }
        logger.logLevel = verbose ? .debug : (quiet ? .error : .warning)
        return logger
    }
}
