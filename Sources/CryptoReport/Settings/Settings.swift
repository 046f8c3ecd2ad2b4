/// Every setting of a run, typed and already valid, in the part each stage takes.
///
/// Built once: the built-in defaults (the initial values here and in each part), then the
/// layers over them, lowest first — the configuration file, the environment, the flags. Each
/// part is a plain value its stage takes; only this folder knows how settings are read
/// (`SettingsLayer.keys`).
public struct Settings: Sendable, Equatable {
    public var report = ReportSpec()
    public var fetch = FetchPolicy()
    public var output = OutputSpec()
    public var notices = NoticePolicy()
    /// The command line's own; the pipeline never sees it.
    public var command = CommandPolicy()

    public init() {}

    /// The defaults with `layers` applied in order, each over the ones before: for each key, the
    /// highest layer that gives it wins (flag ?? environment ?? file ?? default), with the two
    /// merges the table names (`max_age`, `formats`) and the keys that yield (`SettingKey.yieldsTo`).
    package init(layers: [SettingsLayer]) {
        self.init()
        for layer in layers {
            for key in SettingsLayer.keys {
                if let given = layer.values[key.name] {
                    key.apply(&self, given)
                } else if let other = key.yieldsTo.flatMap({ layer.values[$0] }), other as? Bool != false {
                    key.reset(&self)
                }
            }
        }
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
    public var quietAsked = false
    /// Print nothing on success, unless `verbose` is on (set in the same layer or above, it wins).
    public var quiet: Bool { quietAsked && !verbose }
    /// Log each step to standard error; a layer asking for quiet sets aside the verbose below it.
    public var verbose = false
    /// Exit with 10 when an alert fires (after writing the reports).
    public var failOnAlert = false

    public init() {}
}
