import ArgumentParser
import Foundation
import GRDB
import Testing

@testable import CryptoReport
@testable import cryptoreport

/// The built `cryptoreport` binary, run as cron or a person would run it.
@Suite("The cryptoreport executable end to end", .serialized)
struct ExecutableTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `swift build --build-tests` puts the executable beside the test bundle.
    static var binary: URL {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("cryptoreport")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return Fixtures.repositoryRoot.appendingPathComponent(".build/debug/cryptoreport")
    }

    /// Runs the binary with its cache inside `directory`, never the user's.
    static func run(
        _ arguments: [String], in directory: URL, environment extra: [String: String] = [:], executable: URL? = nil,
        standardOutput: FileHandle? = nil, standardError: FileHandle? = nil
    ) throws -> Run {
        let process = Process()
        process.executableURL = executable ?? binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = directory.appendingPathComponent("cache").path
        // No user's configuration file leaks into a test.
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        // Times for people follow the machine's zone (--timezone); the expected texts are in UTC.
        environment["TZ"] = "UTC"
        environment.merge(extra) { _, new in new }
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = standardOutput ?? out
        process.standardError = standardError ?? err
        try process.run()
        // Read both before waiting, and at once: a large report on one pipe, or thousands of
        // alert lines on the other, cannot fill it and stall the child.
        let errorReader = PipeReader(err.fileHandleForReading)
        if standardOutput != nil { try out.fileHandleForWriting.close() }
        if standardError != nil { try err.fileHandleForWriting.close() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = errorReader.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    @Test("the binary exists")
    func exists() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.binary.path), "build it with swift build")
    }

    /// docs/sharing.md: a report's name says its day and currency, not its filters; a second run
    /// of the day into the same folder replaces the first, and says so.
    @Test("a second report of the same day and currency into one folder says it replaced the first")
    func replacedSameDay() throws {
        let folder = try TemporaryFolder()
        let first = try Self.run(["--sample", "--format", "csv,json", "--output", "out", "--no-history"], in: folder.url)
        #expect(first.status == 0 && first.stderr == "", "\(first.stderr)")
        let second = try Self.run(["--sample", "--format", "csv", "--output", "out", "--no-history", "--top", "3"], in: folder.url)
        #expect(second.status == 0)
        #expect(
            second.stderr
                == "cryptoreport: warning: Output: replaced cryptoreport-2022-11-22-USD.csv in \(folder.url.appendingPathComponent("out").path), which an earlier run wrote "
                + "for the same day and currency; give a run with other filters its own --output to keep both.\n", "\(second.stderr)")
        let quiet = try Self.run(["--sample", "--format", "csv", "--output", "out", "--no-history", "--quiet"], in: folder.url)
        #expect(quiet.status == 0 && quiet.stderr == "", "\(quiet.stderr)")
    }

    /// docs/options.md: `--locale` takes `$LANG`'s spelling, but `$LANG` itself is not read, so a
    /// cron job's reports do not change with the machine's language.
    @Test("$LANG does not change a report's locale; --locale takes its spelling")
    func localeFromLang() throws {
        let folder = try TemporaryFolder()
        func locale(_ arguments: [String]) throws -> String? {
            let run = try Self.run(
                ["--sample", "--format", "json", "--output", "-", "--top", "1"] + arguments, in: folder.url,
                environment: ["LANG": "sv_SE.UTF-8", "LC_ALL": "sv_SE.UTF-8"])
            #expect(run.status == 0, "\(run.stderr)")
            let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
            return (json?["report"] as? [String: Any])?["locale"] as? String
        }
        #expect(try locale([]) == "en_US")
        #expect(try locale(["--locale", "sv_SE.UTF-8"]) == "sv_SE")
    }

    @Test("--sample from another directory: every format, only the paths on stdout")
    func sample() throws {
        let folder = try TemporaryFolder()
        let run = try Self.run(["--sample", "--currency", "SEK", "--format", "all", "--output", "reports"], in: folder.url)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let names = ["csv", "md", "html", "json"].map { "reports/cryptoreport-2022-11-22-SEK.\($0)" }
        #expect(run.stdout == names.joined(separator: "\n") + "\n")
        #expect(folder.contents("reports") == names.map { String($0.dropFirst("reports/".count)) }.sorted())
    }

    /// A group's shared folder: every file was 0644 whatever the umask, so a second user of the
    /// group could not take the lock, replace a report or record the day.
    @Test(
        "files the run makes follow the umask: 002 makes them group-writable, 022 and 077 do not", arguments: [(0o002, 0o664), (0o022, 0o644), (0o077, 0o600)])
    func umask(mask: Int, mode: Int) throws {
        let folder = try TemporaryFolder()
        let arguments = ["--sample", "--no-config", "--format", "csv,html", "--output", "shared", "--history", "shared/history.sqlite", "--quiet"]
        let run = try Self.run(
            ["-c", "umask \(String(mask, radix: 8)); exec \"$0\" \"$@\"", Self.binary.path] + arguments, in: folder.url,
            executable: URL(fileURLWithPath: "/bin/sh"))
        #expect(run.status == 0 && run.stderr == "")
        let names = [
            "cryptoreport-2022-11-22-USD.csv", "cryptoreport-2022-11-22-USD.html", "cryptoreport-latest-USD.csv", "index.html", ".cryptoreport.lock",
            "history.sqlite",
        ]
        for name in names {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent("shared/" + name).path)
            #expect((attributes[.posixPermissions] as? Int) == mode, "\(name) with umask \(String(mask, radix: 8))")
        }
    }

    /// Issue 32's first row: a group member plants a journal whose names go through a link to the
    /// owner's home. Neither `history` nor the next report follows it; the report stops (73) and
    /// leaves the journal for a person.
    @Test("a journal planted in a shared folder is never carried out by history or by a report")
    func plantedJournal() throws {
        let folder = try TemporaryFolder()
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("private".utf8).write(to: home.appendingPathComponent("victim"))
        let recorded = try Self.run(
            ["--sample", "--no-config", "--format", "csv", "--output", "shared", "--history", "shared/history.sqlite", "--quiet"], in: folder.url)
        #expect(recorded.status == 0)
        let shared = folder.url.appendingPathComponent("shared")
        #expect(symlink(home.path, shared.appendingPathComponent("d").path) == 0)
        try Data("member's".utf8).write(to: shared.appendingPathComponent("evil.txt"))
        // A journal as the tool writes one (its version too): refused for its names, not for its form.
        let journal = #"{"version":1,"replacements":[{"name":"d/planted","staged":"evil.txt"}],"removals":[{"name":"d/victim","aside":"x.gone"}]}"#
        try Data(journal.utf8).write(to: shared.appendingPathComponent(".cryptoreport-journal"))

        let history = try Self.run(["history", "--symbol", "btc", "--days", "3650", "--history", "shared/history.sqlite", "--no-config"], in: folder.url)
        #expect(history.status == 0, "\(history.stderr)")
        let report = try Self.run(
            ["--sample", "--no-config", "--format", "csv", "--output", "shared", "--history", "shared/history.sqlite", "--quiet"], in: folder.url)
        #expect(report.status == 73)
        #expect(report.stderr.contains("not one this tool wrote"), "\(report.stderr)")
        #expect(try String(contentsOf: home.appendingPathComponent("victim"), encoding: .utf8) == "private")
        #expect(try FileManager.default.contentsOfDirectory(atPath: home.path) == ["victim"])
        #expect(FileManager.default.fileExists(atPath: shared.appendingPathComponent(".cryptoreport-journal").path))
    }

    /// Issue 32: an escape sequence and a newline stored in `market_name.symbol` were printed by `history`.
    @Test("names read back from a shared history are checked as the feed's are: an escape sequence never reaches the terminal")
    func hostileStoredName() throws {
        let folder = try TemporaryFolder()
        let recorded = try Self.run(["--sample", "--no-config", "--format", "csv", "--output", "o", "--history", "o/h.sqlite", "--quiet"], in: folder.url)
        #expect(recorded.status == 0)
        let queue = try DatabaseQueue(path: folder.url.appendingPathComponent("o/h.sqlite").path)
        try queue.write { db in
            try db.execute(sql: "UPDATE market_name SET symbol = ? WHERE symbol = 'ethusdt'", arguments: ["eth\u{1B}[31m\nusdt"])
        }
        try queue.close()
        for format in ["csv", "markdown", "json"] {
            let history = try Self.run(
                ["history", "--symbol", "eth", "--days", "3650", "--history", "o/h.sqlite", "--no-config", "--format", format], in: folder.url)
            #expect(history.status == 0, "\(history.stderr)")
            #expect(!history.stdout.contains("\u{1B}") && !history.stderr.contains("\u{1B}"), "\(format)")
            #expect(history.stdout.contains("ethinr"), "\(format): the asset's other markets are read as before")
        }
    }

    /// Issue 32: a FIFO as --tickers-url or --ecb-url hung past --timeout and --deadline while
    /// the run held the folder's lock; as --config, for ever.
    @Test("a FIFO, device or socket as a feed is refused at once (66); a configuration FIFO no one writes to ends in time")
    func notRegularFiles() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("f").path
        #expect(mkfifo(fifo, 0o600) == 0)
        for arguments in [["--tickers-url", "f", "--ecb-url", Fixtures.ratesURL.path], ["--tickers-url", Fixtures.tickersURL.path, "--ecb-url", "/dev/zero"]] {
            let started = Date()
            let run = try Self.run(arguments + ["--no-config", "--output", "o", "--no-history", "--timeout", "3", "--deadline", "10"], in: folder.url)
            #expect(run.status == 66, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("it is not a regular file (a FIFO, device or socket)"), "\(run.stderr)")
            #expect(Date().timeIntervalSince(started) < 3)
        }
        #expect {
            try ConfigFileReader().read(path: fifo, pipeTimeLimit: 300)
        } throws: { error in
            (error as? SettingsError)?.errorDescription?.contains("nothing came from it within 0.3 s (a FIFO no program writes to?)") == true
        }
        // A device as the configuration: one that never ends is bounded in size; /dev/null is empty.
        #expect {
            try ConfigFileReader().read(path: "/dev/zero", pipeTimeLimit: 5000)
        } throws: { error in
            (error as? SettingsError)?.errorDescription?.contains("it is larger than 1 MB") == true
        }
        #expect(throws: Never.self) { try ConfigFileReader().read(path: "/dev/null") }
        // A template that is a FIFO is refused before any fetch (66, as an unreadable one), not waited on.
        let templates = folder.url.appendingPathComponent("t")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        #expect(mkfifo(templates.appendingPathComponent("report.md.mustache").path, 0o600) == 0)
        let templated = try Self.run(["--sample", "--no-config", "--format", "markdown", "--output", "o2", "--no-history", "--templates", "t"], in: folder.url)
        #expect(templated.status == 66 && templated.stderr.contains("not a regular file (a FIFO, a device or a folder)"), "\(templated.stderr)")
    }

    @Test("--sample with sources set in the environment or the file: one warning that the sample is WazirX's, exit 0; --source with it stays a usage error")
    func sampleSetsSourcesAside() throws {
        let folder = try TemporaryFolder()
        let warning = "cryptoreport: warning: --sample reads the built-in snapshot, which is WazirX's; the sources setting (binance,wazirx) is not used.\n"
        let fromEnvironment = try Self.run(
            ["--sample", "--currency", "SEK,USD", "--format", "html", "--output", "env", "--no-config"], in: folder.url,
            environment: ["CRYPTOREPORT_SOURCES": "binance,wazirx"])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.stderr)")
        #expect(fromEnvironment.stderr == warning, "once, for both currencies: \(fromEnvironment.stderr)")
        let config = folder.url.appendingPathComponent("config.toml")
        try Data("sources = [\"binance-us\"]\n".utf8).write(to: config)
        let fromFile = try Self.run(["--sample", "--format", "csv", "--output", "file", "--config", config.path], in: folder.url)
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(fromFile.stderr.contains("the sources setting (binance-us) is not used."), "\(fromFile.stderr)")
        // WazirX alone is what the sample is: nothing set aside, nothing said.
        let wazirx = try Self.run(
            ["--sample", "--format", "csv", "--output", "wazirx", "--no-config"], in: folder.url, environment: ["CRYPTOREPORT_SOURCES": "wazirx"])
        #expect(wazirx.status == 0 && wazirx.stderr.isEmpty, "\(wazirx.stderr)")
        // Contradicting flags on one command line are a usage error, as --sample with --tickers-url is.
        let flag = try Self.run(["--sample", "--source", "binance", "--output", "flag", "--no-config"], in: folder.url)
        #expect(flag.status == 64, "\(flag.stderr)")
    }

    @Test("--history :memory: is SQLite's memory, no file of that name")
    func memoryHistory() throws {
        let folder = try TemporaryFolder()
        let run = try Self.run(["--sample", "--no-config", "--format", "csv", "--output", "out", "--history", ":memory:", "--quiet"], in: folder.url)
        #expect(run.status == 0 && run.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(":memory:").path))
    }

    /// A cron job's misspelt rule under `--quiet` was said nowhere, and never fired.
    @Test("an alert rule that cannot be checked is among the reports' warnings, as on standard error, even with --quiet")
    func alertNotesInReports() throws {
        let folder = try TemporaryFolder()
        let arguments = [
            "--sample", "--no-config", "--currency", "SEK", "--format", "json,markdown,html", "--output", "out", "--alert", "btc above 60000 EURO", "--alert",
            "dogz move 5 %",
        ]
        let note = "alert \"btc above 60000 EURO\": the ECB rates of 2022-11-21 have no EURO"
        let quiet = try Self.run(arguments + ["--quiet"], in: folder.url)
        #expect(quiet.status == 0 && quiet.stderr == "")
        let said = try Self.run(arguments, in: folder.url)
        #expect(said.stderr.contains("cryptoreport: warning: \(note)\n"))
        let json =
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent("out/cryptoreport-2022-11-22-SEK.json")))
            as? [String: Any]
        #expect(json?["warnings"] as? [String] == [note, "alert \"dogz move 5 %\": no market for dogz"])
        let markdown = try String(contentsOf: folder.url.appendingPathComponent("out/cryptoreport-2022-11-22-SEK.md"), encoding: .utf8)
        #expect(markdown.contains("- \(note)\n"))
        let page = try String(contentsOf: folder.url.appendingPathComponent("out/cryptoreport-2022-11-22-SEK.html"), encoding: .utf8)
        #expect(page.contains("<li>alert &quot;btc above 60000 EURO&quot;: the ECB rates of 2022-11-21 have no EURO</li>"))
    }

    /// docs/options.md: "log each step to standard error"; it logged only the fetch.
    @Test("--verbose logs each step: the read, the trends, the alerts, the files and the history, with times")
    func verboseSteps() throws {
        let folder = try TemporaryFolder()
        let run = try Self.run(
            [
                "--sample", "--no-config", "-v", "--currency", "SEK,USD", "--format", "csv,html", "--output", "out", "--history", "h.sqlite",
                "--alert", "btc above 1 SEK",
            ], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        let steps = run.stderr.split(separator: "\n").filter { $0.hasPrefix("cryptoreport: debug: ") }
        let expected = [
            "fetching built-in sample",
            "450 tickers read (0 skipped), ECB rates of 2022-11-21; 450 markets converted to SEK and USD, 267 in the table (",
            "history h.sqlite: earlier days for 0 of 267 markets (",
            "1 alert rule checked, 1 fired (",
            "12 files written in ",
            "the day recorded in h.sqlite (",
        ]
        #expect(steps.count == expected.count, "\(steps)")
        for (line, start) in zip(steps, expected) { #expect(line.dropFirst(21).hasPrefix(start), "\(line)") }
        #expect(steps.dropFirst().allSatisfy { $0.hasSuffix(" ms)") }, "\(steps)")
        #expect(
            steps.contains { $0.hasSuffix("/out: 5 of this run's, 7 latest copies, index and record of reports (" + ($0.split(separator: "(").last ?? "")) },
            "\(steps)")
        let quiet = try Self.run(["--sample", "--no-config", "--output", "-", "--format", "csv", "--no-history"], in: folder.url)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "no steps without -v: \(quiet.stderr)")
    }

    /// Foundation took neither glibc's `:Europe/Stockholm` nor a misspelt zone, and gave UTC
    /// without a word; `$LANG`'s spelling of a locale was refused.
    @Test("TZ as cron and glibc write it: a colon taken, a misspelt zone said; a locale as $LANG writes it")
    func machineZoneAndLocale() throws {
        let folder = try TemporaryFolder()
        let arguments = ["--sample", "--no-config", "--format", "md", "--output", "-", "--top", "1", "--no-history"]
        let colon = try Self.run(arguments, in: folder.url, environment: ["TZ": ":Europe/Stockholm"])
        #expect(colon.status == 0 && colon.stderr.isEmpty && colon.stdout.contains("2022-11-22 01:51 GMT+1"), "\(colon.stderr)\(colon.stdout.prefix(300))")
        let typo = try Self.run(arguments, in: folder.url, environment: ["TZ": "Europe/Stokholm"])
        #expect(typo.status == 0 && typo.stdout.contains("2022-11-22 00:51 UTC"))
        // This machine's zone is UTC: what the warning names and the report uses.
        let machine = TimeZone.current.identifier
        #expect(
            typo.stderr
                == "cryptoreport: warning: TZ=Europe/Stokholm names no time zone (such as Europe/Stockholm); times are in the machine's, \(machine). --timezone sets one for the reports.\n"
        )
        // A zone file's path, as containers set it.
        let path = try Self.run(arguments, in: folder.url, environment: ["TZ": ":/usr/share/zoneinfo/Europe/Stockholm"])
        #expect(path.status == 0 && path.stderr.isEmpty && path.stdout.contains("2022-11-22 01:51 GMT+1"), "\(path.stderr)")
        let local = try Self.run(arguments, in: folder.url, environment: ["TZ": ":/etc/localtime"])
        #expect(local.status == 0 && local.stderr.isEmpty, "\(local.stderr)")
        let chosen = try Self.run(arguments + ["--timezone", "America/New_York"], in: folder.url, environment: ["TZ": "Europe/Stokholm"])
        #expect(chosen.status == 0 && chosen.stderr.isEmpty, "--timezone wins, and TZ is not read: \(chosen.stderr)")
        let lang = try Self.run(arguments + ["--locale", "sv_SE.UTF-8"], in: folder.url)
        #expect(lang.status == 0 && lang.stdout.contains("US$"), "\(lang.stderr)")
        #expect(ReportLocale("de_DE@euro")?.identifier == "de_DE" && ReportLocale("en-US.utf8")?.identifier == "en_US")
    }

    @Test("--quiet prints nothing; --output - prints the one report")
    func quietAndStdout() throws {
        let folder = try TemporaryFolder()
        let quiet = try Self.run(["--sample", "--quiet", "--output", "q"], in: folder.url)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
        let csv = try Self.run(["--sample", "--format", "csv", "--output", "-", "--top", "3"], in: folder.url)
        #expect(csv.status == 0)
        #expect(csv.stdout.hasPrefix("symbol,base_asset,quote_asset,currency,price,"))
        #expect(csv.stdout.components(separatedBy: "\r\n").count == 5)
        #expect(folder.contents() == ["q"])
    }

    @Test(
        "a result that cannot be written to standard output (a full disk) is exit 73 and one sentence, not a crash, and records no day; a full standard error changes no exit status"
    )
    func fullStandardOutput() throws {
        let folder = try TemporaryFolder()
        let sources = ["--tickers-url", Fixtures.tickersURL.path, "--ecb-url", Fixtures.ratesURL.path]
        #expect(try Self.run(sources + ["--quiet", "--output", "o"], in: folder.url).status == 0)
        let full = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        defer { try? full.close() }
        let expected = "cryptoreport: Output: cannot write standard output: No space left on device.\n"
        let history = try Self.run(["history", "--symbol", "btc", "--days", "3650", "--history", "o/history.sqlite"], in: folder.url, standardOutput: full)
        #expect(history.status == 73 && history.stderr == expected, "\(history.status) \(history.stderr)")
        let report = try Self.run(["--sample", "--format", "csv", "--output", "-", "--no-history"], in: folder.url, standardOutput: full)
        #expect(report.status == 73 && report.stderr == expected, "\(report.status) \(report.stderr)")
        // A reader that went away (`| head`): the same exit and sentence, not a silent SIGPIPE (141).
        // Started with SIGPIPE's default action, whatever the test runner ignores.
        for arguments in [["--sample", "--format", "csv", "--output", "-", "--no-history"], ["--sample", "--output", "piped", "--no-history"]] {
            let gone = Pipe()
            try gone.fileHandleForReading.close()
            let piped = try Self.run(
                ["-c", "import os, signal, sys; signal.signal(signal.SIGPIPE, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])", Self.binary.path]
                    + arguments, in: folder.url, executable: URL(fileURLWithPath: "/usr/bin/python3"), standardOutput: gone.fileHandleForWriting)
            #expect(
                piped.status == 73 && piped.stderr == "cryptoreport: Output: cannot write standard output: Broken pipe.\n", "\(piped.status) \(piped.stderr)")
        }
        // A report standard output did not take is not recorded as the day's.
        let recorded = try Self.run(sources + ["--format", "csv", "--output", "-", "--history", "printed.sqlite"], in: folder.url, standardOutput: full)
        #expect(recorded.status == 73 && recorded.stderr == expected, "\(recorded.status) \(recorded.stderr)")
        let printed = folder.url.appendingPathComponent("printed.sqlite").path
        #expect(try HistoryStore(path: printed).runs(in: Date(timeIntervalSince1970: 0)...Date()).isEmpty)
        #expect(try Self.run(sources + ["--format", "csv", "--output", "-", "--history", "printed.sqlite"], in: folder.url).status == 0)
        #expect(try HistoryStore(path: printed).runs(in: Date(timeIntervalSince1970: 0)...Date()).count == 1)
        // The reports' paths, lost on a full standard output, fail the run once the reports are written.
        let paths = try Self.run(["--sample", "--output", "p", "--no-history"], in: folder.url, standardOutput: full)
        #expect(paths.status == 73 && paths.stderr == expected, "\(paths.status) \(paths.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("p/cryptoreport-2022-11-22-USD.csv").path))
        // Standard streams closed by the caller: the next files opened would take their numbers
        // (the signals' pipe did, and read the messages as signals); each run ends with its own status.
        for (arguments, status) in [(["--bogus"], Int32(64)), (["--tickers-url", "/nonexistent/tickers.json"], 66), (["--sample", "--output", "c"], 0)] {
            let closed = try Self.run(
                ["-c", "exec \"$0\" \"$@\" <&- >&- 2>&-", Self.binary.path] + arguments, in: folder.url, executable: URL(fileURLWithPath: "/bin/sh"))
            #expect(closed.status == status, "\(arguments): \(closed.status)")
        }
        // An error with nowhere to say it still ends with its own status.
        let unsaid = try Self.run(["--tickers-url", "/nonexistent/tickers.json"], in: folder.url, standardError: full)
        #expect(unsaid.status == 66, "\(unsaid.status)")
    }

    @Test(
        "failures: one line on stderr, a documented exit code, no file",
        arguments: [
            (["--format", "pdf"], Int32(64), "pdf"),
            (["--currency", "XAU"], 64, "have no XAU"),
            (["--currency", "dollars"], 64, "--currency"),
            (["--locale", "xx_QQ"], 64, "--locale"),
            (["--output", "-"], 64, "exactly one format"),
            (["--top", "-1"], 64, "'-1' is invalid for '--top <top>': expected a positive whole number"),
            (["--timeout", "-1"], 64, "'-1' is invalid for '--timeout <seconds>': expected a positive number of seconds, up to 86400"),
            (["--retries", "-2"], 64, "'-2' is invalid for '--retries <retries>': expected a whole number from 0 to 10"),
            (
                ["--output", ""], 64,
                "'' is invalid for '--output <dir>': expected a folder, in which ~ and $HOME are the only variables, or - for standard output"
            ),
            (["--format", "pdf"], 64, "'pdf' is invalid for '--format <format>': expected csv, markdown, html, json, ledger, beancount or all"),
            (["--format", "csv,pdf"], 64, "\"pdf\" is not valid; expected csv, markdown, html, json, ledger, beancount or all"),
            (
                ["--history", "h.sqlite", "--no-history"], 64,
                "--history names a database and --no-history records none; give one of them (see cryptoreport --help)"
            ),
            (["-q", "-v"], 64, "--quiet prints nothing on success and --verbose logs every step; give one of them (see cryptoreport --help)"),
            (
                ["--max-age", "-1d"], 64,
                "'-1d' is invalid for '--max-age <max-age>': expected a duration with its unit (s, m, h or d) like 24h or 5d, optionally as tickers=… or rates=…"
            ),
            // A bare number was seconds: "3", meant as days, failed every run as stale rates (65).
            // swift-argument-parser took the last: a USD report, not both.
            (
                ["--currency", "SEK", "--currency", "USD"], 64,
                "cryptoreport: --currency is given twice; give it once (two currencies: --currency SEK,USD) (see cryptoreport --help)"
            ),
            (["--symbols", "btc", "--symbols=eth"], 64, "--symbols is given twice; give it once (several: separated by commas, like btc,eth)"),
            (["--max-age", "3"], 64, "'3' is invalid for '--max-age <max-age>': expected a duration with its unit (s, m, h or d)"),
            (["--max-age", "rates=7"], 64, "'rates=7' is invalid for '--max-age <max-age>': expected a duration with its unit"),
            (["--deadline", "1e16"], 64, "'1e16' is invalid for '--deadline <seconds>': expected a positive number of seconds, up to 86400"),
            (["--symbols", "nosuchcoin,btc2"], 64, "--symbols: WazirX lists no market or base asset named \"nosuchcoin\", \"btc2\"."),
            (["--tickers-url", "/nonexistent/tickers.json"], 66, "WazirX tickers: no such file /nonexistent/tickers.json."),
            (["--tickers-url", "RATES"], 65, "WazirX tickers: not a JSON array of tickers (got XML or other markup)."),
            (["--ecb-url", "TICKERS"], 65, "ECB rates: not the ECB eurofxref XML"),
            // A local file is said to be large or empty as a file, not as what a server sent.
            (["--tickers-url", "TICKERS", "--max-bytes", "1000"], 65, "WazirX tickers: TICKERS is larger than 1000 bytes (--max-bytes); refusing it."),
            (["--tickers-url", "EMPTY"], 65, "WazirX tickers: empty (no data, or only white space)."),
            (["--ecb-url", "ZERO"], 65, "ECB rates: the rate of 2022-11-21 for INR is \"0\", not a positive number."),
            (["--tickers-url", "http://127.0.0.1:9/tickers", "--retries", "0"], 69, "WazirX tickers: cannot reach http://127.0.0.1:9/tickers"),
            (
                ["--tickers-url", "ftp://example.com/x"], 64,
                "'ftp://example.com/x' is invalid for '--tickers-url <url>': expected an http(s) URL, a file:// URL or a path"
            ),
            // A host is no part of a path: this was read as /t.json.
            (
                ["--tickers-url", "file://saved/t.json"], 64,
                "'file://saved/t.json' is invalid for '--tickers-url <url>': expected an http(s) URL, a file:// URL or a path"
            ),
        ])
    func failures(arguments: [String], status: Int32, message: String) throws {
        let folder = try TemporaryFolder()
        let tickers = Fixtures.tickersURL.path
        let rates = Fixtures.ratesURL.path
        let zero = folder.url.appendingPathComponent("zero.xml")
        try Fixtures.ecbXML(rates: [("USD", "1.0246"), ("INR", "0")]).write(to: zero)
        let empty = folder.url.appendingPathComponent("empty.json")
        try Data(" \n".utf8).write(to: empty)
        var resolved = arguments.map { $0 == "RATES" ? rates : $0 == "TICKERS" ? tickers : $0 == "ZERO" ? zero.path : $0 == "EMPTY" ? empty.path : $0 }
        if !resolved.contains("--tickers-url") { resolved += ["--tickers-url", tickers] }
        if !resolved.contains("--ecb-url") { resolved += ["--ecb-url", rates] }
        // Each option once: given twice is a usage error of its own.
        if !resolved.contains("--output") { resolved += ["--output", "out"] }
        if !resolved.contains("--timeout") { resolved += ["--timeout", "5"] }
        let run = try Self.run(resolved, in: folder.url)
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(message.replacingOccurrences(of: "TICKERS", with: tickers)), "\(run.stderr)")
        #expect(!run.stderr.contains("Error Domain") && !run.stderr.contains("Optional("))
        #expect(folder.contents("out").isEmpty)
    }

    @Test("messages stay one line: a value's control and direction characters are shown as escapes, a parser's line breaks as spaces")
    func oneLineMessages() throws {
        let folder = try TemporaryFolder()
        let cases: [(arguments: [String], environment: [String: String], message: String)] = [
            (["--sample"], ["CRYPTOREPORT_CURRENCY": "SEK\nUSD"], #"cryptoreport: Environment: CRYPTOREPORT_CURRENCY: "SEK\nUSD" is not valid;"#),
            (["--sample", "--symbols", "btc\u{202E}cni"], [:], #"named "btc\u{202E}cni""#),
            (["--generate-completion-script", "nosuch"], [:], "cryptoreport: Can't generate completion scripts for 'nosuch'. Please use"),
        ]
        for (arguments, environment, message) in cases {
            let run = try Self.run(arguments + ["--output", "out"], in: folder.url, environment: environment)
            #expect(run.status == 64, "\(arguments): \(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.hasSuffix("\n"), "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.unicodeScalars.contains { $0 == "\u{202E}" })
        }
    }

    @Test("a history named as a folder is refused: with a slash before any fetch (64), an existing folder as the history's failure (74)")
    func historyFolder() throws {
        let folder = try TemporaryFolder()
        let slash = try Self.run(["--sample", "--history", "dir/", "--output", "out"], in: folder.url)
        #expect(slash.status == 64, "\(slash.stderr)")
        #expect(slash.stderr.contains(#"--history <path>': expected a file path such as history.sqlite"#), "\(slash.stderr)")
        #expect(folder.contents().isEmpty, "no file named dir, no reports")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("dir"), withIntermediateDirectories: false)
        let existing = try Self.run(["--sample", "--history", "dir", "--output", "out", "-q"], in: folder.url)
        #expect(existing.status == 74, "\(existing.stderr)")
        #expect(
            existing.stderr
                == "cryptoreport: History: dir: it is a folder; name a file in it, such as dir/history.sqlite; the reports were written, but this run is not in the history.\n",
            "\(existing.stderr)")
        #expect(folder.contents("dir").isEmpty)
    }

    @Test("a failed run leaves the previous report untouched")
    func failureKeepsPreviousReport() throws {
        let folder = try TemporaryFolder()
        let first = try Self.run(["--sample", "--format", "csv", "--output", "out"], in: folder.url)
        #expect(first.status == 0)
        let path = folder.url.appendingPathComponent("out/cryptoreport-2022-11-22-USD.csv")
        let before = try Data(contentsOf: path)
        let failed = try Self.run(
            ["--tickers-url", "/nonexistent", "--ecb-url", Fixtures.ratesURL.path, "--format", "csv", "--output", "out"],
            in: folder.url)
        #expect(failed.status == 66)
        #expect(try Data(contentsOf: path) == before)
        #expect(folder.contents("out") == [path.lastPathComponent])
    }

    @Test("an output folder that cannot be created is exit 73, before any fetch")
    func unwritableOutput() throws {
        let folder = try TemporaryFolder()
        let blocker = folder.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let run = try Self.run(["--sample", "--output", "file/reports"], in: folder.url)
        #expect(run.status == 73)
        #expect(run.stderr.hasPrefix("cryptoreport: Output: cannot create the folder"))
        #expect(run.stderr.hasSuffix("/file is a file, not a folder.\n"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("warnings go to stderr, paths to stdout")
    func warningsOnStderr() throws {
        let folder = try TemporaryFolder()
        let tickers = folder.url.appendingPathComponent("t.json")
        try Fixtures.tickerJSON([
            Fixtures.ticker("btcusdt", base: "btc", quote: "usdt", last: "16000"),
            Fixtures.ticker("badusdt", base: "bad", quote: "usdt", last: "0"),
        ]).write(to: tickers)
        let run = try Self.run(
            ["--tickers-url", tickers.path, "--ecb-url", Fixtures.ratesURL.path, "--format", "json", "--output", "o"], in: folder.url)
        #expect(run.status == 0)
        #expect(run.stdout == "o/cryptoreport-2022-11-22-USD.json\n")
        #expect(run.stderr == "cryptoreport: warning: WazirX tickers: skipped ticker #2 (badusdt): lastPrice \"0\" is not a positive number\n")
    }

    /// The flag of each settings key, as `--help` spells it.
    static func flag(_ key: String) -> String {
        ["formats": "--format", "alerts": "--alert", "sources": "--source", "source_urls": "--source-url", "holdings": "--holding"][key]
            ?? "--" + key.replacingOccurrences(of: "_", with: "-")
    }

    @Test("--help, help report, --version and the completion scripts carry the report's options")
    func explainsItself() throws {
        let folder = try TemporaryFolder()
        for arguments in [["--help"], ["help", "report"], ["--currency", "SEK", "-h"]] {
            let help = try Self.run(arguments, in: folder.url)
            #expect(help.status == 0, "\(arguments)")
            for key in SettingsLayer.keys {
                #expect(help.stdout.contains(Self.flag(key.name)), "\(arguments): \(Self.flag(key.name)) missing")
            }
            #expect(help.stdout.contains("--config") && help.stdout.contains("Exit codes"), "\(arguments)")
        }
        #expect(try Self.run(["--help"], in: folder.url).stdout.contains("history"))
        // A usage error points at the help that explains it.
        let historyError = try Self.run(["history", "--days", "10000"], in: folder.url)
        #expect(historyError.status == 64 && historyError.stderr.hasSuffix("(see cryptoreport help history)\n"), "\(historyError.stderr)")
        // Both ways of choosing the file at once: refused, the sentence ending at the help pointer.
        let configs = try Self.run(["--config", "/no/such.toml", "--no-config", "--sample"], in: folder.url)
        #expect(configs.status == 64 && configs.stderr.contains("--no-config ignores it"), "\(configs.stderr)")
        #expect(configs.stderr.hasSuffix("give one of them (see cryptoreport --help)\n"), "\(configs.stderr)")
        let reportError = try Self.run(["--top", "x"], in: folder.url)
        #expect(reportError.status == 64 && reportError.stderr.hasSuffix("(see cryptoreport --help)\n"), "\(reportError.stderr)")
        #expect(CryptoReportCommand.configuration.subcommands.map { $0._commandName } == CryptoReportCommand.subcommandNames)
        let wrongHelp = try Self.run(["help", "nosuch"], in: folder.url)
        #expect(wrongHelp.status == 64 && wrongHelp.stdout.isEmpty, "\(wrongHelp.stdout)")
        #expect(wrongHelp.stderr == "cryptoreport: help: there is no subcommand \"nosuch\"; there are report, history, backfill (see cryptoreport --help)\n")
        // A mistyped subcommand is named as such, not blamed on the options that follow it.
        let typo = try Self.run(["hisory", "--symbol", "btc"], in: folder.url)
        #expect(typo.status == 64 && typo.stdout.isEmpty)
        #expect(
            typo.stderr
                == "cryptoreport: there is no subcommand \"hisory\" (did you mean \"history\"?); there are report, history, backfill (see cryptoreport --help)\n"
        )
        let typoHelp = try Self.run(["hisory", "--help"], in: folder.url)
        #expect(typoHelp.status == 64 && typoHelp.stdout.isEmpty && typoHelp.stderr.contains("(did you mean \"history\"?)"), "\(typoHelp.stdout)")
        let helpTypo = try Self.run(["help", "bakfill"], in: folder.url)
        #expect(helpTypo.status == 64 && helpTypo.stderr.hasPrefix("cryptoreport: help: there is no subcommand \"bakfill\" (did you mean \"backfill\"?);"))
        let unknown = try Self.run(["xyz"], in: folder.url)
        #expect(
            unknown.status == 64
                && unknown.stderr == "cryptoreport: there is no subcommand \"xyz\"; there are report, history, backfill (see cryptoreport --help)\n")
        #expect(try Self.run(["help", "history"], in: folder.url).stdout.contains("--days"))
        let version = try Self.run(["--version"], in: folder.url)
        #expect(version.status == 0 && version.stdout.hasPrefix("0."), "\(version.stdout)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try Self.run(["--generate-completion-script", shell], in: folder.url)
            #expect(script.status == 0, "\(shell)")
            for option in ["currency", "format", "markets", "sort", "symbols", "tickers-url"] {
                let spelling = shell == "fish" ? "-l '\(option)'" : "--\(option)"
                #expect(script.stdout.contains(spelling), "\(shell) completion lacks \(spelling)")
            }
            for word in ["markdown", "primary", "spread", "history", "backfill"] {
                #expect(script.stdout.contains(word), "\(shell) completion lacks \(word)")
            }
        }
        // A top-level option whose values the binary completes (the sample's assets).
        let assets = try Self.run(["---completion", "--", "--symbols", "2", "2", "cryptoreport", "--symbols", "bt"], in: folder.url)
        #expect(assets.status == 0, "\(assets.stderr)")
        #expect(assets.stdout.split(separator: "\n").contains("btc"), "\(assets.stdout)")
        // Lists complete after a comma too: the items before it stay in the word the shell matches.
        let secondFormat = try Self.run(["---completion", "--", "--format", "2", "6", "cryptoreport", "--format", "csv,ht"], in: folder.url)
        #expect(secondFormat.stdout == "csv,html\n", "\(secondFormat.stdout)")
        let secondCurrency = try Self.run(["---completion", "--", "--currency", "2", "5", "cryptoreport", "--currency", "SEK,U"], in: folder.url)
        #expect(secondCurrency.stdout == "SEK,USD\n", "\(secondCurrency.stdout)")
        let secondAsset = try Self.run(["---completion", "--", "--symbols", "2", "6", "cryptoreport", "--symbols", "btc,et"], in: folder.url)
        #expect(secondAsset.stdout.split(separator: "\n").contains("btc,eth"), "\(secondAsset.stdout)")
        // `--format`'s values depend on the subcommand: `history` writes no HTML or ledger.
        let reportFormats = try Self.run(["---completion", "--", "--format", "2", "0", "cryptoreport", "--format", ""], in: folder.url)
        #expect(Set(reportFormats.stdout.split(separator: "\n")).isSuperset(of: ["html", "ledger", "csv"]), "\(reportFormats.stdout)")
        let historyFormats = try Self.run(
            ["---completion", "--", "--format", "3", "0", "cryptoreport", "history", "--format", ""], in: folder.url)
        #expect(historyFormats.stdout.split(separator: "\n") == ["csv", "markdown", "md", "json"], "\(historyFormats.stdout)")
        // `history --source` completes the exchanges, as the report's does.
        let bash = try Self.run(["--generate-completion-script", "bash"], in: folder.url).stdout
        let history = try #require(bash.range(of: "_cryptoreport_history()")).upperBound
        #expect(bash[history...].contains("'--source')\n        __cryptoreport_add_completions -W 'wazirx'$'\\n''binance'$'\\n''binance-us'"))
    }

    @Test("the completion list of currencies is the built-in sample's, with EUR")
    func completionCurrencies() throws {
        let rates = try ECBRatesParser().parseLatest(EmbeddedSample.rates)
        let folder = try TemporaryFolder()
        let offered = try Self.run(["---completion", "--", "--currency", "2", "0", "cryptoreport", "--currency", ""], in: folder.url).stdout
        #expect(Set(offered.split(separator: "\n").map(String.init)) == Set(rates.currencies + ["EUR"]), "\(offered)")
        // `history` takes one currency: its list is in the script itself.
        let script = try Self.run(["--generate-completion-script", "bash"], in: folder.url).stdout
        for currency in rates.currencies + ["EUR"] {
            #expect(script.contains(currency), "\(currency)")
        }
    }
}

/// Reads a pipe to its end on a thread of its own.
final class PipeReader: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
