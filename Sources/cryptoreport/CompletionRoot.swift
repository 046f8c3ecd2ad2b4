import ArgumentParser

/// The command tree the shell completion scripts are made from: the report's options at the
/// top level, where a bare `cryptoreport` takes them. swift-argument-parser's generators skip a
/// default subcommand's options, and the real root cannot hold them itself (see
/// `CryptoReportCommand`), so the scripts come from this copy of the tree instead.
struct CompletionRoot: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cryptoreport", subcommands: [ReportCommand.self, HistoryCommand.self, BackfillCommand.self])

    @OptionGroup var options: ReportOptions

    /// A completion the script asks of the binary (`---completion -- --symbols …`) names no
    /// subcommand for a top-level option; the report is the one that has it.
    static func routed(_ arguments: [String]) -> [String] {
        guard arguments.first == "---completion", arguments.dropFirst().first == "--" else { return arguments }
        return ["---completion", "report"] + arguments.dropFirst()
    }
}
