import ArgumentParser
import Foundation
import Testing

@testable import CryptoReport
@testable import cryptoreport

@Suite("Settings: file, environment and flags over the defaults")
struct SettingsTests {
    static func file(_ text: String) throws -> SettingsLayer {
        try ConfigFileReader().parse(text, path: "c.toml")
    }

    /// The command line's layer: each key's flag, parsed by the command itself.
    static func flags(_ pairs: [(String, String)]) throws -> SettingsLayer {
        try ReportOptions.parse(pairs.flatMap { try arguments(key: $0.0, text: $0.1) }).layer()
    }

    /// `--timeout 5`; a switch alone, or its `--no-` form for false (`--strict`, `--no-strict`).
    static func arguments(key name: String, text: String) throws -> [String] {
        let key = try #require(SettingsLayer.key(name))
        let flag = ExecutableTests.flag(name)
        guard key.rule.kind == .boolean else { return [flag, text] }
        return ["true", "yes", "1"].contains(text) ? [flag] : ["--no-" + flag.dropFirst(2)]
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var key: String
        var file: String
        var environment: String
        var flag: String
        /// The setting as text, and what it is by default and from each layer.
        var read: @Sendable (Settings) -> String
        var expected: (defaults: String, file: String, environment: String, flag: String)
        var testDescription: String { key }
    }

