import ArgumentParser
import CryptoReport
import Foundation
import Logging

/// `cryptoreport [options]` writes the day's report (the `report` subcommand, the default);
/// `history` and `backfill` work on its history.
///
/// The report's options are not the root command's own: swift-argument-parser lets a parent's
/// options claim values after a subcommand's name, so `history --currency` would go to the
/// root. `cryptoreport --help` prints the report's help instead (`main`).
@main
struct CryptoReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cryptoreport",
        abstract: "Daily crypto price reports from WazirX tickers and ECB exchange rates.",
        discussion: """
            Fetches every WazirX 24h ticker and the ECB reference rates, converts every market into \
            one currency and writes CSV, Markdown, HTML and JSON reports. Every option may also be \
            set in the configuration file or as CRYPTOREPORT_<KEY> in the environment (flags win, \
            then the environment, then the file).

            \(exitCodes)
            """,
        version: BuildInfo.version,
        subcommands: [ReportCommand.self, HistoryCommand.self, BackfillCommand.self],
        defaultSubcommand: ReportCommand.self)

    /// `cryptoreport --help` (with report options or none, and no subcommand named) shows the
    /// report's options, which are what a bare `cryptoreport` takes.
    static func asksForReportHelp(_ arguments: [String]) -> Bool {
        let subcommands = Set(subcommandNames + ["help"])
        guard arguments.contains(where: { $0 == "--help" || $0 == "-h" }) else { return false }
        return !arguments.contains { subcommands.contains($0) }
    }

    /// `configuration.subcommands`' names, spelt out: reading them from the types in `main`
    /// crashes Swift 6.3's SIL generation.
    static let subcommandNames = ["report", "history", "backfill"]

    /// Levenshtein's distance, for a mistyped subcommand's suggestion (swift-argument-parser's
    /// own is internal to it).
    static func editDistance(_ left: String, _ right: String) -> Int {
        let a = Array(left), b = Array(right)
        var previous = Array(0...b.count)
        for i in a.indices {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for j in b.indices {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (a[i] == b[j] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    /// The sentence for a word where a subcommand's name belongs, with the likely one; `nil`
    /// when it names one.
    static func noSubcommand(_ word: String) -> String? {
        guard !subcommandNames.contains(word), word != "help" else { return nil }
        let guess = subcommandNames.first { editDistance($0, word) <= 2 }.map { " (did you mean \"\($0)\"?)" } ?? ""
        return "there is no subcommand \"\(word)\"\(guess); there are \(subcommandNames.joined(separator: ", ")) (see cryptoreport --help)"
    }

    /// A usage error found before swift-argument-parser sees the arguments.
    static func refuse(_ message: String) -> Never {
        StandardStreams.writeError("cryptoreport: \(SourceText.messageLine(message))\n")
        Foundation.exit(ExitStatus.usage.rawValue)
    }

    static var reportHelp: String {
        helpMessage(for: ReportCommand.self)
            .replacingOccurrences(of: "USAGE: cryptoreport report ", with: "USAGE: cryptoreport [report] ")
                + """


                SUBCOMMANDS:
                  report (default)        Write the day's report (these options).
                  history                 One asset's recorded series, to standard output.
                  backfill                Fill the history from WazirX daily klines and ECB rates.

                  See 'cryptoreport help <subcommand>' for detailed help.
                """
    }

    static let exitCodes = """
        Exit codes: 0 success, 10 an alert fired with --fail-on-alert, 64 usage error, \
        65 bad data from a source, 66 input file missing or unreadable, 69 source unreachable \
        or HTTP error, 70 internal error, 73 output cannot be written, 74 reports written but the history \
        not updated, 75 another run holds the output folder, 129/130/143 stopped by SIGHUP/SIGINT/SIGTERM.
        """

    /// Every failure, bad flags included, ends as one line on stderr and a documented exit code;
    /// `--help` still prints the full help.
    static func main() async {
        StandardStreams.holdOpen()
        // A reader that went away (`| head`) is a failed write, said in one line and exit 73 as
        // docs/errors.md lists it, not a silent death by SIGPIPE (141) in the middle of a run.
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        SignalHandling.install(subcommand: arguments.first)
        // The report takes no positional argument, so a first word that names no subcommand is a
        // mistyped one: said as such, not as the report's objection to the subcommand's options
        // that follow (`hisory --symbol btc` was "Unknown option '--symbol'").
        if let first = arguments.first, !first.hasPrefix("-"), let message = noSubcommand(first) { refuse(message) }
        if !["history", "backfill", "help"].contains(arguments.first ?? ""), let message = ReportOptions.repeated(arguments) {
            refuse(message + " (see cryptoreport --help)")
        }
        if asksForReportHelp(arguments) {
            try? StandardStreams.writeOutput(reportHelp + "\n")
            return
        }
        // swift-argument-parser answers `help nosuch` with the root's help and success; a script
        // that asks for a subcommand's help by a wrong name should hear of it.
        if arguments.first == "help", let name = arguments.dropFirst().first, let message = noSubcommand(name) {
            refuse("help: " + message)
        }
        if arguments == ["--version"] {
            try? StandardStreams.writeOutput(BuildInfo.version + "\n")
            return
        }
        if arguments.count == 2, arguments[0] == "--generate-completion-script",
            let shell = CompletionShell(rawValue: arguments[1])
        {
            try? StandardStreams.writeOutput(CompletionRoot.completionScript(for: shell) + "\n")
            return
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(CompletionRoot.routed(arguments))
        } catch {
            guard exitCode(for: error) != .success else { exit(withError: error) }
            // The help of the subcommand the arguments name, where that is not the report's.
            let help =
                arguments.first.flatMap { first in
                    first == "report" ? nil : configuration.subcommands.first { $0._commandName == first }.map { "cryptoreport help \($0._commandName)" }
                } ?? "cryptoreport --help"
            // The pointer to the help ends the sentence: "…; give one of them (see …)", not ". (see".
            var text = message(for: error)
            if text.hasSuffix(".") { text.removeLast() }
            StandardStreams.writeError("cryptoreport: \(SourceText.messageLine(text)) (see \(help))\n")
            Foundation.exit(ExitStatus.usage.rawValue)
        }
        if let asyncCommand = command as? any AsyncParsableCommand { await runToExit(asyncCommand) }
        do {
            try command.run()
        } catch {
            exit(withError: error)
        }
    }

    /// Runs the command and ends the process where it finished, off the main actor: returning to
    /// `main` hopped back to the main queue, which on Linux, once the main thread waits in
    /// `dispatch_main`, is served by a thread started for it, so every run ended by starting a
    /// thread only to exit (strace: a `clone3` after the last report was written).
    nonisolated static func runToExit(_ command: any AsyncParsableCommand) async -> Never {
        var command = command
        do {
            try await command.run()
        } catch {
            SignalHandling.checkReceived()
            exit(withError: error)
        }
        SignalHandling.checkReceived()
        exit(withError: nil)
    }

    /// Prints the one line for `error` and returns the exit code to throw.
    /// The error as one line on standard error, and its exit code; `hint`, when given, ends the line.
    static func fail(_ error: any Error, hint: String? = nil) -> ExitCode {
        let line = SourceText.messageLine(describe(error)) + (hint.map { " " + $0 } ?? "")
        StandardStreams.writeError("cryptoreport: \(line)\n")
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
