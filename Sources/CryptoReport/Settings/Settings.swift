/// Every setting of a run, typed and already valid, in the part each stage takes.
///
/// Built once: the built-in defaults (the initial values here and in each part), then the
/// layers over them, lowest first — the configuration file, the environment, the flags.
public struct Settings: Sendable, Equatable {
    public var report = ReportSpec()
    public var fetch = FetchPolicy()
    public var output = OutputSpec()
    /// The command line's own; the pipeline never sees it.
    public var command = CommandPolicy()

    public init() {}

    /// The defaults with `layers` applied in order, each over the ones before.
    package init(layers: [SettingsLayer]) {
        self = SettingsLayer.$merging.withValue(layers) { Settings() }
    }

    /// What no single value can say is wrong, for a report (`history` and `backfill` write none,
    /// so a file made for reports on standard output is no reason to refuse them).
    public func checkReport() throws(SettingsError) {
        if output.destination == .standardOutput && output.formats.count != 1 {
            throw .conflict("--output -: standard output takes exactly one format, but \(output.formats.count) were asked for")
        }
        if output.destination == .standardOutput && report.currencies.count > 1 && output.formats != [.html] {
            throw .conflict("--output - with two currencies: only the HTML page holds both; write the others to a folder")
        }
        if fetch.strict && fetch.offline {
            throw .conflict("--strict and --offline: choose one; --offline always reads the cache")
        }
    }
}

/// How the command line reports: the file and the environment may set these too.
public struct CommandPolicy: Sendable, Equatable {
    @Setting("quiet", Rules.boolean) public var quietAsked = false
    /// Print nothing on success, unless `verbose` is on (set in the same layer or above, it wins).
    public var quiet: Bool { quietAsked && !verbose }
    /// Log each step to standard error; a layer asking for quiet sets aside the verbose below it.
    @Setting("verbose", Rules.boolean, yieldsTo: "quiet") public var verbose = false
    /// Exit with 10 when an alert fires (after writing the reports).
    @Setting("fail_on_alert", Rules.boolean) public var failOnAlert = false

    public init() {}
}