    /// What each setting reads, by example: a value per layer and what it comes to. Not every
    /// key needs a row; `precedence` covers each key with values of its own making.
    static let cases: [Case] = [
        Case(
            key: "currency", file: "[\"SEK\", \"USD\"]", environment: "nok", flag: "EUR,SEK", read: { $0.report.currencies.map(\.code).joined(separator: ",") },
            expected: ("USD", "SEK,USD", "NOK", "EUR,SEK")),
        Case(
            key: "timezone", file: "\"Europe/Stockholm\"", environment: "Asia/Kolkata", flag: "America/New_York",
            read: { $0.report.timeZone?.identifier ?? "-" }, expected: ("-", "Europe/Stockholm", "Asia/Kolkata", "America/New_York")),
        Case(
            key: "locale", file: "\"sv_SE\"", environment: "en-GB", flag: "de_DE", read: { $0.report.locale?.identifier ?? "-" },
            expected: ("-", "sv_SE", "en_GB", "de_DE")),
        Case(
            key: "formats", file: "[\"html\", \"csv\"]", environment: "json", flag: "md,all",
            read: { $0.output.formats.map(\.rawValue).joined(separator: ",") },
            expected: ("csv,markdown,html,json", "csv,html", "json", "csv,markdown,html,json")),
        Case(
            key: "csv_dialect", file: "\"excel\"", environment: "rfc4180", flag: "EXCEL", read: { $0.output.csvDialect.rawValue },
            expected: ("rfc4180", "excel", "rfc4180", "excel")),
        Case(key: "no_latest", file: "true", environment: "false", flag: "yes", read: { "\($0.output.latest)" }, expected: ("true", "false", "true", "false")),
        Case(
            key: "output", file: "\"/srv/r\"", environment: "e", flag: "out", read: { "\($0.output.destination)" },
            expected: ("directory(\"Output\")", "directory(\"/srv/r\")", "directory(\"e\")", "directory(\"out\")")),
        Case(
            key: "symbols", file: "[\"BTC\", \"eth\"]", environment: "sol", flag: "wrxinr, ada", read: { $0.report.selection.symbols.joined(separator: ",") },
            expected: ("", "btc,eth", "sol", "wrxinr,ada")),
        Case(
            key: "markets", file: "\"all\"", environment: "primary", flag: "ALL", read: { $0.report.selection.markets.rawValue },
            expected: ("primary", "all", "primary", "all")),
        Case(
            key: "sort", file: "\"change\"", environment: "name", flag: "price", read: { $0.report.selection.sort.rawValue },
            expected: ("volume", "change", "name", "price")),
        Case(
            key: "top", file: "1_000", environment: "5", flag: "3", read: { $0.report.selection.top.map(String.init) ?? "-" }, expected: ("-", "1000", "5", "3")
        ),
        Case(
            key: "compare", file: "[\"BTC\", \"eth\"]", environment: "sol", flag: "wrxinr, ada", read: { $0.report.compare.joined(separator: ",") },
            expected: ("", "btc,eth", "sol", "wrxinr,ada")),
        Case(
            key: "min_volume_value", file: "2_500.5", environment: "0", flag: "10000", read: { $0.report.minimumVolumeValue.map { "\($0)" } ?? "-" },
            expected: ("-", "2500.5", "0", "10000")),
        Case(
            key: "history", file: "\"h.sqlite\"", environment: "e.sqlite", flag: "f.sqlite", read: { $0.output.database ?? "-" },
            expected: ("-", "h.sqlite", "e.sqlite", "f.sqlite")),
        Case(
            key: "no_history", file: "true", environment: "false", flag: "true", read: { "\($0.output.noHistory)" },
            expected: ("false", "true", "false", "true")),
        Case(
            key: "fail_on_alert", file: "true", environment: "no", flag: "1", read: { "\($0.command.failOnAlert)" },
            expected: ("false", "true", "false", "true")),
        Case(
            key: "alerts", file: "['btc above 60000 SEK', \"any move 10%\"]", environment: "eth below 1500 USD", flag: "sol move 5 % since last report",
            read: { $0.report.alerts.map(\.description).joined(separator: ";") },
            expected: ("", "btc above 60000 SEK;any move 10%", "eth below 1500 USD", "sol move 5 % since last report")),
        Case(
            key: "tickers_url", file: "\"saved/t.json\"", environment: "file:///srv/t.json", flag: "https://example.org/t",
            read: { $0.fetch.tickers?.description ?? "-" }, expected: ("-", "saved/t.json", "/srv/t.json", "https://example.org/t")),
        Case(
            key: "ecb_url", file: "\"saved/e.xml\"", environment: "/srv/e.xml", flag: "http://127.0.0.1:1/e", read: { $0.fetch.rates?.description ?? "-" },
            expected: ("-", "saved/e.xml", "/srv/e.xml", "http://127.0.0.1:1/e")),
        Case(key: "sample", file: "true", environment: "false", flag: "true", read: { "\($0.fetch.sample)" }, expected: ("false", "true", "false", "true")),
        Case(
            key: "timeout", file: "2.5", environment: "1e1", flag: "0.25", read: { "\($0.fetch.timeout)" },
            expected: ("15.0 seconds", "2.5 seconds", "10.0 seconds", "0.25 seconds")),
        Case(key: "retries", file: "5", environment: "0", flag: "10", read: { "\($0.fetch.retry.retries)" }, expected: ("3", "5", "0", "10")),
        Case(
            key: "deadline", file: "60", environment: "30", flag: "86400", read: { "\($0.fetch.deadline)" },
            expected: ("120.0 seconds", "60.0 seconds", "30.0 seconds", "86400.0 seconds")),
        Case(
            key: "max_bytes", file: "1_000_000", environment: "2000", flag: "3000", read: { "\($0.fetch.maximumBytes)" },
            expected: ("50000000", "1000000", "2000", "3000")),
        Case(
            key: "cache_dir", file: "'C:\\cache'", environment: "/var/cache/cr", flag: "c", read: { $0.fetch.cacheDirectory ?? "-" },
            expected: ("-", "C:\\cache", "/var/cache/cr", "c")),
        Case(
            key: "max_age", file: "[\"tickers=12h\", \"rates=7d\"]", environment: "rates=2d", flag: "1h",
            read: { "\(Int($0.fetch.maxAge.tickers)),\(Int($0.fetch.maxAge.rates))" }, expected: ("86400,432000", "43200,604800", "43200,172800", "3600,3600")),
        Case(key: "strict", file: "true", environment: "false", flag: "yes", read: { "\($0.fetch.strict)" }, expected: ("false", "true", "false", "true")),
        Case(key: "offline", file: "true", environment: "false", flag: "true", read: { "\($0.fetch.offline)" }, expected: ("false", "true", "false", "true")),
        Case(
            key: "allow_stale", file: "true", environment: "false", flag: "true", read: { "\($0.fetch.allowStale)" },
            expected: ("false", "true", "false", "true")),
        Case(
            key: "lock_timeout", file: "0", environment: "5", flag: "0.5", read: { "\($0.output.lockTimeout)" },
            expected: ("180.0 seconds", "0.0 seconds", "5.0 seconds", "0.5 seconds")),
        Case(
            key: "templates", file: "\"/etc/cr\"", environment: "/home/t", flag: "t", read: { $0.output.templates ?? "-" },
            expected: ("-", "/etc/cr", "/home/t", "t")),
        Case(key: "quiet", file: "true", environment: "false", flag: "true", read: { "\($0.command.quiet)" }, expected: ("false", "true", "false", "true")),
        Case(key: "verbose", file: "true", environment: "false", flag: "true", read: { "\($0.command.verbose)" }, expected: ("false", "true", "false", "true")),
    ]

    @Test("examples: flags over the environment over the file over the defaults", arguments: cases)
    func examples(_ row: Case) throws {
        let key = try #require(SettingsLayer.key(row.key))
        let file = try Self.file("\(row.key) = \(row.file)\n")
        let environment = try EnvironmentReader().read([key.environmentVariable: row.environment, "UNRELATED": "x"])
        let flags = try Self.flags([(row.key, row.flag)])
        #expect(row.read(Settings(layers: [])) == row.expected.defaults)
        #expect(row.read(Settings(layers: [file])) == row.expected.file)
        #expect(row.read(Settings(layers: [file, environment])) == row.expected.environment)
        #expect(row.read(Settings(layers: [file, environment, flags])) == row.expected.flag)
        // A layer that says nothing leaves the one below alone.
        #expect(row.read(Settings(layers: [file, SettingsLayer(), SettingsLayer()])) == row.expected.file)
    }

    /// Texts of every kind a setting takes. Each key uses those its rule accepts, so a new key
    /// is tested with no row of its own; a key that accepts fewer than two needs a text here.
    static let texts = [
        "true", "false", "5", "1", "3", "2.5", "0.5", "SEK,USD", "NOK", "Europe/Stockholm", "Asia/Kolkata", "sv_SE", "en_GB", "html,csv", "json",
        "excel", "rfc4180", "all", "primary", "change", "name", "btc,eth", "sol", "btc above 60000 SEK", "eth below 1500 USD", "3d", "30m", "1h", "tickers=12h",
        "rates=2d",
        "saved/t.json", "https://example.org/t", "https://example.org/u", "wazirx,binance", "binance-us", "binance=saved/b.json",
        "wazirx=https://example.org/w", "btc=0.5", "eth=2@3000 USDT",
    ]

    /// The file's spelling of a text the environment would give.
    static func toml(_ text: String, _ kind: SettingKind) -> String {
        switch kind {
        case .boolean, .whole, .number: text
        case .string: "\"\(text)\""
        case .strings: "[" + text.split(separator: ",").map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        }
    }

    @Test(
        "every key has a file key, a variable and a flag, each reading the same, and flags > environment > file > defaults",
        arguments: SettingsLayer.keys.map(\.name))
    func precedence(_ name: String) throws {
        let key = try #require(SettingsLayer.key(name))
        func file(_ text: String) throws -> Settings { Settings(layers: [try Self.file("\(name) = \(Self.toml(text, key.rule.kind))\n")]) }
        func environment(_ text: String) throws -> SettingsLayer { try EnvironmentReader().read([key.environmentVariable: text, "UNRELATED": "x"]) }
        // Texts this key takes, from the file as from the environment, each as its own value.
        let valid = Self.texts.filter { text in
            guard let read = try? file(text), let variable = try? environment(text) else { return false }
            return read == Settings(layers: [variable])
        }
        func unlike(_ settings: Settings) throws -> String {
            try #require(valid.first { (try? Settings(layers: [environment($0)])) != settings }, "\(name): no text here makes a change; add one to `texts`")
        }
        // Each layer's value unlike the one below, so that a layer left out would show.
        let low = try unlike(Settings()), middle = try unlike(try file(low)), high = try unlike(Settings(layers: [try environment(middle)]))
        let flags = try Self.flags([(name, high)])
        #expect(Settings(layers: [flags]) == Settings(layers: [try environment(high)]), "--\(name) reads \(high) as the variable does")
        let layers = [try Self.file("\(name) = \(Self.toml(low, key.rule.kind))\n"), try environment(middle), flags]
        #expect(Settings(layers: Array(layers.prefix(2))) == Settings(layers: [layers[1]]), "the environment over the file")
        #expect(Settings(layers: layers) == Settings(layers: [flags]), "the flag over both")
        #expect(Settings(layers: [layers[0], SettingsLayer(), SettingsLayer()]) == (try file(low)), "an empty layer changes nothing")
    }

    /// Issue 32: `--timeout 1e-9` became no time at all, and the run spoke of a 20 s deadline.
    @Test("a time too small to keep in milliseconds is refused, not taken as none")
    func tinySeconds() throws {
        #expect((try? Rules.seconds().text("1e-9")) == nil)
        #expect((try? Rules.seconds().text("0.0004")) == nil)
        #expect(try Rules.seconds().text("0.001") == .milliseconds(1))
        #expect(try Rules.seconds(allowingZero: true).text("0") == .zero)
    }

    @Test("the settings are plain values: the layers give each key's field, and keys that yield put theirs back")
    func layersInOrder() throws {
        var file = SettingsLayer(), flags = SettingsLayer()
        file.set("no_history", true)
        file.set("verbose", true)
        file.set("max_age", [try #require(MaxAge.Limit("rates=7d"))])
        flags.set("history", "h.sqlite")
        flags.set("quiet", true)
        flags.set("max_age", [try #require(MaxAge.Limit("tickers=12h"))])
        let settings = Settings(layers: [file, flags])
        #expect(settings.output.database == "h.sqlite" && !settings.output.noHistory, "--history over the file's no_history")
        #expect(!settings.command.verbose && settings.command.quiet, "-q over the file's verbose")
        #expect(settings.fetch.maxAge.rates == 7 * 86400 && settings.fetch.maxAge.tickers == 12 * 3600, "each limit over the one below")
        #expect(Settings(layers: [file]).output.noHistory)
    }

    @Test("docs/options.md documents every key with its variable")
    func everyKeyCovered() throws {
        let options = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/options.md"), encoding: .utf8)
        for key in SettingsLayer.keys {
            #expect(options.contains("`\(key.name)`"), "docs/options.md does not name the key \(key.name)")
        }
        #expect(options.contains("CRYPTOREPORT_<KEY>"))
    }

    @Test("the configuration example of docs/options.md reads, and says what it seems to")
    func readmeExample() throws {
        let options = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("docs/options.md"), encoding: .utf8)
        let start = try #require(options.range(of: "```toml\n"))
        let end = try #require(options.range(of: "```", range: start.upperBound..<options.endIndex))
        let settings = Settings(layers: [try Self.file(String(options[start.upperBound..<end.lowerBound]))])
        #expect(settings.report.currency == "SEK")
        #expect(settings.output.formats == [.csv, .html])
        #expect(settings.report.alerts.count == 4)
        #expect(settings.report.alerts.first?.condition == .above(60000, currency: "SEK"))
    }

    @Test("valid TOML reads: literal strings, underscores, exponents, a backslash before a comment, CRLF")
    func realTOML() throws {
        let text = "currency = 'SEK'\r\ntop = 1_0\r\ntimeout = 1e1\r\ncache_dir = \"C:\\\\\"   # a comment\r\nformats = [\"csv\",\r\n  \"html\"]\r\n"
        let settings = Settings(layers: [try Self.file(text)])
        #expect(settings.report.currency == "SEK" && settings.report.selection.top == 10)
        #expect(settings.fetch.timeout == .seconds(10) && settings.fetch.cacheDirectory == "C:\\")
        #expect(settings.output.formats == [.csv, .html])
    }

    @Test(
        "a bad file is one clear error naming the line (and the key)",
        arguments: [
            ("currency = SEK", "Config: c.toml, line 1: not valid TOML (value): could not determine value type; text needs quotes, as in currency = \"SEK\"."),
            ("\n\ncolour = \"red\"", "Config: c.toml, line 3: unknown key \"colour\"; known: \(SettingsLayer.keys.map(\.name).joined(separator: ", "))."),
            ("format = \"html\"", "Config: c.toml, line 1: unknown key \"format\" (did you mean \"formats\"?)."),
            ("top = 0", "Config: c.toml, line 1: top: \"0\" is not valid; expected a positive whole number."),
            ("\n[report]\ncurrency = \"SEK\"", "Config: c.toml, line 2: [report]: sections are not used; put every key at the top level."),
            (
                "alerts = [\"btc above 60,000 SEK\"]",
                "Config: c.toml, line 1: alerts: alert \"btc above 60,000 SEK\": write 60,000 with a point for the fraction and no grouping, as in 60000 or 0.5."
            ),
            (
                "alerts = [\"btc above -1 USD\"]",
                "Config: c.toml, line 1: alerts: alert \"btc above -1 USD\": -1 is not above zero; a price limit or a move is a positive number."
            ),
            (
                "alerts = [\"btc sideways\"]",
                "Config: c.toml, line 1: alerts: alert \"btc sideways\" is not a rule; write e.g. \"btc above 60000 SEK\", \"eth below 1500 USD\", \"any move 10 %\", \"sol move 5 % since last report\" or \"holdings below 100000 SEK\"."
            ),
            ("currency = \"SEK\"\ncurrency = \"USD\"", "Config: c.toml, line 2: not valid TOML (key-value pair): cannot redefine existing string 'currency'."),
            ("output = \"x", "Config: c.toml, line 1: not valid TOML (string): encountered end-of-file."),
            ("# mine\nmarkets = \"foo\"", "Config: c.toml, line 2: markets: \"foo\" is not valid; expected primary or all."),
            (
                "formats = [\"csv\", \"pdf\"]",
                "Config: c.toml, line 1: formats: \"pdf\" is not valid; expected csv, markdown, html, json, ledger, beancount or all."
            ),
            ("formats = []", "Config: c.toml, line 1: formats: the list is empty; expected csv, markdown, html, json, ledger, beancount or all."),
            ("currency = []", "Config: c.toml, line 1: currency: the list is empty; expected one or two three-letter currency codes such as SEK or SEK,USD."),
            ("\nlocale = \"xx_YY\"", "Config: c.toml, line 2: locale: \"xx_YY\" is not valid; expected a locale identifier such as en_US or sv_SE."),
            ("timeout = 0", "Config: c.toml, line 1: timeout: \"0\" is not valid; expected a positive number of seconds, up to 86400."),
            ("timeout = \"5\"", "Config: c.toml, line 1: timeout: expected a positive number of seconds, up to 86400, not a string."),
            ("top = 2.5", "Config: c.toml, line 1: top: expected a positive whole number, not a number with a fraction."),
            (
                "retries = 99999999999999999999",
                "Config: c.toml, line 1: not valid TOML (decimal integer): '99999999999999999999' is not representable in 64 bits."
            ),
            ("strict = \"yes\"", "Config: c.toml, line 1: strict: expected true or false, not a string."),
            (
                "output = \"\"",
                "Config: c.toml, line 1: output: \"\" is not valid; expected a folder, in which ~ and $HOME are the only variables, or - for standard output."
            ),
            ("symbols = [\"btc\", 1]", "Config: c.toml, line 1: symbols: expected an array of strings, not a whole number."),
            (
                "alerts = [\n  \"btc above 1 USD\",\n  # a comment\n  \"eth sideways\",\n]",
                "Config: c.toml, line 4: alerts: alert \"eth sideways\" is not a rule; write e.g. \"btc above 60000 SEK\", \"eth below 1500 USD\", \"any move 10 %\", \"sol move 5 % since last report\" or \"holdings below 100000 SEK\"."
            ),
            (
                "alerts = [\n  \"btc above 1 USD\",\n  \"eth below 2 USD\n]",
                "Config: c.toml, line 3: not valid TOML (string): unescaped control characters other than TAB (U+0009) are explicitly prohibited."
            ),
            // toml++ reads up to the first NUL, so what follows it was silently ignored.
            ("top = 5\n\u{0}\nmarkets = \"foo\"", "Config: c.toml, line 2: not valid TOML: a NUL byte; a configuration file is text."),
        ])
    func badFile(text: String, message: String) {
        #expect {
            try Self.file(text)
        } throws: { error in
            (error as? SettingsError)?.errorDescription == message && (error as? SettingsError)?.exitStatus == .usage
        }
    }

    @Test("a bad environment value names the variable")
    func badEnvironment() {
        #expect(throws: SettingsError.environment(variable: "CRYPTOREPORT_RETRIES", message: "\"many\" is not valid; expected a whole number from 0 to 10")) {
            try EnvironmentReader().read(["CRYPTOREPORT_RETRIES": "many"])
        }
        let unknown = EnvironmentReader().unknownVariables(in: [
            "CRYPTOREPORT_CURENCY": "SEK", "CRYPTOREPORT_CURRENCY": "SEK", "CRYPTOREPORT_FORMAT": "csv", "CRYPTOREPORT_COLOUR": "red",
        ])
        #expect(unknown.map(\.variable) == ["CRYPTOREPORT_COLOUR", "CRYPTOREPORT_CURENCY", "CRYPTOREPORT_FORMAT"])
        #expect(unknown.map(\.meant) == [nil, "CRYPTOREPORT_CURRENCY", "CRYPTOREPORT_FORMATS"])
    }

    @Test("cross_check_tolerance in the file: a number, or a percentage written as the flag writes it; other text is not")
    func toleranceInFile() throws {
        #expect(Settings(layers: [try Self.file("cross_check_tolerance = 2.5")]).report.crossCheckTolerance == Fixtures.decimal("2.5"))
        #expect(Settings(layers: [try Self.file("cross_check_tolerance = \"0.5 %\"")]).report.crossCheckTolerance == Fixtures.decimal("0.5"))
        #expect(throws: SettingsError.self) { try Self.file("cross_check_tolerance = \"2\"") }
        #expect(throws: SettingsError.self) { try Self.file("cross_check_tolerance = \"200%\"") }
    }

    @Test("CRYPTOREPORT_SOURCE is read for CRYPTOREPORT_SOURCES when that is not set, and is no unknown variable")
    func sourceAlias() throws {
        #expect(Settings(layers: [try EnvironmentReader().read(["CRYPTOREPORT_SOURCE": "binance,wazirx"])]).fetch.sources == [.binance, .wazirx])
        let both = try EnvironmentReader().read(["CRYPTOREPORT_SOURCE": "binance", "CRYPTOREPORT_SOURCES": "binance-us"])
        #expect(Settings(layers: [both]).fetch.sources == [.binanceUS])
        #expect(EnvironmentReader().unknownVariables(in: ["CRYPTOREPORT_SOURCE": "binance"]).isEmpty)
        #expect(throws: SettingsError.environment(variable: "CRYPTOREPORT_SOURCE", message: "\"kraken\" is not valid; expected wazirx, binance or binance-us"))
        {
            try EnvironmentReader().read(["CRYPTOREPORT_SOURCE": "kraken"])
        }
    }

    @Test("settings that cannot go together are refused once, after every layer")
    func conflicts() throws {
        #expect(throws: SettingsError.self) { try Settings(layers: [try Self.file("output = \"-\"")]).checkReport() }
        try Settings(layers: [try Self.file("output = \"-\""), try Self.flags([("formats", "csv")])]).checkReport()
        #expect(throws: SettingsError.self) { try Settings(layers: [try Self.file("strict = true\noffline = true")]).checkReport() }
        try Settings(layers: [try Self.file("strict = true"), try Self.flags([("offline", "true"), ("strict", "false")])]).checkReport()
    }

    @Test("a rule is a value from the file to the evaluator: parsed once, where it is read")
    func alertsAreValues() throws {
        let settings = Settings(layers: [try Self.file("alerts = [\"btc above 60000 SEK\", \"any move 10 %\"]")])
        #expect(settings.report.alerts == [try AlertRule(parsing: "btc above 60000 SEK"), try AlertRule(parsing: "any move 10 %")])
    }

    @Test("history: the sample records nothing unless a database is named; no_history stops everything")
    func historyChoice() throws {
        var output = OutputSpec()
        #expect(output.historyPath(sample: false)?.hasSuffix("/Output/history.sqlite") == true)
        #expect(output.historyPath(sample: true) == nil)
        output.database = "h.sqlite"
        #expect(output.historyPath(sample: true) == "h.sqlite")
        output.noHistory = true
        #expect(output.historyPath(sample: false) == nil && output.sharedHistoryPath == nil)
    }

    @Test("~/ in a file's or a variable's path is $HOME's, for every path setting, as a shell does for a flag's")
    func homeInPaths() throws {
        let folder = try TemporaryFolder()
        let home = folder.url.appendingPathComponent("home").path
        let file = folder.url.appendingPathComponent("c.toml")
        try Data("history = \"~/h.sqlite\"\noutput = \"~/out\"\nformats = [\"csv\"]\n".utf8).write(to: file)
        let run = try ExecutableTests.run(["--sample", "--config", file.path], in: folder.url, environment: ["HOME": home])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(folder.contents("home") == ["h.sqlite", "out"])
        let history = try ExecutableTests.run(
            ["history", "--symbol", "btc", "--days", "3650", "--config", file.path, "--format", "csv"], in: folder.url, environment: ["HOME": home])
        #expect(history.status == 0 && history.stdout.contains("Z,btcusdt,USD,15988,"), "\(history.stderr)")
        #expect(try Rules.path.text("a~/b") == "a~/b")
        // Another account's home is refused (issue 32: `output = "~root/rep"` wrote into root's home).
        #expect((try? Rules.path.text("~user/b")) == nil)
        #expect((try? Rules.destination.text("~root/rep")) == nil)
        #expect((try? Rules.databaseFile.text("~root/h.sqlite")) == nil)
        // $HOME too, as the README's cron line writes it: it made a folder named `$HOME`.
        try Data("history = \"$HOME/h2.sqlite\"\noutput = \"${HOME}/out2\"\nformats = [\"csv\"]\n".utf8).write(to: file)
        let dollar = try ExecutableTests.run(["--sample", "--config", file.path], in: folder.url, environment: ["HOME": home])
        #expect(dollar.status == 0, "\(dollar.stderr)")
        #expect(folder.contents("home") == ["h.sqlite", "h2.sqlite", "out", "out2"] && !folder.contents().contains("$HOME"))
        #expect(try Rules.path.text("$HOME") == Rules.path.text("~"))
        #expect((try? Rules.path.text("$HOMEX/a")) == nil)
        // Any other variable is refused, not made a folder's name.
        for path in ["$XDG_DATA_HOME/r", "/srv/${USER}/r", "$HOME/$USER"] {
            #expect((try? Rules.path.text(path)) == nil, "\(path)")
            #expect((try? Rules.destination.text(path)) == nil, "\(path)")
            #expect((try? Rules.databaseFile.text(path + ".sqlite")) == nil, "\(path)")
        }
        #expect(try Rules.path.text("/srv/a$/b") == "/srv/a$/b")
        #expect(try Rules.path.text("/srv/$1") == "/srv/$1")
        let refused = try ExecutableTests.run(["--sample", "--output", "$REPORTS/x"], in: folder.url)
        #expect(refused.status == 64 && refused.stderr.contains("~ and $HOME are the only variables"), "\(refused.stderr)")
        #expect(!folder.contents().contains("$REPORTS"))
    }

    /// "the values the flags take": `symbols = "btc,eth"` was one symbol named "btc,eth".
    @Test("a list as one string in the file is read as the flag and the variable read it")
    func listAsOneString() throws {
        let file = Settings(layers: [try Self.file("symbols = \"btc, eth\"\nformats = \"html,csv\"\ncurrency = \"SEK,USD\"\n")])
        let flags = Settings(layers: [try Self.flags([("symbols", "btc,eth"), ("formats", "html,csv"), ("currency", "SEK,USD")])])
        #expect(file == flags)
        #expect(file.report.selection.symbols == ["btc", "eth"] && file.output.formats == [.csv, .html])
        // An alert rule is one string, as --alert takes it: its comma gets the rule's own hint.
        #expect(throws: SettingsError.self) { try Self.file("alerts = \"btc above 60,000 SEK\"\n") }
        do {
            _ = try Self.file("alerts = \"btc above 60,000 SEK\"\n")
        } catch {
            #expect((error as? SettingsError)?.errorDescription?.contains("write 60,000 with a point") == true, "\(error)")
        }
        #expect(Settings(layers: [try Self.file("alerts = \"btc above 60000 SEK\"\n")]).report.alerts.count == 1)
    }

    @Test("a misspelt CRYPTOREPORT_ variable is named even when the settings it would have fixed fail")
    func unknownVariableOnFailure() throws {
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(["--sample", "--output", "-"], in: folder.url, environment: ["CRYPTOREPORT_FORMAT": "csv"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("CRYPTOREPORT_FORMAT names no setting (did you mean CRYPTOREPORT_FORMATS?)"), "\(run.stderr)")
    }

    @Test("a --config file that is not there, or a folder, is missing input (66), named in one sentence; /dev/null is an empty configuration")
    func missingConfigFile() throws {
        let folder = try TemporaryFolder()
        let run = try ExecutableTests.run(["--sample", "--config", "no-such.toml"], in: folder.url)
        #expect(run.status == 66)
        #expect(run.stderr == "cryptoreport: Config: cannot read no-such.toml: no such file.\n", "\(run.stderr)")
        let folderGiven = try ExecutableTests.run(["--sample", "--config", ".", "--output", "o"], in: folder.url)
        #expect(folderGiven.status == 66 && folderGiven.stderr == "cryptoreport: Config: cannot read .: it is a folder.\n", "\(folderGiven.stderr)")
        // An empty configuration, from a device or a shell's `<(…)`, is read as one.
        let empty = try ExecutableTests.run(["--sample", "--config", "/dev/null", "--output", "o", "-q"], in: folder.url)
        #expect(empty.status == 0, "\(empty.stderr)")
    }

    @Test("a failed run leaves no empty folder of its own making; an existing folder stays")
    func failedRunLeavesNoFolder() throws {
        let folder = try TemporaryFolder()
        let typo = try ExecutableTests.run(["--sample", "--currency", "XYZ", "--output", "new"], in: folder.url)
        #expect(typo.status == 64 && !FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("new").path), "\(typo.stderr)")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("old"), withIntermediateDirectories: true)
        let again = try ExecutableTests.run(["--sample", "--currency", "XYZ", "--output", "old"], in: folder.url)
        #expect(again.status == 64 && FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("old").path))
    }

    @Test("the pipeline itself removes a folder it made for a run that failed")
    func pipelineLeavesNoFolder() async throws {
        let folder = try TemporaryFolder()
        for (name, exists) in [("new", false), ("old", true)] {
            let target = folder.url.appendingPathComponent(name)
            if exists { try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true) }
            var settings = Settings()
            settings.fetch.tickers = .at(folder.url.appendingPathComponent("missing.json").path)
            settings.fetch.rates = .at(Fixtures.ratesURL.path, .rates)
            settings.output.destination = .directory(target.path)
            settings.output.noHistory = true
            await #expect(throws: FetchError.self) { try await ReportPipeline().run(settings) }
            #expect(FileManager.default.fileExists(atPath: target.path) == exists, "\(name)")
        }
    }
}
